"""The one checked path for every write that changes a game.

A move, a host's resolution, an undo, a correction, a take-back, a timer's
stand-in and a bot's move all go through :func:`checked_write`, in one
transaction and in this order (boardgame.io's master):

1. **sender**: the seat this browser holds, the host, or a driver's seat;
2. **in play**: a game is being played (the host's undo and corrections may
   also be made while the table is paused);
3. **shape**: the frame is of the write's declared shape (for a move, the
   game's action schema): a malformed frame is refused as it is, whatever its ``seq``;
4. **expected seq**: the ``seq`` the sender saw is still the game's; an old
   one is refused :class:`~sixdice.tables.core.errors.Stale` and changes
   nothing, before the turn and the rules are looked at: acting on an old
   state is the real reason whatever they would say, and a phone on an old
   screen (or a flood of old frames) costs no rules work;
5. **turn, legal**: the write's own checks (``compose``): whose turn it is and
   the rules engine, which append the events;
6. **save** (:func:`sixdice.tables.writes.ledger.save`), after which
   :mod:`~sixdice.tables.writes.after_commit` decides what runs once the transaction commits.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.utils.translation import gettext, gettext_noop

from sixdice.gamekit.engine import HOST, SYSTEM, Actor, GameEngine, get_engine
from sixdice.gamekit.errors import GameError
from sixdice.gamekit.pins import PinnedRandom
from sixdice.gamekit.replay import final_state
from sixdice.tables.core import signals
from sixdice.tables.core.errors import (
    STALE_MESSAGE,
    GameOver,
    NoGame,
    NotAllowed,
    NotHost,
    Paused,
    Spectator,
    Stale,
    TableClosed,
    UnknownTable,
    from_game_error,
)
from sixdice.tables.core.keys import Credentials, hash_secret, is_host, normalise_code
from sixdice.tables.core.plain_rows import columns, from_db, ordered
from sixdice.tables.core.rng import system_rng
from sixdice.tables.models import Event, Game, Seat, Table, TurnTimer
from sixdice.tables.writes import ledger
from sixdice.tables.writes.ledger import Applied


def load_table(code: str, *, allow_closed: bool = False) -> Table:
    """The table with this code; a closed one only when ``allow_closed`` (to watch it)."""
    table = Table.objects.filter(code=normalise_code(code)).first()
    if table is None:
        raise UnknownTable(gettext("There is no table %(code)s.") % {"code": repr(code)})
    if table.status == Table.Status.CLOSED and not allow_closed:
        raise TableClosed(gettext("This table is closed."))
    return table


def game_in_play(table: Table, game: Game | None, *, while_paused: bool = False) -> Game:
    """``game``, the table's current game, if a write may be made in it now; else the refusal.

    Refused: no game yet, a finished game, and (unless ``while_paused``, as for
    the host's undo and corrections) a table the host has paused.
    """
    if game is None:
        raise NoGame(gettext("The game has not started yet."))
    if game.status != Game.Status.PLAYING:
        raise GameOver(gettext("This game is over."))
    if table.paused and not while_paused:
        raise Paused(gettext("The host has paused the game."))
    return game


def _resolve_actor(table: Table, credentials: Credentials, *, as_host: bool, seat: int | None,
                   seat_only: str | None) -> Actor:
    """Who sends the write: the host, or the seat this browser holds (``seat``, already looked up)."""
    if as_host:
        if not is_host(table, credentials):
            raise NotHost(gettext("Only the host can do that."))
        return HOST
    if seat is None:
        if seat_only is not None:
            raise Spectator(seat_only)
        if is_host(table, credentials):
            raise NotAllowed(gettext("You are the host here, not a player: act as host instead."))
        raise Spectator(gettext("You are watching this table; spectators cannot play."))
    return seat


# The game columns a move needs; the others stay deferred (loaded only if something reads them).
_GAME_FIELDS = ordered(
    Game, ("id", "table_id", "number", "engine", "options", "players", "first", "seq", "status", "state", "pinned")
)
_TABLE_FIELDS = tuple(f.attname for f in Table._meta.concrete_fields)  # all of them: nothing reads as a default

_ACTION_SQL = """
SELECT {game_columns}, {table_columns},
       (SELECT s.position FROM {seat} s WHERE s.table_id = t.id AND s.secret_hash = %s AND s.secret_hash <> ''),
       EXISTS (SELECT 1 FROM {seat} b WHERE b.table_id = t.id AND b.is_bot),
       EXISTS (SELECT 1 FROM {timer} tt WHERE tt.table_id = t.id AND tt.seconds > 0)
FROM {table} t JOIN {game} g ON g.table_id = t.id
WHERE t.code = %s ORDER BY g.number DESC LIMIT 1
"""


@functools.cache
def _action_sql() -> str:
    return _ACTION_SQL.format(
        game_columns=columns("g", Game, _GAME_FIELDS), table_columns=columns("t", Table, _TABLE_FIELDS),
        seat=Seat._meta.db_table, table=Table._meta.db_table, game=Game._meta.db_table,
        timer=TurnTimer._meta.db_table,
    )


@dataclass
class Loaded:
    table: Table
    game: Game | None
    seat: int | None  # the seat whose secret the sender holds
    bots: bool  # the table has seats the app plays
    timer: bool  # the table has a turn timer


def load_for_action(code: str, credentials: Credentials) -> Loaded:
    """The table (every column), its current game, the sender's seat, and whether it has bots and a timer: one query.

    This runs for every write, so it is one plain statement on the cursor
    rather than several ORM queries; each column is converted by its own
    field, as the ORM would (:mod:`~sixdice.tables.core.plain_rows`).
    """
    digest = hash_secret(credentials.seat_secret) if credentials.seat_secret else ""
    with connection.cursor() as cursor:
        cursor.execute(_action_sql(), [digest, normalise_code(code)])
        row = cursor.fetchone()
    if row is None:
        return Loaded(load_table(code), None, None, False, False)
    db = connections[DEFAULT_DB_ALIAS]
    g, t = len(_GAME_FIELDS), len(_GAME_FIELDS) + len(_TABLE_FIELDS)
    game = from_db(Game, _GAME_FIELDS, row[:g], db)
    table = from_db(Table, _TABLE_FIELDS, row[g:t], db)
    seat, bots, timer = row[t:]
    if table.status == Table.Status.CLOSED:
        raise TableClosed(gettext("This table is closed."))
    game.table = table
    return Loaded(table, game, seat, bool(bots), bool(timer))


@dataclass
class Turn:
    """What a write's ``compose`` works on: the checked sender, the game in play, and the events it appends."""

    table: Table
    game: Game
    engine: GameEngine
    actor: Actor
    applied: Applied
    expected_seq: int
    driver: bool  # a bot or the timer plays for the seat (its dice are the server's own)

    def add(self, actor: Actor, action: dict[str, Any], before: Mapping[str, Any], *, stand_in: str = "",
            undone: tuple[Actor | str, Mapping[str, Any]] | None = None) -> None:
        ledger.add_event(self.engine, self.game, self.applied, actor, action, before, stand_in=stand_in, undone=undone)

    def run_system(self, state: dict[str, Any], rng: random.Random) -> None:
        ledger.run_system_actions(self.engine, self.game, state, self.applied, rng)

    def events(self) -> list[Event]:
        return list(self.game.events.order_by("seq"))


Compose = Callable[[Turn], None]


@dataclass
class Write:
    """A write's own checks: ``shape`` (of the sender's frame: refused as it is, whatever the ``seq``), then
    ``compose``, which checks turn and rules and appends the events."""

    compose: Compose
    shape: Compose | None = None


def checked_write(
    *, table_code: str, credentials: Credentials, expected_seq: int, compose: Compose | Write, as_host: bool = False,
    bot_seat: int | None = None, while_paused: bool = False, seat_only: str | None = None,
) -> Applied:
    """Check, compose and save one write to a table's current game, in the caller's transaction.

    ``compose`` appends the write's events (:class:`Turn`) and leaves the state
    after them in ``turn.game.state``; it raises a refusal (a
    :class:`~sixdice.tables.core.errors.ServiceError`, or an engine's ``GameError``)
    to change nothing.  ``bot_seat``: a driver (bot, timer) plays that seat.
    ``seat_only``: only a seat may send it (the refusal's message for anyone else).
    """
    seq = expected_seq  # a whole number: parsed once where it came in (``wire/incoming.py``), or the server's own
    loaded = load_for_action(table_code, credentials)
    table = loaded.table
    actor: Actor = (
        bot_seat if bot_seat is not None
        else _resolve_actor(table, credentials, as_host=as_host, seat=loaded.seat, seat_only=seat_only)
    )
    game = game_in_play(table, loaded.game, while_paused=while_paused)
    write = compose if isinstance(compose, Write) else Write(compose)
    applied = Applied(game=game, bots=loaded.bots, timer=loaded.timer, before=game.state)
    turn = Turn(table, game, get_engine(game.engine), actor, applied, seq, bot_seat is not None)
    if write.shape is not None:
        try:
            write.shape(turn)
        except GameError as exc:
            raise from_game_error(exc) from None
    if seq != game.seq:  # acted on an old state: refused before any rules work (the cheap refusal of a stale frame)
        raise Stale(STALE_MESSAGE)
    try:
        write.compose(turn)
    except GameError as exc:
        raise from_game_error(exc) from None
    ledger.save(game, turn.applied, expected_seq=seq, table=table)
    return turn.applied


def move(action: Mapping[str, Any], *, rng: random.Random | None = None, stand_in: str = "") -> Write:
    """A move: the action checked against the game's schema, the turn and the rules, then the server's steps."""
    checked: dict[str, Any] = {}

    def shape(turn: Turn) -> None:
        checked.update(turn.engine.clean_action(action))  # only the declared fields, checked: never the frame as it came

    def compose(turn: Turn) -> None:
        engine, game, actor = turn.engine, turn.game, turn.actor
        cleaned = dict(checked)
        drawn = rng or system_rng("move", game.number, game.seq)
        # Dice an undo took back are dealt again first: no value anyone has seen is rolled again (docs/undo.md).
        dice = PinnedRandom(game.pinned, drawn) if game.pinned else drawn
        state = game.state
        if isinstance(actor, int) and actor not in engine.actors(state):
            # Let the engine word the refusal ("It is Ana's turn."), else a plain one.
            engine.apply(state, dict(cleaned), actor=actor)
            raise GameError(gettext_noop("It is not your turn."), code="not_allowed")
        completed = engine.complete_action(state, dict(cleaned), game.options, dice, actor=SYSTEM if turn.driver else actor)
        new_state = engine.apply(state, dict(completed), actor=actor)
        turn.add(actor, dict(completed), state, stand_in=stand_in)
        turn.run_system(new_state, dice)
        if isinstance(dice, PinnedRandom) and dice.pins != game.pinned:
            game.pinned = dice.pins
            turn.applied.repinned = True

    return Write(compose, shape)


def apply_action_in_transaction(
    *,
    table_code: str,
    credentials: Credentials,
    action: Mapping[str, Any],
    expected_seq: int,
    as_host: bool = False,
    bot_seat: int | None = None,
    rng: random.Random | None = None,
    stand_in: str = "",
) -> Applied:
    """Apply one action to a table's current game, through :func:`checked_write`.

    Dice the app rolls next (and other server steps, such as automatic
    balancing) follow as system events.  ``bot_seat`` plays for a bot seat:
    only the server's drivers pass it, and the dice of the bot's move are the
    server's own.  ``stand_in`` (``"timeout"``) marks the event as played by
    the app for a seat whose time ran out.

    Runs in its caller's transaction (no savepoint of its own: a refusal must
    roll the caller's whole transaction back); call :func:`apply_action`,
    which opens one, unless you are in ``atomic`` already and roll back on its
    errors (``action_receipts.apply_once``).
    """
    applied = checked_write(
        table_code=table_code, credentials=credentials, expected_seq=expected_seq, as_host=as_host,
        bot_seat=bot_seat, compose=move(action, rng=rng, stand_in=stand_in),
    )
    events = applied.events
    if bot_seat is None and events and events[0].actor not in (HOST, SYSTEM):  # the review app keeps the hint shown
        game = applied.game
        signals.seat_moved.send(Game, engine=get_engine(game.engine), game=game, before=applied.before,
                                seat=int(events[0].actor), seq=events[0].seq)
    return applied


apply_action = transaction.atomic(apply_action_in_transaction)
"""Apply one action to a table's current game, in a transaction (a savepoint inside another one);
see :func:`apply_action_in_transaction`."""


def replay(game: Game, events: Sequence[Event] | None = None) -> dict[str, Any]:
    """The state reached by applying the game's event log to its initial state (see :mod:`sixdice.gamekit.replay`)."""
    logged = events if events is not None else game.events.order_by("seq")
    return final_state(get_engine(game.engine), game.initial_state, ((e.actor, e.action) for e in logged))
