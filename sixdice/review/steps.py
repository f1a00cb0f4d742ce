"""A finished game, step by step: the state after every event, and its turns.

Step 0 is the initial state; step ``k`` is the state after event ``k`` (the
event with ``seq == k``).  Every state is computed here on the server by
walking the one replay, :func:`sixdice.gamekit.replay.replay`.

A *turn* is what a player would call one; the game's adapter says which
events are turns (:meth:`~sixdice.gamekit.engine.GameEngine.is_turn`; by default any
action a seat sends).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from sixdice.gamekit.engine import GameEngine, get_engine, parse_actor
from sixdice.gamekit.replay import is_undo, replay, undone, undone_by
from sixdice.tables.core.i18n import render_notation
from sixdice.tables.models import Event, Game

from .decisions import decisions
from .dice import picture_data
from .hints import hint_lines


def is_turn(engine: GameEngine, actor: str, action: Mapping[str, Any]) -> bool:
    """Whether this stored event (``actor`` as stored text) starts a new turn of the game (an undo never does)."""
    return isinstance(action, Mapping) and not is_undo(action) and engine.is_turn(parse_actor(actor), action)


def count_turns(engine: GameEngine, events: Sequence[tuple[str, Mapping[str, Any]]]) -> int:
    """The turns of a log still in play: a turn an undo took back is not counted."""
    gone = undone(events)
    return sum(1 for index, (actor, action) in enumerate(events, start=1)
               if index not in gone and is_turn(engine, actor, action))


def actor_name(actor: str, players: Sequence[str]) -> str:
    """The English name of a stored actor, for the CSV and the import's messages."""
    if actor.isdigit() and int(actor) < len(players):
        return players[int(actor)]
    return {"host": "Host", "system": "App"}.get(actor, actor)


@dataclass(frozen=True)
class Step:
    index: int  # 0 = before the first event
    state: dict[str, Any]
    seq: int
    actor: str | None
    text: str  # the English line (Event.text)
    turn: int  # turns played up to and including this step
    action: Mapping[str, Any] = field(default_factory=dict)
    notation: Sequence[Mapping[str, Any]] = ()  # the same line as parts (Event.notation)
    stand_in: str = ""  # "timeout": the app played it for the seat, whose time ran out (Event.stand_in)

    def line(self, language: str | None = None) -> str:
        """The step's log line in ``language`` (``None``: the active one), as the live table shows it."""
        return render_notation(self.notation, language) or self.text


def replay_steps(game: Game, events: Sequence[Event] | None = None) -> list[Step]:
    """The state at every step of ``game``'s log."""
    engine = get_engine(game.engine)
    logged = list(events if events is not None else game.events.order_by("seq"))
    steps = [Step(0, game.initial_state, 0, None, "", 0)]
    turn = 0
    gone = undone((e.actor, e.action) for e in logged)  # a turn taken back is not counted (it stays, struck through)
    for step, event in zip(replay(engine, game.initial_state, ((e.actor, e.action) for e in logged)), logged, strict=True):
        turn += step.index not in gone and is_turn(engine, event.actor, event.action)
        steps.append(Step(step.index, step.after, event.seq, event.actor, event.text, turn, event.action,
                          event.notation or (), event.stand_in))
    return steps


def step_payloads(game: Game, steps: Sequence[Step],
                  bots: Sequence[bool] | Sequence[Sequence[bool]] = ()) -> list[dict[str, Any]]:
    """What the replay page is sent per step: the spectator's view, the line in the reader's language,
    who decided (and the engine's default for a choice), and the generic drawing."""
    engine = get_engine(game.engine)
    made = decisions(engine, steps, bots, game.players)
    hints = hint_lines(engine, game, [step.state for step in steps])  # issue 18: the suggestions phones showed
    gone = undone_by((step.actor or "", step.action) for step in steps[1:])  # struck through: an undo took them back
    payloads = []
    for step in steps:
        payload = {
            "i": step.index,
            "seq": step.seq,
            "actor": step.actor,
            "who": "",
            "text": step.line(),
            "turn": step.turn,
            "view": engine.view(step.state, None),
            "picture": picture_data(engine, step.state),
            "undone": step.index in gone,
            "undone_by": undone_text(steps[gone[step.index]].actor, steps[gone[step.index]].action, gone[step.index],
                                     game.players) if step.index in gone else "",
        }
        if step.index:
            payload.update(made[step.index - 1].as_json(game.players))
            if step.index in hints:
                payload["hint"] = hints[step.index].text()
                payload["hint_caption"] = hints[step.index].caption()  # the caption's words: the move said once
            if is_undo(step.action):  # an undo is no choice: no engine default beside it
                payload.update(default=None, differs=False)
        payloads.append(payload)
    return payloads


def undone_text(actor: str | None, action: Mapping[str, Any], seq: int, players: Sequence[str]) -> str:
    """Who took a struck-through move back (the undo event ``seq``: ``actor``, ``action``), in the active language."""
    actor = actor or ""
    if actor.isdigit() and int(actor) < len(players):
        return gettext("taken back by %(name)s at move %(n)s") % {"name": players[int(actor)], "n": seq}
    if "corrects" in action:
        return gettext("corrected by the host at move %(n)s") % {"n": seq}
    return gettext("undone by the host at move %(n)s") % {"n": seq}
