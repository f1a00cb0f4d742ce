"""The connect path of a live connection: who this socket is, its one trip to the database, presence frames.

A connect's database work is one hop off the event loop (:func:`arrive`),
before the handshake is answered; see ``docs/performance.md``, "Connects".
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DbSessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from sixdice.tables.core.errors import UnknownTable
from sixdice.tables.core.keys import Credentials, hash_secret, is_host
from sixdice.tables.reads import selectors, table_frame
from sixdice.tables.reads.timer_clock import parked_seat
from sixdice.tables.transport import flood_control, guess_limits, presence
from sixdice.tables.writes import after_commit
from sixdice.tables.writes.checked_path import load_table
from sixdice.tables.writes.services import seat_for

log = logging.getLogger(__name__)


@dataclass
class Who:
    table_id: int
    code: str
    seat: int | None
    host: bool
    credentials: Credentials
    bots: bool = False  # the table has seats the app plays, as of the last table frame
    timer: bool = False  # the table has a turn timer, as of the last table frame
    parked: int | None = None  # the seat the app took over from this browser (its secret kept aside)

    @property
    def role(self) -> str:
        return selectors.role(self.seat, self.host)

    @property
    def drivers(self) -> tuple[str, ...]:
        """The drivers this table has (as of the last table frame): its heartbeats keep them running."""
        return tuple(name for name, on in ((after_commit.BOTS, self.bots), (after_commit.TIMER, self.timer)) if on)


@dataclass
class Arrival:
    """What a connect read and wrote in its one trip to the database (``registered``: its presence row too)."""

    who: Who
    welcome: dict[str, Any]
    presence: dict[str, Any]
    arrived: selectors.Arrived | None = None
    registered: bool = True


class Refused(enum.Enum):
    """Why a connect's trip to the database let the client in no further."""

    FLOODED = "flooded"  # closed for flooding a moment ago, by any process: refused at the handshake (HTTP 403)
    GUESSING = "guessing"  # too many unknown table codes: told so, then closed with guess_limits.CLOSE_GUESSING


def arrive(
    session: Any, code: str, guesser: tuple[str | None, str | None], flood: flood_control.FloodKey, channel_name: str, lang: str,
    game_id: int | None, since: int | None,
) -> Arrival | Refused:
    """A connect's database work in one hop off the event loop, before the handshake is answered.

    The shared cache's notes on this client, its flood cool-down and its
    guess counters, in one lookup (1 statement on the database cache); the
    session (1; none without a session cookie); the table with its current
    game and this connection's seat (1); the presence row (1); who is here
    (1); and the welcome from this process's table frame when it is still
    current (0; else the log and after a finished game the standings: 2 at
    most).  A cookie that names no session puts the socket under its
    address's cool-down (``flood_control.FloodKey``), read in the same lookup.
    """
    notes = guess_limits.lookup([*flood.keys(), *guess_limits.guess_keys(*guesser)])
    if flood_control.cooling_down(flood.key, notes):
        return Refused.FLOODED
    tables = _tables_held(session)
    if flood.settle(live=tables is not None) and flood_control.cooling_down(flood.key, notes):
        return Refused.FLOODED  # a made-up session id, from an address cooling down
    held = (tables or {}).get(code, {})
    credentials = Credentials(seat_secret=held.get("seat"), host_secret=held.get("host"))
    digest = hash_secret(credentials.seat_secret) if credentials.seat_secret else None
    arrived = selectors.arrival(code, digest)
    seat = None if arrived is None else arrived.seat
    host = arrived is not None and is_host(arrived.table, credentials)
    # A browser holding this table's seat or host secret is not guessing codes: its counters do not hold it back.
    # Anyone else is refused while blocked, known code or not, so a blocked guesser learns nothing about which
    # codes exist.
    if seat is None and not host and guess_limits.blocked_by(notes):
        return Refused.GUESSING
    if arrived is None:
        guess_limits.record_miss(*guesser)
        raise UnknownTable(_("There is no table %(code)s.") % {"code": repr(code)})
    table = arrived.table
    presence.arrive(channel_name, table_id=table.pk, seat=seat, host=host)
    here = presence.current(table.pk)
    welcome = selectors.welcome_for(arrived, host=host, here=here, lang=lang, game_id=game_id, since=since)
    parked = None if seat is not None else arrived.parked
    who = Who(table_id=table.pk, code=table.code, seat=seat, host=host, credentials=credentials, parked=parked)
    return Arrival(who, welcome, here, arrived)


