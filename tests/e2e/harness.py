"""Waiting on what a page shows: its readiness signal and its move number (docs/scripts.md).

A table page sets ``<html data-live="ready">`` once it has drawn the first
table frame, and ``data-seq`` to the game's ``seq`` at every draw.  Read the
page's state (``window.live``) only after :func:`wait_ready`, through
:func:`live_eval` and :func:`wait_live` (no test names ``window.live`` or calls
``wait_for_function`` itself: tests/e2e/test_waits.py checks it); wait for a
move with :func:`wait_seq`, and for anything a person sees with Playwright's
``expect`` (which retries until the page shows it).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

READY = 'html[data-live="ready"]'


def wait_ready(page: Page) -> Page:
    """Wait until the table page has drawn the server's first frame."""
    expect(page.locator(READY)).to_have_count(1)
    return page


def live_eval(page: Page, script: str, arg: Any = None) -> Any:
    """Evaluate ``script`` (a function of ``live``, e.g. ``"live => live.seat"``) once the page is ready."""
    wait_ready(page)
    return page.evaluate(f"(arg) => ({script})(window.live, arg)", arg)


def seq(page: Page) -> int:
    """The move number the page shows now (its last drawn ``seq``)."""
    wait_ready(page)
    value = page.locator("html").get_attribute("data-seq")
    return int(value) if value else -1


def wait_seq(page: Page, at_least: int) -> int:
    """Wait until the page has drawn move ``at_least`` (or a later one); returns the move drawn."""
    wait_ready(page)
    page.wait_for_function("(n) => Number(document.documentElement.dataset.seq || -1) >= n", arg=at_least)
    return seq(page)


def wait_live(page: Page, predicate: str, arg: Any = None, timeout: float | None = None) -> Any:
    """Wait until ``predicate`` (a function of ``live`` and ``arg``) is true on the ready page; returns its value."""
    wait_ready(page)
    handle = page.wait_for_function(f"(arg) => ({predicate})(window.live, arg)", arg=arg, timeout=timeout)
    return handle.json_value()
