"""A finished game, step by step: the state after every event, and its turns.

Step 0 is the initial state; step ``k`` is the state after event ``k`` (the
event with ``seq == k``).  Every state is computed here on the server by
replaying the log through the engine, exactly as
:func:`sixdice.tables.services.replay` does.

A *turn* is what a player would call one: in Six-Dice a flip (an event
whose action type is ``"flip"``); in Run Buster a roll (``"roll"``, by the
seat, the host typing physical dice in, or the app for a bot).  Other
games count every action sent by a seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sixdice.gamekit.engine import Actor, get_engine
from sixdice.tables.models import Event, Game

TURN_ACTIONS: dict[str, str] = {"sixdice": "flip", "runbuster": "roll"}


def parse_actor(actor: str) -> Actor:
    return int(actor) if actor.isdigit() else actor


def is_turn(engine_slug: str, actor: str, action: Mapping[str, Any]) -> bool:
    """Whether this event starts a new turn of the game (see the module docs)."""
    kind = TURN_ACTIONS.get(engine_slug)
    if kind is None:
        return actor.isdigit()
    return isinstance(action, Mapping) and action.get("type") == kind


def count_turns(engine_slug: str, events: Sequence[tuple[str, Mapping[str, Any]]]) -> int:
    return sum(1 for actor, action in events if is_turn(engine_slug, actor, action))


def actor_name(actor: str, players: Sequence[str]) -> str:
    if actor.isdigit() and int(actor) < len(players):
        return players[int(actor)]
    return {"host": "Host", "system": "App"}.get(actor, actor)


@dataclass(frozen=True)
class Step:
    index: int  # 0 = before the first event
    state: dict[str, Any]
    seq: int
    actor: str | None
    text: str
    turn: int  # turns played up to and including this step


def replay_steps(game: Game, events: Sequence[Event] | None = None) -> list[Step]:
    """The state at every step of ``game``'s log."""
    engine = get_engine(game.engine)
    events = list(events if events is not None else game.events.order_by("seq"))
    state: dict[str, Any] = game.initial_state
    steps = [Step(0, state, 0, None, "", 0)]
    turn = 0
    for index, event in enumerate(events, start=1):
        state = engine.apply(state, event.action, actor=parse_actor(event.actor))
        if is_turn(game.engine, event.actor, event.action):
            turn += 1
        steps.append(Step(index, state, event.seq, event.actor, event.text, turn))
    return steps


def step_payloads(game: Game, steps: Sequence[Step]) -> list[dict[str, Any]]:
    """What the replay page is sent per step: the spectator's view and the notation."""
    engine = get_engine(game.engine)
    return [
        {
            "i": step.index,
            "seq": step.seq,
            "actor": step.actor,
            "who": actor_name(step.actor, game.players) if step.actor else "",
            "text": step.text,
            "turn": step.turn,
            "view": engine.view(step.state, None),
        }
        for step in steps
    ]
