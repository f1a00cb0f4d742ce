"""The compensation by place in the turn order in a browser: a table with it as an own house rule, two bots
play one round, and the end screen says who added what ("Bot 2 +1.5 for moving second")."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, screenshot
from tests.e2e.harness import form_answered, live_eval, wait_ready


def test_the_end_screen_says_who_added_the_compensation(server, phone):
    host = phone(server.url + "/new/sixdice/", viewport=PHONE)
    host.get_by_label("Players").select_option("2")
    host.get_by_label("Rounds").fill("1")
    host.get_by_label("The app rolls them").check()
    form_answered(host).locator("input[type=checkbox][name=coach]").uncheck()
    host.get_by_label("My own house rules (below)").check()
    form_answered(host).locator("#house-rules summary").click()
    host.get_by_label(re.compile("Compensation by place in the turn order")).fill("0 1.5")
    form_answered(host).get_by_role("button", name="Create the table").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]{5}/host/$"))
    for k in (1, 2):
        host.get_by_label("Bot strength").select_option("greedy")
        host.get_by_role("button", name="Add a bot").click()
        expect(host.locator(f'#seats li[data-seat="{k - 1}"]')).to_contain_text(f"Bot {k}")
    host.get_by_role("button", name="Start").click()
    wait_ready(host)
    end = host.locator(".sd-end")
    expect(end).to_be_visible(timeout=60_000)
    view = live_eval(host, "live => live.game.view")
    assert view["over"] and view["end_reason"] == "rounds"
    second = (view["first"] + 1) % 2
    line = end.locator(f'.sd-compensation li[data-comp-seat="{second}"]')
    expect(line).to_have_text(f"{view['players'][second]} +1.5 for moving second")
    expect(end.locator(".sd-compensation li")).to_have_count(1)  # the first player adds nothing: no line
    # the reason names the hand's value; the line above the points says what is compared with them added
    expect(end.locator(".sd-comp-why")).to_have_text("Each hand scores its distance from zero plus the points below.")
    # the summary of the win names the score that won, compensation included, not the hand alone
    score = view["final_scores"][view["winners"][0]]
    expect(host.get_by_text(re.compile(r"won: at the end, the highest score"))).to_contain_text(f"({score:g})")
    screenshot(host, "sixdice-end-compensation-phone")
