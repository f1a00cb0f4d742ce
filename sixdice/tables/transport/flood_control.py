"""Flow control for every table WebSocket: a token bucket and a bounded inbound queue.

The server (daphne) puts each frame a client sends into an unbounded queue
for the application.  :class:`FlowControl` (ASGI middleware around the
WebSocket routes) moves frames from that queue as soon as they arrive, so it
never grows, and lets the consumer see only what the limits allow:

* **frame size**: a text frame larger than ``SIXDICE_WS_MAX_FRAME`` (64 KiB)
  is answered at once with ``error`` ``too_large`` and dropped; the connection
  stays open.  (daphne itself closes a connection whose frame is over 1 MiB,
  its ``--websocket_max_message_size``, with 1009 before anyone reads it.)
* **rate**: each connection has a token bucket of ``SIXDICE_WS_RATE`` frames
  per second with a burst of ``SIXDICE_WS_BURST`` (20/s, burst 40).  A frame
  that finds the bucket empty is dropped; the first such frame of a run is
  answered with ``error`` ``rate_limited``.  When ``SIXDICE_WS_FLOOD``
  (40) more frames are dropped before a token is free again, the server
  closes the connection with :data:`CLOSE_FLOOD` (4008) and reads no more;
  for ``SIXDICE_WS_FLOOD_COOLDOWN`` seconds (10) that client (its session, or
  its address when it has none or its cookie names no session: :class:`FloodKey`)
  is refused at the handshake (HTTP 403).
* **queue**: at most ``SIXDICE_WS_QUEUE`` frames (64) and
  ``SIXDICE_WS_QUEUE_BYTES`` (512 KiB) wait for the consumer; a frame that
  does not fit is dropped as if the bucket were empty (the consumer is busy
  with a slow database);
* **refused visits**: a client whose sockets close having been only refused
  (no write let through), ``SIXDICE_WS_REFUSED_VISITS`` times (5) within
  ``SIXDICE_WS_REFUSED_WINDOW`` seconds (10), is cooled down as a flooder
  (:func:`left`): each such visit cost the server a connect.

A handshake refused for a cool-down is answered ``SIXDICE_WS_DENY_DELAY``
seconds (1) late, so a client that knocks again at once knocks once a second.

A phone sends a frame per tap and a ping every 25 s: it never meets these
limits.  See ``docs/protocol.md`` ("Limits").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext_lazy

CLOSE_FLOOD = 4008
"""Close code after a flood: the client kept sending past ``rate_limited``."""

Message = dict[str, Any]

MESSAGES = {
    "too_large": gettext_lazy("Frame is larger than 64 KiB."),
    "rate_limited": gettext_lazy("Too many messages: slow down, or the connection will be closed."),
}


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def _clock() -> float:
    return time.monotonic()


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; :meth:`take` spends one if there is one."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock or (lambda: _clock())
        self.tokens = burst
        self.stamp = self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def _frame_size(message: Message) -> int:
    text = message.get("text")
    if text is not None:
        return len(text.encode("utf-8", "surrogatepass"))
    data = message.get("bytes")
    return len(data) if data is not None else 0


class _Connection:
    """The flow state of one socket, between daphne's ``receive`` and the consumer's."""

    def __init__(self, scope: Message, receive: Callable[[], Awaitable[Message]],
                 send: Callable[[Message], Awaitable[None]]) -> None:
        self.scope = scope
        self.outer_receive = receive
        self.outer_send = send
        self.bucket = TokenBucket(_setting("SIXDICE_WS_RATE", 20), _setting("SIXDICE_WS_BURST", 40))
        self.max_frame = int(_setting("SIXDICE_WS_MAX_FRAME", 64 * 1024))
        self.flood = int(_setting("SIXDICE_WS_FLOOD", 40))
        self.max_queue = int(_setting("SIXDICE_WS_QUEUE", 64))
        self.max_queue_bytes = int(_setting("SIXDICE_WS_QUEUE_BYTES", 512 * 1024))
        self.queue: deque[Message] = deque()
        self.queued_bytes = 0
        self.ready = asyncio.Event()
        self.dropped = 0  # frames dropped since the last one let through
        self.closed = False  # we closed the socket: the consumer's sends go nowhere
        self.ended = False  # daphne said disconnect
        self.lang: str | None = None

    # ------------------------------------------------------------ the consumer's side

    async def receive(self) -> Message:
        while not self.queue:
            self.ready.clear()
            await self.ready.wait()
        message = self.queue.popleft()
        self.queued_bytes -= _frame_size(message)
        return message

    async def send(self, message: Message) -> None:
        if self.closed:
            return
        await self.outer_send(message)

    def _put(self, message: Message) -> None:
        self.queue.append(message)
        self.queued_bytes += _frame_size(message)
        self.ready.set()

    # ------------------------------------------------------------ daphne's side

    async def pump(self) -> None:
        """Take every message from daphne at once; pass on what the limits allow."""
        while True:
            message = await self.outer_receive()
            kind = message.get("type")
            if kind != "websocket.receive":
                if kind == "websocket.disconnect":
                    self.ended = True
                    if not self.closed:
                        self._put(message)
                    return
                self._put(message)
                continue
            if self.closed:
                continue  # read and forget until daphne reports the disconnect
            size = _frame_size(message)
            if size > self.max_frame:
                await self._error("too_large")
                continue
            fits = len(self.queue) < self.max_queue and self.queued_bytes + size <= self.max_queue_bytes
            if fits and self.bucket.take():
                self.dropped = 0
                self._put(message)
                continue
            self.dropped += 1
            if self.dropped == 1:
                await self._error("rate_limited")
            elif self.dropped > self.flood:
                await self._close_for_flood()

    async def _close_for_flood(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):  # the socket may already be gone
            await self.outer_send({"type": "websocket.close", "code": CLOSE_FLOOD})  # first: it stops the reading
        with contextlib.suppress(Exception):  # a cache that is down must not keep the flood going
            await cool_down(cooldown_key(self.scope), _setting("SIXDICE_WS_FLOOD_COOLDOWN", 10))
        # The consumer leaves the table (presence, groups) as on any disconnect; queued frames are dropped.
        self.queue.clear()
        self.queued_bytes = 0
        self._put({"type": "websocket.disconnect", "code": CLOSE_FLOOD})

    async def _error(self, code: str) -> None:
        from sixdice.tables.core import i18n

        if self.lang is None:
            self.lang = i18n.connection_language(self.scope)
        with translation.override(self.lang):
            frame = {"type": "error", "code": code, "message": str(MESSAGES[code]), "ref": None}
        with contextlib.suppress(Exception):  # the socket may already be gone
            await self.outer_send({"type": "websocket.send", "text": json.dumps(frame, separators=(",", ":"))})


_LOCAL_COOLDOWNS: dict[str, float] = {}
"""This process's own note of the cool-downs it set (key -> end, monotonic): a flooder retrying its
handshake many times a second is refused without asking the shared cache each time."""


async def cool_down(key: str, seconds: float) -> None:
    """Refuse this client's handshakes for ``seconds``: in every process (the shared cache) and, at once, here."""
    now = _clock()
    for stale in [k for k, end in _LOCAL_COOLDOWNS.items() if end <= now]:
        del _LOCAL_COOLDOWNS[stale]
    _LOCAL_COOLDOWNS[key] = now + seconds
    await cache.aset(key, 1, int(seconds))


