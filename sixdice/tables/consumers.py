"""The live connection of every phone, host page and spectator, for both games.

Thin: parse a frame, make one service or selector call, reply.  The protocol
is in ``docs/protocol.md``; writes are in ``services``, reads in
``selectors``, presence in ``presence`` and the bots in ``bots``.
"""

from __future__ import annotations

import asyncio
import enum
import json
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as DbSessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from sixdice.gamekit.engine import GameError

from . import bots, broadcast, dedupe, flow, handover, i18n, presence, selectors, services, throttle, timers
from .broadcast import database_sync_to_async, write
from .frames import dumps, valid_ref
from .services import Credentials, ServiceError

log = logging.getLogger(__name__)

# Refusals that come with the table as it is now, so the client can redraw it.
WITH_SNAPSHOT = frozenset({"stale", "not_allowed", "illegal", "paused", "game_over"})


class BadFrame(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


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


@dataclass
class Arrival:
    """What a connect read and wrote in its one trip to the database."""

    who: Who
    welcome: dict[str, Any]
    presence: dict[str, Any]


class Refused(enum.Enum):
    """Why a connect's trip to the database let the client in no further."""

    FLOODED = "flooded"  # closed for flooding a moment ago, by any process: refused at the handshake (HTTP 403)
    GUESSING = "guessing"  # too many unknown table codes: told so, then closed with throttle.CLOSE_GUESSING


def _arrive(
    session: Any, code: str, guesser: tuple[str | None, str | None], flood: flow.FloodKey, channel_name: str, lang: str,
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
    address's cool-down (``flow.FloodKey``), read in the same lookup.
    """
    notes = throttle.lookup([*flood.keys(), *throttle.guess_keys(*guesser)])
    if flow.cooling_down(flood.key, notes):
        return Refused.FLOODED
    tables = _tables_held(session)
    if flood.settle(live=tables is not None) and flow.cooling_down(flood.key, notes):
        return Refused.FLOODED  # a made-up session id, from an address cooling down
    held = (tables or {}).get(code, {})
    credentials = Credentials(seat_secret=held.get("seat"), host_secret=held.get("host"))
    digest = services.hash_secret(credentials.seat_secret) if credentials.seat_secret else None
    arrived = selectors.arrival(code, digest)
    seat = None if arrived is None else arrived.seat
    host = arrived is not None and services.is_host(arrived.table, credentials)
    # A browser holding this table's seat or host secret is not guessing codes: its counters do not hold it back.
    # Anyone else is refused while blocked, known code or not, so a blocked guesser learns nothing about which
    # codes exist.
    if seat is None and not host and throttle.blocked_by(notes):
        return Refused.GUESSING
    if arrived is None:
        throttle.record_miss(*guesser)
        raise ServiceError("unknown_table", _("There is no table %(code)s.") % {"code": repr(code)})
    table = arrived.table
    presence.arrive(channel_name, table_id=table.pk, seat=seat, host=host)
    here = presence.current(table.pk)
    welcome = selectors.welcome_for(arrived, host=host, here=here, lang=lang, game_id=game_id, since=since)
    parked = None if seat is not None else arrived.parked
    who = Who(table_id=table.pk, code=table.code, seat=seat, host=host, credentials=credentials, parked=parked)
    return Arrival(who, welcome, here)


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


def _pulse(channel_name: str, table_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A heartbeat's database work in one hop: keep the connection present; where the table is; who is here."""
    return presence.heartbeat(channel_name, table_id), presence.current(table_id)


def _leave(channel_name: str, table_id: int) -> dict[str, Any]:
    """A connection closed: its presence row goes; who is here now."""
    presence.unregister(channel_name)
    return presence.current(table_id)


def _reidentify(who: Who) -> Who:
    table = services.load_table(who.code, allow_closed=True)
    seat = services.seat_for(table, who.credentials)
    parked = None if seat else timers.parked_seat(table.pk, who.credentials)
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

    def announce(self, layer: Any, code: str, here: dict[str, Any]) -> None:
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
            await layer.group_send(broadcast.group_name(code), {"type": "table.presence", "presence": here})
        except Exception:  # a lost presence frame is corrected by the next one or a heartbeat's
            log.exception("presence frame to table %s failed", code)


_announcer = _Announcer()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _int_field(msg: dict[str, Any], name: str) -> int:
    value = msg.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadFrame("bad_field", _("Field %(name)s must be a whole number.") % {"name": repr(name)})
    return value


def _has_bots(frame: dict[str, Any]) -> bool:
    return any(seat["bot"] for seat in frame["table"]["seats"])


class TableConsumer(AsyncWebsocketConsumer):
    """One WebSocket at ``/ws/t/<code>/``: a seat, the host, or a spectator."""

    who: Who | None = None
    lang: str = "en"  # this connection's language: log lines and messages are rendered in it
    version: int = -1  # the table version of the last table frame sent on this connection
    seen_presence: dict[str, Any] | None = None  # the last presence frame this connection was sent

    busy: int = 0  # handlers of this connection running now (see ``take``)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            detach = getattr(getattr(self, "channel_layer", None), "detach", None)
            if detach is not None:
                detach(self.channel_name)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Overrides Channels (no setting does it): no thread hop per message to close DB connections, docs/performance.md #6.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        kind = message["type"]
        if kind == "websocket.connect":
            attach = getattr(self.channel_layer, "attach", None)  # the one-process layer's local fan-out
            if attach is not None:
                attach(self.channel_name, self.take)
        self.busy += 1
        try:
            await handler(message)
        finally:
            self.busy -= 1
            if not kind.startswith("websocket."):  # a group message, from this connection's queue
                handled = getattr(self.channel_layer, "handled", None)
                if handled is not None:
                    handled(self.channel_name)

    async def take(self, message: dict[str, Any]) -> bool:
        """A group message handed over by a sender in this process (``layers.DIRECT_TYPES``): handle it now.

        Only while this connection handles nothing else (it is not, say, the
        mover still answering its own action: its ``ack`` goes out before its
        ``update``), which the layer asks together with an empty queue;
        ``False`` and the layer queues it.
        """
        if self.busy or self.who is None:
            return False
        self.busy += 1
        try:
            await getattr(self, get_handler_name(message))(message)
        finally:
            self.busy -= 1
        return True

    async def connect(self) -> None:
        self.lang = i18n.connection_language(self.scope)
        with translation.override(self.lang):
            await self._connect()

    async def _connect(self) -> None:
        code = services.normalise_code(self.scope["url_route"]["kwargs"]["code"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        game_id: int | None
        since: int | None
        try:
            game_id, since = int(query["game"][0]), int(query["since"][0])
        except (KeyError, ValueError):
            game_id = since = None
        group = broadcast.group_name(code)
        # In the group before the welcome is read: a move committed meanwhile arrives as an update.
        await self.channel_layer.group_add(group, self.channel_name)
        # The handshake is answered after the one trip to the database: it also looks up the flood cool-down
        # (a refusal is an HTTP 403, as flow.FlowControl's), so a connect needs no hop of its own for it.
        try:
            arrival = await database_sync_to_async(_arrive)(
                self.scope.get("session"), code, throttle.scope_keys(self.scope), flow.flood_key(self.scope),
                self.channel_name, self.lang, game_id, since,
            )
        except ServiceError as exc:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.accept()
            await self._error(exc.code, exc.message)
            await self.close(code=4404)
            return
        if isinstance(arrival, Refused):
            await self.channel_layer.group_discard(group, self.channel_name)
            if arrival is Refused.GUESSING:
                await self.accept()
                await self._error("rate_limited", _("Too many unknown table codes: please wait a few minutes."))
                await self.close(code=throttle.CLOSE_GUESSING)
            else:
                await self.close()  # before accepting: the handshake is refused
            return
        await self.accept()
        self.who = who = arrival.who
        await self._send_table(arrival.welcome, localized=True)
        # Who is here was counted in the same trip: tell everyone at the table (with other connects of the moment).
        _announcer.announce(self.channel_layer, code, arrival.presence)
        if who.bots:
            bots.kick(who.code)
        if who.timer:
            timers.kick(who.code)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        # Overrides Channels, as dispatch: no thread hop to close database connections at every disconnect.
        # (This consumer joins its group itself, so Channels' ``groups`` is empty: nothing else to do.)
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def disconnect(self, close_code: int) -> None:
        if self.who is None:
            return
        group = broadcast.group_name(self.who.code)
        await self.channel_layer.group_discard(group, self.channel_name)
        here = await database_sync_to_async(_leave)(self.channel_name, self.who.table_id)
        _announcer.announce(self.channel_layer, self.who.code, here)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.who is None:
            return
        with translation.override(self.lang):
            ref = None
            try:
                msg = self._parse(text_data, bytes_data)
                ref = msg.get("id")
                await self._dispatch(self.who, msg, ref)
            except BadFrame as exc:
                await self._error(exc.code, exc.message, ref)
            except ServiceError as exc:
                extra: dict[str, Any] = dict(exc.extra)  # e.g. duplicate: true (dedupe)
                if exc.code in WITH_SNAPSHOT:
                    extra["snapshot"] = await self._snapshot()
                await self._error(exc.code, exc.message, ref, **extra)
            except GameError as exc:
                await self._error(exc.code, i18n.game_error_message(exc), ref)
            except Exception:  # a bug must not cost the table its connection; the transaction rolled back
                log.exception("table %s: unexpected error handling a frame", self.who.code)
                await self._error("server_error", _("Something went wrong on the server; nothing was changed."), ref)

    def _parse(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
        raw = text_data if text_data is not None else bytes_data
        if raw is None:
            raise BadFrame("bad_json", _("Empty frame."))
        if len(raw.encode() if isinstance(raw, str) else raw) > settings.SIXDICE_WS_MAX_FRAME:
            raise BadFrame("too_large", _("Frame is larger than 64 KiB."))
        if bytes_data is not None:
            raise BadFrame("bad_json", _("Send text frames holding JSON."))
        try:
            msg = json.loads(raw, parse_constant=_no_constant)  # NaN, Infinity: not JSON
        except (ValueError, RecursionError):
            raise BadFrame("bad_json", _("That frame is not valid JSON.")) from None
        if not isinstance(msg, dict):
            raise BadFrame("bad_json", _("A frame must be a JSON object."))
        if not isinstance(msg.get("type"), str):
            raise BadFrame("bad_field", _("Field %(name)s is missing or not a string.") % {"name": "'type'"})
        ref = msg.get("id")
        if ref is not None and not valid_ref(ref):  # echoed as ref: a short string of UTF-8 text or a number
            raise BadFrame("bad_field", _("Field %(name)s must be a string or a number.") % {"name": "'id'"})
        return msg

    async def _dispatch(self, who: Who, msg: dict[str, Any], ref: Any) -> None:
        kind = msg["type"]
        if kind == "ping":
            # Join the table's group again: a channel layer that restarted (Redis) forgot it.
            # The pong's version and seq let a client that missed broadcasts catch up.
            await self.channel_layer.group_add(broadcast.group_name(who.code), self.channel_name)
            where, here = await database_sync_to_async(_pulse)(self.channel_name, who.table_id)
            await self._send({"type": "pong", "ref": ref, **where})
            if self.seen_presence is not None and here != self.seen_presence:
                # A connection gone silent (no heartbeat for SIXDICE_PRESENCE_TIMEOUT) is away now: say so.
                await self._tell_presence(here)
            if who.bots:  # whichever process hears a heartbeat makes sure the bots are driven
                bots.kick(who.code)
            if who.timer:  # ... and the turn timer
                timers.kick(who.code)
        elif kind == "action":
            action = msg.get("action")
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise BadFrame("bad_field", _("Field %(name)s must be an object with a %(type)s.") % {"name": "'action'", "type": "'type'"})
            seq = _int_field(msg, "seq")
            as_host = msg.get("as_host", False)
            if not isinstance(as_host, bool):
                raise BadFrame("bad_field", _("Field %(name)s must be true or false.") % {"name": "'as_host'"})
            sender = "host" if as_host else (None if who.seat is None else str(who.seat))
            outcome = await write(
                dedupe.apply_once, table_id=who.table_id, sender=sender,
                action_id=dedupe.clean_action_id(msg.get("action_id")), table_code=who.code,
                credentials=who.credentials, action=action, expected_seq=seq, as_host=as_host,
            )
            await self._send({**outcome.reply, "ref": ref})
            applied = outcome.applied
            if applied is not None and applied.bots:
                bots.kick(who.code)
            if applied is not None and who.timer:
                timers.kick(who.code)
        elif kind == "take_back":  # a player takes back their own last action (issue 14, docs/undo.md)
            from .undo import take_back

            await write(take_back, table_code=who.code, credentials=who.credentials, expected_seq=_int_field(msg, "seq"))
            await self._send({"type": "ack", "ref": ref})
            if who.timer:  # the seat in turn changed back: its timer starts again
                timers.kick(who.code)
        elif kind == "resync":
            since = _int_field(msg, "since")
            game_id = msg.get("game")
            if game_id is not None and (isinstance(game_id, bool) or not isinstance(game_id, int)):
                raise BadFrame("bad_field", _("Field %(name)s must be a whole number.") % {"name": "'game'"})
            reply = await database_sync_to_async(selectors.resync)(
                who.table_id, seat=who.seat, host=who.host, game_id=game_id, since=since
            )
            await self._send_table({**reply, "ref": ref})
        elif kind == "resync_table":
            await self._send_table({"type": "snapshot", **await self._snapshot(), "ref": ref})
        elif kind == "host":
            reply = await write(
                services.host_command, table_code=who.code, credentials=who.credentials,
                command=msg.get("command"), fields=msg,
            )
            if reply and reply.get("type") == "handover":  # the link as a QR code too
                reply["url_full"] = handover.absolute_url(self.scope, reply["url"])
                reply["qr"] = handover.qr_svg(reply["url_full"])
            await self._send({**(reply or {"type": "ack"}), "ref": ref})
            bots.kick(who.code)  # the command may have given a bot its turn (issue 14: the take-over freeze)
            timers.kick(who.code)  # ... or started a game (or the timer) that is timed
        elif kind == "back":  # "I'm back": the seat the app took over after timeouts returns to this phone
            await write(timers.come_back, table_code=who.code, credentials=who.credentials)
            await self._send({"type": "ack", "ref": ref})
            timers.kick(who.code)  # the seat is timed again (the driver of this process may have stopped)
        else:
            raise BadFrame("unknown_type", _("Unknown message type %(kind)s.") % {"kind": repr(kind)})

    # -------------------------------------------------------------- group messages

    async def table_events(self, event: dict[str, Any]) -> None:
        assert self.who is not None
        # Ready text, prepared once per move, view and language in this process (docs/performance.md).
        await self.send(text_data=selectors.update_text(event, self.who.seat, self.lang))

    async def table_frame(self, event: dict[str, Any]) -> None:
        """A table change: one frame computed by the writer, made this connection's snapshot here."""
        assert self.who is not None
        frame = event["frame"]
        if frame["table"]["version"] < self.version:
            return  # an older frame overtaken by a newer one (two writers in two processes)
        self.who.bots = _has_bots(frame)
        if self.who.seat is None and self.who.credentials.seat_secret:
            # A phone whose seat the app played: "Give the seat back" may have returned it.
            self.who = await database_sync_to_async(_reidentify)(self.who)
            if self.who.seat is not None:
                await database_sync_to_async(presence.register)(
                    self.channel_name, table_id=self.who.table_id, seat=self.who.seat, host=self.who.host
                )
        if self.who.seat is not None and self.who.seat in event["revoked"]:
            self.who = await database_sync_to_async(_reidentify)(self.who)
            await database_sync_to_async(presence.register)(
                self.channel_name, table_id=self.who.table_id, seat=self.who.seat, host=self.who.host
            )
            if self.who.seat is None:
                with translation.override(self.lang):
                    if self.who.parked in ((frame.get("timer") or {}).get("away") or ()):
                        message = _("Time ran out three times in a row: the app plays for you now. Tap “I'm back” to play again.")
                    else:
                        message = _("This seat was handed to another phone. You are watching now.")
                snapshot = selectors.for_connection(frame, seat=None, host=self.who.host)
                await self._send_table({"type": "revoked", "message": message, **snapshot})
                await self._presence_changed()  # the seat is no longer connected here
                return
        await self._send_table({"type": "snapshot", **selectors.for_connection(frame, seat=self.who.seat, host=self.who.host)})

    async def table_timer(self, event: dict[str, Any]) -> None:
        """The countdown of the seat(s) in turn, from the timer driver of any process (``timers``)."""
        await self._send({"type": "timer", **event["timer"]})

    async def table_presence(self, event: dict[str, Any]) -> None:
        self.seen_presence = event["presence"]
        await self._send({"type": "presence", **event["presence"]})

    # -------------------------------------------------------------- helpers

    async def _presence_changed(self) -> None:
        """Work out who is here once, and tell everyone at the table."""
        assert self.who is not None
        here = await database_sync_to_async(presence.current)(self.who.table_id)
        await self._tell_presence(here)

    async def _tell_presence(self, here: dict[str, Any]) -> None:
        """Everyone at the table: who is here now."""
        assert self.who is not None
        await self.channel_layer.group_send(broadcast.group_name(self.who.code), {"type": "table.presence", "presence": here})

    async def _snapshot(self) -> dict[str, Any]:
        assert self.who is not None
        snapshot: dict[str, Any] = await database_sync_to_async(selectors.snapshot)(
            self.who.table_id, seat=self.who.seat, host=self.who.host
        )
        return snapshot

    async def _send_table(self, payload: dict[str, Any], *, localized: bool = False) -> None:
        """Send a frame that carries the table (welcome, snapshot, revoked); note its version."""
        assert self.who is not None
        if "table" in payload:
            self.version = max(self.version, payload["table"]["version"])
            self.who.bots = _has_bots(payload)
            timer = payload.get("timer")
            self.who.timer = timer is not None
            if timer is not None and self.who.seat is None and self.who.parked in timer["away"]:
                payload = {**payload, "away_seat": self.who.parked}  # this phone may say "I'm back"
        await self._send(payload, localized=localized)

    async def _send(self, payload: dict[str, Any], *, localized: bool = False) -> None:
        if not localized:  # else its log lines are in this connection's language already (the welcome)
            payload = i18n.localize_frame(payload, self.lang)  # log lines in this connection's language
        await self.send(text_data=dumps(payload))  # UTF-8: no escapes for non-ASCII; always encodable

    async def _error(self, code: str, message: str, ref: Any = None, **extra: Any) -> None:
        await self._send({"type": "error", "code": code, "message": str(message), "ref": ref, **extra})
