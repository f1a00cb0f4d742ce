"""The browser tests' harness: the readiness signal, the test clock and the one server per process.

A game against the app where the app's bots are held: the board stays at the
bot's turn until the test advances the clock by a second, then shows exactly
one more move.  (The clock's own rules are tested in tests/tables/test_clock.py.)
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import runbuster_helpers as rb
from tests.e2e import sixdice_helpers as sd
from tests.e2e.conftest import PHONE, POOL
from tests.e2e.harness import READY, live_eval, seq, wait_ready, wait_seq

pytestmark = pytest.mark.browser


def test_a_page_says_when_it_has_drawn_the_first_frame(server, phone, clock):
    clock.hold_bots()  # nothing moves between the two reads below: the app's players wait for the test
    page = phone(f"{server.url}/play/sixdice/")
    expect(page.locator(READY)).to_have_count(0)  # the form, no table yet
    page.locator("#play-now").click()
    page.wait_for_url(re.compile(r"/t/\w+/$"))
    wait_ready(page)
    assert live_eval(page, "live => live.table !== null && live.host")  # this phone is host and seat
    assert seq(page) == live_eval(page, "live => live.game.seq")


def test_held_bots_move_one_move_per_second_the_test_advances(server, phone, clock):
    clock.hold_bots()
    page = phone(f"{server.url}/play/runbuster/")
    page.locator("#play-now").click()
    page.wait_for_url(re.compile(r"/t/\w+/$"))
    wait_ready(page)
    bot_moves = 0
    for _ in range(80):
        game = live_eval(page, "live => ({seq: live.game.seq, mine: !!live.game.view.your_turn, over: live.game.status !== 'playing'})")
        if game["over"] or bot_moves == 4:
            break
        if game["mine"]:
            live_eval(page, rb.APP_MOVE)
            wait_seq(page, game["seq"] + 1)
            continue
        state = clock.advance(0)  # a round trip through the server: the bot has had every chance to move
        assert state["bots"] == "held" and state["bot_budget"] == 0
        assert seq(page) == game["seq"]  # and has not: it waits for the test
        clock.advance(1)
        assert wait_seq(page, game["seq"] + 1) == game["seq"] + 1
        bot_moves += 1
        assert clock.advance(0)["bot_budget"] == 0  # the second was spent on that one move
        assert seq(page) == game["seq"] + 1  # and only one move was made
    assert bot_moves == 4, "the app's players made fewer moves than the test let them"


def test_a_context_handed_to_the_next_test_keeps_nothing_of_the_last(server, browser):
    """The pool of contexts (tests/e2e/conftest.py): cookies, local and session storage are gone when a
    context is taken again; a context touched by a call whose effect lasts is closed, never handed on."""
    context, page = POOL.take(browser, PHONE, bypass_csp=True)
    page.goto(f"{server.url}/play/sixdice/")
    page.evaluate("() => { localStorage.setItem('left', '1'); sessionStorage.setItem('left', '1'); }")
    context.add_cookies([{"name": "left", "value": "1", "url": server.url}])
    assert context.cookies() and page.evaluate("() => localStorage.length > 0 && sessionStorage.length > 0")
    POOL.give_back(context)

    again, page = POOL.take(browser, PHONE, bypass_csp=True)
    assert again is context and page.url == "about:blank"  # the same context, its tab put away
    page.goto(f"{server.url}/play/sixdice/")
    assert not [c for c in again.cookies() if c["name"] == "left"]
    assert page.evaluate("() => [localStorage.getItem('left'), sessionStorage.getItem('left')]") == [None, None]

    page.add_init_script("window.leftOver = 1")  # Playwright cannot take an init script back
    POOL.give_back(again)
    fresh, page = POOL.take(browser, PHONE, bypass_csp=True)
    try:
        assert fresh is not again
        page.goto(f"{server.url}/play/sixdice/")
        assert page.evaluate("() => window.leftOver === undefined")
    finally:
        POOL.give_back(fresh)


IDLE_WRITES = """() => new Promise((done) => {
  const seen = [];
  const watch = new MutationObserver((records) => {
    for (const r of records) seen.push(`${r.type} ${r.attributeName || ""} on ${r.target.id || r.target.className || r.target.nodeName}`);
  });
  watch.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  // A window the page's own periodic checks all fall in (every 250 ms, 500 ms and 1 s): nothing is waited for.
  setTimeout(() => { watch.disconnect(); done(seen); }, 1100);
})"""


def test_a_table_nobody_touches_writes_nothing_to_its_pages(server, phone):
    """The turn timer, the ranks and the host's away prompt are checked several times a second; while nothing
    changes they write nothing (a write, even of the same value, makes the browser draw the page again: a phone
    lying on the table would spend its battery on it)."""
    host, link = sd.create_table(phone, server, players=2, dice="physical")
    seats = [sd.join(phone, link, name) for name in ("Ana", "Bo")]
    sd.start(host, seats)
    for page in (host, *seats):
        wait_ready(page)
        assert page.evaluate(IDLE_WRITES) == []
