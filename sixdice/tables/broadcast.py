"""Messages to everyone at a table, sent only after the transaction commits.

The channel layer is at-most-once: a message may be lost.  Every game
message carries ``seq`` so a client notices a gap and asks for what it missed
(see ``docs/protocol.md``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

if TYPE_CHECKING:
    from .models import Event, Game

log = logging.getLogger(__name__)


def group_name(code: str) -> str:
    return f"table.{code}"


def event_payload(event: Event) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "actor": event.actor,
        "action": event.action,
        "text": event.text,
        "notation": event.notation,  # each connection renders the line in its own language
        "at": event.created_at.isoformat() if event.created_at else None,
    }


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


def game_events(code: str, game: Game, events: Sequence[Event]) -> None:
    _after_commit(
        code,
        {
            "type": "table.events",
            "engine": game.engine,
            "game": game.pk,
            "number": game.number,
            "seq": game.seq,
            "status": game.status,
            "events": [event_payload(event) for event in events],
            "state": game.state,
        },
    )


def table_changed(code: str) -> None:
    _after_commit(code, {"type": "table.changed"})


def seat_revoked(code: str, position: int) -> None:
    _after_commit(code, {"type": "seat.revoked", "position": position})
