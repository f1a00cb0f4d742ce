"""The review desk at 1366×768, as a club's administrator opens it the day after a games night.

A corrected game's page shows the result, the host, the correction's old and new values and the reviewer's
note on its first screen; a game of 1,000 events or more is under three screens tall; the games list fits,
its links visible; axe finds nothing serious; screenshots of the game page, the list and the statistics go to
docs/screens/ (``review-desk-*.png``).  The server runs in the club's time zone (``TIME_ZONE``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import shoot
from tests.e2e.review_desk import LAPTOP, reviewer_page, seed
from tests.e2e.test_access import axe_check

pytestmark = pytest.mark.browser
ZONE = "Europe/Lisbon"

SEED = """
import json
from django.contrib.auth import get_user_model
from sixdice.gamekit.engine import get_engine
from sixdice.players import services as players
from sixdice.players.guests import guest_seats, link_guest_seats
from sixdice.review.desk import review_desk
from sixdice.review.models import save_note
from sixdice.tables.models import Game
from tests.review.conftest import play
from tests.review.desk_games import corrected_game, long_game

boss = get_user_model().objects.create_superuser("reviewer", "r@example.com", "pw-for-tests-1", first_name="Rita")
long = long_game(events=1000, seed=4)  # seed 4: the table's first game has 1,028 events (seed 1: its fourth)
for seed, name in enumerate(("Hana", "hana", "Hána"), start=7):  # one person, a guest at three tables
    play("runbuster", (name, "Bo"), seed=seed)
hana = players.create_profile(name="Hana")[0]
link_guest_seats(hana, [s.key for s in guest_seats(hana) if not s.refused])
play("sixdice", ("João", "Renée", "Ana"), seed=3, options={"rounds": 1, "auto_balance": True})
corrected = corrected_game()  # the night's last game: the top of the list
save_note(corrected, note="Ivo says the die he drew showed another face; the host corrected it at the table.",
          disputed=True, author=boss)
[fix] = review_desk(Game.objects.get(pk=corrected.pk), None)["summary"].fixes
print(json.dumps({"corrected": corrected.pk, "long": long.pk, "long_events": long.seq, "old": fix.old, "new": fix.new,
                  "host": "Hana (seat 1)", "winners": [corrected.players[w] for w in corrected.winners]}))
"""


@pytest.fixture(scope="module")
def server_env() -> dict[str, str]:
    return {"TIME_ZONE": ZONE}


@pytest.fixture(scope="module")
def desk(server) -> dict:
    """The games of a night in the server's own database, and a reviewer's account."""
    return seed(server, SEED, timeout=900)


@pytest.fixture
def reviewer(browser, server, desk):
    with reviewer_page(browser, server) as page:
        yield page


def _on_first_screen(page, selector: str) -> None:
    """The element is drawn within the 1366×768 window as the page opens (no scrolling)."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"], (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= LAPTOP["width"], (selector, box)


def test_a_corrected_games_page_answers_on_its_first_screen(reviewer, server, desk):
    page = reviewer
    page.goto(f"{server.url}/admin/tables/game/{desk['corrected']}/change/")
    assert page.evaluate("window.scrollY") == 0
    result = page.locator("#summary-result")
    expect(result).to_contain_text("Won by " + ", ".join(desk["winners"]))
    expect(result).to_contain_text("All rounds played")
    expect(page.locator("#summary-host")).to_contain_text(desk["host"])
    fix = page.locator("#summary-fixes li.fix-correction")
    expect(fix.locator(".old-values")).to_have_text(desk["old"])
    expect(fix.locator(".new-values")).to_have_text(desk["new"])
    expect(fix).to_contain_text("The host corrects Ivo's roll")
    note = page.locator("#summary-note")
    expect(note).to_contain_text("Ivo says the die he drew showed another face")
    expect(note).to_contain_text("by Rita, ")
    expect(note).to_contain_text(f"({ZONE})")
    for selector in ("#summary-result", "#summary-host", "#summary-fixes li.fix-correction .old-values",
                     "#summary-fixes li.fix-correction .new-values", "#summary-note"):
        _on_first_screen(page, selector)
    shoot(page, "review-desk-game")
    # The correction's links open the replay at those moments.
    href = fix.locator("a").first.get_attribute("href")
    assert href and "/replay/1/#step-" in href
    assert axe_check(page, "the game page") == []


def test_a_game_of_a_thousand_events_is_under_three_screens(reviewer, server, desk):
    assert desk["long_events"] >= 1000
    page = reviewer
    page.goto(f"{server.url}/admin/tables/game/{desk['long']}/change/")
    expect(page.locator("#event-log .log-pager").first).to_contain_text(f"of {desk['long_events']}")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 3 * LAPTOP["height"], height
    page.locator("#event-log a.whole-log").first.click()
    expect(page.locator("#changelist-filter")).to_contain_text("By one game")
    expect(page.locator("#result_list tbody tr")).to_have_count(100)  # a page of the Events list, this game only


def test_the_games_list_fits_with_its_links_visible(reviewer, server, desk):
    page = reviewer
    page.goto(f"{server.url}/admin/tables/game/")
    results = page.locator("#changelist .results")
    width, visible = results.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert width <= visible, (width, visible)
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    for link in page.locator("#result_list td.field-list_links a").all():
        box = link.bounding_box()
        assert box is not None and box["x"] + box["width"] <= LAPTOP["width"]
    expect(page.locator("#result_list thead")).to_contain_text(f"When ({ZONE.replace('/', '/' + chr(0x200B))})")
    headings = [h.strip().casefold() for h in page.locator("#result_list thead th").all_inner_texts() if h.strip()]
    assert len(headings) == len(set(headings)), headings  # every column its own heading
    shoot(page, "review-desk-list")
    page.fill("#searchbar", "JOAO")
    page.keyboard.press("Enter")
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    expect(page.locator("#result_list tbody")).to_contain_text("João")
    assert axe_check(page, "the games list") == []


def test_the_statistics_count_a_linked_person_once(reviewer, server, desk):
    page = reviewer
    page.goto(f"{server.url}/stats/?game=runbuster")
    page.fill("#season-from", "2000-01-01")  # a date range that holds the night: the same figures
    page.locator("form.season button").click()
    expect(page.locator("#season-range")).to_contain_text("Games that finished from 2000-01-01")
    rows = page.locator("table.players tbody tr")
    names = [n.strip() for n in page.locator("table.players tbody tr td:first-child").all_inner_texts()]
    assert names.count("Hana") == 1 and not [n for n in names if "guest at" in n and n.startswith(("Hana", "hana",
                                                                                                      "Hána"))]
    hana = rows.filter(has_text="Hana").first
    expect(hana.locator("td.games")).to_have_text("3")
    shoot(page, "review-desk-stats", full_page=True)  # down to the players table