def cooling_down_here(key: str) -> bool:
    """Whether this process closed ``key`` for flooding less than its cool-down ago (no lookup: instant)."""
    end = _LOCAL_COOLDOWNS.get(key)
    return end is not None and end > _clock()


def cooling_down(key: str, shared: dict[str, Any]) -> bool:
    """Whether ``key`` was closed for flooding less than its cool-down ago, by this process or another.

    ``shared``: the shared cache's entries, looked up with the connect's
    other keys in one lookup (``connect.arrive``, ``guess_limits.lookup``).
    """
    return cooling_down_here(key) or bool(shared.get(key))


_REFUSED_VISITS: dict[str, deque[float]] = {}
"""Per client (its cool-down key): when its recent sockets closed having been only refused (monotonic)."""


def refused_visit(key: str) -> bool:
    """A socket of ``key`` closed after its frames were only refused; whether ``key`` should now cool down.

    A phone never does that: a refused move brings the table as it is now,
    and the phone plays on.  A client that reconnects only to be refused
    again (a phone stuck on an old screen that reconnects at each refusal, a
    script) costs the server a connect each time: after
    ``SIXDICE_WS_REFUSED_VISITS`` (5) such sockets within
    ``SIXDICE_WS_REFUSED_WINDOW`` seconds (10) it is refused at the
    handshake for ``SIXDICE_WS_FLOOD_COOLDOWN`` seconds, as a flooder.
    """
    now = _clock()
    window = _setting("SIXDICE_WS_REFUSED_WINDOW", 10)
    if len(_REFUSED_VISITS) > 4096:  # bounded: forget the clients not seen within the window
        for stale in [k for k, seen in _REFUSED_VISITS.items() if not seen or seen[-1] <= now - window]:
            del _REFUSED_VISITS[stale]
    seen = _REFUSED_VISITS.setdefault(key, deque())
    seen.append(now)
    while seen and seen[0] <= now - window:
        seen.popleft()
    if len(seen) < int(_setting("SIXDICE_WS_REFUSED_VISITS", 5)):
        return False
    del _REFUSED_VISITS[key]
    return True


async def left(scope: Message, *, refused: int, wrote: bool) -> None:
    """A socket closed, ``refused`` of its frames refused and, if ``wrote``, a write let through: cool down a
    client that keeps coming back only to be refused (:func:`refused_visit`)."""
    if refused and not wrote:
        key = cooldown_key(scope)
        if refused_visit(key):
            with contextlib.suppress(Exception):  # a cache that is down must not cost the disconnect
                await cool_down(key, _setting("SIXDICE_WS_FLOOD_COOLDOWN", 10))


COOLDOWN_PREFIX = "sixdice:flooded:"

