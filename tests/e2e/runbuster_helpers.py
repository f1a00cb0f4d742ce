"""Run Buster browser tests: steps that drive a table by tapping."""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.harness import live_eval, wait_live

BOT_TIMEOUT = 30_000  # ms: a bot moves about once a second; this is the upper bound for one move

# A page function: the seat's move, as a plain player would make it (roll, take the longest straight, end the
# turn), sent through the page; answers whether it sent one (not its turn: nothing).
APP_MOVE = """live => { const v = live.game.view; if (!v.your_turn) return false;
  if (v.phase === 'roll') live.act({type: 'roll'});
  else if (v.phase === 'choose') live.act({type: 'choose', straight: v.hand_options.reduce((a, b) => b.length > a.length ? b : a)});
  else if (v.phase === 'end_turn') live.act({type: 'end_turn'});
  return !!live.pending; }"""


# ---------------------------------------------------------------- driving pages


def create_table(host, base_url: str, *, players: int, dice: str = "app", hints: bool = False) -> str:
    """On the host's page: fill in the create form; returns the join link."""
    from playwright.sync_api import expect

    host.goto(base_url + "/new/runbuster/")
    host.get_by_label("Players", exact=True).select_option(str(players))
    host.locator(f'input[name=dice][value="{dice}"]').check()
    if hints:
        host.locator("input[name=hints]").check()
    host.locator("input[type=checkbox][name=coach]").uncheck()  # a plain table: no coaching
    host.get_by_role("button", name="Create the table").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]{5}/host/$"))
    return host.locator("#join-link").get_attribute("href")


def take_seat(page, join_url: str, name: str) -> None:
    from playwright.sync_api import expect

    page.goto(join_url)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#app")).to_have_attribute("data-role", "seat")


def view(page) -> dict[str, Any]:
    return live_eval(page, "live => (live.game && live.game.view)")


def seq(page) -> int:
    return live_eval(page, "live => (live.game ? live.game.seq : 0)")


def wait_past(page, before: int, timeout: float = 10_000) -> None:
    # A function, not a string expression: the page's CSP forbids evaluating strings.
    wait_live(page, "(live, b) => live.game && live.game.seq > b", arg=before, timeout=timeout)


def wait_started(page, number: int = 1) -> None:
    wait_live(page, "(live, n) => live.game && live.game.number === n", arg=number)


def longest(options: list[list[int]]) -> list[int]:
    return max(options, key=len)


def pick(page, straight: list[int], hand: list[int]) -> None:
    """Tap the rolled dice that extend ``hand`` to ``straight``, then Take; waits until it is applied."""
    from playwright.sync_api import expect

    before = seq(page)
    for value in straight:
        if value not in hand:
            page.locator(f'.rb-roll button.rb-die[data-value="{value}"]:not(.sel)').first.click()
    take = page.locator(".rb-take")
    expect(take).to_be_enabled()
    take.click()
    wait_past(page, before)


def step(page, choose=longest) -> dict[str, Any]:
    """One action by the seat whose phone this is (it must be its turn), by tapping."""
    v = view(page)
    assert v["your_turn"], v
    before = seq(page)
    if v["phase"] == "choose":
        pick(page, choose(v["hand_options"]), v["hands"][v["current"]])
    else:  # green cup: roll; yellow cup after a choice (or no choice): end the turn
        page.locator(".rb-me button.rb-cup").click()
    wait_past(page, before)
    return v


def step_and_sync(page, observer, choose=longest) -> dict[str, Any]:
    """:func:`step`, then wait until ``observer`` has seen it too."""
    v = step(page, choose)
    wait_past(observer, seq(page) - 1)
    return v


def type_roll(page, values: list[int]) -> None:
    """Type physical dice on the keypad of ``page`` and send them."""
    from playwright.sync_api import expect

    before = seq(page)
    for value in values:
        page.locator(f'.rb-keypad .rb-key[data-key="{value}"]').click()
    send = page.locator(".rb-keypad .rb-send")
    expect(send).to_be_enabled()
    send.click()
    wait_past(page, before)
