"""The one replay: the states a game passes through, from its initial state and its events.

Every caller that replays a log (the table services, the replay viewer, the
import check) walks :func:`replay`, so they all agree on what a log means.

An ``undo`` event (``{"type": "undo", "to": k}``, issue 14) means "the state
is the state after event ``k``": it is applied here, by recomputing, not by
the engines; the events after ``k`` stay in the log, undone (nothing is ever
deleted).  ``k`` must be on the current line of play (not itself undone).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .engine import Actor, GameEngine, GameError, parse_actor
from .notation import Part, gettext_noop, part, render_parts

UNDO = "undo"


@dataclass(frozen=True)
class Replayed:
    """One event replayed: the state before it, the event, and the state after it."""

    index: int  # 1 for the first event
    actor: Actor
    action: Mapping[str, Any]
    before: dict[str, Any]
    after: dict[str, Any]
    line: tuple[int, ...] = ()  # the events in play after this one (undone ones left out), by index


def is_undo(action: Mapping[str, Any]) -> bool:
    return action.get("type") == UNDO


def describe_parts(engine: GameEngine, before: Mapping[str, Any], action: Mapping[str, Any], *, names: Any) -> list[Part]:
    """The log line of any event: the engine's, or the undo's own."""
    if is_undo(action):
        return [part(gettext_noop("Undone back to #%(seq)s"), seq=action.get("to"))]
    return engine.describe_parts(before, action, names=names)


def describe(engine: GameEngine, before: Mapping[str, Any], action: Mapping[str, Any], *, names: Any) -> str:
    return render_parts(describe_parts(engine, before, action, names=names))


def replay(
    engine: GameEngine, initial: dict[str, Any], events: Iterable[tuple[Actor | str, Mapping[str, Any]]]
) -> Iterator[Replayed]:
    """Apply each ``(actor, action)`` in turn to ``initial``; yields every step.

    ``actor`` may be stored text (``"0"``, ``"host"``).  A refused action
    raises the engine's :class:`~sixdice.gamekit.engine.GameError` at that
    step; the steps before it have been yielded.
    """
    state = initial
    states: dict[int, dict[str, Any]] = {0: initial}
    line: list[int] = []
    for index, (actor, action) in enumerate(events, start=1):
        who = parse_actor(actor) if isinstance(actor, str) else actor
        if is_undo(action):
            to = action.get("to")
            if isinstance(to, bool) or not isinstance(to, int) or not (to == 0 or to in line):
                raise GameError(f"An undo must go back to an event still in play, not {to!r}.", code="illegal")
            after = states[to]
            while line and line[-1] > to:
                line.pop()
        else:
            after = engine.apply(state, dict(action), actor=who)
            line.append(index)
        states[index] = after
        yield Replayed(index, who, action, state, after, tuple(line))
        state = after


def undone(events: Iterable[tuple[Actor | str, Mapping[str, Any]]]) -> set[int]:
    """The indexes of the events an undo took back (to strike them through); no engine needed."""
    line: list[int] = []
    gone: set[int] = set()
    for index, (_actor, action) in enumerate(events, start=1):
        if is_undo(action):
            to = action.get("to")
            while line and isinstance(to, int) and line[-1] > to:
                gone.add(line.pop())
        else:
            line.append(index)
    return gone


def final_state(
    engine: GameEngine, initial: dict[str, Any], events: Iterable[tuple[Actor | str, Mapping[str, Any]]]
) -> dict[str, Any]:
    """The state the whole log reaches (``initial`` for an empty log)."""
    state = initial
    for step in replay(engine, initial, events):
        state = step.after
    return state
