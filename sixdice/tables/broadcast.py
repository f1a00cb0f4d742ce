"""Messages to everyone at a table, sent only after the transaction commits.

The channel layer is at-most-once: a message may be lost.  Every game
message carries ``seq`` and every table frame the table's ``version``, so a
client notices a gap and asks for what it missed (see ``docs/protocol.md``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.db import DatabaseSyncToAsync
from channels.layers import get_channel_layer
from django.db import connection, transaction

from . import selectors

if TYPE_CHECKING:
    from .models import Event, Game

log = logging.getLogger(__name__)


def group_name(code: str) -> str:
    return f"table.{code}"


_outbox: ContextVar[list[tuple[str, dict[str, Any]]] | None] = ContextVar("broadcast_outbox", default=None)


@contextmanager
def collect() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Keep the messages committed inside this block for the caller to send.

    Code running in a worker thread for an async caller (the consumer) sends
    them from the event loop afterwards with :func:`deliver`, instead of
    handing each one back to the loop and waiting for it.
    """
    box: list[tuple[str, dict[str, Any]]] = []
    token = _outbox.set(box)
    try:
        yield box
    finally:
        _outbox.reset(token)


# SQLite lets one writer in at a time and makes the others sleep and retry (its
# busy handler backs off in steps of up to 100 ms), so its calls queue in one
# thread.  PostgreSQL takes them side by side in the thread pool: in one shared
# thread every table would wait behind every other's network round trips.
_ONE_WRITER = connection.vendor == "sqlite"


def database_sync_to_async(func: Any) -> Any:
    """Run database work off the event loop: in one thread on SQLite, in the pool otherwise."""
    return DatabaseSyncToAsync(func, thread_sensitive=_ONE_WRITER)


async def write(func: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a service off the event loop, then send what it broadcast after its commit."""

    def run() -> tuple[Any, list[tuple[str, dict[str, Any]]]]:
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


def send_now(code: str, message: dict[str, Any]) -> None:
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


def _after_commit(code: str, message: dict[str, Any]) -> None:
    transaction.on_commit(lambda: send_now(code, message))


def game_events(code: str, game: Game, events: Sequence[Event], *, version: int) -> None:
    """The new events of ``game``; ``version`` is the table's version they were applied at."""
    _after_commit(
        code,
        selectors.events_message(
            engine=game.engine, game=game.pk, number=game.number, seq=game.seq, status=game.status,
            events=[selectors.event_payload(event) for event in events], state=game.state, version=version,
        ),
    )


def table_changed(code: str, table_id: int, *, revoked: Sequence[int] = ()) -> None:
    """After the commit, compute the table frame once and send it to everyone at the table.

    ``revoked``: seats whose phone lost the seat in this change (handed over,
    or given to the app); those connections are told so.
    """

    def send() -> None:
        frame = selectors.table_frame(table_id)
        send_now(code, {"type": "table.frame", "frame": frame, "revoked": list(revoked)})

    # robust: the change is committed; a failure here loses one frame, which clients recover by its version
    transaction.on_commit(send, robust=True)
