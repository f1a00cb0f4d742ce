"""The ledger: append a game's events and save its snapshot; record a change to a table.

Every write that changes a game or a table ends here, in its caller's
transaction: the events are appended under the unique (game, seq), the
snapshot is saved only if its ``seq`` is still the one the writer read (one
writer wins), and a table change bumps the table's version and is logged.
What runs after the commit is decided by :mod:`~sixdice.tables.writes.after_commit`.  Nothing here checks
who may write or whether the rules allow it: that is the checked path
(:mod:`~sixdice.tables.writes.checked_path`), which every game write goes through.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import IntegrityError, connection, models
from django.db.models import F
from django.utils import timezone

from sixdice.gamekit import notation
from sixdice.gamekit.engine import HOST, SYSTEM, Actor, GameEngine, get_engine
from sixdice.gamekit.notation import render_parts
from sixdice.gamekit.replay import describe_parts
from sixdice.tables.core.errors import STALE_MESSAGE, Stale
from sixdice.tables.models import Event, Game, Seat, Table, TableChange
from sixdice.tables.writes import after_commit

MAX_SYSTEM_STEPS = 500  # a game needs a handful of server steps in a row; more means a broken engine


@dataclass
class Applied:
    """What a game write appended: the game after it and the new events."""

    game: Game
    events: list[Event] = field(default_factory=list)
    bots: bool = False  # the table has seats the app plays (its bots may have a move to make)
    timer: bool = False  # the table has a turn timer
    before: dict[str, Any] = field(default_factory=dict)  # the game's state the write was checked against
    repinned: bool = False  # the game's pinned dice changed (an undo, or a draw that dealt pinned values)

    @property
    def wake(self) -> tuple[str, ...]:
        return tuple(name for name, on in ((after_commit.BOTS, self.bots), (after_commit.TIMER, self.timer)) if on)


# ---------------------------------------------------------------- tables and seats


def record_change(
    table: Table, kind: str, *, actor: str = HOST, payload: Mapping[str, Any] | None = None,
    revoked: Sequence[int] = (),
) -> int:
    """Record a change to the table: bump its version and log it, in the caller's transaction.

    After the commit, everyone at the table gets one table frame computed
    once (:func:`~sixdice.tables.writes.after_commit.table_changed`).  Returns the new version.
    """
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    version: int = Table.objects.filter(pk=table.pk).values_list("version", flat=True).get()
    TableChange.objects.create(table_id=table.pk, version=version, kind=kind, actor=actor, payload=dict(payload or {}))
    table.version = version
    after_commit.table_changed(table.code, table.pk, revoked=revoked)
    return version


@dataclass(frozen=True)
class Change:
    """One change of :func:`record_changes`; ``at``: when it happened, if not now (an imported table's history)."""

    kind: str
    actor: str = HOST
    payload: Mapping[str, Any] = field(default_factory=dict)
    at: datetime | None = None


def record_changes(table: Table, changes: Sequence[Change]) -> int:
    """Record several changes to the table at once: its version bumped once per change, each logged in order.

    For a history written in one go (an imported game's seats and start):
    three statements whatever the count, and one table frame after the
    commit.  Returns the new version.
    """
    if not changes:
        return table.version
    Table.objects.filter(pk=table.pk).update(version=F("version") + len(changes))
    version: int = Table.objects.filter(pk=table.pk).values_list("version", flat=True).get()
    first = version - len(changes) + 1
    TableChange.objects.bulk_create(
        TableChange(table_id=table.pk, version=first + i, kind=c.kind, actor=c.actor, payload=dict(c.payload))
        for i, c in enumerate(changes)
    )
    stamped: dict[datetime, list[int]] = {}
    for i, change in enumerate(changes):
        if change.at is not None:  # auto_now_add set it to now
            stamped.setdefault(change.at, []).append(first + i)
    for at, versions in stamped.items():
        TableChange.objects.filter(table_id=table.pk, version__in=versions).update(created_at=at)
    table.version = version
    after_commit.table_changed(table.code, table.pk)
    return version


def park(seat: Seat) -> None:
    """The app plays the seat: its phone's secret is kept aside, so giving the seat back returns it to that phone."""
    seat.is_bot = True
    seat.parked_secret_hash = seat.secret_hash or seat.parked_secret_hash
    seat.secret_hash = ""


def unpark(seat: Seat) -> None:
    """The seat is a person's again: the phone whose secret was kept aside holds it again."""
    seat.is_bot = False
    seat.bot_strength = ""
    if seat.parked_secret_hash:
        seat.secret_hash, seat.parked_secret_hash = seat.parked_secret_hash, ""


SEAT_HOLDER_FIELDS = ["is_bot", "bot_strength", "secret_hash", "parked_secret_hash"]


# ---------------------------------------------------------------- games


def open_game(
    table: Table, game: Game, *, kind: str, actor: str = HOST, payload: Mapping[str, Any] | None = None,
    table_status: str | None = None, seats: Sequence[Seat] = (), at: datetime | None = None,
) -> Game:
    """Insert a new game at the table and record it (``kind``: a start, a rematch), in the caller's transaction.

    ``table_status``: the table's status from now (a start: playing; an
    imported game's table keeps the one it was opened with).  ``seats``:
    new seats that join with the game (an imported game's players), each
    recorded as a join just before the start.  ``at``: when the game
    started, if not now (an imported game); its changes are dated so too.
    Its first events follow by :func:`save` (a game in play) or
    :func:`append` (an imported one).
    """
    Seat.objects.bulk_create(seats)
    game.save(force_insert=True)
    if table_status is not None:
        Table.objects.filter(pk=table.pk).update(status=table_status, paused=False)
    if at is not None:  # auto_now_add set it to now
        Game.objects.filter(pk=game.pk).update(started_at=at)
        game.started_at = at
    joins = [Change(TableChange.Kind.JOIN, str(seat.position), {"position": seat.position, "bot": seat.is_bot}, at)
             for seat in seats]
    record_changes(table, [*joins, Change(kind, actor, {"game": game.number, **(payload or {})}, at)])
    return game


def append(events: Sequence[Event]) -> None:
    """Insert events under the unique (game, seq): a second writer of the same ``seq`` is :class:`Stale`.

    An event's ``created_at`` given (an imported game's times) is kept, else it is now.
    """
    try:
        _insert_events(events)
    except IntegrityError:
        raise Stale(STALE_MESSAGE) from None


def add_event(
    engine: GameEngine, game: Game, applied: Applied, actor: Actor, action: dict[str, Any], before: Mapping[str, Any],
    *, stand_in: str = "", undone: tuple[Actor | str, Mapping[str, Any]] | None = None,
) -> None:
    """Append (to ``applied``, not yet saved) the event of ``actor``'s ``action`` on the state ``before``.

    ``undone``: for an undo, the first event it takes back (its line names that move)."""
    seq = game.seq + len(applied.events) + 1
    parts = describe_parts(engine, before, action, names=game.players, undone=undone, actor=actor, stand_in=stand_in)
    text = render_parts(parts)
    applied.events.append(Event(
        game=game, seq=seq, actor=str(actor), action=action, text=text[:500], notation=parts, stand_in=stand_in,
    ))


def run_system_actions(
    engine: GameEngine, game: Game, state: dict[str, Any], applied: Applied, rng: random.Random
) -> None:
    """The server's own steps after a write (the app's dice, automatic balancing), each an event; ``game.state`` after them."""
    for _ in range(MAX_SYSTEM_STEPS):
        action = engine.system_action(state, game.options, rng)
        if action is None:
            break
        new_state = engine.apply(state, action, actor=SYSTEM)
        add_event(engine, game, applied, SYSTEM, action, state)
        state = new_state
    else:  # pragma: no cover - an engine that never stops is a bug in the engine
        raise RuntimeError(f"{engine.slug} kept asking for system actions")
    game.state = state


def save(game: Game, applied: Applied, *, expected_seq: int, table: Table) -> None:
    """Conditional update of the snapshot plus the unique (game, seq) events: one writer wins (else :class:`Stale`).

    The UPDATE matches only while the game is still played at ``expected_seq``:
    a move read before the table was closed (:func:`abandon`, which keeps the
    ``seq``) is refused on PostgreSQL too, where it commits after the close.
    """
    engine = get_engine(game.engine)
    outcome = engine.outcome(game.state)
    new_seq = expected_seq + len(applied.events)
    fields: dict[str, Any] = {"seq": new_seq, "state": game.state}
    if outcome is not None:
        fields.update(
            status=Game.Status.FINISHED,
            winners=list(outcome.winners),
            end_reason=outcome.end_reason,
            places=list(outcome.places),
            loser=outcome.loser,
            finished_at=timezone.now(),
        )
    if applied.repinned:
        fields["pinned"] = list(game.pinned)
    if outcome is not None or applied.repinned:  # the last move of a game, or one around an undo: rare, through the ORM
        saved = Game.objects.filter(pk=game.pk, seq=expected_seq, status=Game.Status.PLAYING).update(**fields)
    else:
        saved = _update_game(game.pk, expected_seq, new_seq, game.state)
    if saved != 1:
        raise Stale(STALE_MESSAGE)
    for event in applied.events:  # news describes the board after the whole write: it ends with the next one
        if notation.has_news(event.notation):
            event.notation = notation.about(list(event.notation), new_seq)
    append(applied.events)
    for name, value in fields.items():
        setattr(game, name, value)
    if outcome is not None:
        # A table that plays one game only (the host turned the series off) closes with it.
        series = engine.plays_series(game.options)
        status = Table.Status.FINISHED if series else Table.Status.CLOSED
        Table.objects.filter(pk=game.table_id).update(status=status)
    after_commit.game_written(table.code, game, applied.events, version=table.version, wake=applied.wake,
                        finished=outcome is not None)
    if outcome is not None:  # after the events: the table frame brings standings and the host's Rematch button
        record_change(table, TableChange.Kind.GAME_END, actor=SYSTEM,
                      payload={"game": game.number, "winners": list(outcome.winners)})


def abandon(table: Table, *, reason: str = "closed") -> int:
    """Mark the table's game in play abandoned, as it stands (its log and ``seq`` unchanged); how many were.

    The ``seq`` stays the number of the game's events (export, import and the
    clients' resync count on it); a move read before this commits is refused
    by :func:`save`'s condition on the status instead.  The caller records the
    table's change (:func:`record_change`), in the same transaction.
    """
    return Game.objects.filter(table_id=table.pk, status=Game.Status.PLAYING).update(
        status=Game.Status.ABANDONED, end_reason=reason, finished_at=timezone.now(),
    )


def column(model: type[models.Model], name: str) -> str:
    found = getattr(model._meta.get_field(name), "column", None)
    assert found is not None
    return str(found)


@functools.cache
def _update_sql() -> str:
    qn = connection.ops.quote_name
    return (f"UPDATE {qn(Game._meta.db_table)} SET {qn(column(Game, 'seq'))} = %s, {qn(column(Game, 'state'))} = %s "
            f"WHERE {qn(column(Game, 'id'))} = %s AND {qn(column(Game, 'seq'))} = %s "
            f"AND {qn(column(Game, 'status'))} = %s")


def _update_game(game_id: int, expected_seq: int, new_seq: int, state: dict[str, Any]) -> int:
    """The conditional UPDATE of a move, on the cursor: 1 if the game is still played at ``expected_seq``."""
    state_field = Game._meta.get_field("state")
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(), [new_seq, state_field.get_db_prep_save(state, connection), game_id, expected_seq,
                                       Game.Status.PLAYING.value])
        return cursor.rowcount


def _insert_events(events: Sequence[Event]) -> None:
    """One INSERT of the move's events on the cursor; each column's value prepared by its field,
    as ``bulk_create`` would (``created_at`` set now).  The unique (game, seq) makes a second writer fail."""
    if not events:
        return
    fields = _event_fields()
    params = [f.get_db_prep_save(_value(f, event), connection) for event in events for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(len(events)), params)


def _value(f: models.Field[Any, Any], event: Event) -> Any:
    """The field's value to insert, as ``bulk_create`` would; a creation time already given is kept."""
    if f.attname == "created_at" and event.created_at is not None:
        return event.created_at
    return f.pre_save(event, True)


@functools.cache
def _event_fields() -> list[models.Field[Any, Any]]:
    return [f for f in Event._meta.concrete_fields if not f.primary_key]


@functools.lru_cache(maxsize=16)
def _insert_sql(rows: int) -> str:
    """The INSERT of ``rows`` events (a move makes one to a few), built once per count."""
    fields = _event_fields()
    qn = connection.ops.quote_name
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return (f"INSERT INTO {qn(Event._meta.db_table)} ({', '.join(qn(column(Event, f.name)) for f in fields)}) "
            f"VALUES {', '.join([row] * rows)}")
