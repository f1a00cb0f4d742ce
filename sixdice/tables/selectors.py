"""Reads for pages and the live connection: what each role at a table is shown.

A table frame (:func:`table_frame`) is what everyone at a table shares; it is
computed once per table change and each connection turns it into its own
``snapshot`` with :func:`for_connection` (its role and its seat's view), with
no further query.
"""

from __future__ import annotations

import functools
import hmac
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.urls import reverse

from sixdice.gamekit.engine import get_engine

from . import i18n, presence
from .models import Event, Game, Seat, Table, TurnTimer


def event_payload(event: Event) -> dict[str, Any]:
    payload = {
        "seq": event.seq,
        "actor": event.actor,
        "action": event.action,
        "text": event.text,
        "notation": event.notation,  # each connection renders the line in its own language
        "at": event.created_at.isoformat() if event.created_at else None,
    }
    if event.stand_in:  # the app played it for a seat whose time ran out (sixdice/tables/timers.py)
        payload["stand_in"] = event.stand_in
    return payload


def table_info(table: Table, seats: Sequence[Seat] | None = None) -> dict[str, Any]:
    engine = get_engine(table.game)
    if seats is None:
        seats = list(table.seats.order_by("position"))
    return {
        "code": table.code,
        "game": table.game,
        "label": engine.label,
        "status": table.status,
        "paused": table.paused,
        "version": table.version,
        "capacity": table.capacity,
        "min_players": engine.min_players,
        "options": table.options,
        "join_url": reverse("tables:table", args=[table.code]),
        "seats": [
            {"position": seat.position, "name": seat.name, "bot": seat.is_bot, "strength": seat.bot_strength, "vacant": not (seat.secret_hash or seat.is_bot)}
            for seat in seats
        ],
    }


def current_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def recent_events(game: Game, limit: int = 40) -> list[Event]:
    return list(reversed(game.events.order_by("-seq")[:limit]))


def events_since(game: Game, since: int) -> list[Event] | None:
    """Events after ``since``; ``None`` when the client is too far behind (send a snapshot)."""
    if since < 0 or since > game.seq:
        return None
    if game.seq - since > settings.SIXDICE_RESYNC_MAX_EVENTS:
        return None
    return list(game.events.filter(seq__gt=since).order_by("seq"))


def standings(table: Table, seats: Sequence[Seat] | None = None) -> list[dict[str, Any]]:
    """Per seat over every finished game at the table: wins, times last, and places."""
    if seats is None:
        seats = list(table.seats.order_by("position"))
    rows: dict[int, dict[str, Any]] = {
        s.position: {"position": s.position, "name": s.name, "wins": 0, "lost": 0, "places": [0] * len(seats)}
        for s in seats
    }
    finished = Game.objects.filter(table_id=table.pk, status=Game.Status.FINISHED)
    for winners, places, loser in finished.values_list("winners", "places", "loser"):
        for seat in winners or []:
            if seat in rows:
                rows[seat]["wins"] += 1
        for place, seat in enumerate(places or []):
            if seat in rows and place < len(seats):
                rows[seat]["places"][place] += 1
        if loser in rows:
            rows[loser]["lost"] += 1
    return [rows[s.position] for s in seats]


# ------------------------------------------------------------------ frames for the live connection


def table_frame(table_id: int, *, log_size: int = 40) -> dict[str, Any]:
    """What everyone at the table shares, in at most six queries: computed once per table change.

    ``game`` carries the engine and the full ``state``: each connection
    derives its own seat's ``view`` from it (:func:`for_connection`).
    """
    table = Table.objects.select_related("turn_timer").get(pk=table_id)
    seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
    game = current_game(table)
    cached = _build_frame(table, game, presence.current(table_id), log_size=log_size, reuse=FRAMES.get(table_id), seats=seats)
    return with_timer(cached.frame, table, game, seats)


def with_timer(frame: dict[str, Any], table: Table, game: Game | None, seats: Sequence[Seat]) -> dict[str, Any]:
    """The frame with its ``timer`` (issue 14) as of now: never remembered, its time left changes by the second.

    ``table`` with its ``turn_timer`` loaded (or known to be absent).
    """
    from . import timers  # the turn timer (issue 14); it reads through this module's neighbours

    log = (frame["game"] or {}).get("log") or []
    last_at = datetime.fromisoformat(log[-1]["at"]) if log and log[-1].get("at") else None
    return {**frame, "timer": timers.frame_part(table, game, seats, last_at)}


