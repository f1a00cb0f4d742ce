"""One line of notation per action, e.g. ``Ana: +1→+3, Bo's +1→−1``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .balance import check_grouping
from .dice import ARROW, fmt_dice, fmt_die, fmt_group
from .game import IllegalAction, State, apply, grouping_from_action


def _names(state: State, names: Sequence[str] | None) -> list[str]:
    given = list(names or [])
    return [given[i] if i < len(given) and given[i] else state.players[i] for i in range(state.n)]


def _result(after: State, names: Sequence[str]) -> str:
    if not after.over:
        return ""
    who = " and ".join(names[s] for s in after.winners)
    verb = "win" if len(after.winners) > 1 else "wins"
    if after.end_reason == "all_threes":
        return f" · {who} {verb}: all threes"
    if after.end_reason == "rounds":
        return f" · last round played: {who} {verb}"
    return f" · {who} {verb}"


def describe(state_before: State, action: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """The action in the game's notation (one line), with the game's end when it ends it."""
    nm = _names(state_before, names)
    kind = action.get("type") if isinstance(action, Mapping) else None
    p = state_before.pending
    try:
        after: State | None = apply(state_before, action)
    except (IllegalAction, TypeError, KeyError, IndexError):
        after = None
    tail = _result(after, nm) if after is not None else ""
    if kind == "end_on_time":
        return "Time is up" + (tail or "")
    if p is None or after is None:
        return f"(illegal {kind or 'action'})"
    who = nm[p.seat]
    if kind == "roll":
        vals = action["values"]
        if p.purpose == "start":
            text = f"{who} rolls {fmt_dice(vals)}"
        elif p.purpose == "draw":
            text = f"{who} draws {fmt_die(vals[0])}"
        else:
            m = abs(vals[0])
            text = f"{who} takes a pair from the bank: {fmt_group((m, -m))}"
    elif kind == "flip":
        m = p.seat
        v = action["victim"]
        own = state_before.hands[m].dice()[action["own"]]
        other = state_before.hands[v].dice()[action["other"]]
        text = (
            f"{who}: {fmt_die(own)}{ARROW}{fmt_die(action['own_to'])}, "
            f"{nm[v]}'s {fmt_die(other)}{ARROW}{fmt_die(action['other_to'])}"
        )
    elif kind == "group":
        g = check_grouping(
            state_before.hands[p.seat].dice(), grouping_from_action(action, state_before.hands[p.seat].dice())
        )
        groups = "".join(fmt_group(x) for x in g.groups)
        loose = f", loose {fmt_dice(g.loose)}" if g.loose else ""
        text = f"{who} groups {groups or '(nothing)'}{loose}"
    elif kind == "keep":
        groups = state_before.hands[p.seat].groups
        i, j = sorted(action["keep"])
        kept = fmt_group(groups[i]) + fmt_group(groups[j])
        back = "".join(fmt_group(g) for k, g in enumerate(groups) if k not in (i, j))
        text = f"{who} keeps {kept}, returns {back} to the bank"
    else:
        text = f"({kind})"
    return text + tail
