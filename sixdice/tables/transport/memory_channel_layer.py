"""The in-memory channel layer (one process), made to scale to a thousand connections.

Besides sweeping less often than Channels' layer, it can hand a group message
directly to a consumer of this process (a *local* fan-out): a connection that
is idle, with nothing queued before the message, gets it at once from the
sender, instead of through its queue, a task of its own and a dispatch.  The
order each connection sees its messages in stays the order they were sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from copy import deepcopy
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as StockInMemoryChannelLayer

log = logging.getLogger(__name__)

Take = Callable[[dict[str, Any]], Awaitable[bool]]
"""A consumer's way to take a group message at once: ``False`` when it is busy (then it is queued)."""

DIRECT_TYPES = frozenset({"table.events", "table.presence", "table.timer"})
"""Group messages a consumer may take directly from the sender: their handlers only send a frame
(they neither wait for the database nor change the message, which every taker then shares)."""


class InMemoryChannelLayer(StockInMemoryChannelLayer):
    """Channels' in-memory layer, sweeping out expired messages at most once a second, with a local fan-out.

    The stock layer sweeps every channel and every group on every receive, so
    with N connections each message costs O(N): at a thousand seats that sweep
    was the busiest thing in the server.  Messages live for ``expiry`` seconds
    (60 by default), so a sweep a second changes nothing that matters.

    The stock ``group_send`` also starts a task per member and ``receive``
    builds a queue it throws away on every call; here a group message is put
    in each member's queue in a plain loop, or, for the :data:`DIRECT_TYPES`,
    taken at once by a member that :meth:`attach`-ed itself, is idle and has
    nothing queued or in hand (see ``docs/performance.md``, "Local fan-out").
    """

    sweep_interval = 1.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._next_sweep = 0.0
        self._takers: dict[str, Take] = {}
        self._in_hand: dict[str, int] = {}  # messages a taker received from its queue and has not finished

    # Overrides a private method: the stock layer has no setting for how often it sweeps (docs/performance.md #5).
    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.sweep_interval
        super()._clean_expired()

    def _queue(self, channel: str) -> asyncio.Queue[tuple[float, dict[str, Any]]]:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        return queue

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        try:
            self._queue(channel).put_nowait((time.time() + self.expiry, deepcopy(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def receive(self, channel: str) -> dict[str, Any]:
        self.require_valid_channel_name(channel)
        self._clean_expired()
        queue = self._queue(channel)
        try:
            _, message = await queue.get()
        finally:
            if queue.empty() and self.channels.get(channel) is queue:
                del self.channels[channel]
        if channel in self._takers:
            self._in_hand[channel] = self._in_hand.get(channel, 0) + 1
        return message

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        direct = message.get("type") in DIRECT_TYPES
        for channel in list(self.groups.get(group, ())):
            take = self._takers.get(channel) if direct else None
            if take is not None and not self._in_hand.get(channel) and self._idle_queue(channel):
                try:
                    if await take(message):
                        continue
                except Exception:  # one connection's failure must not cost the others their frame
                    log.exception("local delivery to %s failed", channel)
                    continue
            with contextlib.suppress(ChannelFull):  # as Channels: a full queue loses the message (clients resync)
                await self.send(channel, message)

    def _idle_queue(self, channel: str) -> bool:
        queue = self.channels.get(channel)
        return queue is None or queue.empty()

    # ------------------------------------------------------------ the local fan-out

    def attach(self, channel: str, take: Take) -> None:
        """Let the consumer of ``channel`` (in this process) take :data:`DIRECT_TYPES` messages at once."""
        self._takers[channel] = take

    def detach(self, channel: str) -> None:
        self._takers.pop(channel, None)
        self._in_hand.pop(channel, None)

    def handled(self, channel: str) -> None:
        """The consumer of ``channel`` finished a message it received from its queue."""
        held = self._in_hand.get(channel)
        if held:
            self._in_hand[channel] = held - 1
