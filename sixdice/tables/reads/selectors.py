"""Reads for pages and the live connection: what each role at a table is shown.

A table frame (:func:`~sixdice.tables.reads.table_frame.table_frame`) is what everyone at a table shares; it is
computed once per table change and each connection turns it into its own
``snapshot`` with :func:`for_connection` (its role and its seat's view), with
no further query.
"""

from __future__ import annotations

import functools
import hmac
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.translation import gettext

from sixdice.gamekit.engine import get_engine
from sixdice.tables.core import i18n
from sixdice.tables.core.errors import BadSeat, GameOver, NoGame, NotAllowed, NotAway
from sixdice.tables.core.plain_rows import columns, from_db, ordered
from sixdice.tables.models import Event, Game, Seat, Table, TurnTimer
from sixdice.tables.reads.table_frame import (
    FRAMES,
    CachedFrame,
    FrameKey,
    build_frame,
    current_game,
    table_frame,
    with_timer,
)
from sixdice.tables.transport import presence
from sixdice.tables.wire.outgoing import (
    event_payload,
    seat_view,
    update_frame,
)


def events_since(game: Game, since: int) -> list[Event] | None:
    """Events after ``since`` up to ``game.seq`` (the row as read: an event committed since comes in its own
    update); ``None`` when the client is too far behind (send a snapshot)."""
    if since < 0 or since > game.seq:
        return None
    if game.seq - since > settings.SIXDICE_RESYNC_MAX_EVENTS:
        return None
    return list(game.events.filter(seq__gt=since, seq__lte=game.seq).order_by("seq"))


def role(seat: int | None, host: bool) -> str:
    return "seat" if seat is not None else "host" if host else "spectator"


def for_connection(frame: dict[str, Any], *, seat: int | None, host: bool) -> dict[str, Any]:
    """The snapshot fields for one connection, from a table frame: its role and its seat's view."""
    game = frame["game"]
    if game is not None:
        hidden = {"engine", "state"} if host else {"engine", "state", "corrections"}  # the rolls: the host's to correct
        shown = {key: value for key, value in game.items() if key not in hidden}
        shown["view"] = seat_view(get_engine(game["engine"]), game["state"], seat, host=host)
        game = shown
    return {"role": role(seat, host), "seat": seat, "host": host, **frame, "game": game}


def snapshot(table_id: int, *, seat: int | None, host: bool, code: str | None = None) -> dict[str, Any]:
    """A connection's snapshot of the table as it is now (``code``: note the frame as current, ``FRAMES.current``)."""
    return for_connection(table_frame(table_id, code=code), seat=seat, host=host)


def current_snapshot(code: str, table_id: int, *, seat: int | None, host: bool,
                     here: dict[str, Any] | None) -> dict[str, Any] | None:
    """:func:`snapshot` with no query, from the frame noted current (``FRAMES.current``); ``None`` without one.

    ``here``: who is here as this connection last heard (the frame's own count
    is of when it was built).  Only where every write commits in this process.
    """
    current = FRAMES.current(code, table_id)
    if current is None:
        return None
    frame = with_timer(current.cached.frame, current.table, current.game, (), timed=False)
    return for_connection(frame if here is None else {**frame, "presence": here}, seat=seat, host=host)


def welcome(table_id: int, *, seat: int | None, host: bool, game_id: int | None, since: int | None) -> dict[str, Any]:
    """A full snapshot; a reconnecting client that says where it was also gets the events it missed."""
    frame: dict[str, Any] = {"type": "welcome", **snapshot(table_id, seat=seat, host=host)}
    game = frame["game"]
    if game_id is not None and since is not None and game and game["id"] == game_id and since <= game["seq"]:
        frame["missed"] = _missed(game, since)
    return frame


def _missed_in_log(game: dict[str, Any], since: int) -> bool:
    """Whether the events after ``since`` are all in the frame's log (no query for them)."""
    log = game["log"]
    return since >= game["seq"] or bool(log and log[0]["seq"] <= since + 1 and log[-1]["seq"] == game["seq"])


def _missed(game: dict[str, Any], since: int) -> list[dict[str, Any]]:
    """The events after ``since`` up to the frame's own seq: from its log when the log reaches back that far.

    Up to the snapshot's own seq: an event committed since then comes as an
    update, and sending it here too would show it twice.
    """
    log = game["log"]
    if since >= game["seq"]:
        return []
    if _missed_in_log(game, since):
        return [e for e in log if e["seq"] > since][: settings.SIXDICE_RESYNC_MAX_EVENTS]
    missed = Event.objects.filter(game_id=game["id"], seq__gt=since, seq__lte=game["seq"]).order_by("seq")
    return [event_payload(e) for e in missed[: settings.SIXDICE_RESYNC_MAX_EVENTS]]


# ------------------------------------------------------------------ the connect path (docs/performance.md, "Connects")

# ------------------------------------------------------------------ a connect's one statement (docs/performance.md)

