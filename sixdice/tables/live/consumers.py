"""The live connection of every phone, host page and spectator, for both games.

Thin: parse a frame, make one service or selector call, reply.  The protocol
is in ``docs/protocol.md``; writes go through the services and the checked
path (:mod:`~sixdice.tables.writes.checked_path`), and what runs after a write (the broadcast, the
drivers that wake) is :mod:`~sixdice.tables.writes.after_commit`'s; the connect path is :mod:`~sixdice.tables.live.connect`.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _

from sixdice.tables.core import i18n
from sixdice.tables.core.errors import BadField, ServiceError, UnknownType
from sixdice.tables.core.keys import normalise_code
from sixdice.tables.core.qr import qr_svg
from sixdice.tables.live import host_commands
from sixdice.tables.live.connect import Refused, Who, announcer, arrive, has_bots, leave, pulse, reidentify
from sixdice.tables.policies import turn_timers, undo
from sixdice.tables.reads import selectors
from sixdice.tables.transport import flood_control, guess_limits, presence
from sixdice.tables.transport.origins import socket_origin_url
from sixdice.tables.wire import incoming, outgoing
from sixdice.tables.wire.outgoing import dumps
from sixdice.tables.writes import action_receipts, after_commit
from sixdice.tables.writes.after_commit import database_sync_to_async, write

log = logging.getLogger(__name__)


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
        code = normalise_code(self.scope["url_route"]["kwargs"]["code"])
        game_id, since = incoming.where_it_was(parse_qs(self.scope.get("query_string", b"").decode("latin-1")))
        group = after_commit.group_name(code)
        # In the group before the welcome is read: a move committed meanwhile arrives as an update.
        await self.channel_layer.group_add(group, self.channel_name)
        # The handshake is answered after the one trip to the database: it also looks up the flood cool-down
        # (a refusal is an HTTP 403, as flow.FlowControl's), so a connect needs no hop of its own for it.
        try:
            arrival = await database_sync_to_async(arrive)(
                self.scope.get("session"), code, guess_limits.scope_keys(self.scope), flood_control.flood_key(self.scope),
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
                await self.close(code=guess_limits.CLOSE_GUESSING)
            else:
                await self.close()  # before accepting: the handshake is refused
            return
        await self.accept()
        self.who = who = arrival.who
        await self._send_table(arrival.welcome, localized=True)
        # Who is here was counted in the same trip: tell everyone at the table (with other connects of the moment).
        announcer.announce(self.channel_layer, code, arrival.presence)
        after_commit.wake(who.code, who.drivers)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        # Overrides Channels, as dispatch: no thread hop to close database connections at every disconnect.
        # (This consumer joins its group itself, so Channels' ``groups`` is empty: nothing else to do.)
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def disconnect(self, close_code: int) -> None:
        if self.who is None:
            return
        await self.channel_layer.group_discard(after_commit.group_name(self.who.code), self.channel_name)
        here = await database_sync_to_async(leave)(self.channel_name, self.who.table_id)
        announcer.announce(self.channel_layer, self.who.code, here)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.who is None:
            return
        with translation.override(self.lang):
            ref = None
            try:
                msg = incoming.parse(text_data, bytes_data)
                ref = msg.get("id")
                await self._dispatch(self.who, msg, ref)
            except ServiceError as exc:
                extra: dict[str, Any] = dict(exc.extra)  # e.g. duplicate: true (dedupe)
                if exc.with_snapshot:
                    extra["snapshot"] = await self._snapshot()
                await self._error(exc.code, exc.message, ref, **extra)
            except Exception:  # a bug must not cost the table its connection; the transaction rolled back
                log.exception("table %s: unexpected error handling a frame", self.who.code)
                await self._error("server_error", _("Something went wrong on the server; nothing was changed."), ref)

    async def _dispatch(self, who: Who, msg: dict[str, Any], ref: Any) -> None:
        kind = msg["type"]
        reply: dict[str, Any] | None = None
        if kind == "ping":
            # Join the table's group again: a channel layer that restarted (Redis) forgot it.
            # The pong's version and seq let a client that missed broadcasts catch up.
            await self.channel_layer.group_add(after_commit.group_name(who.code), self.channel_name)
            where, here = await database_sync_to_async(pulse)(self.channel_name, who.table_id)
            await self._send({"type": "pong", "ref": ref, **where})
            if self.seen_presence is not None and here != self.seen_presence:
                # A connection gone silent (no heartbeat for SIXDICE_PRESENCE_TIMEOUT) is away now: say so.
                await self._tell_presence(here)
            after_commit.wake(who.code, who.drivers)  # whichever process hears a heartbeat makes sure its drivers run
            return
        if kind == "action":
            action = msg.get("action")
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise BadField(_("Field %(name)s must be an object with a %(type)s.") % {"name": "'action'", "type": "'type'"})
            seq = incoming.int_field(msg, "seq")
            as_host = incoming.bool_field(msg, "as_host")
            sender = "host" if as_host else (None if who.seat is None else str(who.seat))
            outcome = await write(
                action_receipts.apply_once, table_id=who.table_id, sender=sender,
                action_id=action_receipts.clean_action_id(msg.get("action_id")), table_code=who.code,
                credentials=who.credentials, action=action, expected_seq=seq, as_host=as_host,
            )
            reply = outcome.reply
        elif kind == "take_back":  # a player takes back their own last action (docs/undo.md)
            await write(undo.take_back, table_code=who.code, credentials=who.credentials,
                        expected_seq=incoming.int_field(msg, "seq"))
        elif kind == "host":
            reply = await write(host_commands.host_command, table_code=who.code, credentials=who.credentials,
                                command=msg.get("command"), fields=msg)
            if reply and reply.get("type") == "handover":  # the link as a QR code too
                reply["url_full"] = socket_origin_url(self.scope, reply["url"])
                reply["qr"] = qr_svg(reply["url_full"])
        elif kind == "back":  # "I'm back": the seat the app took over after timeouts returns to this phone
            await write(turn_timers.come_back, table_code=who.code, credentials=who.credentials)
        elif kind == "resync":
            reply = await database_sync_to_async(selectors.resync)(
                who.table_id, seat=who.seat, host=who.host, game_id=incoming.optional_int(msg, "game"),
                since=incoming.int_field(msg, "since"),
            )
            await self._send_table({**reply, "ref": ref})
            return
        elif kind == "resync_table":
            await self._send_table({"type": "snapshot", **await self._snapshot(), "ref": ref})
            return
        else:
            raise UnknownType(_("Unknown message type %(kind)s.") % {"kind": repr(kind)})
        await self._send({**(reply or {"type": "ack"}), "ref": ref})

    # -------------------------------------------------------------- group messages

    async def table_events(self, event: dict[str, Any]) -> None:
        assert self.who is not None
        # Ready text, prepared once per move, view and language in this process (docs/performance.md).
        await self.send(text_data=outgoing.update_text(event, self.who.seat, self.lang, self.who.host))
        after_commit.woken(self.who.code, event)

    async def table_frame(self, event: dict[str, Any]) -> None:
        """A table change: one frame computed by the writer, made this connection's snapshot here."""
        assert self.who is not None
        frame = event["frame"]
        after_commit.woken(self.who.code, event)
        if frame["table"]["version"] < self.version:
            return  # an older frame overtaken by a newer one (two writers in two processes)
        self.who.bots = has_bots(frame)
        if self.who.seat is None and self.who.credentials.seat_secret:
            # A phone whose seat the app played: "Give the seat back" may have returned it.
            self.who = await database_sync_to_async(reidentify)(self.who)
            if self.who.seat is not None:
                await database_sync_to_async(presence.register)(
                    self.channel_name, table_id=self.who.table_id, seat=self.who.seat, host=self.who.host
                )
                await self._presence_changed()  # every phone sees the seat here again (not away)
        if self.who.seat is not None and self.who.seat in event["revoked"]:
            self.who = await database_sync_to_async(reidentify)(self.who)
            await database_sync_to_async(presence.register)(
                self.channel_name, table_id=self.who.table_id, seat=self.who.seat, host=self.who.host
            )
            if self.who.seat is None:
                with translation.override(self.lang):
                    if self.who.parked in ((frame.get("timer") or {}).get("away") or ()):
                        message = _("Time ran out three times in a row: the app plays for you now. Tap “I'm back” to play again.")
                    elif self.who.parked is not None:
                        message = _("The app plays your seat for now. Tap “I'm back” to play again.")
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
        await self.channel_layer.group_send(after_commit.group_name(self.who.code), {"type": "table.presence", "presence": here})

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
            self.who.bots = has_bots(payload)
            self.who.timer = payload.get("timer") is not None
            if self.who.seat is None and self.who.parked is not None:
                payload = {**payload, "away_seat": self.who.parked}  # this phone may say "I'm back"
        await self._send(payload, localized=localized)

    async def _send(self, payload: dict[str, Any], *, localized: bool = False) -> None:
        if not localized:  # else its log lines are in this connection's language already (the welcome)
            payload = i18n.localize_frame(payload, self.lang)  # log lines in this connection's language
        await self.send(text_data=dumps(payload))  # UTF-8: no escapes for non-ASCII; always encodable

    async def _error(self, code: str, message: str, ref: Any = None, **extra: Any) -> None:
        await self._send({"type": "error", "code": code, "message": str(message), "ref": ref, **extra})
