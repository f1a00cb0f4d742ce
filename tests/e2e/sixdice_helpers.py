"""Helpers for the Six-Dice table browser tests: create a table, join, read the view, tap a move."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import PHONE
from tests.e2e.harness import form_answered, live_eval, wait_live, wait_page


def create_table(
    phone,
    server,
    *,
    players: int,
    rounds: int = 1,
    dice: str = "app",
    auto_balance: bool = False,
    time_limit: int | None = None,
    viewport: dict[str, int] = PHONE,
    rules: str = "As written",
) -> tuple[Page, str]:
    """The host fills in the create form; returns the host page and the join link.

    ``rules``: the radio to pick ("Recommended" is the form's own choice; these tests play the rules as written).
    """
    host = phone(server.url + "/new/sixdice/", viewport=viewport)
    host.get_by_label(rules, exact=True).check()
    host.get_by_label("Players").select_option(str(players))
    host.get_by_label("Rounds").fill(str(rounds))
    if time_limit:
        host.get_by_label("Time limit in minutes (optional)").fill(str(time_limit))
    host.get_by_label("Real dice, typed in" if dice == "physical" else "The app rolls them").check()
    form_answered(host)  # the dice count below the dice answers what was chosen: the boxes under it stay put
    if auto_balance:
        host.get_by_label("Automatic balancing").check()
    host.locator("input[type=checkbox][name=coach]").uncheck()  # a plain table: no coaching
    form_answered(host).get_by_role("button", name="Create the table").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]{5}/host/$"))
    return host, host.locator("#join-link").get_attribute("href")


def join(phone, join_url: str, name: str) -> Page:
    page = phone(join_url)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#app")).to_have_attribute("data-role", "seat")
    return page


def start(host: Page, players: Sequence[Page], seats: int | None = None) -> None:
    """The host starts once every seat is here (``seats``: all of them, some maybe not pages); each page draws the game."""
    for i in range(len(players) if seats is None else seats):
        expect(host.locator(f'#seats li[data-seat="{i}"] .dot.on')).to_be_visible()
    host.get_by_role("button", name="Start").click()
    for page in [host, *players]:
        wait_live(page, "live => live.game && live.game.view")  # a function: the CSP forbids eval


def view(page: Page) -> dict[str, Any]:
    return live_eval(page, "live => (live.game.view)")


def seq(page: Page) -> int:
    return live_eval(page, "live => (live.game.seq)")


def wait_seq(pages: Sequence[Page], at_least: int) -> None:
    for page in pages:
        wait_live(page, "(live, n) => live.game && live.game.seq >= n", arg=at_least)


# The newest move line's text, leaving out the news a phone keeps under it for its own player (.log-news).
NEWEST_LINE = """() => { const li = document.querySelector('#log li'); if (!li) return null;
  return [...li.childNodes].filter((n) => !(n.classList && n.classList.contains('log-news')))
    .map((n) => n.textContent).join('').trim(); }"""


def assert_same_log(pages: Sequence[Page]) -> str:
    """Every page shows the same newest log line and the same last-move text; returns it."""
    ref = pages[0]
    last_seq = seq(ref)
    wait_seq(pages, last_seq)
    text = wait_page(ref, f"() => ({NEWEST_LINE})()")  # the line as every phone shows it, without a phone's own news
    for page in pages:
        assert seq(page) == last_seq
        wait_page(page, f"(text) => ({NEWEST_LINE})() === text", text)
        expect(page.locator(".sd-last li").last).to_contain_text(text)
    return text


def tap_flip(page: Page, flip: Sequence[int]) -> None:
    victim, own, own_to, other, _other_to = flip
    page.locator(f'.sd-hand.me button.die[data-i="{own}"]').click()
    page.locator(f'.sd-faces button[data-face="{own_to}"]').click()
    page.locator(f'.sd-cands button[data-cand="{victim}:{other}"]').click()
    expect(page.locator(".sd-flip .sd-change")).to_have_count(2)
    page.locator('[data-act="confirm-flip"]').click()


def type_roll(page: Page, values: Sequence[int]) -> None:
    for v in values:
        page.locator(f'.sd-keypad button[data-key="{v}"]').click()
    page.locator('[data-act="send-roll"]').click()


def tap_move(page: Page, roll: Sequence[int] | None = None) -> None:
    """Make whatever move the game waits for on ``page`` by tapping: first legal flip, default choices."""
    v = view(page)
    p = v["pending"]
    if p["kind"] == "flip":
        tap_flip(page, v["legal_flips"][0])
    elif p["kind"] == "roll":
        type_roll(page, list(roll or [])[: p["count"]] or [1] * p["count"])
    else:
        page.locator('.sd-choice [data-act="accept"]').click()
