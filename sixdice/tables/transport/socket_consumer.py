"""The socket plumbing under the table's consumer: no thread hop per message, and the local fan-out.

:class:`SocketConsumer` is Channels' ``AsyncWebsocketConsumer`` with two
things changed, neither of which a setting does: a message or a disconnect
is handled without Channels' thread hop to close database connections
(``docs/performance.md``), and a group message sent by this process may be
handed to an idle connection at once (:meth:`take`, the in-memory layer's
local fan-out, :mod:`~sixdice.tables.transport.memory_channel_layer`).  What a
frame means is the protocol's, in ``live/consumers.py``.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer


class SocketConsumer(AsyncWebsocketConsumer):
    """A WebSocket consumer without a thread hop per message, taking group messages directly when idle."""

    busy: int = 0  # handlers of this connection running now (see ``take``)

    def ready(self) -> bool:
        """Whether this connection may take group messages directly (it was let in)."""
        return True

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            detach = getattr(getattr(self, "channel_layer", None), "detach", None)
            if detach is not None:
                detach(self.channel_name)

    async def dispatch(self, message: dict[str, Any]) -> None:
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
        """A group message handed over by a sender in this process (``DIRECT_TYPES``): handle it now.

        Only while this connection handles nothing else (it is not, say, the
        mover still answering its own action: its ``ack`` goes out before its
        ``update``), which the layer asks together with an empty queue;
        ``False`` and the layer queues it.
        """
        if self.busy or not self.ready():
            return False
        self.busy += 1
        try:
            await getattr(self, get_handler_name(message))(message)
        finally:
            self.busy -= 1
        return True

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        # No thread hop to close database connections at every disconnect.  (The table's consumer joins its
        # group itself, so Channels' ``groups`` is empty: nothing else to do.)
        await self.disconnect(message["code"])
        raise StopConsumer()
