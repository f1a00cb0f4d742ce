"""In CI (``CI`` set) a skipped test fails the run, whatever skipped it.

``require_binary`` already fails instead of skipping in CI; this catches every
other way a test can skip (a ``skipif`` marker, ``importorskip``, a plugin), so
a green CI run has run every test it collected.  Imported by tests/conftest.py.
"""

from __future__ import annotations

import os

import pytest

_skipped: list[str] = []


def in_ci() -> bool:
    return bool(os.environ.get("CI"))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and not hasattr(report, "wasxfail") and in_ci():
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        _skipped.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _skipped and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter) -> None:
    if _skipped:
        terminalreporter.section("skipped in CI (fails the run)", red=True)
        for line in _skipped:
            terminalreporter.line(line)