# The columns the connect path reads of each model; the others are deferred (reading one would be a query).
_TABLE_FIELDS = ordered(Table, ("id", "code", "game", "options", "host_secret_hash", "status", "capacity", "paused", "version"))
_GAME_FIELDS = ordered(Game, ("id", "table_id", "number", "seq", "status", "players", "started_at", "engine", "state"))
_SEAT_FIELDS = ordered(Seat, ("id", "table_id", "position", "name", "secret_hash", "is_bot", "bot_strength", "parked_secret_hash"))
_TIMER_FIELDS = ordered(TurnTimer, ("table_id", "seconds", "paused"))
# Where each model's columns start in a row, and the seat columns :func:`arrival` compares.
_G = len(_TABLE_FIELDS)
_S = _G + len(_GAME_FIELDS)
_TT = _S + len(_SEAT_FIELDS)
_POSITION, _SECRET, _PARKED = (_SEAT_FIELDS.index(name) for name in ("position", "secret_hash", "parked_secret_hash"))

_ARRIVAL_SQL = """
SELECT {table_columns}, {game_columns}, {seat_columns}, {timer_columns}
FROM {table} t LEFT JOIN {game} g
  ON g.id = (SELECT g2.id FROM {game} g2 WHERE g2.table_id = t.id ORDER BY g2.number DESC LIMIT 1)
  LEFT JOIN {seat} s ON s.table_id = t.id
  LEFT JOIN {timer} tt ON tt.table_id = t.id
WHERE t.code = %s ORDER BY s.position
"""


@functools.cache
def _arrival_sql() -> str:
    return _ARRIVAL_SQL.format(
        table_columns=columns("t", Table, _TABLE_FIELDS), game_columns=columns("g", Game, _GAME_FIELDS),
        seat_columns=columns("s", Seat, _SEAT_FIELDS), timer_columns=columns("tt", TurnTimer, _TIMER_FIELDS),
        seat=Seat._meta.db_table, table=Table._meta.db_table, game=Game._meta.db_table, timer=TurnTimer._meta.db_table,
    )


@dataclass
class Arrived:
    """What :func:`arrival` read of a table in its one statement, and the seat the connecting browser holds."""

    table: Table
    game: Game | None
    timer: TurnTimer | None
    seat_rows: list[tuple[Any, ...]]  # each seat's :data:`_SEAT_FIELDS`, in seat order
    seat: int | None  # the seat whose secret the browser holds
    parked: int | None  # the seat the app took over from this browser (its secret kept aside)

    @functools.cached_property
    def seats(self) -> list[Seat]:
        """The seats as model instances, built only when needed: for a table frame or a turn timer."""
        db = connections[DEFAULT_DB_ALIAS]
        return [from_db(Seat, _SEAT_FIELDS, row, db) for row in self.seat_rows]


def arrival(code: str, seat_digest: str | None) -> Arrived | None:
    """The table with this code, its current game, seats and turn timer, in one plain statement (a row per seat).

    ``seat_digest``: the hash of the seat secret the browser holds, if any.  A
    plain cursor, not the ORM: a ``RawQuerySet`` built a model per row and
    converted every column of every row, several times the cost of the SQL
    itself; here each object is built once, from the columns it needs.
    """
    db = connections[DEFAULT_DB_ALIAS]
    with db.cursor() as cursor:
        cursor.execute(_arrival_sql(), [code])
        rows = cursor.fetchall()
    if not rows:
        return None
    first = rows[0]
    table = from_db(Table, _TABLE_FIELDS, first[:_G], db)
    game = None if first[_G] is None else from_db(Game, _GAME_FIELDS, first[_G:_S], db)
    timer = None if first[_TT] is None else from_db(TurnTimer, _TIMER_FIELDS, first[_TT:], db)
    Table._meta.get_field("turn_timer").set_cached_value(table, timer)  # as select_related: no query for it
    seat_rows = [row[_S:_TT] for row in rows if row[_S] is not None]
    seat = parked = None
    if seat_digest:
        seat = next((r[_POSITION] for r in seat_rows if r[_SECRET] and hmac.compare_digest(r[_SECRET], seat_digest)), None)
        parked = next((r[_POSITION] for r in seat_rows if r[_PARKED] and hmac.compare_digest(r[_PARKED], seat_digest)), None)
    return Arrived(table, game, timer, seat_rows, seat, parked)


def _arrival_key(arrived: Arrived) -> FrameKey:
    table, game = arrived.table, arrived.game
    return (table.code, table.version, None, 0, None, None) if game is None else (
        table.code, table.version, game.pk, game.seq, game.status, game.started_at.isoformat()
    )


def _missed_since(shown: dict[str, Any] | None, game_id: int | None, since: int | None) -> int | None:
    """``since`` when a reconnecting client asks for the events it missed in the game shown; else ``None``."""
    if shown is None or game_id is None or since is None or shown["id"] != game_id or since > shown["seq"]:
        return None
    return since


