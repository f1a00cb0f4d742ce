"""The one replay: the states a game passes through, from its initial state and its events.

Every caller that replays a log (the table services, the replay viewer, the
import check) walks :func:`replay`, so they all agree on what a log means.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .engine import Actor, GameEngine, parse_actor


@dataclass(frozen=True)
class Replayed:
    """One event replayed: the state before it, the event, and the state after it."""

    index: int  # 1 for the first event
    actor: Actor
    action: Mapping[str, Any]
    before: dict[str, Any]
    after: dict[str, Any]


def replay(
    engine: GameEngine, initial: dict[str, Any], events: Iterable[tuple[Actor | str, Mapping[str, Any]]]
) -> Iterator[Replayed]:
    """Apply each ``(actor, action)`` in turn to ``initial``; yields every step.

    ``actor`` may be stored text (``"0"``, ``"host"``).  A refused action
    raises the engine's :class:`~sixdice.gamekit.engine.GameError` at that
    step; the steps before it have been yielded.
    """
    state = initial
    for index, (actor, action) in enumerate(events, start=1):
        who = parse_actor(actor) if isinstance(actor, str) else actor
        after = engine.apply(state, dict(action), actor=who)
        yield Replayed(index, who, action, state, after)
        state = after


def final_state(
    engine: GameEngine, initial: dict[str, Any], events: Iterable[tuple[Actor | str, Mapping[str, Any]]]
) -> dict[str, Any]:
    """The state the whole log reaches (``initial`` for an empty log)."""
    state = initial
    for step in replay(engine, initial, events):
        state = step.after
    return state