def _build_frame(
    table: Table, game: Game | None, here: dict[str, Any], *, log_size: int = 40, reuse: CachedFrame | None = None,
    seats: list[Seat] | None = None,
) -> CachedFrame:
    """The table frame from the table row, its current game and who is here: 3 queries at most, and remembered.

    ``reuse``: an older frame of this table; its table part (seats, standings)
    is taken when the table's version is the same, its game part when the game
    and its seq are, each without a query.
    """
    frame: dict[str, Any] = {"table": None, "presence": here, "standings": None, "game": None}
    logs: dict[str, list[dict[str, Any]]] = {}
    if reuse is not None and reuse.key[:2] == (table.code, table.version):
        frame["table"] = {**reuse.frame["table"], "status": table.status, "paused": table.paused}
        frame["standings"] = reuse.frame["standings"]
    else:
        if seats is None:
            seats = list(Seat.objects.filter(table_id=table.pk).order_by("position"))
        # Only a finished game counts in the standings: none exists while the first game is being played.
        no_results = game is None or (game.number == 1 and game.status == Game.Status.PLAYING)
        frame["table"] = table_info(table, seats)
        frame["standings"] = [_no_standing(s, len(seats)) for s in seats] if no_results else standings(table, seats)
    if game is not None:
        game_key = (game.pk, game.seq, game.status, game.started_at.isoformat())
        if reuse is not None and reuse.key[2:] == game_key and reuse.frame["game"] is not None:
            frame["game"] = reuse.frame["game"]
            logs = reuse.logs
        else:
            frame["game"] = {
                "id": game.pk,
                "number": game.number,
                "seq": game.seq,
                "status": game.status,
                "players": game.players,
                "started_at": game.started_at.isoformat(),
                # A game at seq 0 has no events yet: no query.
                "log": [event_payload(e) for e in recent_events(game, log_size)] if game.seq else [],
                "engine": game.engine,
                "state": game.state,
            }
            links = end_links(game, code=table.code)
            if links is not None:  # the end screen: the replay, the standings, "Send to BG Stats"
                frame["game"]["links"] = links
    return FRAMES.put(table.pk, frame, logs)


GameLinks = Callable[[Game, str], Mapping[str, str]]
END_LINKS: list[GameLinks] = []
"""What else a finished game's end screen links to, each given the game and its table's code: the
review app adds the replay and "Send to BG Stats" (its ``apps.py``; the tables never import it)."""

STANDINGS_PANEL = "standings-card"
"""The id of the table page's standings panel: a link to ``#standings-card`` opens it (``static/js/table.js``)."""


def end_links(game: Game, *, code: str) -> dict[str, str] | None:
    """The links of a finished game's end screen (the table frame's ``game.links``); ``None`` before its end.

    The table's standings, then whatever :data:`END_LINKS` add; no query of their own.
    """
    if game.status != Game.Status.FINISHED:
        return None
    links = {"standings": reverse("tables:table", args=[code]) + "#" + STANDINGS_PANEL}
    for more in END_LINKS:
        links.update(more(game, code))
    return links


def _no_standing(seat: Seat, n: int) -> dict[str, Any]:
    return {"position": seat.position, "name": seat.name, "wins": 0, "lost": 0, "places": [0] * n}


def role(seat: int | None, host: bool) -> str:
    return "seat" if seat is not None else "host" if host else "spectator"


def for_connection(frame: dict[str, Any], *, seat: int | None, host: bool) -> dict[str, Any]:
    """The snapshot fields for one connection, from a table frame: its role and its seat's view."""
    game = frame["game"]
    if game is not None:
        shown = {key: value for key, value in game.items() if key not in {"engine", "state"}}
        shown["view"] = get_engine(game["engine"]).view(game["state"], seat)
        game = shown
    return {"role": role(seat, host), "seat": seat, "host": host, **frame, "game": game}


def snapshot(table_id: int, *, seat: int | None, host: bool) -> dict[str, Any]:
    return for_connection(table_frame(table_id), seat=seat, host=host)


def welcome(table_id: int, *, seat: int | None, host: bool, game_id: int | None, since: int | None) -> dict[str, Any]:
    """A full snapshot; a reconnecting client that says where it was also gets the events it missed."""
    frame: dict[str, Any] = {"type": "welcome", **snapshot(table_id, seat=seat, host=host)}
    game = frame["game"]
    if game_id is not None and since is not None and game and game["id"] == game_id and since <= game["seq"]:
        frame["missed"] = _missed(game, since)
    return frame


