"""One line of notation per action, e.g. ``Ana: +1→+3, Bo's +1→−1``.

:func:`describe_parts` gives the line as structured parts, so that the live
tables can show it in each reader's language: every part is
``{"msg": <English format string>, "args": {...}}``.  Die values, dice and
names are arguments and are never translated; an argument may itself be a
part (``{"msg": ..., "args": ...}``).  The parts of one line are joined with
``" · "``.  :func:`describe` is the English line (the parts rendered without
translation), kept for tests, the admin and the stored event text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from sixdice.gamekit.notation import (
    Part,
    announced,
    gettext_noop,
    moved_by,
    part,
    personal,
    render_parts,
    ruled,
    signed,
)

from .balance import check_grouping
from .dice import fmt_dice, fmt_group
from .game import IllegalAction, State, apply, grouping_from_action


def _names(state: State, names: Sequence[str] | None) -> list[str]:
    given = list(names or [])
    return [given[i] if i < len(given) and given[i] else state.players[i] for i in range(state.n)]


def _who(names: list[str]) -> Any:
    """One name, or ``A and B`` (and so on) as nested parts."""
    who: Any = names[0]
    for other in names[1:]:
        who = part(gettext_noop("%(first)s and %(second)s"), first=who, second=other)
    return who


def _result(after: State, names: Sequence[str]) -> list[Part]:
    if not after.over:
        return []
    winners = [names[s] for s in after.winners]
    who = _who(winners)
    many = len(winners) > 1
    if after.end_reason == "all_threes":
        msg = gettext_noop("%(who)s win: all threes") if many else gettext_noop("%(who)s wins: all threes")
    elif after.end_reason == "rounds":
        msg = (
            gettext_noop("last round played: %(who)s win")
            if many
            else gettext_noop("last round played: %(who)s wins")
        )
    else:
        msg = gettext_noop("%(who)s win") if many else gettext_noop("%(who)s wins")
    return [ruled(part(msg, who=who), "all-threes" if after.end_reason == "all_threes" else "last-round")]


def _added(before: State, action: Mapping[str, Any], seat: int) -> list[int]:
    """``seat``'s dice once ``action`` has changed them, before the app's own steps (grouping, returns)."""
    dice = list(before.hands[seat].dice())
    p = before.pending
    if p is None:
        return dice
    kind = action.get("type")
    values = list(action.get("values") or ())
    if kind == "roll" and seat == p.seat and values:
        if p.purpose == "pair":
            dice += [values[0], -values[0]]
        elif p.purpose == "draw":
            dice += values[:1]
        else:
            dice += values
    elif kind == "flip" and {"own", "own_to", "other", "other_to", "victim"} <= set(action):
        try:
            if seat == p.seat:
                dice[int(action["own"])] = int(action["own_to"])
            if seat == action["victim"]:
                dice[int(action["other"])] = int(action["other_to"])
        except (IndexError, TypeError, ValueError):
            pass
    elif kind == "keep" and seat == p.seat and isinstance(action.get("keep"), (list, tuple)) and len(action["keep"]) == 2:
        held = before.hands[seat].groups
        for k, g in enumerate(held):
            if k not in action["keep"]:
                for v in g:
                    if v in dice:
                        dice.remove(v)
    return dice


def _returned(before: State, after: State, action: Mapping[str, Any]) -> list[tuple[int, list[int]]]:
    """Each seat whose dice went back to the bank with nobody choosing, and those dice."""
    out: list[tuple[int, list[int]]] = []
    if len(before.hands) != len(after.hands):
        return out
    for seat in range(len(before.hands)):
        lost = Counter(_added(before, action, seat)) - Counter(after.hands[seat].dice())
        if lost:
            out.append((seat, sorted(lost.elements(), key=lambda v: (-abs(v), -v))))
    return out


def _regrouped(before: State, after: State, action: Mapping[str, Any]) -> list[int]:
    """Seats whose hand the app regrouped by itself (only one grouping was possible), to say so."""
    p = before.pending
    chooser = p.seat if p is not None and action.get("type") in ("group", "keep") else None
    out = []
    for seat in range(min(len(before.hands), len(after.hands))):
        if seat == chooser or not after.hands[seat].groups:
            continue
        if p is not None and action.get("type") == "roll" and p.purpose == "pair" and seat == p.seat:
            continue  # the pair from the bank is its own line
        was, now = before.hands[seat], after.hands[seat]
        if action.get("type") == "flip" and p is not None:  # the flipped dice change inside their groups
            try:
                if seat == p.seat:
                    was = was.with_die(int(action["own"]), int(action["own_to"]))
                if seat == action.get("victim"):
                    was = was.with_die(int(action["other"]), int(action["other_to"]))
            except (KeyError, IndexError, TypeError, ValueError):
                pass
        if sorted(map(sorted, was.groups)) != sorted(map(sorted, now.groups)) and \
                not (after.pending is not None and after.pending.seat == seat and after.pending.kind in ("group", "keep")):
            out.append(seat)
    return out


def _aftermath(before: State, after: State, action: Mapping[str, Any], nm: list[str]) -> list[Part]:
    """What the app did by itself after the action, in plain words and naming whose dice moved: steps
    skipped (no legal flip, the bank too short), dice that went back to the bank without a choice, and
    who starts the game and why.  Each part carries the anchor of the rule it applies."""
    out: list[Part] = []
    for note in after.skipped:
        step, _, seat_text = note.partition(":")
        if not seat_text.isdigit() or int(seat_text) >= len(nm):
            continue
        who = nm[int(seat_text)]
        seat = int(seat_text)
        if step == "flip":
            out.append(personal(ruled(part(gettext_noop("%(name)s has no possible flip: no flip this turn"), name=who),
                                      "flip"), seat, gettext_noop("You have no possible flip: no flip this turn")))
        elif step == "draw":
            out.append(personal(ruled(part(gettext_noop("The bank is empty: no draw for %(name)s this turn"),
                                           name=who), "bank-short"),
                                seat, gettext_noop("The bank is empty: no draw for you this turn")))
        elif step == "pair":
            out.append(personal(ruled(part(gettext_noop("%(name)s has no group, but the bank holds fewer than 2 dice: "
                                                        "no pair from the bank"), name=who), "bank-short"),
                                seat, gettext_noop("You have no group, but the bank holds fewer than 2 dice: "
                                                   "no pair from the bank")))
        elif step == "start":
            out.append(ruled(part(gettext_noop("The bank is too short: no starting dice for %(name)s"), name=who),
                             "bank-short"))
    returned = dict(_returned(before, after, action))
    for seat, dice in returned.items():
        out.append(personal(ruled(part(gettext_noop("%(name)s had more than two groups: the two kept leave the hand "
                                                    "furthest from zero, and %(dice)s went back to the bank"),
                                       name=nm[seat], dice=fmt_group(dice)), "keep-two"),
                            seat, gettext_noop("You had more than two groups: the app kept the two that leave you "
                                               "furthest from zero, and %(dice)s went back to the bank"),
                            dice=fmt_group(dice)))
    for seat in ([] if after.over else _regrouped(before, after, action)):  # short (the board shows the groups)
        hand = after.hands[seat]
        shown = "".join(fmt_group(g) for g in hand.groups)
        if hand.loose:
            detail = part(gettext_noop("%(groups)s, loose %(loose)s"), groups=shown, loose=fmt_dice(hand.loose))
        else:
            detail = part(gettext_noop("%(groups)s"), groups=shown)
        out.append(personal(ruled(part(gettext_noop("%(name)s's hand was regrouped"), name=nm[seat]), "balance"),
                            seat, gettext_noop("Your hand was regrouped (the only way the rules allow): %(hand)s"),
                            hand=detail))
    if before.round == 0 and after.round >= 1 and after.first is not None:
        values = after.values()
        best = abs(values[after.first])
        tied = [nm[s] for s, v in enumerate(values) if abs(v) == best and s != after.first]
        v = values[after.first]
        value = signed(v)
        if tied:
            out.append(ruled(part(gettext_noop("%(name)s starts: hand value %(value)s is closest to 0, tied with "
                                               "%(others)s; of the tied players, the first in seat order starts"),
                                  name=nm[after.first], value=value, others=", ".join(tied)), "first"))
        else:
            out.append(ruled(part(gettext_noop("%(name)s starts: hand value %(value)s is closest to 0"),
                                  name=nm[after.first], value=value), "first"))
    out.extend(_last_round(before, after, nm))
    return out


def _last_round(before: State, after: State, nm: list[str]) -> list[Part]:
    """The last round begins: when the rules in force change it, every phone is told so as it starts.

    In reverse order (``reverse_last_round``), the player who moved last
    goes again; with ``last_turn_score`` each hand counts as it stands at the
    end of its owner's turn.  The rules as written change nothing: no notice.
    """
    if after.over or before.round == after.round or after.round != after.rounds or after.round < 1 \
            or after.current is None:
        return []
    v, who = after.variants, nm[after.current]
    out: list[Part] = []
    if v.reverse_last_round:
        msg = (gettext_noop("Last round, in reverse order: %(name)s goes again") if before.round >= 1
               else gettext_noop("Last round, in reverse order: %(name)s starts"))
        out.append(announced(ruled(part(msg, name=who), "last-round")))
    if v.last_turn_score:
        out.append(announced(ruled(part(gettext_noop(
            "Last round: each hand counts as it stands at the end of its owner's turn")), "last-round")))
    return out


def describe_parts(
    state_before: State, action: Mapping[str, Any], names: Sequence[str] | None = None
) -> list[Part]:
    """The action in the game's notation as structured parts, with the game's end when it ends it."""
    nm = _names(state_before, names)
    kind = action.get("type") if isinstance(action, Mapping) else None
    p = state_before.pending
    try:
        after: State | None = apply(state_before, action)
    except (IllegalAction, TypeError, KeyError, IndexError):
        after = None
    tail = _result(after, nm) if after is not None else []
    if kind == "end_on_time":
        return [part(gettext_noop("Time is up")), *tail]
    if kind == "end_now":
        return [part(gettext_noop("The host ended the game: the hands as they stand decide")), *tail]
    if p is None or after is None:
        return [part(gettext_noop("(illegal %(kind)s)"), kind=kind or "action")]
    who = nm[p.seat]
    # Each move is marked as the seat's (moved_by): the tables then say who decided it when someone else did
    # ("The host chose for Ivo: keeps …"), with the same words as the line but the seat's name.
    if kind == "roll":
        vals = action["values"]
        if p.purpose == "start":
            text = moved_by(part(gettext_noop("%(name)s rolls %(dice)s"), name=who, dice=fmt_dice(vals)),
                            p.seat, "start", gettext_noop("rolls %(dice)s"), choice=False)
        elif p.purpose == "draw":
            text = moved_by(part(gettext_noop("%(name)s draws %(die)s"), name=who, die=signed(vals[0])),
                            p.seat, "draw", gettext_noop("draws %(die)s"), choice=False)
        else:
            m = abs(vals[0])
            text = moved_by(ruled(part(gettext_noop("%(name)s takes a pair from the bank: %(group)s"),
                                       name=who, group=fmt_group((m, -m))), "no-group"),
                            p.seat, "pair", gettext_noop("takes a pair from the bank: %(group)s"), choice=False)
    elif kind == "flip":
        m = p.seat
        v = action["victim"]
        own = state_before.hands[m].dice()[action["own"]]
        other = state_before.hands[v].dice()[action["other"]]
        text = moved_by(part(
            gettext_noop("%(name)s: %(own)s→%(own_to)s, %(victim)s's %(other)s→%(other_to)s"),
            name=who,
            own=signed(own),
            own_to=signed(action["own_to"]),
            victim=nm[v],
            other=signed(other),
            other_to=signed(action["other_to"]),
        ), p.seat, "flip", gettext_noop("%(own)s→%(own_to)s, %(victim)s's %(other)s→%(other_to)s"))
    elif kind == "group":
        g = check_grouping(
            state_before.hands[p.seat].dice(), grouping_from_action(action, state_before.hands[p.seat].dice())
        )
        groups = "".join(fmt_group(x) for x in g.groups)
        if groups and g.loose:
            text = moved_by(part(gettext_noop("%(name)s groups %(groups)s, loose %(loose)s"), name=who, groups=groups,
                                 loose=fmt_dice(g.loose)),
                            p.seat, "grouping", gettext_noop("groups %(groups)s, loose %(loose)s"))
        elif groups:
            text = moved_by(part(gettext_noop("%(name)s groups %(groups)s"), name=who, groups=groups),
                            p.seat, "grouping", gettext_noop("groups %(groups)s"))
        elif g.loose:
            text = moved_by(part(gettext_noop("%(name)s groups (nothing), loose %(loose)s"), name=who,
                                 loose=fmt_dice(g.loose)),
                            p.seat, "grouping", gettext_noop("groups (nothing), loose %(loose)s"))
        else:
            text = moved_by(part(gettext_noop("%(name)s groups (nothing)"), name=who),
                            p.seat, "grouping", gettext_noop("groups (nothing)"))
    elif kind == "keep":
        held = state_before.hands[p.seat].groups
        i, j = sorted(action["keep"])
        kept = fmt_group(held[i]) + fmt_group(held[j])
        back = "".join(fmt_group(g) for k, g in enumerate(held) if k not in (i, j))
        text = moved_by(ruled(part(gettext_noop("%(name)s keeps %(kept)s, returns %(back)s to the bank"), name=who,
                                   kept=kept, back=back), "keep-two"),
                        p.seat, "keep", gettext_noop("keeps %(kept)s, returns %(back)s to the bank"))
    else:
        text = part(gettext_noop("(%(kind)s)"), kind=kind)
    return [text, *_aftermath(state_before, after, action, nm), *tail]


def describe(state_before: State, action: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """The action in the game's notation (one line, English), with the game's end when it ends it."""
    return render_parts(describe_parts(state_before, action, names))