def welcome_for(
    arrived: Arrived, *, host: bool, here: dict[str, Any], lang: str, game_id: int | None = None,
    since: int | None = None,
) -> dict[str, Any]:
    """The ``welcome`` for a connection that :func:`arrival` identified, its log already in ``lang``.

    From this process's cached table frame when it is still the table's (no
    query); else the frame is built from the arrival's rows (seats, log and,
    after a finished game, the standings).  ``presence`` is ``here``, counted
    just now.
    """
    cached = FRAMES.get(arrived.table.pk)
    if cached is None or cached.key != _arrival_key(arrived):
        cached = build_frame(arrived.table, arrived.game, here, reuse=cached, seats=arrived.seats)
    return _welcome(arrived, cached, host=host, here=here, lang=lang, game_id=game_id, since=since)


def welcome_from_cache(
    arrived: Arrived, *, host: bool, here: dict[str, Any], lang: str, game_id: int | None = None,
    since: int | None = None,
) -> dict[str, Any] | None:
    """:func:`welcome_for` without a query, or ``None``: the cached frame must be the arrival's, the table
    without a turn timer (its clock is read from the database), and the events missed in the frame's log."""
    cached = FRAMES.get(arrived.table.pk)
    if cached is None or cached.key != _arrival_key(arrived) or arrived.timer is not None:
        return None
    shown = cached.frame["game"]
    missed = _missed_since(shown, game_id, since)
    if missed is not None and not _missed_in_log(shown, missed):
        return None
    return _welcome(arrived, cached, host=host, here=here, lang=lang, game_id=game_id, since=since)


def _welcome(
    arrived: Arrived, cached: CachedFrame, *, host: bool, here: dict[str, Any], lang: str, game_id: int | None,
    since: int | None,
) -> dict[str, Any]:
    table, game = arrived.table, arrived.game
    # The clocks' parts are never remembered (their time left changes by the second); no turn timer, nothing to compute for it.
    timed = with_timer(cached.frame, table, game, arrived.seats, timed=arrived.timer is not None)
    frame: dict[str, Any] = {"type": "welcome", **for_connection(timed, seat=arrived.seat, host=host), "presence": here}
    shown = frame["game"]
    if shown is not None:
        log = cached.logs.get(lang)
        if log is None:  # each language's lines are rendered once per frame, not once per connection
            log = cached.logs[lang] = i18n.localize_events(shown["log"], lang)
        frame["game"] = {**shown, "log": log}
        missed = _missed_since(shown, game_id, since)
        if missed is not None:
            frame["missed"] = i18n.localize_events(_missed(shown, missed), lang)
    return frame


def resync(table_id: int, *, seat: int | None, host: bool, game_id: int | None, since: int) -> dict[str, Any]:
    """The events after ``since`` as an ``update`` when that is possible, else a full ``snapshot``."""
    game = Game.objects.filter(table_id=table_id).order_by("-number").select_related("table").first()
    selected = events_since(game, since) if game is not None and game_id == game.pk else None
    if game is None or selected is None:
        return {"type": "snapshot", **snapshot(table_id, seat=seat, host=host)}
    events = [event_payload(e) for e in selected]
    return update_frame(
        game.engine, game.pk, game.number, game.seq, game.status, events, game.state, seat, game.table.version,
        host=host, options=game.table.options,
    )


# ------------------------------------------------------------------ hints: only the phone of the seat whose choice it is


def host_hint(table: Table, position: int) -> dict[str, Any]:
    """The ``hint`` frame for the host who answers for an away seat: that seat's hint, asked for on purpose.

    Hints are private: the views send a hint only to the phone of the seat
    whose choice it is (never to the table screen, spectators, other seats or
    the host's console).  A host who answers for a seat whose phone is not
    here (not connected, or the app plays it) may ask for its hint; for a
    seat whose phone is at the table the answer is a refusal in words
    (``not_away``), and nothing changes.
    """
    seat = Seat.objects.filter(table_id=table.pk, position=position).first()
    if seat is None:
        raise BadSeat(gettext("There is no seat %(n)s at this table.") % {"n": position + 1})
    game = current_game(table)
    if game is None:
        raise NoGame(gettext("The game has not started yet."))
    if game.status != Game.Status.PLAYING:
        raise GameOver(gettext("This game is over."))
    engine = get_engine(game.engine)
    if not engine.shows_hints(game.options or {}):
        raise NotAllowed(gettext("Hints are off at this table."))
    here = position in presence.current(table.pk)["connected"]
    if here and not seat.is_bot:
        raise NotAway(gettext("%(name)s's phone is at the table: only that phone gets the hint.") % {"name": seat.name})
    if position not in engine.actors(game.state):
        raise NotAllowed(gettext("%(name)s has no choice to make now.") % {"name": seat.name})
    return {"type": "hint", "position": position, "seq": game.seq, "hint": engine.hint(game.state, position)}
