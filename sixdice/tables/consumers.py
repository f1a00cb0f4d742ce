"""The live connection of every phone, host page and spectator, for both games.

Thin: parse a frame, make one service call, reply.  The protocol is in
``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import connection
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from sixdice.gamekit.engine import GameError, get_engine

from . import broadcast, i18n, selectors, services, throttle
from .models import Connection, Game, Table
from .services import Credentials, ServiceError

log = logging.getLogger(__name__)


# SQLite lets one writer in at a time and makes the others sleep and retry (its
# busy handler backs off in steps of up to 100 ms), so its calls queue in one
# thread.  PostgreSQL takes them side by side in the thread pool: in one shared
# thread every table would wait behind every other's network round trips.
_ONE_WRITER = connection.vendor == "sqlite"


def database_sync_to_async(func: Any) -> Any:
    """Run database work off the event loop: in one thread on SQLite, in the pool otherwise."""
    return DatabaseSyncToAsync(func, thread_sensitive=_ONE_WRITER)


async def write(func: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a service in the thread pool, then send what it broadcast after its commit."""

    def run() -> tuple[Any, list[tuple[str, dict[str, Any]]]]:
        with broadcast.collect() as box:
            return func(*args, **kwargs), box

    result, box = await database_sync_to_async(run)()
    await broadcast.deliver(box)
    return result

HOST_COMMANDS = {"start", "pause", "resume", "rematch", "handover", "bot", "add_bot", "close"}


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
    bots: bool = False  # the table has seats the app plays

    @property
    def role(self) -> str:
        return "seat" if self.seat is not None else "host" if self.host else "spectator"


def credentials_from_session(session: Any, code: str) -> Credentials:
    held = (session or {}).get("tables", {}).get(code, {}) if session is not None else {}
    return Credentials(seat_secret=held.get("seat"), host_secret=held.get("host"))


# ------------------------------------------------------------------ database side (sync)


def _identify(code: str, credentials: Credentials) -> Who:
    table = services.load_table(code, allow_closed=True)
    seat = services.seat_for(table, credentials)
    return Who(
        table_id=table.pk,
        code=table.code,
        seat=seat.position if seat else None,
        host=services.is_host(table, credentials),
        credentials=credentials,
        bots=table.seats.filter(is_bot=True).exists(),
    )


def _register(who: Who, channel_name: str) -> None:
    Connection.objects.update_or_create(
        channel_name=channel_name,
        defaults={
            "table_id": who.table_id,
            "seat_position": who.seat,
            "is_host": who.host,
            "last_seen": timezone.now(),
        },
    )


def _unregister(channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).delete()


def _heartbeat(channel_name: str, table_id: int) -> dict[str, Any]:
    """Keep the connection present; say which game the table is at and its seq."""
    stale = timezone.now() - timedelta(seconds=10)
    Connection.objects.filter(channel_name=channel_name, last_seen__lt=stale).update(last_seen=timezone.now())
    current = Game.objects.filter(table_id=table_id).order_by("-number").values_list("id", "seq").first()
    return {"game": current[0], "seq": current[1]} if current else {"game": None, "seq": 0}


def _game_payload(game: Game, seat: int | None, *, log_size: int = 40) -> dict[str, Any]:
    engine = get_engine(game.engine)
    return {
        "id": game.pk,
        "number": game.number,
        "seq": game.seq,
        "status": game.status,
        "players": game.players,
        "started_at": game.started_at.isoformat(),
        "view": engine.view(game.state, seat),
        "log": [broadcast.event_payload(e) for e in selectors.recent_events(game, log_size)],
    }


def _snapshot(who: Who) -> dict[str, Any]:
    table = Table.objects.get(pk=who.table_id)
    game = selectors.current_game(table)
    return {
        "role": who.role,
        "seat": who.seat,
        "host": who.host,
        "table": selectors.table_info(table),
        "presence": selectors.presence(table),
        "standings": selectors.standings(table),
        "game": _game_payload(game, who.seat) if game else None,
    }