def _missed(game: dict[str, Any], since: int) -> list[dict[str, Any]]:
    """The events after ``since`` up to the frame's own seq: from its log when the log reaches back that far.

    Up to the snapshot's own seq: an event committed since then comes as an
    update, and sending it here too would show it twice.
    """
    log = game["log"]
    if since >= game["seq"]:
        return []
    if log and log[0]["seq"] <= since + 1 and log[-1]["seq"] == game["seq"]:
        return [e for e in log if e["seq"] > since][: settings.SIXDICE_RESYNC_MAX_EVENTS]
    missed = Event.objects.filter(game_id=game["id"], seq__gt=since, seq__lte=game["seq"]).order_by("seq")
    return [event_payload(e) for e in missed[: settings.SIXDICE_RESYNC_MAX_EVENTS]]


# ------------------------------------------------------------------ the connect path (docs/performance.md, "Connects")

FrameKey = tuple[str, int, int | None, int, str | None, str | None]


def frame_key(frame: dict[str, Any]) -> FrameKey:
    """What identifies a table frame: the table's code and version, its current game and that game's seq.

    Every change to the table bumps its version, every event the game's seq,
    and events are only ever appended (an undo is an event too), so two frames
    with one key hold the same thing, whichever process computed them (a
    game abandoned when the host closes the table changes its status, not its
    seq: the status is in the key too).  (The
    code and the game's start time guard against a database whose ids start
    again, as between tests.)
    """
    game = frame["game"]
    if game is None:
        return (frame["table"]["code"], frame["table"]["version"], None, 0, None, None)
    return (frame["table"]["code"], frame["table"]["version"], game["id"], game["seq"], game["status"], game["started_at"])


@dataclass
class CachedFrame:
    key: FrameKey
    frame: dict[str, Any]
    logs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # the game's log per language


