"""The in-memory channel layer (one process), made to scale to a thousand connections."""

from __future__ import annotations

import time
from typing import Any

from channels.layers import InMemoryChannelLayer as StockInMemoryChannelLayer


class InMemoryChannelLayer(StockInMemoryChannelLayer):
    """Channels' in-memory layer, sweeping out expired messages at most once a second.

    The stock layer sweeps every channel and every group on every receive, so
    with N connections each message costs O(N): at a thousand seats that sweep
    was the busiest thing in the server.  Messages live for ``expiry`` seconds
    (60 by default), so a sweep a second changes nothing that matters.
    """

    sweep_interval = 1.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._next_sweep = 0.0

    # Overrides a private method: the stock layer has no setting for how often it sweeps (docs/performance.md #5).
    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.sweep_interval
        super()._clean_expired()
