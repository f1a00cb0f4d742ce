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


def _until(page: Page, predicate: str, arg: Any, timeout: float | None) -> Any:
    """The value of ``predicate`` (a page function of ``arg``) once it is truthy.

    Read in one call when it holds already (most waits: the page has drawn the move), else waited for by
    Playwright; a ``wait_for_function`` costs several calls to the browser even when nothing is left to wait for.
    It checks every 20 ms, not at every animation frame (Playwright's default): a page asked for a frame
    draws one, 60 times a second for as long as the test waits, and Chromium's time is the suite's.
    """
    now = page.evaluate(f"(arg) => {{ const value = ({predicate})(arg); return value ? {{value}} : null; }}", arg)
    if now is not None:
        return now["value"]
    return page.wait_for_function(predicate, arg=arg, timeout=timeout, polling=20).json_value()


def wait_seq(page: Page, at_least: int) -> int:
    """Wait until the page has drawn move ``at_least`` (or a later one); returns the move drawn."""
    wait_ready(page)
    drawn = "(n) => { const s = Number(document.documentElement.dataset.seq || -1); return s >= n && {s}; }"
    return int(_until(page, drawn, at_least, None)["s"])


def wait_live(page: Page, predicate: str, arg: Any = None, timeout: float | None = None) -> Any:
    """Wait until ``predicate`` (a function of ``live`` and ``arg``) is true on the ready page; returns its value."""
    wait_ready(page)
    return _until(page, f"(arg) => ({predicate})(window.live, arg)", arg, timeout)


def wait_page(page: Page, predicate: str, arg: Any = None, timeout: float | None = None) -> Any:
    """Wait until ``predicate`` (a function of ``arg`` over the page's document, no page globals) is true."""
    return _until(page, predicate, arg, timeout)


def settled(page: Page) -> None:
    """Two animation frames: what a tap started on the page itself has been handled and drawn.

    For asserting that a tap changed nothing, where nothing is sent to the server.
    """
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")


FORM_BUSY = "#dice-needed[aria-busy=true]"


def form_answered(page: Page) -> Page:
    """The new-table form's dice count has the server's answer for what the form holds now.

    The answer may change the count's height and move every control below it: a tap below it waits for this
    (the box is ``aria-busy`` while a question is on its way; a form without the count has nothing to wait for).
    """
    expect(page.locator(FORM_BUSY)).to_have_count(0)
    return page


def next_draw(page: Page, script: str, arg: Any = None) -> None:
    """Run ``script`` (a function of ``live`` and ``arg``) and wait until the page draws the table again."""
    wait_ready(page)
    page.evaluate(
        "(arg) => new Promise((resolve) => { const live = window.live;"
        " const drawn = () => { resolve(true); queueMicrotask(() => live.listeners.splice(live.listeners.indexOf(drawn), 1)); };"
        f" live.listeners.push(drawn); ({script})(live, arg); }})",
        arg,
    )
