"""Access and weight: axe-core finds no serious or critical violation on any page, in the light and the
dark theme; the seat page stays under 60 KB on first load; the screen stays awake on plain HTTP.

axe-core comes bundled in the ``axe-playwright-python`` package (no download at run time).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e import runbuster_helpers as rb
from tests.e2e import sixdice_helpers as sd
from tests.e2e.conftest import BROWSERS, LAN_HOST, PHONE, Server, shoot
from tests.e2e.harness import live_eval, wait_live, wait_page

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    """The process's Chromium that maps a LAN-like name to 127.0.0.1 (conftest's Browsers)."""
    return BROWSERS.get(f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1")


def axe_check(page: Page, where: str) -> list[str]:
    """The serious and critical axe violations on the page, in the light and the dark theme."""
    from axe_playwright_python.base import AXE_SCRIPT

    problems = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        # The scheme applied, and every colour transition it started is over (a link fades to its new colour).
        wait_page(page, "(dark) => matchMedia('(prefers-color-scheme: dark)').matches === dark"
                        " && document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running')", arg=scheme == "dark")
        if not page.evaluate("() => typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
            page.evaluate(AXE_SCRIPT)  # axe-core (570 KB), once per document: both themes are checked on one page
        response = page.evaluate("(options) => axe.run(document, options)", {"resultTypes": ["violations"]})
        for v in response["violations"]:
            if v["impact"] in ("serious", "critical"):
                nodes = "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"]) for n in v["nodes"][:3])
                problems.append(f"{where} [{scheme}] {v['id']} ({v['impact']}): {v['help']} at {nodes}")
    page.emulate_media(color_scheme="light")
    return problems


@pytest.fixture(scope="module")
def table(browser, server: Server) -> Iterator[dict[str, object]]:
    """A Six-Dice table with a game running (Olena and Bo, the host), a finished Run Buster table, a hand-over link."""
    pages: list[Page] = []

    def open_page(url: str | None = None, viewport=PHONE) -> Page:
        context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        pages.append(page)
        if url:
            page.goto(url)
        return page

    host, link = sd.create_table(open_page, server, players=2, rounds=1, dice="physical")
    lobby = open_page(link)  # the join page, before taking a seat
    olena = sd.join(open_page, link, "Olena")
    bo = sd.join(open_page, link, "Bo")
    sd.start(host, [olena, bo])
    code = re.search(r"/t/([A-Z0-9]+)/", link).group(1)
    # a finished Run Buster game, played by two bots, for the replay and the statistics
    rb_host = open_page()
    rb_link = rb.create_table(rb_host, server.url, players=2)
    add = rb_host.locator("#board .rb-addbot")
    add.click()
    expect(rb_host.locator('#seats li[data-seat="0"]')).to_be_visible()
    add.click()
    expect(rb_host.locator('#seats li[data-seat="1"]')).to_be_visible()
    rb_host.get_by_role("button", name="Start").click()
    wait_live(rb_host, "live => live.game && live.game.view && live.game.view.over", timeout=60_000)
    rb_code = re.search(r"/t/([A-Z0-9]+)/", rb_link).group(1)
    yield {"host": host, "lobby": lobby, "olena": olena, "bo": bo, "code": code, "rb_code": rb_code, "open": open_page,
           "link": link}
    for page in pages:
        page.context.close()


def test_axe_finds_no_serious_violation_on_any_page(table, server: Server):
    open_page = table["open"]
    code, rb_code = table["code"], table["rb_code"]
    problems: list[str] = []
    # pages of the live Six-Dice table: a seat at its turn, the host, the join page, a spectator, the screen
    olena, host = table["olena"], table["host"]
    problems += axe_check(olena, "seat page")
    problems += axe_check(host, "host page")
    olena.locator('[data-sheet="settings-card"]').click()
    problems += axe_check(olena, "seat page, settings open")
    olena.locator("#settings-card .sheet-close").click()
    olena.locator('[data-sheet="help-card"]').click()
    problems += axe_check(olena, "seat page, the marks explained")
    olena.locator("#help-card .sheet-close").click()
    problems += axe_check(table["lobby"], "join page")
    # the host hands Bo's seat over: the claim page
    host.locator('[data-sheet="seats-card"]').click()
    host.once("dialog", lambda dialog: dialog.accept())  # "Hand over" asks first
    host.locator('#seats li[data-seat="1"] button', has_text="Hand over").click()
    claim_url = host.locator('#seats li[data-seat="1"] .handover a').get_attribute("href")  # beside the seat
    host.locator("#seats-card .sheet-close").click()
    pages = {
        "home": "/",
        "new Six-Dice table": "/new/sixdice/",
        "new Run Buster table": "/new/runbuster/",
        "spectator": f"/t/{code}/?watch",
        "table screen": f"/t/{code}/screen/",
        "Six-Dice rules": "/rules/sixdice/",
        "Run Buster rules": "/rules/runbuster/",
        "replay": f"/t/{rb_code}/replay/1/",
        "statistics": "/stats/",
        "Run Buster table screen": f"/t/{rb_code}/screen/",
    }
    page = open_page()
    for where, path in pages.items():
        page.goto(server.url + path)
        if "screen" in where or where == "spectator":
            wait_live(page, "live => live && live.game")
        problems += axe_check(page, where)
    page.goto(claim_url)
    problems += axe_check(page, "claim page")
    assert not problems, "\n".join(problems)


def test_dark_theme_follows_the_phone_and_the_switch(table):
    olena = table["olena"]
    olena.emulate_media(color_scheme="dark")
    bg = olena.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg == "rgb(18, 18, 21)", bg
    olena.locator('[data-sheet="settings-card"]').click()
    olena.locator("#set-theme").select_option("light")
    assert olena.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(244, 241, 234)"
    olena.reload()
    wait_live(olena, "live => live && live.game")
    assert olena.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(244, 241, 234)"  # kept
    olena.locator('[data-sheet="settings-card"]').click()
    olena.locator("#set-theme").select_option("dark")
    olena.emulate_media(color_scheme="light")
    assert olena.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(18, 18, 21)"
    olena.locator("#settings-card .sheet-close").click()
    shoot(olena, "sixdice-2p-dark")
    olena.locator('[data-sheet="settings-card"]').click()
    olena.locator("#set-theme").select_option("auto")
    olena.locator("#settings-card .sheet-close").click()


def test_panels_open_over_the_board_and_focus_stays(table):
    olena = table["olena"]
    board_top = olena.evaluate("document.getElementById('board').getBoundingClientRect().top")
    for sheet in ("seats-card", "log-card", "standings-card", "help-card", "settings-card"):
        olena.locator(f'[data-sheet="{sheet}"]').click()
        expect(olena.locator(f"#{sheet}")).to_have_class(re.compile(r"\bopen\b"))
        assert olena.evaluate(f"getComputedStyle(document.getElementById('{sheet}')).position") == "fixed"
        assert olena.evaluate("document.getElementById('board').getBoundingClientRect().top") == board_top
        olena.keyboard.press("Escape")
        expect(olena.locator(f"#{sheet}")).not_to_have_class(re.compile(r"\bopen\b"))
    # one polite live region, and the board itself is not one
    assert olena.locator("[aria-live]").count() == 1
    expect(olena.locator("#announce")).to_have_attribute("aria-live", "polite")
    # keyboard focus survives a redraw: focus a keypad key, then the table moves on (Bo... the host types)
    v = sd.view(olena)
    assert v["pending"]["kind"] == "roll" and v["pending"]["seat"] == 0
    key = olena.locator('.sd-keypad [data-key="2"]')
    key.focus()
    live_eval(olena, "live => (live.draw())")
    assert olena.evaluate("document.activeElement.dataset.key") == "2"


def test_seat_page_weight_on_first_load(table, browser, server: Server):
    """Everything that comes over the wire on a first visit of a seat page, gzip included, at most 60 KB."""
    olena = table["olena"]
    cdp = olena.context.new_cdp_session(olena)
    cdp.send("Network.enable")
    cdp.send("Network.clearBrowserCache")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.setBypassServiceWorker", {"bypass": True})  # a first visit has no service worker yet
    olena.reload()
    wait_live(olena, "live => live && live.game && document.querySelector('.sd-hand')")
    entries = olena.evaluate("""() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
      .map((e) => ({name: e.name, transfer: e.transferSize, body: e.encodedBodySize, raw: e.decodedBodySize}))""")
    total = sum(e["transfer"] for e in entries)
    for e in entries:
        print(f"  {e['name']}: {e['transfer']} B on the wire ({e['body']} B body, {e['raw']} B unpacked)")
    print(f"Six-Dice seat page weight: {total} B on the wire in {len(entries)} requests")
    assert all(e["transfer"] > 0 for e in entries), entries
    assert not any("NoSleep" in e["name"] for e in entries)  # loaded only on a tap, and only without Wake Lock
    assert total <= 60 * 1024


def test_the_screen_stays_awake_on_plain_http(table, browser, server: Server):
    """A phone that reached the table over plain HTTP on the LAN (no secure context: no Wake Lock API)
    keeps the screen on with NoSleep.js, started by the first tap."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        lan = server.url.replace("127.0.0.1", LAN_HOST)
        page.goto(f"{lan}/t/{table['code']}/?watch")
        wait_live(page, "live => live && live.game")
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'wakeLock' in navigator") is False
        page.locator("#board").click()
        wait_live(page, "live => live.noSleep && live.noSleep.isEnabled", timeout=10_000)
        # its tiny muted video plays (that is what keeps the screen on)
        wait_live(page, "live => live.noSleep.noSleepVideo && !live.noSleep.noSleepVideo.paused")
    finally:
        context.close()
