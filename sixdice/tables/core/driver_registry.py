"""Per-table background drivers of one process: the bot driver and the turn-timer driver.

A driver runs while its table has something for it to do, one per table and
event loop (a test's loop dies with its drivers).  ``kick`` starts it, or, if
it runs already, nudges it to look at the table again.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, Generic, Protocol, TypeVar


class Driver(Protocol):
    task: asyncio.Task[None] | None

    @property
    def running(self) -> bool: ...

    def nudge(self) -> None: ...

    def run(self) -> Coroutine[Any, Any, None]: ...


D = TypeVar("D", bound=Driver)


class Drivers(Generic[D]):
    """The drivers of one kind running in this process, by event loop and table code."""

    def __init__(self, make: Callable[[str], D]) -> None:
        self.make = make
        self.by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, D]] = weakref.WeakKeyDictionary()

    def kick(self, code: str) -> None:
        """Start the table's driver in this process unless it runs already (then nudge it)."""
        loop = asyncio.get_running_loop()
        drivers = self.by_loop.setdefault(loop, {})
        driver = drivers.get(code)
        if driver is not None and driver.running:
            driver.nudge()
            return
        driver = drivers[code] = self.make(code)

        def forget(task: asyncio.Task[None]) -> None:
            if drivers.get(code) is driver:
                del drivers[code]

        driver.task = loop.create_task(driver.run())
        driver.task.add_done_callback(forget)
