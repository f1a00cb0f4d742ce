"""What an undo, a take-back or a correction changed, in plain words for every phone (``docs/undo.md``).

An undo changes the table at once: moves disappear from the hands, and at a
table with real dice the dice on the table still show them.  So the undo's
event carries one notice, as notation parts every phone renders in its own
language: what was corrected, what was made again, what was taken back (whose
moves), how the hands stand now, and, with real dice, who must set their dice
again and make which move or roll how many dice ("Jo: make your move again,
then roll 1 die": the game names the move).  Pure: it reads the log and the states the undo already
worked out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sixdice.gamekit.engine import GameEngine
from sixdice.gamekit.notation import Part, gettext_noop, ngettext, part, plural_part, signed


@dataclass(frozen=True)
class Move:
    """One move of the log an undo concerns: whose it is (``seat``) and what it was."""

    seq: int
    seat: int | None
    action: Mapping[str, Any]


def and_list(items: Sequence[Any]) -> Any:
    """``a``, ``a and b``, ``a, b and c``: as nested parts (each language joins its own way)."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return part(gettext_noop("%(first)s and %(second)s"), first=items[0], second=items[1])
    return part(gettext_noop("%(first)s, %(second)s"), first=items[0], second=and_list(items[1:]))


def _then(items: Sequence[Any]) -> Any:
    """``a``, ``a, then b``, ``a, b, then c``: steps in the order they are done."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return part(gettext_noop("%(first)s, then %(second)s"), first=items[0], second=items[1])
    return part(gettext_noop("%(first)s, %(second)s"), first=items[0], second=_then(items[1:]))


def _semicolons(items: Sequence[Any]) -> Any:
    if len(items) == 1:
        return items[0]
    return part(gettext_noop("%(first)s; %(second)s"), first=items[0], second=_semicolons(items[1:]))


def _by_seat(moves: Sequence[Move]) -> list[tuple[int | None, list[Move]]]:
    """The moves grouped by whose they are, in the order each seat first appears."""
    out: dict[int | None, list[Move]] = {}
    for m in moves:
        out.setdefault(m.seat, []).append(m)
    return list(out.items())


def _name(players: Sequence[str], seat: int | None) -> str:
    return str(players[seat]) if seat is not None and 0 <= seat < len(players) else "?"


def whose_moves(engine: GameEngine, players: Sequence[str], moves: Sequence[Move]) -> Any:
    """"Ivo's move; Jo's move, roll and choice" (each in the game's own words)."""
    said = []
    for seat, own in _by_seat(moves):
        names = and_list([engine.presentation.move_name(m.action) for m in own])
        if seat is None:
            said.append(part(gettext_noop("the host's %(moves)s"), moves=names))
        else:
            said.append(part(gettext_noop("%(name)s's %(moves)s"), name=_name(players, seat), moves=names))
    return _semicolons(said)


def _dice(engine: GameEngine, values: Sequence[Any]) -> str:
    return " ".join(engine.presentation.die_face(v).text if isinstance(v, int) else str(v) for v in values)


def _hand(hand: Any) -> list[int]:
    return sorted([v for g in hand.groups for v in g] + list(hand.loose))


def notice(
    engine: GameEngine, *, players: Sequence[str], options: Mapping[str, Any], before: Mapping[str, Any],
    after: Mapping[str, Any], taken_back: Sequence[Move], made_again: Sequence[Move] = (),
    corrected: tuple[Move, Sequence[Any]] | None = None,
) -> tuple[list[Part], list[int]]:
    """The notice's sentences (parts, one sentence each) and the seats that must act again at a real-dice table.

    ``before`` / ``after``: the game's states just before the undo and after
    everything it appended; ``taken_back``: the moves (not the app's own
    steps) it took back and that stand undone; ``made_again``: those a
    correction made again; ``corrected``: the corrected roll and its new values.
    """
    sentences: list[Part] = []
    if corrected is not None:
        roll, values = corrected
        sentences.append(part(gettext_noop("Corrected: %(name)s's %(move)s %(old)s → %(new)s."),
                              name=_name(players, roll.seat), move=engine.presentation.move_name(roll.action),
                              old=_dice(engine, engine.drawn_values(roll.action)), new=_dice(engine, values)))
    if made_again:
        sentences.append(part(gettext_noop("Made again: %(moves)s."), moves=whose_moves(engine, players, made_again)))
    if taken_back:
        sentences.append(part(gettext_noop("Taken back: %(moves)s."), moves=whose_moves(engine, players, taken_back)))
    was, now = engine.presentation.picture(before).hands, engine.presentation.picture(after).hands
    changed = [s for s in range(min(len(was), len(now))) if _hand(was[s]) != _hand(now[s])]
    scored = [s for s in changed if isinstance(was[s].score, int) and isinstance(now[s].score, int)
              and was[s].score != now[s].score]
    if scored:
        hands = [part(gettext_noop("%(name)s %(value)s (was %(before)s)"), name=_name(players, s),
                      value=signed(now[s].score or 0), before=signed(was[s].score or 0)) for s in scored]
        sentences.append(part(gettext_noop("Hands now: %(hands)s."), hands=and_list(hands)))
    again: list[int] = []
    if engine.random_actions and not engine.app_draws(options):  # real dice: the table must follow the screen
        todo: dict[int, list[Any]] = {s: [part(gettext_noop("set your dice as your phone shows"))] for s in changed}
        for seat, own in _by_seat(taken_back):
            if seat is None:
                continue
            for m in own:
                if engine.is_random(m.action):
                    n = len(engine.drawn_values(m.action))
                    todo.setdefault(seat, []).append(plural_part(ngettext("roll %(n)s die", "roll %(n)s dice", n), n=n))
                else:
                    todo.setdefault(seat, []).append(part(gettext_noop("make your %(move)s again"),
                                                          move=engine.presentation.move_name(m.action)))
        for seat in sorted(todo, key=lambda s: (min([m.seq for m in taken_back if m.seat == s] or [10**9]), s)):
            sentences.append(part(gettext_noop("%(name)s: %(steps)s."), name=_name(players, seat),
                                  steps=_then(todo[seat])))
            again.append(seat)
    return sentences, again