class FrameCache:
    """The last table frame this process computed for each table, for the welcome of the next connection.

    A connect compares the key it reads from the database (in the one query
    that identifies it) with the cached frame's: equal keys, no query for the
    frame; else the parts still current are reused (:func:`_build_frame`).  Bounded (least recently used out); shared by the database
    threads, hence the lock.
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._frames: OrderedDict[int, CachedFrame] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: int) -> CachedFrame | None:
        with self._lock:
            cached = self._frames.get(table_id)
            if cached is not None:
                self._frames.move_to_end(table_id)
            return cached

    def put(self, table_id: int, frame: dict[str, Any], logs: dict[str, list[dict[str, Any]]] | None = None) -> CachedFrame:
        cached = CachedFrame(frame_key(frame), frame, {} if logs is None else logs)
        with self._lock:
            self._frames[table_id] = cached
            self._frames.move_to_end(table_id)
            while len(self._frames) > self.size:
                self._frames.popitem(last=False)
        return cached

    def clear(self) -> None:
        with self._lock:
            self._frames.clear()


FRAMES = FrameCache()

# ------------------------------------------------------------------ a connect's one statement (docs/performance.md)

M = TypeVar("M", bound=models.Model)


def _ordered(model: type[models.Model], names: Sequence[str]) -> tuple[str, ...]:
    """``names`` (attnames) in the model's field order, as :meth:`Model.from_db` takes a row's values."""
    order = [f.attname for f in model._meta.concrete_fields]
    return tuple(sorted(names, key=order.index))


# The columns the connect path reads of each model; the others are deferred (reading one would be a query).
_TABLE_FIELDS = _ordered(Table, ("id", "code", "game", "options", "host_secret_hash", "status", "capacity", "paused", "version"))
_GAME_FIELDS = _ordered(Game, ("id", "table_id", "number", "seq", "status", "players", "started_at", "engine", "state"))
_SEAT_FIELDS = _ordered(Seat, ("id", "table_id", "position", "name", "secret_hash", "is_bot", "bot_strength", "parked_secret_hash"))
_TIMER_FIELDS = _ordered(TurnTimer, ("table_id", "seconds", "paused"))
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


def _columns(alias: str, model: type[models.Model], names: Sequence[str]) -> str:
    return ", ".join(f"{alias}.{_field(model, name).column}" for name in names)


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    found = model._meta.get_field(name)
    assert isinstance(found, models.Field)
    return found


@functools.cache
def _arrival_sql() -> str:
    return _ARRIVAL_SQL.format(
        table_columns=_columns("t", Table, _TABLE_FIELDS), game_columns=_columns("g", Game, _GAME_FIELDS),
        seat_columns=_columns("s", Seat, _SEAT_FIELDS), timer_columns=_columns("tt", TurnTimer, _TIMER_FIELDS),
        seat=Seat._meta.db_table, table=Table._meta.db_table, game=Game._meta.db_table, timer=TurnTimer._meta.db_table,
    )


@functools.cache
def _reader(
    alias: str, vendor: str, model: type[models.Model], names: tuple[str, ...],
) -> tuple[list[Any], tuple[int, ...], tuple[tuple[Any, list[Any]] | None, ...]]:
    """How to build ``model`` from a row of ``names``: the model's row with every field deferred, where each
    name goes in it, and the ORM's own converters of each column's values (JSON, dates, booleans on SQLite).

    Looked up once per database and columns: finding the converters is most of what the ORM spends
    converting a row.
    """
    fields = [f.attname for f in model._meta.concrete_fields]
    converters: list[tuple[Any, list[Any]] | None] = []
    for name in names:
        column = _field(model, name).get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        converters.append((column, found) if found else None)
    return [models.DEFERRED] * len(fields), tuple(fields.index(name) for name in names), tuple(converters)


def _from_db(model: type[M], names: tuple[str, ...], values: Sequence[Any], db: BaseDatabaseWrapper) -> M:
    """An instance from a plain row's ``values`` of ``names``, each converted as the ORM converts it.

    The model's other fields are deferred (:meth:`Model.from_db`): reading
    one loads it with a query, as after ``.only()``; none is read on the
    connect path.  ``db``: the connection itself, not Django's proxy to
    this thread's (each look through the proxy costs a thread-local lookup).
    """
    deferred, slots, converters = _reader(db.alias, db.vendor, model, names)
    row = list(deferred)
    for value, slot, conv in zip(values, slots, converters, strict=True):
        if conv is not None and value is not None:
            column, functions = conv
            for function in functions:
                value = function(value, column, db)
        row[slot] = value
    return model.from_db(db.alias, names, row)


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
        return [_from_db(Seat, _SEAT_FIELDS, row, db) for row in self.seat_rows]


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
    table = _from_db(Table, _TABLE_FIELDS, first[:_G], db)
    game = None if first[_G] is None else _from_db(Game, _GAME_FIELDS, first[_G:_S], db)
    timer = None if first[_TT] is None else _from_db(TurnTimer, _TIMER_FIELDS, first[_TT:], db)
    Table._meta.get_field("turn_timer").set_cached_value(table, timer)  # as select_related: no query for it
    seat_rows = [row[_S:_TT] for row in rows if row[_S] is not None]
    seat = parked = None
    if seat_digest:
        seat = next((r[_POSITION] for r in seat_rows if r[_SECRET] and hmac.compare_digest(r[_SECRET], seat_digest)), None)
        parked = next((r[_POSITION] for r in seat_rows if r[_PARKED] and hmac.compare_digest(r[_PARKED], seat_digest)), None)
    return Arrived(table, game, timer, seat_rows, seat, parked)


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
    table, game, seat = arrived.table, arrived.game, arrived.seat
    key: FrameKey = (table.code, table.version, None, 0, None, None) if game is None else (
        table.code, table.version, game.pk, game.seq, game.status, game.started_at.isoformat()
    )
    cached = FRAMES.get(table.pk)
    if cached is None or cached.key != key:
        cached = _build_frame(table, game, here, reuse=cached, seats=arrived.seats)
    # The turn timer's part is never remembered (its time left changes by the second); no timer, nothing to compute.
    timed = {**cached.frame, "timer": None} if arrived.timer is None else with_timer(cached.frame, table, game, arrived.seats)
    frame: dict[str, Any] = {"type": "welcome", **for_connection(timed, seat=seat, host=host), "presence": here}
    shown = frame["game"]
    if shown is not None:
        log = cached.logs.get(lang)
        if log is None:  # each language's lines are rendered once per frame, not once per connection
            log = cached.logs[lang] = i18n.localize_events(shown["log"], lang)
        missed = _missed(shown, since) if (
            game_id is not None and since is not None and shown["id"] == game_id and since <= shown["seq"]
        ) else None
        frame["game"] = {**shown, "log": log}
        if missed is not None:
            frame["missed"] = i18n.localize_events(missed, lang)
    return frame


def update_frame(
    engine: str, game: int, number: int, seq: int, status: str, events: list[dict[str, Any]],
    state: dict[str, Any], seat: int | None, version: int,
) -> dict[str, Any]:
    """An ``update`` frame: new events, this seat's view of the state after them, the table's version."""
    return {
        "type": "update", "game": game, "number": number, "seq": seq, "status": status,
        "events": events, "view": get_engine(engine).view(state, seat), "version": version,
    }


def events_message(
    *, engine: str, game: int, number: int, seq: int, status: str, events: list[dict[str, Any]],
    state: dict[str, Any], version: int,
) -> dict[str, Any]:
    """The channel message of new events: prepared strings, so the layer copies it cheaply per seat.

    Serialized once, by the writer; every process that receives it parses the
    state once (:class:`PreparedUpdate`), not once per seat.
    """
    return {
        # key: names this message in every process's cache (a game id and seq may recur in tests' databases)
        "type": "table.events", "key": f"{game}:{seq}:{secrets.token_hex(6)}", "engine": engine, "game": game, "number": number,
        "seq": seq, "status": status, "version": version,
        "events": json.dumps(events, separators=(",", ":")), "state": json.dumps(state, separators=(",", ":")),
    }


class PreparedUpdate:
    """The ``update`` frames of one move, in one process: one view per distinct seat, one events list
    per language, each serialized once; a connection gets ready text.

    The frame holds the same fields as :func:`update_frame` (spectators and the host share the view of
    seat ``None``).
    """

    def __init__(self, message: dict[str, Any]) -> None:
        self.engine = get_engine(message["engine"])
        self._state_json: str = message["state"]
        self._events_json: str = message["events"]
        self._state: dict[str, Any] | None = None
        self._events: list[dict[str, Any]] | None = None
        self.head = (
            f'{{"type":"update","game":{int(message["game"])},"number":{int(message["number"])},'
            f'"seq":{int(message["seq"])},"status":{json.dumps(message["status"])},"version":{int(message["version"])}'
        )
        self.views: dict[int | None, str] = {}
        self.events: dict[str, str] = {}
        self._shared: str | None = None  # the part of the view every seat shares, as JSON
        self._own: Callable[[int | None], dict[str, Any]] | None = None

    def _view(self, seat: int | None) -> str:
        """``seat``'s view as JSON: the shared part serialized once per move, the seat's own part joined to it."""
        if self._own is None:
            self._state = json.loads(self._state_json)
            shared, self._own = self.engine.view_parts(self._state)
            self._shared = json.dumps(shared, separators=(",", ":"))
        assert self._shared is not None
        own = json.dumps(self._own(seat), separators=(",", ":"))
        if own == "{}":
            return self._shared
        if self._shared == "{}":
            return own
        return f"{self._shared[:-1]},{own[1:]}"

    def text(self, seat: int | None, language: str) -> str:
        view = self.views.get(seat)
        if view is None:
            view = self.views[seat] = self._view(seat)
        events = self.events.get(language)
        if events is None:
            if self._events is None:
                self._events = json.loads(self._events_json)
            localized = i18n.localize_events(self._events, language)
            events = self.events[language] = json.dumps(localized, separators=(",", ":"))
        return f'{self.head},"events":{events},"view":{view}}}'


_PREPARED: OrderedDict[str, PreparedUpdate] = OrderedDict()
_PREPARED_KEEP = 256  # moves whose frames are kept: far more than are in flight at once in one process


def update_text(message: dict[str, Any], seat: int | None, language: str) -> str:
    """The ``update`` frame of a ``table.events`` message for one connection, as JSON text.

    The first connection of this process that receives the move prepares it; the others reuse it.
    """
    key = message["key"]
    prepared = _PREPARED.get(key)
    if prepared is None:
        prepared = _PREPARED[key] = PreparedUpdate(message)
        while len(_PREPARED) > _PREPARED_KEEP:
            _PREPARED.popitem(last=False)
    return prepared.text(seat, language)


def resync(table_id: int, *, seat: int | None, host: bool, game_id: int | None, since: int) -> dict[str, Any]:
    """The events after ``since`` as an ``update`` when that is possible, else a full ``snapshot``."""
    game = Game.objects.filter(table_id=table_id).order_by("-number").select_related("table").first()
    selected = events_since(game, since) if game is not None and game_id == game.pk else None
    if game is None or selected is None:
        return {"type": "snapshot", **snapshot(table_id, seat=seat, host=host)}
    events = [event_payload(e) for e in selected]
    return update_frame(
        game.engine, game.pk, game.number, game.seq, game.status, events, game.state, seat, game.table.version
    )