RECALL_SECONDS = 30.0
"""How long this process remembers who a browser was at a table, for its next connect (:class:`Recall`)."""


@dataclass
class _Known:
    arrival: Arrival
    changes: int  # the table's count of committed writes before it was read (table_frame.FRAMES.changes)
    until: float


class Recall:
    """The seats and hosts this process let in lately: the same browser back at once gets its welcome from the
    cached table frame, without a database trip (``docs/performance.md``, "Floods").

    Only while nothing was written to the table since (every write commits
    in this one process: the in-memory channel layer), its cached frame is
    the one that browser was shown, the table has no turn timer (its clock
    is read from the database), and for :data:`RECALL_SECONDS`.  Only a
    browser holding a seat or the host secret there, with a live session:
    such a browser is never held back for guessing codes.  Its presence row
    is written after its welcome has gone (:func:`register`).  Everyone else,
    and anything stale, takes the one trip (:func:`arrive`).  Runs on the
    event loop only.
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._known: OrderedDict[tuple[str, str], _Known] = OrderedDict()

    def remember(self, flood: flood_control.FloodKey, code: str, arrival: Arrival, changes: int) -> None:
        """Note who a browser was at ``code`` (its seat or host secret, found in a live session), as read after
        the table's count of writes was ``changes`` (read before the arrival: a write committed meanwhile
        makes the count differ, and the arrival is not recalled)."""
        who, arrived = arrival.who, arrival.arrived
        if arrived is None or not flood.session or not flood.live or (who.seat is None and not who.host):
            return
        kept = Arrival(replace(who), arrival.welcome, arrival.presence, arrived)  # its own Who: a connection changes its own
        self._known[(flood.session, code)] = _Known(kept, changes, time.monotonic() + RECALL_SECONDS)
        self._known.move_to_end((flood.session, code))
        while len(self._known) > self.size:
            self._known.popitem(last=False)

    def welcome(self, flood: flood_control.FloodKey, code: str, lang: str, game_id: int | None,
                since: int | None) -> Arrival | None:
        """The arrival of a browser remembered at ``code``, its welcome from the cached frame; ``None``: go to the database."""
        key = (flood.session or "", code)
        known = self._known.get(key)
        if known is None:
            return None
        who, arrived = known.arrival.who, known.arrival.arrived
        if known.until < time.monotonic() or arrived is None or known.changes != table_frame.FRAMES.changes(code):
            del self._known[key]
            return None
        here = announcer.last(code) or known.arrival.presence
        if who.seat is not None:
            here = {**here, "connected": sorted({*here["connected"], who.seat})}
        elif who.host:
            here = {**here, "host": True}
        welcome = selectors.welcome_from_cache(arrived, host=who.host, here=here, lang=lang, game_id=game_id, since=since)
        if welcome is None:
            return None
        return Arrival(replace(who), welcome, here, arrived, registered=False)

    def clear(self) -> None:
        self._known.clear()


async def come_in(scope: Any, code: str, channel_name: str, lang: str, game_id: int | None, since: int | None, *,
                  single_process: bool) -> Arrival | Refused:
    """A connect's arrival: recalled with no database trip when it may be (:class:`Recall`), else the one trip.

    The trip (:func:`arrive`) also looks up the flood cool-down (a refusal is
    an HTTP 403, as ``flood_control.FlowControl``'s), so a connect needs no
    hop of its own for it.  ``single_process``: every write commits in this
    process (the in-memory channel layer), which a recalled arrival needs.
    """
    flood = flood_control.flood_key(scope)
    recalled = recall.welcome(flood, code, lang, game_id, since) if single_process else None
    if recalled is not None:
        return recalled
    changes = table_frame.FRAMES.changes(code)  # before the trip reads the table
    arrival = await after_commit.database_sync_to_async(arrive)(
        scope.get("session"), code, guess_limits.scope_keys(scope), flood, channel_name, lang, game_id, since,
    )
    if single_process and isinstance(arrival, Arrival):
        recall.remember(flood, code, arrival, changes)
    return arrival


def register(channel_name: str, who: Who) -> dict[str, Any]:
    """A recalled connection's presence row, written after its welcome; who is here now."""
    presence.arrive(channel_name, table_id=who.table_id, seat=who.seat, host=who.host)
    return presence.current(who.table_id)


def _tables_held(session: Any) -> dict[str, Any] | None:
    """The table secrets a browser's session holds; ``None`` when it has no session, or its cookie names none.

    With the database session backend, in one plain statement: the ORM's
    query for it cost a third of a connect's database work.  The session is
    only read here, never written.
    """
    if session is None:
        return None
    store = getattr(session, "_wrapped", session)  # Channels hands the store over in a lazy wrapper
    if type(store) is DbSessionStore:
        key = store.session_key
        if not key:
            return None
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT session_data FROM {Session._meta.db_table} WHERE session_key = %s AND expire_date > %s",
                [key, connection.ops.adapt_datetimefield_value(timezone.now())],
            )
            row = cursor.fetchone()
        if row is None:  # expired, or never was: a made-up session id
            return None
        tables = store.decode(row[0]).get("tables")
    else:
        tables = session.get("tables")
        if not session.session_key:  # the backends that look a session up forget a key they do not find
            return None
    return tables if isinstance(tables, dict) else {}


