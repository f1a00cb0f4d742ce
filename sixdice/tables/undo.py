"""The host's undo, kept in the log (issue 14).

An undo appends one event ``{"type": "undo", "to": k}`` by the host: the
game's state becomes the state after event ``k``, recomputed by the one
replay (:mod:`sixdice.gamekit.replay`); nothing is deleted.  The policy
(BGA's): no undo back across information drawn at random that players have
seen, i.e. a roll of app dice.  Typed-in (physical) rolls, choices and
automatic balancing can be undone.  ``docs/undo.md`` has the cases per game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from sixdice.gamekit.engine import HOST, get_engine
from sixdice.gamekit.notation import render_parts
from sixdice.gamekit.replay import UNDO, describe_parts, replay

from .models import Event, Game
from .services import Applied, Credentials, ServiceError, _save, current_game, is_host, load_table


def drew_at_random(options: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    """Whether this event showed the table dice drawn at random: a roll while the app rolls the dice.

    Both games name their dice option ``dice`` (``app`` or ``physical``) and
    their rolls ``roll``; a typed-in roll is what the table threw, not a draw.
    """
    return action.get("type") == "roll" and options.get("dice", "app") == "app"


def undo_targets(game: Game, events: list[Event]) -> tuple[list[int], dict[int, dict[str, Any]], int | None]:
    """The seqs the game may go back to (latest first), the state after each event, and the default target.

    The default goes back to before the last move someone made (a seat or the
    host), together with the server steps that followed it.
    """
    engine = get_engine(game.engine)
    line: tuple[int, ...] = ()
    states: dict[int, dict[str, Any]] = {0: game.initial_state}
    for step in replay(engine, game.initial_state, ((e.actor, e.action) for e in events)):
        states[step.index] = step.after
        line = step.line
    by_seq = {e.seq: e for e in events}
    floor = 0
    for seq in line:  # the last random draw still in play: no undo before it
        if drew_at_random(game.options, by_seq[seq].action):
            floor = seq
    candidates = [0, *line]
    targets = [candidates[i] for i in range(len(candidates) - 2, -1, -1) if candidates[i] >= floor]
    default = None
    for k in targets:
        taken_back = candidates[candidates.index(k) + 1]  # the first event this undo takes back
        if by_seq[taken_back].actor != "system":
            default = k
            break
    return targets, states, default


@transaction.atomic
def undo(*, table_code: str, credentials: Credentials, to: Any = None) -> Applied:
    """The host takes the game back to after event ``to`` (default: before the last move), as an event."""
    table = load_table(table_code)
    if not is_host(table, credentials):
        raise ServiceError("not_host", gettext("Only the host can do that."))
    game = current_game(table)
    if game is None:
        raise ServiceError("no_game", gettext("The game has not started yet."))
    if game.status != Game.Status.PLAYING:
        raise ServiceError("game_over", gettext("This game is over."))
    if to is not None and (isinstance(to, bool) or not isinstance(to, int)):
        raise ServiceError("bad_field", gettext("Field %(name)s must be a whole number.") % {"name": "'to'"})
    events = list(game.events.order_by("seq"))
    targets, states, default = undo_targets(game, events)
    target = default if to is None else to
    if target is None or target not in targets:
        raise ServiceError(
            "cannot_undo",
            gettext("Nothing can be undone back to there: no undo past dice the app rolled, or past the start."),
        )
    action = {"type": UNDO, "to": target}
    engine = get_engine(game.engine)
    parts = describe_parts(engine, game.state, action, names=game.players)
    applied = Applied(game=game)
    applied.events.append(
        Event(game=game, seq=game.seq + 1, actor=HOST, action=action, text=render_parts(parts)[:500], notation=parts)
    )
    game.state = states[target]
    _save(game, applied, expected_seq=game.seq, table=table)
    return applied
