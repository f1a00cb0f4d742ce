"""What runs after a write commits, decided in one place: the broadcast, and which drivers wake.

Whoever made the write (a phone's socket, a page, an admin action, a
management command, a driver), the ledger hands its result here
(:func:`game_written`, :func:`table_changed`) inside the transaction, and
this module decides the rest:

- the broadcast to everyone at the table, sent only after the commit;
- the drivers that wake: every message carries ``wake``, the names of the
  drivers that may have work now (``bots``, ``timer``; a driver registers its
  ``kick`` with :func:`register_waker`).  The writer's own process kicks them
  when it delivers; every connection that receives the message kicks them in
  its process too (:func:`woken`), so a write made where no driver runs (an
  admin action, another process) still wakes them wherever the table is
  followed;
- a finished game's results (``signals.game_finished``, in the transaction:
  the players app records ratings with the game).

The channel layer is at-most-once: a message may be lost.  Every game
message carries ``seq`` and every table frame the table's ``version``, so a
client notices a gap and asks for what it missed (see ``docs/protocol.md``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from asgiref.sync import async_to_sync
from channels.db import DatabaseSyncToAsync
from channels.layers import get_channel_layer
from django.db import connection, transaction

from sixdice.tables.core import signals
from sixdice.tables.reads import table_frame
from sixdice.tables.wire import outgoing

if TYPE_CHECKING:
    from sixdice.tables.models import Event, Game

log = logging.getLogger(__name__)

BOTS, TIMER = "bots", "timer"
"""The drivers a write may wake."""
ALL = (BOTS, TIMER)

Box = list[tuple[str, dict[str, Any]]]


def group_name(code: str) -> str:
    return f"table.{code}"


# ---------------------------------------------------------------- drivers that wake

_WAKERS: dict[str, Callable[[str], None]] = {}


def register_waker(name: str, kick: Callable[[str], None]) -> None:
    """``kick(code)`` runs on the event loop when a committed write may have given driver ``name`` work."""
    _WAKERS[name] = kick


def wake(code: str, names: Iterable[str]) -> None:
    """Kick the named drivers of the table in this process (on its event loop)."""
    for name in names:
        kick = _WAKERS.get(name)
        if kick is None:
            continue
        try:
            kick(code)
        except Exception:  # a driver that cannot start must not cost the connection its frame
            log.exception("waking %s at table %s failed", name, code)


def woken(code: str, message: dict[str, Any]) -> None:
    """A table message arrived at a connection: wake the drivers it names (idempotent: a running driver is nudged)."""
    names = message.get("wake")
    if names:
        wake(code, names)


# ---------------------------------------------------------------- sending after the commit

_outbox: ContextVar[Box | None] = ContextVar("outbox", default=None)


@contextmanager
def collect() -> Iterator[Box]:
    """Keep the messages committed inside this block for the caller to send.

    Code running in a worker thread for an async caller (the consumer) sends
    them from the event loop afterwards with :func:`deliver`, instead of
    handing each one back to the loop and waiting for it.
    """
    box: Box = []
    token = _outbox.set(box)
    try:
        yield box
    finally:
        _outbox.reset(token)


P = ParamSpec("P")
R = TypeVar("R")

# SQLite lets one writer in at a time and makes the others sleep and retry (its
# busy handler backs off in steps of up to 100 ms), so its calls queue in one
# thread.  PostgreSQL takes them side by side in the thread pool: in one shared
# thread every table would wait behind every other's network round trips.
_ONE_WRITER = connection.vendor == "sqlite"


def database_sync_to_async(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """Run database work off the event loop: in one thread on SQLite, in the pool otherwise."""
    run: Callable[P, Awaitable[R]] = DatabaseSyncToAsync(func, thread_sensitive=_ONE_WRITER)
    return run


async def write(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run a write off the event loop, then send what it committed and wake its drivers, from the loop.

    Typed with ``func``'s own parameters and result, so a caller's arguments
    are checked against the service it names (mypy), and the move's trail is
    followed from the consumer into the write.
    """

    def run() -> tuple[R, Box]:
        with collect() as box:
            return func(*args, **kwargs), box

    result, box = await database_sync_to_async(run)()
    await deliver(box)
    return result


async def deliver(box: Sequence[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    for code, message in box:
        try:
            await layer.group_send(group_name(code), message)
        except Exception:  # a lost broadcast is recovered by the clients' resync
            log.exception("broadcast to table %s failed", code)
        woken(code, message)


def send_now(code: str, message: dict[str, Any]) -> None:
    """Send a committed message: into the caller's box (:func:`collect`), else through the layer now.

    A write from a page, an admin action or a command has no event loop of
    its own: its drivers wake where connections receive the message.
    """
    outbox = _outbox.get()
    if outbox is not None:
        outbox.append((code, message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(code), message)
    except Exception:  # a lost broadcast is recovered by the clients' resync
        log.exception("broadcast to table %s failed", code)


# ---------------------------------------------------------------- what the ledger hands over


def game_written(code: str, game: Game, events: Sequence[Event], *, version: int, wake: Sequence[str],
                 finished: bool) -> None:
    """Events were appended to ``game`` (in the caller's transaction) at table version ``version``.

    ``wake``: the drivers the table has (the ledger knows whether it has bot
    seats and a timer).  A finished game's results are recorded now, in the
    same transaction; the events go out after the commit.
    """
    if finished:
        signals.game_finished.send(type(game), game=game)
    if not events:
        return
    message = outgoing.events_message(
        engine=game.engine, game=game.pk, number=game.number, seq=game.seq, status=game.status,
        events=[outgoing.event_payload(event) for event in events], state=game.state, version=version,
        options=game.options,
    )
    message["wake"] = list(wake)

    def send() -> None:
        table_frame.FRAMES.changed(code)  # what a connect read of the table before is old now
        send_now(code, message)

    transaction.on_commit(send)


def table_changed(code: str, table_id: int, *, revoked: Sequence[int] = ()) -> None:
    """After the commit, compute the table frame once and send it to everyone at the table.

    ``revoked``: seats whose phone lost the seat in this change (handed over,
    or given to the app); those connections are told so.  A change to the
    table (a start, a pause, a seat given to the app...) may give any driver
    work: all are woken, and each looks and stops when it has none.
    """

    def send() -> None:
        table_frame.FRAMES.changed(code)
        frame = table_frame.table_frame(table_id, code=code)
        send_now(code, {"type": "table.frame", "frame": frame, "revoked": list(revoked), "wake": list(ALL)})

    # robust: the change is committed; a failure here loses one frame, which clients recover by its version
    transaction.on_commit(send, robust=True)