def _welcome(who: Who, query_string: bytes) -> dict[str, Any]:
    """A full snapshot; a reconnecting client that says where it was also gets the events it missed."""
    welcome: dict[str, Any] = {"type": "welcome", **_snapshot(who)}
    query = parse_qs(query_string.decode("latin-1"))
    try:
        game_id, since = int(query["game"][0]), int(query["since"][0])
    except (KeyError, ValueError):
        return welcome
    game = welcome["game"]
    if game and game["id"] == game_id and since <= game["seq"]:
        missed = Game.objects.get(pk=game_id).events.filter(seq__gt=since).order_by("seq")
        welcome["missed"] = [broadcast.event_payload(e) for e in missed[: settings.SIXDICE_RESYNC_MAX_EVENTS]]
    return welcome


def _resync(who: Who, game_id: int | None, since: int) -> dict[str, Any]:
    table = Table.objects.get(pk=who.table_id)
    game = selectors.current_game(table)
    if game is None:
        return {"type": "snapshot", **_snapshot(who)}
    events = selectors.events_since(game, since) if game_id == game.pk else None
    if events is None:
        return {"type": "snapshot", **_snapshot(who)}
    return _update_frame(
        game.engine, game.pk, game.number, game.seq, game.status,
        [broadcast.event_payload(e) for e in events], game.state, who.seat,
    )


def _update_frame(
    engine: str, game: int, number: int, seq: int, status: str, events: list[dict[str, Any]],
    state: dict[str, Any], seat: int | None,
) -> dict[str, Any]:
    """An ``update`` frame: new events and this seat's view of the state after them."""
    return {
        "type": "update", "game": game, "number": number, "seq": seq, "status": status,
        "events": events, "view": get_engine(engine).view(state, seat),
    }


def _host_command(who: Who, command: str, msg: dict[str, Any]) -> dict[str, Any] | None:
    table = services.load_table(who.code)
    if not services.is_host(table, who.credentials):
        raise ServiceError("not_host", _("Only the host can do that."))
    if command in {"start", "rematch"}:
        services.start_game(table=table)
    elif command in {"pause", "resume"}:
        services.set_paused(table=table, paused=command == "pause")
    elif command == "handover":
        position = _int_field(msg, "position")
        token = services.hand_over_seat(table=table, position=position)
        return {
            "type": "handover",
            "position": position,
            "url": reverse("tables:claim", args=[table.code, token]),
        }
    elif command == "close":
        services.close_table(table=table)
    elif command == "add_bot":
        taken = {name.casefold() for name in table.seats.values_list("name", flat=True)}
        number = next(n for n in range(1, 100) if f"bot {n}" not in taken)
        services.join_table(table=table, name=f"Bot {number}", is_bot=True)
    elif command == "bot":
        on = msg.get("on", True)
        if not isinstance(on, bool):
            raise BadFrame("bad_field", _("Field %(name)s must be true or false.") % {"name": "'on'"})
        services.set_bot(table=table, position=_int_field(msg, "position"), is_bot=on)
    return None


def _bot_step(code: str) -> bool:
    """Play one move for a bot seat whose turn it is; True when it moved."""
    table = services.load_table(code)
    if not table.seats.filter(is_bot=True).exists():
        return False
    game = selectors.current_game(table)
    if game is None or game.status != Game.Status.PLAYING or table.paused:
        return False
    engine = get_engine(game.engine)
    bots = set(table.seats.filter(is_bot=True).values_list("position", flat=True))
    for seat in sorted(engine.actors(game.state) & bots):
        action = engine.bot_action(game.state, seat, services._system_rng("bot", game.number, game.seq, seat))
        if action is None:  # the game has no bot
            return False
        services.apply_action(
            table_code=code, credentials=Credentials(), action=action, expected_seq=game.seq, bot_seat=seat
        )
        return True
    return False


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _int_field(msg: dict[str, Any], name: str) -> int:
    value = msg.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadFrame("bad_field", _("Field %(name)s must be a whole number.") % {"name": repr(name)})
    return value


# ------------------------------------------------------------------ the consumer


_bot_tasks: dict[str, asyncio.Task[None]] = {}


