"""The replay viewer in a real browser at phone width: slider, buttons, arrow keys, turn jumps."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ROOT, screenshot, shoot

pytestmark = pytest.mark.browser

PLAY = """
import json
import re
from tests.review.conftest import play
from sixdice.review import exchange
game = play({engine!r}, ("Ana", "Bo"), seed=5, options={options!r})
print(json.dumps(exchange.export_game(game)))
"""


def _played_on(server, engine: str, options: dict) -> dict:
    """Play a game in the server's own database (the browser's event loop keeps the ORM out of this process)."""
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", PLAY.format(engine=engine, options=options)],
                         cwd=ROOT, env=server.env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _games_counted(stats, engine: str) -> int:
    """The statistics page's count of finished games of ``engine`` (0 before the first)."""
    cell = stats.locator(f"#engine-{engine} .n-games")
    return int(cell.text_content() or 0) if cell.count() else 0


@pytest.mark.parametrize("engine", ["runbuster", "sixdice"])
def test_replay_at_phone_width(server, phone, tmp_path, engine):
    options = {"rounds": 2, "auto_balance": True} if engine == "sixdice" else {}
    stats = phone(f"{server.url}/stats/")  # the server is shared: other tests' games count too
    before = _games_counted(stats, engine)
    doc = _played_on(server, engine, options)
    code = doc["table"]["code"]
    last = len(doc["events"])
    page = phone(f"{server.url}/t/{code}/replay/1/")
    label = page.locator("#step-label")
    expect(label).to_contain_text(f"0 / {last}")
    page.get_by_role("button", name="Next").click()
    expect(label).to_contain_text(f"1 / {last}")
    expect(page.locator("#step-text")).to_contain_text(doc["events"][0]["text"])  # after who decided
    page.keyboard.press("ArrowRight")
    expect(label).to_contain_text(f"2 / {last}")
    page.keyboard.press("ArrowLeft")
    expect(label).to_contain_text(f"1 / {last}")
    page.get_by_role("button", name="End").click()
    expect(label).to_contain_text(f"{last} / {last}")
    expect(page.locator("#step-text")).to_contain_text(doc["events"][-1]["text"])
    page.get_by_role("button", name="Previous").click()
    expect(label).to_contain_text(f"{last - 1} / {last}")
    page.locator("#step-slider").fill("3")
    expect(label).to_contain_text(f"3 / {last}")
    page.keyboard.press("Home")
    expect(label).to_contain_text(f"0 / {last}")
    page.get_by_label("Turn").fill("2")
    page.get_by_role("button", name="Go to turn").click()
    expect(page.locator("#turn-label")).to_contain_text("2 /")
    expect(page.locator("#board")).not_to_be_empty()
    # drawn by the game's own board, read-only: no control on it
    expect(page.locator("#board")).to_have_attribute("data-drawn", "renderer")
    expect(page.locator("#board button, #board input, #board select")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for control in page.locator("#replay-controls button, #replay-controls input").all():
        box = control.bounding_box()
        assert box and box["height"] >= 44, control.evaluate("e => e.outerHTML")
    page.get_by_role("button", name="End").click()
    screenshot(page, f"review-replay-{engine}-phone")
    expect(page.locator("#go-next")).to_be_disabled()
    expect(page.locator("#board .sd-end, #board .rb-end")).to_be_visible()  # the last step: the game's end

    stats.reload()
    expect(stats.locator(f"#engine-{engine} .n-games")).to_have_text(str(before + 1))
    assert stats.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(stats, f"review-stats-{engine}-phone")


# ---------------------------------------------------------------- for the thumb (360 x 740)

LONG_NAMES = ("Andrea (guest at HQ)", "Bartholomew Longname", "Cy")


def _axe_serious(page) -> list[str]:
    """The serious and critical axe-core violations (as tests/e2e/test_access.py counts them)."""
    from axe_playwright_python.sync_playwright import Axe

    found = []
    for v in Axe().run(page).response["violations"]:
        if v["impact"] in ("serious", "critical"):
            found.append(f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}")
    return found


PLAY_NAMED = """
import json
import re
from tests.review.conftest import play
from sixdice.review import exchange
game = play("sixdice", {names!r}, seed=11, options={{"rounds": 2}})
print(json.dumps(exchange.export_game(game)))
"""


@pytest.fixture(scope="module")
def long_named(server) -> dict:
    """A finished Six-Dice game whose players have long names (the statistics' widest rows)."""
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", PLAY_NAMED.format(names=LONG_NAMES)],
                         cwd=ROOT, env=server.env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _box(page, selector: str) -> dict:
    box = page.locator(selector).bounding_box()
    assert box, selector
    return box


@pytest.mark.parametrize("engine", ["runbuster", "sixdice"])
def test_the_board_and_the_controls_are_on_the_first_screen(server, phone, engine, long_named):
    doc = long_named if engine == "sixdice" else _played_on(server, engine, {})
    page = phone(f"{server.url}/t/{doc['table']['code']}/replay/1/")
    expect(page.locator("#board")).not_to_be_empty()
    for control in ("#go-prev", "#go-next", "#step-text", "#step-label"):
        box = _box(page, control)
        assert box["y"] >= 0 and box["y"] + box["height"] <= 740, (control, box)
    board = _box(page, "#board")
    assert board["y"] < 740 - 150, board  # the board shows on the first screen, not only its edge
    # Next stays where it is, step after step, whatever the caption's length.
    where = _box(page, "#go-next")
    heights, lengths = set(), set()
    for _ in range(min(30, len(doc["events"]))):
        page.locator("#go-next").click()
        heights.add(round(_box(page, "#step-text")["height"]))
        lengths.add(len(page.locator("#step-text").inner_text()))
        now = _box(page, "#go-next")
        assert (round(now["x"]), round(now["y"])) == (round(where["x"]), round(where["y"])), now
        prev = _box(page, "#go-prev")
        assert prev["y"] == now["y"]
    if engine == "sixdice":  # its captions run from short to long, in a step bar of one height
        assert len(lengths) > 1, lengths
        assert len(heights) == 1, heights
    assert page.evaluate("window.scrollY") == 0  # no scroll needed for Next
    # A touch device gets no keyboard hints.
    assert page.locator(".keys-hint").count() == 0 or not page.locator(".keys-hint").is_visible()
    assert "Arrow keys" not in page.locator("body").inner_text()
    shoot(page, f"review-replay-{engine}-thumb-360")  # the first screen, as a phone shows it
    assert _axe_serious(page) == []


def test_each_caption_says_its_move_once(server, phone, long_named):
    page = phone(f"{server.url}/t/{long_named['table']['code']}/replay/1/")
    for step in range(1, len(long_named["events"]) + 1):
        page.locator("#step-slider").fill(str(step))
        caption = page.locator("#step-text").inner_text()
        move = page.locator("#step-text .move").inner_text()
        assert caption.count(move) == 1, caption


def test_the_stats_tables_fit_360(server, phone, long_named):
    page = phone(f"{server.url}/stats/")
    expect(page.locator("#engine-sixdice .n-games")).not_to_have_text("0")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    overflowing = page.evaluate("""() => {
        const out = [];
        const inside = (el, box) => {
            const r = el.getBoundingClientRect();
            return r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
        };
        for (const table of document.querySelectorAll(".stats-table, svg.chart")) {
            const box = (table.closest(".table-wrap") || table.closest(".card")).getBoundingClientRect();
            const wrap = table.closest(".table-wrap");
            for (const el of table.querySelectorAll("th, td, text")) {
                const head = el.closest("thead");  // a stacked table's header row is for screen readers only
                if (head && getComputedStyle(head).position === "absolute") continue;
                // cut text: wider than its cell, or outside the card (a scrolling box may hold it)
                if (el.scrollWidth > el.clientWidth + 1 && el.tagName !== "text") out.push(el.textContent);
                if (!wrap && !inside(el, box)) out.push(el.textContent);
            }
            if (wrap && wrap.scrollWidth > wrap.clientWidth) {
                // scrolls inside its box: then the first column stays in view
                const first = table.querySelector("td:first-child, th:first-child");
                if (getComputedStyle(first).position !== "sticky") out.push("not sticky: " + first.textContent);
            }
        }
        return out;
    }""")
    assert overflowing == []
    for name in LONG_NAMES[:2]:  # the whole name in its cell ("(guest at CODE)" follows a guest's name)
        row = page.locator(f'tr[data-player^="{name}"]').first
        expect(row.locator("td").first).to_have_text(row.get_attribute("data-player") or "")
    shoot(page, "review-stats-thumb-360", full_page=True)
    assert _axe_serious(page) == []


def test_the_end_screen_links_to_the_replay_the_standings_and_bgstats(server, phone):
    doc = _played_on(server, "sixdice", {"rounds": 1})
    code = doc["table"]["code"]
    page = phone(f"{server.url}/t/{code}/")  # a phone at the table when the game is over
    links = page.locator("#game-links")
    expect(links).to_be_visible()
    expect(links.locator('[data-link="replay"]')).to_have_attribute("href", f"/t/{code}/replay/1/")
    expect(links.locator('[data-link="bgstats"]')).to_have_attribute(
        "href", re.compile(r"^bgstats://app\.bgstatsapp\.com/createPlay\.html\?data="))
    links.locator('[data-link="standings"]').click()  # opens the table's standings panel in place
    expect(page.locator("#standings-card")).to_be_visible()
    assert page.url.startswith(f"{server.url}/t/{code}/")
    page.locator("#standings-card .sheet-close").click()
    links.scroll_into_view_if_needed()
    shoot(page, "sixdice-end-links-360")
    assert _axe_serious(page) == []
