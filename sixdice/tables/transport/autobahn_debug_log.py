"""autobahn's debug log lines, formatted only when they are written.

autobahn (daphne's WebSocket layer) builds the arguments of its debug log
lines before it calls the logger: a highlighted type name and two values for
every frame it sends, a ``pformat`` of its settings at every connect.  With
debug logging off the logger drops them unread, so the work was wasted: a few
per cent of a move's CPU and of a connect's (docs/performance.md, "Frames").
:func:`install` makes those helpers return objects that format themselves
when (and only if) a log line is written, so a debug log reads the same.
"""

from __future__ import annotations

from collections.abc import Callable
from pprint import pformat
from typing import Any


class _Deferred:
    """``func(*args)``, worked out when the log line turns it into text."""

    __slots__ = ("args", "func")

    def __init__(self, func: Callable[..., str], args: tuple[Any, ...]) -> None:
        self.func = func
        self.args = args

    def __str__(self) -> str:
        return str(self.func(*self.args))

    __repr__ = __str__

    __format__ = lambda self, spec: format(str(self), spec)  # noqa: E731 - "{x:>10}" as for the text


def deferred(func: Callable[..., str]) -> Callable[..., Any]:
    def make(*args: Any) -> _Deferred:
        return _Deferred(func, args)

    make.sixdice_deferred = func  # type: ignore[attr-defined]
    return make


HELPERS = ("hltype", "hlval", "pformat")


def install() -> bool:
    """Defer autobahn's log formatting helpers in its WebSocket protocol module; idempotent."""
    try:
        from autobahn.websocket import protocol
    except ImportError:  # served without autobahn (another ASGI server)
        return False
    for name in HELPERS:
        current = getattr(protocol, name, None)
        if current is not None and not hasattr(current, "sixdice_deferred"):
            setattr(protocol, name, deferred(current))
    # The module's one use of pformat that must give text at once: Timings.__str__.
    if not hasattr(protocol.Timings.__str__, "sixdice_eager"):

        def timings_text(self: Any) -> str:
            return pformat(self._timings)

        timings_text.sixdice_eager = True  # type: ignore[attr-defined]
        protocol.Timings.__str__ = timings_text  # type: ignore[method-assign]
    return True
