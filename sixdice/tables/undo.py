"""The host's undo and the players' take-back, kept in the log (issue 14).

An undo appends one event ``{"type": "undo", "to": k}`` by the host: the
game's state becomes the state after event ``k``, recomputed by the one
replay (:mod:`sixdice.gamekit.replay`); nothing is deleted.  The policy
(BGA's): no undo back across information drawn at random that players have
seen, i.e. a roll of app dice.  Typed-in (physical) rolls, choices and
automatic balancing can be undone.  A player may take back their own last
action (:func:`take_back`) while nobody else has acted and no die has been
rolled since, when the table allows it.  ``docs/undo.md`` has the cases per game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from sixdice.gamekit.engine import HOST, GameError, get_engine, parse_actor
from sixdice.gamekit.notation import render_parts
from sixdice.gamekit.options import takes_back
from sixdice.gamekit.replay import UNDO, describe_parts, replay, take_back_point

from . import i18n
from .models import Event, Game
from .services import (
    STALE_MESSAGE,
    Applied,
    Credentials,
    ServiceError,
    _add_event,
    _run_system_actions,
    _save,
    _system_rng,
    current_game,
    game_in_play,
    is_host,
    load_table,
    seat_for,
)


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
    game = game_in_play(table, current_game(table), while_paused=True)
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


@transaction.atomic
def correct(*, table_code: str, credentials: Credentials, seq: Any, values: Any) -> Applied:
    """The host corrects the values of a typed-in roll, even after later moves.

    Appended, in one transaction: an ``undo`` back to just before the roll,
    the roll with the corrected values (by ``host``), then each later move
    still in play made again by the same seat while the rules allow it (the
    first one they refuse, and all after it, stay undone).  Server steps that
    follow (automatic balancing) are worked out again.
    """
    table = load_table(table_code)
    if not is_host(table, credentials):
        raise ServiceError("not_host", gettext("Only the host can do that."))
    game = game_in_play(table, current_game(table), while_paused=True)
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise ServiceError("bad_field", gettext("Field %(name)s must be a whole number.") % {"name": "'seq'"})
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ServiceError("bad_field", gettext("Field %(name)s must be a list of whole numbers.") % {"name": "'values'"})
    events = list(game.events.order_by("seq"))
    targets, states, _default = undo_targets(game, events)
    engine = get_engine(game.engine)
    line = list(replay_line(engine, game, events))
    by_seq = {e.seq: e for e in events}
    roll = by_seq.get(seq)
    if roll is None or seq not in line or roll.action.get("type") != "roll" or drew_at_random(game.options, roll.action):
        raise ServiceError("cannot_correct", gettext("Only a roll typed in (real dice) that is still in play can be corrected."))
    before = ([0, *line])[[0, *line].index(seq) - 1]
    if before not in targets:
        raise ServiceError(
            "cannot_undo",
            gettext("Nothing can be undone back to there: no undo past dice the app rolled, or past the start."),
        )
    applied = Applied(game=game)
    undo_action = {"type": UNDO, "to": before, "corrects": seq}
    parts = describe_parts(engine, game.state, undo_action, names=game.players)
    applied.events.append(
        Event(game=game, seq=game.seq + 1, actor=HOST, action=undo_action, text=render_parts(parts)[:500], notation=parts)
    )
    state = states[before]
    fixed = {**roll.action, "values": values}
    try:
        new_state = engine.apply(state, fixed, actor=HOST)
    except GameError as exc:
        raise ServiceError(exc.code, i18n.game_error_message(exc)) from None
    _add_event(engine, game, applied, HOST, fixed, state)
    rng = _system_rng("correct", game.number, game.seq)
    _run_system_actions(engine, game, new_state, applied, rng)
    for later in line[line.index(seq) + 1 :]:
        event = by_seq[later]
        if event.actor == "system":
            continue  # server steps are worked out again after each move
        who = parse_actor(event.actor)
        try:
            new_state = engine.apply(game.state, dict(event.action), actor=who)
        except GameError:
            break  # no longer legal after the correction: this move and the rest stay undone
        _add_event(engine, game, applied, who, dict(event.action), game.state)
        _run_system_actions(engine, game, new_state, applied, rng)
    _save(game, applied, expected_seq=game.seq, table=table)
    return applied


def replay_line(engine: Any, game: Game, events: list[Event]) -> tuple[int, ...]:
    """The seqs of the events in play now (undone ones left out)."""
    line: tuple[int, ...] = ()
    for step in replay(engine, game.initial_state, ((e.actor, e.action) for e in events)):
        line = step.line
    return line


@transaction.atomic
def take_back(*, table_code: str, credentials: Credentials, expected_seq: int) -> Applied:
    """A player takes back their own last action, as an undo event by their seat.

    Allowed while nobody else has acted and no die has been rolled since
    (:func:`sixdice.gamekit.replay.take_back_point`), and only when the
    table's ``takeback`` option is on (the default).  ``expected_seq`` is the
    game's ``seq`` the phone saw when the player tapped.
    """
    table = load_table(table_code)
    seat = seat_for(table, credentials)
    if seat is None:
        raise ServiceError("spectator", gettext("Only a player can take back their own move."))
    game = game_in_play(table, current_game(table))
    if not takes_back(game.options):
        raise ServiceError("take_back_off", gettext("This table does not let players take back a move."))
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int):
        raise ServiceError("bad_field", gettext("Field %(name)s must be a whole number.") % {"name": "'seq'"})
    if expected_seq != game.seq:
        raise ServiceError("stale", STALE_MESSAGE)
    events = list(game.events.order_by("seq"))
    to = take_back_point([(e.actor, e.action) for e in events], seat.position)
    own = next((e for e in reversed(events) if e.actor == str(seat.position)), None)
    if to is not None and own is not None and own.stand_in:
        to = None  # the app played it when the seat's time ran out: not the player's own move
    if to is None:
        raise ServiceError(
            "cannot_take_back",
            gettext("You can take back only your own last move, while nobody else has played "
                    "and no die has been rolled since."),
        )
    engine = get_engine(game.engine)
    state = game.initial_state
    for step in replay(engine, game.initial_state, ((e.actor, e.action) for e in events[:to])):
        state = step.after
    action = {"type": UNDO, "to": to, "seat": seat.position}
    parts = describe_parts(engine, game.state, action, names=game.players)
    applied = Applied(game=game)
    applied.events.append(Event(
        game=game, seq=game.seq + 1, actor=str(seat.position), action=action, text=render_parts(parts)[:500],
        notation=parts,
    ))
    game.state = state
    _save(game, applied, expected_seq=expected_seq, table=table)
    return applied
