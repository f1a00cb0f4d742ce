"""The shared table machinery in a real browser: create, join by link, presence, start, reconnect."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import runbuster_helpers as rb
from tests.e2e.conftest import DESKTOP, screenshot
from tests.e2e.harness import form_answered, live_eval, wait_live

pytestmark = pytest.mark.browser


def test_host_creates_players_join_by_link_and_watchers_watch(server, phone):
    host = phone(server.url + "/", viewport=DESKTOP)
    host.get_by_role("link", name="Host a table").first.click()
    host.get_by_label("Players").select_option("2")
    form_answered(host).locator("input[type=checkbox][name=coach]").uncheck()  # a plain table: no coaching
    form_answered(host).get_by_role("button", name="Create the table").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]{5}/host/$"))
    join_url = host.locator("#join-link").get_attribute("href")
    code = host.locator("strong.code").inner_text()
    assert re.search(rf"/t/{code}/\?k=[0-9a-f]{{20}}$", join_url)  # the link carries the join key
    pin = host.locator("#join-pin").inner_text()
    expect(host.locator(".qr svg")).to_be_visible()

    ana = phone(join_url)
    ana.get_by_label("Your name").fill("Ana")
    ana.get_by_role("button", name="Take a seat").click()
    expect(ana.locator("#app")).to_have_attribute("data-role", "seat")
    expect(host.locator('#seats li[data-seat="0"] .dot.on')).to_be_visible()

    bo = phone(server.url + "/")
    bo.get_by_placeholder("Table code").fill(code.lower())
    bo.get_by_role("button", name="Join").click()
    bo.get_by_label("Your name").fill("Bo")
    bo.get_by_label("Join PIN").fill(pin)  # by code alone, a seat also needs the host's PIN
    bo.get_by_role("button", name="Take a seat").click()
    expect(host.locator('#seats li[data-seat="1"] .dot.on')).to_be_visible()
    expect(ana.locator('#seats li[data-seat="1"]')).to_contain_text("Bo")

    host.get_by_role("button", name="Start").click()
    expect(host.get_by_role("button", name="Pause")).to_be_visible()
    expect(ana.locator("#log li").first).to_be_visible()

    late = phone(join_url)
    expect(late.locator("#app")).to_have_attribute("data-role", "spectator")
    expect(late.locator("#seats")).to_contain_text("Ana")
    screenshot(host, "tables-host-desktop")
    screenshot(ana, "tables-seat-phone")

    # Reconnect: the socket drops, the banner shows, the page reconnects by itself.
    live_eval(ana, "live => (live.ws.close())")
    expect(ana.locator("#banner")).to_be_hidden(timeout=10_000)
    seq_before = live_eval(ana, "live => (live.game.seq)")
    host.get_by_role("button", name="Pause").click()
    expect(ana.locator("body")).to_have_class(re.compile("paused"))
    assert live_eval(ana, "live => (live.game.seq)") == seq_before


def test_phone_page_has_no_horizontal_scroll(server, phone):
    page = phone(server.url + "/new/sixdice/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for button in page.locator("button, select, input[type=text], input:not([type])").all():
        box = button.bounding_box()
        if box:
            assert box["height"] >= 44, button.evaluate("e => e.outerHTML")


def test_host_closes_the_table(server, phone):
    host = phone(server.url + "/new/runbuster/", viewport=DESKTOP)
    host.get_by_label("Players", exact=True).select_option("2")
    host.locator("input[type=checkbox][name=coach]").uncheck()  # a plain table: no coaching
    host.get_by_role("button", name="Create the table").click()
    join_url = host.locator("#join-link").get_attribute("href")
    for name in ("Ana", "Bo"):
        player = phone(join_url)
        player.get_by_label("Your name").fill(name)
        player.get_by_role("button", name="Take a seat").click()
    host.get_by_role("button", name="Start").click()
    expect(host.get_by_role("button", name="Pause")).to_be_visible()
    host.once("dialog", lambda dialog: dialog.accept())
    host.get_by_role("button", name="Close the table").click()
    expect(player.locator("#closed-note")).to_be_visible()
    expect(host.locator("#host-controls")).to_be_hidden()
    player.reload()
    expect(player.locator("#closed-note")).to_be_visible()


def test_a_tap_is_not_lost_when_the_table_changes_under_the_finger(server, phone):
    """A press and a release on a button are one tap, even when the table changes between them: the page
    draws the change once the finger lifts.  (A frame drawn in between replaced the button under the
    finger, and the tap was lost: the host's "Add a bot" added none.)  A press that lasts does not keep
    the table from being drawn."""
    host = phone(viewport=DESKTOP)  # the button in sight: no scrolling while the board may be drawn again
    host.add_init_script("window.SIXDICE_HOLD_MS = 60000;")  # the press lasts as long as the other phone takes
    link = rb.create_table(host, server.url, players=4)
    add = host.locator("#board .rb-addbot")
    expect(add).to_be_enabled()
    expect(add).to_be_in_viewport()
    # read in one go in the page: a frame drawn meanwhile puts the same button in the same place
    box = host.evaluate("""() => { const r = document.querySelector("#board .rb-addbot").getBoundingClientRect();
                                   return {x: r.x, y: r.y, width: r.width, height: r.height}; }""")
    host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    host.mouse.down()
    ana = phone()
    rb.take_seat(ana, link, "Ana")
    wait_live(host, "live => live.table.seats.length === 1")  # the host's page has the change ...
    expect(host.locator('#seats li[data-seat="0"]')).to_have_count(0)  # ... and waits to draw it
    host.mouse.up()
    expect(host.locator('#seats li[data-seat="1"]')).to_be_visible()  # the tap added the bot
    expect(host.locator('#seats li[data-seat="0"]')).to_contain_text("Ana")
    expect(host.locator("#seats li")).to_have_count(2)

    # A press that lasts longer than the hold (a second by default): the table is drawn under it.
    spot = ana.evaluate("""() => {  // a point on nothing a tap acts on
        for (let y = 60; y < innerHeight; y += 10) for (let x = 10; x < innerWidth; x += 10) {
            const e = document.elementFromPoint(x, y);
            if (e && !e.closest("a, button, input, select, textarea, label, summary, details")) return {x, y};
        }
        return null; }""")
    ana.mouse.move(spot["x"], spot["y"])
    ana.mouse.down()
    bo = phone()
    rb.take_seat(bo, link, "Bo")
    expect(ana.locator('#seats li[data-seat="2"]')).to_contain_text("Bo")
    ana.mouse.up()
