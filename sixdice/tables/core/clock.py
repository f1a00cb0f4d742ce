"""The clock of the app's background drivers: the bots' pace and the turn timers.

A served table runs on the real clock: a bot waits ``SIXDICE_BOT_DELAY``
seconds before each move, and a turn timer's deadline is compared with the
time of day.

A test server (``SIXDICE_TEST_CLOCK=1``, refused unless ``SIXDICE_TESTING=1``)
runs on a :class:`TestClock` that the test moves through
``POST /__test__/clock/`` (:mod:`sixdice.tables.pages.test_clock`):

- *time* is the real time plus an offset that only the test adds to
  (``advance``), so a 30-second turn timer runs out when the test advances
  30 seconds, not 30 seconds later;
- *bots* keep the server's pace by default (the browser tests' shared
  server sets ``SIXDICE_BOT_DELAY=0``: they move at once, and a test that
  waits for a bot's move waits for the move, never for a delay); a test that
  must see the board before a bot moves *holds* them, and each bot move then
  waits for :data:`BOT_STEP` (one second) of advanced time: ``advance(1)``
  lets one move through.  Advanced time is kept as the bots' budget until
  they spend it, so an advance made before a bot starts waiting is not lost.

Both clocks are used the same way: :func:`get_clock` gives this process's.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone


class Clock:
    """The real clock."""

    def now(self) -> datetime:
        return timezone.now()

    async def bot_pause(self, seconds: float) -> None:
        """Wait as a bot does before a move."""
        await asyncio.sleep(seconds)

    async def sleep(self, seconds: float, wake: asyncio.Event) -> None:
        """Wait ``seconds`` of this clock's time, or until ``wake`` is set."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout=max(0.0, seconds))


BOT_STEP = 1.0
"""Seconds of advanced time a held bot spends on each move."""


class TestClock(Clock):
    """A clock the test moves: the real time plus what the test advanced; bots at once or held."""

    __test__ = False  # not a test class (pytest collects names that start with Test)

    def __init__(self) -> None:
        self.offset = 0.0  # seconds the test advanced, in all
        self.bots_held = False
        self.bot_budget = 0.0  # advanced seconds the held bots have not spent yet
        self._lock = threading.Lock()
        self._waiters: list[asyncio.Future[None]] = []

    def now(self) -> datetime:
        return timezone.now() + timedelta(seconds=self.offset)

    # -------------------------------------------------------------- the test's side

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``: due timers run out, held bots may spend it."""
        if seconds < 0:
            raise ValueError("time only moves forward")
        with self._lock:
            self.offset += seconds
            self.bot_budget += seconds
        self._wake_all()

    def hold_bots(self) -> None:
        """From now on each bot move waits for :data:`BOT_STEP` seconds of advanced time."""
        with self._lock:
            self.bots_held = True
            self.bot_budget = 0.0

    def free_bots(self) -> None:
        """Bots keep the server's pace again (the default)."""
        with self._lock:
            self.bots_held = False
            self.bot_budget = 0.0
        self._wake_all()

    def as_json(self) -> dict[str, object]:
        return {"offset": self.offset, "bots": "held" if self.bots_held else "free", "bot_budget": self.bot_budget}

    # -------------------------------------------------------------- the drivers' side

    async def bot_pause(self, seconds: float) -> None:
        while True:
            with self._lock:
                if not self.bots_held:
                    break
                if self.bot_budget >= BOT_STEP:
                    self.bot_budget -= BOT_STEP
                    return
                waiter = self._new_waiter()
            await waiter
        await asyncio.sleep(seconds)  # free: the server's own pace (0 on the tests' shared server)

    async def sleep(self, seconds: float, wake: asyncio.Event) -> None:
        """Wait until ``wake``, the real timeout, or any advance (the caller then reads the time again)."""
        with self._lock:
            advanced = self._new_waiter()
        woken = asyncio.ensure_future(wake.wait())
        either: set[asyncio.Future[Any]] = {woken, advanced}
        try:
            await asyncio.wait(either, timeout=max(0.0, seconds), return_when=asyncio.FIRST_COMPLETED)
        finally:
            woken.cancel()
            advanced.cancel()

    def _new_waiter(self) -> asyncio.Future[None]:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        return waiter

    def _wake_all(self) -> None:
        with self._lock:
            waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.get_loop().call_soon_threadsafe(_settle, waiter)


def _settle(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


_REAL = Clock()
_TEST: TestClock | None = None


def get_clock() -> Clock:
    """This process's clock: the test clock on a test server that asked for it, else the real one."""
    global _TEST
    if not getattr(settings, "SIXDICE_TEST_CLOCK", False):
        return _REAL
    if _TEST is None:
        _TEST = TestClock()
    return _TEST


def test_clock() -> TestClock:
    """The test clock (only on a test server with ``SIXDICE_TEST_CLOCK``)."""
    clock = get_clock()
    if not isinstance(clock, TestClock):
        raise RuntimeError("SIXDICE_TEST_CLOCK is off")
    return clock


test_clock.__test__ = False  # type: ignore[attr-defined]  # not a test function