def pulse(channel_name: str, table_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A heartbeat's database work in one hop: keep the connection present; where the table is; who is here."""
    return presence.heartbeat(channel_name, table_id), presence.current(table_id)


def leave(channel_name: str, table_id: int) -> dict[str, Any]:
    """A connection closed: its presence row goes; who is here now."""
    presence.unregister(channel_name)
    return presence.current(table_id)


def reidentify(who: Who) -> Who:
    table = load_table(who.code, allow_closed=True)
    seat = seat_for(table, who.credentials)
    parked = None if seat else parked_seat(table.pk, who.credentials)
    return Who(who.table_id, who.code, seat.position if seat else None, who.host, who.credentials, who.bots, who.timer, parked)


PRESENCE_GATHER = 0.05
"""Seconds a table's presence frame waits for more connects and disconnects (a connect storm, a table
sitting down together): one frame to everyone then carries them all, not one frame per connect."""


class _Announcer:
    """The presence frames this process owes, one per table at most, each sent :data:`PRESENCE_GATHER` s late.

    The frame carries who is here as counted by the last connect or
    disconnect at that table in this process, which is the freshest: its
    count came after its own presence row was written or deleted.
    """

    def __init__(self) -> None:
        self._due: dict[str, tuple[asyncio.AbstractEventLoop, dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._last: OrderedDict[str, dict[str, Any]] = OrderedDict()  # the last count announced, per table

    def last(self, code: str) -> dict[str, Any] | None:
        """Who was here at the table as last counted by this process (a recalled welcome's estimate)."""
        return self._last.get(code)

    def announce(self, layer: Any, code: str, here: dict[str, Any]) -> None:
        self._last[code] = here
        self._last.move_to_end(code)
        if len(self._last) > 4096:
            self._last.popitem(last=False)
        loop = asyncio.get_running_loop()
        due = self._due.get(code)
        self._due[code] = (loop, here)
        if due is not None and due[0] is loop and not loop.is_closed():
            return  # a frame is already due: it will carry this count
        loop.call_later(PRESENCE_GATHER, self._send, layer, code)

    def _send(self, layer: Any, code: str) -> None:
        due = self._due.pop(code, None)
        if due is None:
            return
        task = due[0].create_task(self._group_send(layer, code, due[1]))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _group_send(layer: Any, code: str, here: dict[str, Any]) -> None:
        try:
            await layer.group_send(after_commit.group_name(code), {"type": "table.presence", "presence": here})
        except Exception:  # a lost presence frame is corrected by the next one or a heartbeat's
            log.exception("presence frame to table %s failed", code)


announcer = _Announcer()
recall = Recall()


def has_bots(frame: dict[str, Any]) -> bool:
    return any(seat["bot"] for seat in frame["table"]["seats"])
