"""Six-Dice in a browser: the host adds a bot of a chosen strength in the lobby; with hints on, the
phone whose turn it is and the host console show the strong bot's suggestion."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, screenshot, shoot
from tests.e2e.harness import form_answered, live_eval, wait_live


def test_bot_in_the_lobby_and_hints_on_the_phone(server, phone):
    host = phone(server.url + "/new/sixdice/", viewport=PHONE)
    host.get_by_label("Players").select_option("2")
    host.get_by_label("Rounds").fill("2")
    host.get_by_label("The app rolls them").check()
    form_answered(host).get_by_label("Hints: the app suggests a flip and a balancing").check()
    host.locator("input[type=checkbox][name=coach]").uncheck()  # a plain table: no coaching
    host.get_by_role("button", name="Create the table").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]{5}/host/$"))
    join_url = host.locator("#join-link").get_attribute("href")

    # the lobby: the host picks a strength and adds a bot
    host.get_by_label("Bot strength").select_option("greedy")
    host.get_by_role("button", name="Add a bot").click()
    expect(host.locator('#seats li[data-seat="0"]')).to_contain_text("Bot 1")
    wait_live(host, "live => live.table.seats.length === 1 && live.table.seats[0].strength === 'greedy'")

    ana = phone(join_url)
    ana.get_by_label("Your name").fill("Ana")
    ana.get_by_role("button", name="Take a seat").click()
    expect(ana.locator("#app")).to_have_attribute("data-role", "seat")
    expect(host.locator('#seats li[data-seat="1"] .dot.on')).to_be_visible()
    host.get_by_role("button", name="Start").click()

    # the bot plays its own decisions; when Ana decides, her phone shows the hint
    wait_live(ana, "live => { const v = live.game && live.game.view; return v && v.pending && v.pending.seat === 1 && v.hint; }", timeout=60_000)
    hint = ana.locator(".sd-hint")
    expect(hint).to_be_visible()
    expect(hint.locator("h2")).to_have_text("Hint")
    view = live_eval(ana, "live => (live.game.view)")
    kind = view["hint"]["kind"]
    expected = {"flip": "Flip your", "group": "Group:", "keep": "Keep"}[kind]
    expect(hint.locator(".sd-hint-move")).to_contain_text(expected)
    expect(hint.locator(".sd-hint-value")).to_contain_text(re.compile(r"estimate of your lead over the best other hand|wins at once"))
    shoot(ana, "sixdice-hint-phone", full_page=True)
    screenshot(ana, "sixdice-hint-phone")

    # hints are private: the host console gets none, not even for the seat in turn
    wait_live(host, "live => live.game && live.game.view && live.game.view.pending")
    assert live_eval(host, "live => (live.game.view.hint === undefined)")
    expect(host.locator(".sd-hint")).to_have_count(0)

    # the bot's moves are logged as its seat's
    log = host.locator("#log li")
    expect(log.filter(has_text=re.compile(r"^Bot 1"))).not_to_have_count(0)
