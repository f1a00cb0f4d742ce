"""Turn timers in the browser (issue 14): the countdown on every screen, the host's pause, "I'm back".

The timers run on the test's clock (the ``clock`` fixture): the table's "30 seconds" run out when the test
advances the clock 30 seconds.  Nothing waits a fixed time: each step waits for what the pages show.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, shoot
from tests.e2e.harness import live_eval, wait_live
from tests.e2e.runbuster_helpers import take_seat
from tests.e2e.test_access import axe_check

pytestmark = pytest.mark.browser


def in_view(page, selector: str) -> bool:
    """The element is on the 360x740 screen without scrolling."""
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_the_countdown_the_host_s_pause_and_i_m_back(server, phone, clock):
    host = phone(viewport=DESKTOP)
    host.goto(server.url + "/new/runbuster/")
    host.get_by_label("Players", exact=True).select_option("2")
    host.get_by_label("Time per action").select_option("30")
    host.locator("input[type=checkbox][name=coach]").uncheck()  # a plain table: no coaching
    host.get_by_role("button", name="Create the table").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]{5}/host/$"))
    join_url = host.locator("#join-link").get_attribute("href")
    pages = {}
    for name in ("Ana", "Bo"):
        pages[name] = phone()
        take_seat(pages[name], join_url, name)
    # The lobby says what the time per action is
    expect(pages["Ana"].locator("#timer-text")).to_have_text("Time per action: 30 seconds")
    code = re.search(r"/t/([A-Z0-9]+)/", join_url).group(1)
    screen = phone(f"{server.url}/t/{code}/screen/", viewport=DESKTOP)  # the table screen shows it too
    host.get_by_role("button", name="Start").click()
    for page in pages.values():
        wait_live(page, "live => live.game && live.game.number === 1")
    mover_name = next(n for n, p in pages.items() if live_eval(p, "live => (live.game.view.your_turn)"))
    mover = pages[mover_name]
    other = pages["Bo" if mover_name == "Ana" else "Ana"]
    # Every screen shows the countdown of the seat in turn, in words
    expect(mover.locator("#timer-text")).to_have_text(re.compile(r"^Your time: 0:[0-3][0-9] left"))
    expect(other.locator("#timer-text")).to_have_text(re.compile(rf"^{mover_name}: 0:[0-3][0-9] left to play"))
    expect(host.locator("#timer-text")).to_have_text(re.compile(rf"^{mover_name}: 0:[0-3][0-9] left to play"))
    assert in_view(mover, "#turn-timer")
    expect(screen.locator("#timer-text")).to_have_text(re.compile(rf"^{mover_name}: 0:[0-3][0-9] left to play"))
    shoot(mover, "timers-countdown-360")

    # The host pauses the timer: everyone reads so (nothing runs out meanwhile); resuming starts the count again
    host.get_by_role("button", name="Pause the timer").click()
    for page in (mover, other, host):
        expect(page.locator("#timer-text")).to_have_text("The turn timer is paused.")
    problems = axe_check(mover, "seat page with the turn timer")
    host.get_by_role("button", name="Resume the timer").click()
    expect(host.get_by_role("button", name="Pause the timer")).to_be_visible()

    # Nobody moves: each time the 30 seconds run out the app plays for the seat; after three in a row
    # it plays the seat until "I'm back"
    for stand_ins in range(1, 4):
        at = live_eval(host, "live => live.game.seq")
        clock.advance(30)
        wait_live(host, "(live, at) => live.game.seq > at", arg=at)
        expect(host.locator("#timer-text")).to_have_text(re.compile(r"0:[0-3][0-9] left to play"))  # a new count
        assert len([e for e in live_eval(host, "live => live.log") if e.get("stand_in") == "timeout"]) >= stand_ins
    expect(mover.locator("#away-note")).to_be_visible()
    expect(mover.get_by_role("button", name="I'm back")).to_be_visible()
    assert in_view(mover, "#im-back")
    shoot(mover, "timers-im-back-360")
    problems += axe_check(mover, "seat page offering I'm back")
    assert live_eval(mover, "live => (live.role)") == "spectator"
    log = live_eval(host, "live => (live.log)")
    stand_ins = [e for e in log if e.get("stand_in") == "timeout"]
    assert len(stand_ins) >= 3
    assert [e["seq"] for e in log] == list(range(log[0]["seq"], log[-1]["seq"] + 1))  # nothing lost, nothing twice
    host.get_by_role("button", name="Moves").click()
    expect(host.locator("#log li.stand-in").first).to_contain_text("(time ran out): ")  # the line says who decided

    mover.get_by_role("button", name="I'm back").click()
    expect(mover.locator("#away-note")).to_be_hidden()
    wait_live(mover, "live => live.role === 'seat'")
    assert problems == [], "\n".join(problems)