FLOOD_KEY = "sixdice.flood_key"
"""The scope's entry holding the socket's :class:`FloodKey` (put there by :class:`FlowControl`)."""


class FloodKey:
    """Whose flood cool-down a socket counts against: its session's, or its address's.

    Its address's when it has no session cookie, and when its cookie names no
    live session: the connect reads the session anyway (``connect.arrive``)
    and then settles it (:meth:`settle`).  So a client that makes up a new
    session id for each socket is limited by its address, as one without a
    cookie, and a real session keeps a key of its own (the other phones at a
    table often share an address).
    """

    __slots__ = ("address", "live", "session")

    def __init__(self, scope: Message) -> None:
        session = scope.get("session")
        self.session: str | None = getattr(session, "session_key", None) if session is not None else None
        self.address = f"{COOLDOWN_PREFIX}addr:{(scope.get('client') or ['?'])[0]}"
        self.live = True  # until the connect finds the cookie names no session

    @property
    def key(self) -> str:
        """The cache key of this socket's cool-down."""
        return f"{COOLDOWN_PREFIX}session:{self.session}" if self.session and self.live else self.address

    def keys(self) -> list[str]:
        """The keys a connect looks up: the session's, if it has a cookie, and the address's."""
        return [self.key, self.address] if self.session and self.live else [self.address]

    def settle(self, *, live: bool) -> bool:
        """Note whether the session cookie names a live session; whether the key changed (to the address's)."""
        changed = bool(self.session) and self.live and not live
        self.live = live
        return changed


def flood_key(scope: Message) -> FloodKey:
    """The socket's :class:`FloodKey`: the one :class:`FlowControl` keeps for it, else one from the scope."""
    key = scope.get(FLOOD_KEY)
    return key if isinstance(key, FloodKey) else FloodKey(scope)


def cooldown_key(scope: Message) -> str:
    """The cache key of a client's flood cool-down: its session's, or its address's (see :class:`FloodKey`)."""
    return flood_key(scope).key


def close_and_stop_reading(protocol: Any, code: int | None, close: Callable[..., None]) -> None:
    """daphne's ``serverClose``, made abrupt for a flooder: the close frame, then no more reading.

    ASGI has no "abort": after ``websocket.close`` daphne's WebSocket layer
    (autobahn) waits for the client's close frame, and a flooder's close frame
    queues behind the thousands of frames it has in flight, which autobahn
    still parses (and daphne hands to the application) before the connection
    ends: a tenth of a second of the server's CPU per flood connection (see
    ``docs/performance.md``, "Hostile neighbour").  For :data:`CLOSE_FLOOD`
    the transport stops reading at once after the close frame, and its
    writing side is shut once the close frame is written (so the client still
    reads the 4008 and then the end of the stream); whatever the flooder still
    sends is never read, and autobahn's close-handshake timeout (1 s) drops
    the socket.  Any other close stays the graceful close handshake.
    """
    close(protocol, code=code)
    if code == CLOSE_FLOOD:
        transport = getattr(protocol, "transport", None)
        if transport is not None:
            transport.pauseProducing()  # Twisted: stop reading this socket
            transport.loseWriteConnection()  # the close frame, then FIN


def install_flood_abort() -> bool:
    """Make daphne close a flooder's socket at once (:func:`close_and_stop_reading`); idempotent."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:  # served by another ASGI server: it keeps its own close
        return False
    original = WebSocketProtocol.serverClose
    if getattr(original, "sixdice_flood_abort", False):
        return True

    def server_close(self: Any, code: int | None = None) -> None:
        close_and_stop_reading(self, code, original)

    server_close.sixdice_flood_abort = True  # type: ignore[attr-defined]
    WebSocketProtocol.serverClose = server_close
    return True


async def _pause(seconds: float) -> None:
    await asyncio.sleep(seconds)


async def refuse_late() -> None:
    """Wait before refusing a handshake for a cool-down (``SIXDICE_WS_DENY_DELAY``, a second): a client that
    knocks again at once after each refusal knocks once a second, not twenty times."""
    await _pause(_setting("SIXDICE_WS_DENY_DELAY", 1.0))


class FlowControl:
    """ASGI middleware: per-connection flow control for WebSockets (see the module's doc)."""

    def __init__(self, application: Any) -> None:
        self.application = application
        install_flood_abort()

    async def __call__(self, scope: Message, receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        # Closed for flooding a moment ago by this process: refused at once (HTTP 403).  A cool-down set by
        # another process is in the shared cache, which the consumer reads in its one database trip, before
        # it accepts (connect.arrive): refused at the handshake too.
        key = FloodKey(scope)
        if cooling_down_here(key.key):
            await refuse_late()  # each knock costs the server a handshake
            return await WebsocketDenier()(scope, receive, send)
        scope = {**scope, FLOOD_KEY: key}  # shared with the consumer's copies of the scope: it settles the key
        conn = _Connection(scope, receive, send)
        pump = asyncio.get_running_loop().create_task(conn.pump())
        try:
            return await self.application(scope, conn.receive, conn.send)
        finally:
            if not pump.done():
                pump.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await pump
