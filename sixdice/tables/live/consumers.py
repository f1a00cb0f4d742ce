"""The live connection of every phone, host page and spectator, for both games.

Thin: parse a frame, make one service or selector call, reply.  The protocol
is in ``docs/protocol.md``; writes go through the services and the checked
path (:mod:`~sixdice.tables.writes.checked_path`), and what runs after a write (the broadcast, the
drivers that wake) is :mod:`~sixdice.tables.writes.after_commit`'s; the connect path is :mod:`~sixdice.tables.live.connect`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from django.utils import translation
from django.utils.translation import gettext as _

from sixdice.tables.core import i18n
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import normalise_code
from sixdice.tables.core.qr import qr_svg
from sixdice.tables.live import host_commands
from sixdice.tables.live.connect import (
    Refused,
    Who,
    announcer,
    come_in,
    has_bots,
    leave,
    pulse,
    register,
    reidentify,
)
from sixdice.tables.policies import turn_timers, undo
from sixdice.tables.reads import selectors
from sixdice.tables.transport import flood_control, guess_limits, presence
from sixdice.tables.transport.memory_channel_layer import InMemoryChannelLayer
from sixdice.tables.transport.origins import socket_origin_url
from sixdice.tables.transport.socket_consumer import SocketConsumer
from sixdice.tables.wire import incoming, outgoing
from sixdice.tables.wire.outgoing import dumps
from sixdice.tables.writes import action_receipts, after_commit
from sixdice.tables.writes.after_commit import database_sync_to_async, write

log = logging.getLogger(__name__)


class TableConsumer(SocketConsumer):
    """One WebSocket at ``/ws/t/<code>/``: a seat, the host, or a spectator."""

    who: Who | None = None
    lang: str = "en"  # this connection's language: log lines and messages are rendered in it
    version: int = -1  # the table version of the last table frame sent on this connection
    seen_presence: dict[str, Any] | None = None  # the last presence frame this connection was sent
    refused: int = 0  # frames of this connection refused ...
    wrote: bool = False  # ... and whether a write went through (flood_control.left)

    def ready(self) -> bool:
        return self.who is not None

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
        # The handshake is answered after the one trip to the database (or none: a seat back at once, connect.Recall).
        try:
            arrival = await come_in(self.scope, code, self.channel_name, self.lang, game_id, since,
                                    single_process=isinstance(self.channel_layer, InMemoryChannelLayer))
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
            else:  # cooling down (a made-up session, from an address cooling down): refused a second late
                await flood_control.refuse_late()
                await self.close()  # before accepting: the handshake is refused
            return
        await self.accept()
        self.who = who = arrival.who
        await self._send_table(arrival.welcome, localized=True)
        if not arrival.registered:  # recalled: its presence row now, after the welcome
            arrival.presence = await database_sync_to_async(register)(self.channel_name, who)
        # Who is here was counted with its presence row: tell everyone at the table (with other connects of the moment).
        announcer.announce(self.channel_layer, code, arrival.presence)
        after_commit.wake(who.code, who.drivers)

    async def disconnect(self, close_code: int) -> None:
        if self.who is None:
            return
        await flood_control.left(self.scope, refused=self.refused, wrote=self.wrote)
        await self.channel_layer.group_discard(after_commit.group_name(self.who.code), self.channel_name)
        here = await database_sync_to_async(leave)(self.channel_name, self.who.table_id)
        announcer.announce(self.channel_layer, self.who.code, here)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.who is None:
            return
        with translation.override(self.lang):
            ref: incoming.Ref = None
            try:
                frame = incoming.parse(text_data, bytes_data)  # one typed value, every field checked: or BadFrame
                ref = frame.ref
                await ROUTES[frame.TYPE](self, self.who, frame)
                self.wrote = self.wrote or frame.TYPE in incoming.WRITES
            except incoming.BadFrame as bad:
                self.refused += 1
                await self._error(bad.refusal.code, bad.refusal.message, bad.ref)
            except ServiceError as exc:
                self.refused += 1
                extra: dict[str, Any] = dict(exc.extra)  # e.g. duplicate: true (action_receipts)
                if exc.with_snapshot:
                    extra["snapshot"] = await self._snapshot()
                await self._error(exc.code, exc.message, ref, **extra)
            except Exception:  # a bug must not cost the table its connection; the transaction rolled back
                log.exception("table %s: unexpected error handling a frame", self.who.code)
                await self._error("server_error", _("Something went wrong on the server; nothing was changed."), ref)

    # -------------------------------------------------------------- one handler per frame type (ROUTES)

    async def on_action(self, who: Who, frame: incoming.ActionFrame) -> None:
        sender = "host" if frame.as_host else (None if who.seat is None else str(who.seat))
        outcome = await write(
            action_receipts.apply_once, table_id=who.table_id, sender=sender, action_id=frame.action_id,
            table_code=who.code, credentials=who.credentials, action=frame.action, expected_seq=frame.seq,
            as_host=frame.as_host,
        )
        await self._send({**outcome.reply, "ref": frame.ref})

    async def on_take_back(self, who: Who, frame: incoming.TakeBackFrame) -> None:  # docs/undo.md
        await write(undo.take_back, table_code=who.code, credentials=who.credentials, expected_seq=frame.seq)
        await self._send({"type": "ack", "ref": frame.ref})

    async def on_host(self, who: Who, frame: incoming.HostFrame) -> None:
        reply = await write(host_commands.run, table_code=who.code, credentials=who.credentials, command=frame.command)
        if reply and reply.get("type") == "handover":  # the link as a QR code too
            reply["url_full"] = socket_origin_url(self.scope, reply["url"])
            reply["qr"] = qr_svg(reply["url_full"])
        await self._send({**(reply or {"type": "ack"}), "ref": frame.ref})

    async def on_back(self, who: Who, frame: incoming.BackFrame) -> None:  # "I'm back": the seat the app took over
        await write(turn_timers.come_back, table_code=who.code, credentials=who.credentials)
        await self._send({"type": "ack", "ref": frame.ref})

    async def on_ping(self, who: Who, frame: incoming.PingFrame) -> None:
        # Join the table's group again: a channel layer that restarted (Redis) forgot it.
        # The pong's version and seq let a client that missed broadcasts catch up.
        await self.channel_layer.group_add(after_commit.group_name(who.code), self.channel_name)
        where, here = await database_sync_to_async(pulse)(self.channel_name, who.table_id)
        await self._send({"type": "pong", "ref": frame.ref, **where})
        if self.seen_presence is not None and here != self.seen_presence:
            # A connection gone silent (no heartbeat for SIXDICE_PRESENCE_TIMEOUT) is away now: say so.
            await self._tell_presence(here)
        after_commit.wake(who.code, who.drivers)  # whichever process hears a heartbeat makes sure its drivers run

    async def on_resync(self, who: Who, frame: incoming.ResyncFrame) -> None:
        reply = await database_sync_to_async(selectors.resync)(
            who.table_id, seat=who.seat, host=who.host, game_id=frame.game, since=frame.since,
        )
        await self._send_table({**reply, "ref": frame.ref})

    async def on_resync_table(self, who: Who, frame: incoming.ResyncTableFrame) -> None:
        await self._send_table({"type": "snapshot", **await self._snapshot(), "ref": frame.ref})

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
        """The countdown of the seat(s) in turn, from the timer driver of any process (``turn_timers``)."""
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
        """The table as it is now: from the frame noted current when this process made every write (no hop), else read."""
        who = self.who
        assert who is not None
        if isinstance(self.channel_layer, InMemoryChannelLayer):
            current = selectors.current_snapshot(who.code, who.table_id, seat=who.seat, host=who.host, here=self.seen_presence)
            if current is not None:
                return current
        snapshot: dict[str, Any] = await database_sync_to_async(selectors.snapshot)(
            who.table_id, seat=who.seat, host=who.host, code=who.code
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


ROUTES: dict[str, Callable[[TableConsumer, Who, Any], Awaitable[None]]] = {
    "action": TableConsumer.on_action,
    "resync": TableConsumer.on_resync,
    "resync_table": TableConsumer.on_resync_table,
    "ping": TableConsumer.on_ping,
    "host": TableConsumer.on_host,
    "take_back": TableConsumer.on_take_back,
    "back": TableConsumer.on_back,
}
"""The handler of each client frame, by its protocol name (the keys of :data:`sixdice.tables.wire.incoming.FRAMES`)."""