class TableConsumer(AsyncWebsocketConsumer):
    """One WebSocket at ``/ws/t/<code>/``: a seat, the host, or a spectator."""

    who: Who | None = None
    lang: str = "en"  # this connection's language: log lines and messages are rendered in it

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As Channels dispatches, without a thread hop to close old connections first.

        Every database call here runs through ``database_sync_to_async``, which
        closes old connections in its own thread; doing it again for every
        broadcast to every seat cost a thread hop per message.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.lang = i18n.connection_language(self.scope)
        with translation.override(self.lang):
            await self._connect()

    async def _connect(self) -> None:
        code = services.normalise_code(self.scope["url_route"]["kwargs"]["code"])
        await self.accept()
        guesser = throttle.scope_keys(self.scope)
        if await sync_to_async(throttle.is_blocked)(*guesser):
            await self._error("rate_limited", _("Too many unknown table codes: please wait a few minutes."))
            await self.close(code=throttle.CLOSE_GUESSING)
            return
        session = self.scope.get("session")
        credentials = await database_sync_to_async(credentials_from_session)(session, code)
        try:
            self.who = await database_sync_to_async(_identify)(code, credentials)
        except ServiceError as exc:
            if exc.code == "unknown_table":
                await sync_to_async(throttle.record_miss)(*guesser)
            await self._error(exc.code, exc.message)
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(broadcast.group_name(self.who.code), self.channel_name)
        await database_sync_to_async(_register)(self.who, self.channel_name)
        welcome = await database_sync_to_async(_welcome)(self.who, self.scope.get("query_string", b""))
        await self._send(welcome)
        await self._presence_changed()
        self._kick_bots()

    async def disconnect(self, close_code: int) -> None:
        if self.who is None:
            return
        await self.channel_layer.group_discard(broadcast.group_name(self.who.code), self.channel_name)
        await database_sync_to_async(_unregister)(self.channel_name)
        await self._presence_changed()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        with translation.override(self.lang):
            await self._receive(text_data, bytes_data)

    async def _receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.who is None:
            return
        ref = None
        try:
            msg = self._parse(text_data, bytes_data)
            ref = msg.get("id")
            await self._dispatch(msg, ref)
        except BadFrame as exc:
            await self._error(exc.code, exc.message, ref)
        except ServiceError as exc:
            extra: dict[str, Any] = {}
            if exc.code in {"stale", "not_allowed", "illegal", "paused", "game_over"}:
                extra["snapshot"] = await database_sync_to_async(_snapshot)(self.who)
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
        if ref is not None and (
            isinstance(ref, bool) or not isinstance(ref, str | int) or len(str(ref)) > 64
        ):
            raise BadFrame("bad_field", _("Field %(name)s must be a string or a number.") % {"name": "'id'"})
        return msg

    async def _dispatch(self, msg: dict[str, Any], ref: Any) -> None:
        assert self.who is not None
        kind = msg["type"]
        if kind == "ping":
            # Join the table's group again: a channel layer that restarted (Redis)
            # forgot it.  The pong's seq lets a client that missed broadcasts catch up.
            await self.channel_layer.group_add(broadcast.group_name(self.who.code), self.channel_name)
            where = await database_sync_to_async(_heartbeat)(self.channel_name, self.who.table_id)
            await self._send({"type": "pong", "ref": ref, **where})
        elif kind == "action":
            action = msg.get("action")
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise BadFrame("bad_field", _("Field %(name)s must be an object with a %(type)s.") % {"name": "'action'", "type": "'type'"})
            seq = _int_field(msg, "seq")
            as_host = msg.get("as_host", False)
            if not isinstance(as_host, bool):
                raise BadFrame("bad_field", _("Field %(name)s must be true or false.") % {"name": "'as_host'"})
            applied = await write(
                services.apply_action,
                table_code=self.who.code,
                credentials=self.who.credentials,
                action=action,
                expected_seq=seq,
                as_host=as_host,
            )
            await self._send({"type": "ack", "ref": ref, "seq": applied.game.seq})
            self._kick_bots()
        elif kind == "resync":
            since = _int_field(msg, "since")
            game_id = msg.get("game")
            if game_id is not None and (isinstance(game_id, bool) or not isinstance(game_id, int)):
                raise BadFrame("bad_field", _("Field %(name)s must be a whole number.") % {"name": "'game'"})
            reply = await database_sync_to_async(_resync)(self.who, game_id, since)
            await self._send({**reply, "ref": ref})
        elif kind == "host":
            command = msg.get("command")
            if not self.who.host:  # before looking at the command: a spectator learns nothing
                raise ServiceError("not_host", _("Only the host can do that."))
            if not isinstance(command, str) or command not in HOST_COMMANDS:
                raise BadFrame("bad_field", _("Unknown host command %(command)s.") % {"command": repr(command)[:40]})
            reply = await write(_host_command, self.who, command, msg)
            await self._send({**(reply or {"type": "ack"}), "ref": ref})
            self._kick_bots()
        else:
            raise BadFrame("unknown_type", _("Unknown message type %(kind)s.") % {"kind": repr(kind)})

    # -------------------------------------------------------------- group messages

    async def table_events(self, event: dict[str, Any]) -> None:
        assert self.who is not None
        await self._send(_update_frame(
            event["engine"], event["game"], event["number"], event["seq"], event["status"],
            event["events"], event["state"], self.who.seat,
        ))

    async def table_changed(self, event: dict[str, Any]) -> None:
        assert self.who is not None
        snapshot = await database_sync_to_async(_snapshot)(self.who)
        self.who.bots = any(seat["bot"] for seat in snapshot["table"]["seats"])
        await self._send({"type": "snapshot", **snapshot})

    async def table_presence(self, event: dict[str, Any]) -> None:
        await self._send({"type": "presence", **event["presence"]})

    async def _presence_changed(self) -> None:
        """Work out who is here once, and tell everyone at the table."""
        assert self.who is not None
        presence = await database_sync_to_async(selectors.presence)(Table(pk=self.who.table_id))
        await self.channel_layer.group_send(
            broadcast.group_name(self.who.code), {"type": "table.presence", "presence": presence}
        )

    async def seat_revoked(self, event: dict[str, Any]) -> None:
        assert self.who is not None
        if self.who.seat != event["position"]:
            return
        self.who = await database_sync_to_async(_identify)(self.who.code, self.who.credentials)
        if self.who.seat is None:
            await database_sync_to_async(_register)(self.who, self.channel_name)
            with translation.override(self.lang):
                message = _("This seat was handed to another phone. You are watching now.")
            await self._send(
                {
                    "type": "revoked",
                    "message": message,
                    **await database_sync_to_async(_snapshot)(self.who),
                }
            )

    # -------------------------------------------------------------- helpers

    def _kick_bots(self) -> None:
        """Let bots whose turn it is move, one at a time, at a human pace."""
        assert self.who is not None
        if not self.who.bots:
            return
        code = self.who.code
        task = _bot_tasks.get(code)
        if task is not None and not task.done():
            return
        _bot_tasks[code] = asyncio.get_running_loop().create_task(_play_bots(code))

    async def _send(self, payload: dict[str, Any]) -> None:
        payload = i18n.localize_frame(payload, self.lang)  # log lines in this connection's language
        await self.send(text_data=json.dumps(payload, separators=(",", ":")))

    async def _error(self, code: str, message: str, ref: Any = None, **extra: Any) -> None:
        await self._send({"type": "error", "code": code, "message": str(message), "ref": ref, **extra})


async def _play_bots(code: str) -> None:
    """Play the bots' moves one by one, a human pace apart, until a person is to act."""
    try:
        while True:
            await asyncio.sleep(settings.SIXDICE_BOT_DELAY)
            try:
                moved = await write(_bot_step, code)
            except ServiceError as exc:
                if exc.code != "stale":  # paused, over, closed: a later action kicks the bots again
                    log.info("bot at table %s did not move: %s", code, exc.message)
                    return
                moved = True  # someone moved first: look again
            if not moved:
                return
    finally:
        _bot_tasks.pop(code, None)
