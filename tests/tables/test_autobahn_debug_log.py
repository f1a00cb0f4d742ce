"""autobahn's debug-log helpers are deferred: nothing is formatted unless a line is written, and a line reads the same."""

from __future__ import annotations

from pprint import pformat

from autobahn.util import hltype, hlval
from autobahn.websocket import protocol

from sixdice.tables.transport import autobahn_debug_log


def test_installed_helpers_format_only_when_turned_into_text():
    assert autobahn_debug_log.install() and autobahn_debug_log.install()  # idempotent
    calls = []

    def costly(x):
        calls.append(x)
        return f"<{x}>"

    made = autobahn_debug_log.deferred(costly)("a")
    assert calls == []
    assert str(made) == "<a>" and f"{made:>5}" == "  <a>" and calls == ["a", "a"]


def test_autobahns_lines_read_the_same():
    autobahn_debug_log.install()
    value = [("openHandshakeTimeout", 5, "Factory")]
    assert str(protocol.pformat(value)) == pformat(value)
    assert str(protocol.hlval(12)) == hlval(12)
    assert str(protocol.hltype(test_autobahns_lines_read_the_same)) == hltype(test_autobahns_lines_read_the_same)
    line = "{func} sent {n}"  # as a log line's format is filled in when it is written
    assert line.format(func=protocol.hltype(pformat), n=protocol.hlval(3)) == f"{hltype(pformat)} sent {hlval(3)}"


def test_timings_still_read_as_text():
    autobahn_debug_log.install()
    timings = protocol.Timings()
    timings.track("onOpen")
    assert isinstance(str(timings), str) and "onOpen" in str(timings)
