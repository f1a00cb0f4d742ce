"""A phone (360×740) carries its profile over, sits down with one tap, and reads its page and a leaderboard."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import (  # noqa: F401 - fixtures
    ROOT,
    SCREENS,
    browser,
    keep,
    phone,
    server,
    server_env,
    shared_server,
    site,
)

pytestmark = pytest.mark.browser


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.fixture(scope="module")
def league(server) -> dict:  # noqa: F811 - the fixture imported above
    done = subprocess.run([sys.executable, "-m", "tests.players.seed_league"], cwd=ROOT, env=server.env,
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_profile_carried_seat_taken_player_page_and_leaderboard(server, phone, league):  # noqa: F811
    page = phone(f"{server.url}/me/carry/{league['token']}/")
    assert page.get_by_role("heading", name="Олена").is_visible()
    page.get_by_role("button", name="Use this profile here").click()
    page.wait_for_url("**/me/")
    assert page.get_by_role("link", name="Your player page").is_visible()
    keep(page, "players-my-profile-360")

    page.goto(f"{server.url}{league['join']}")
    assert fits_the_phone(page)
    keep(page, "players-join-with-profile-360")
    page.get_by_role("button", name="Take a seat as Олена").click()
    page.wait_for_url(f"**/t/{league['lobby']}/")
    page.wait_for_selector("text=Олена")
    assert page.locator("#name").count() == 0  # seated: no join form any more

    page.goto(f"{server.url}/players/{league['ids']['Олена']}/")
    assert page.get_by_role("heading", name="Олена", level=1).is_visible()
    assert page.locator(".games-played").inner_text().startswith("10 games")
    assert page.locator("svg.rating-chart").count() == 2
    first_replay = page.locator(".recent a").first
    href = first_replay.get_attribute("href")
    assert href and "/replay/" in href
    assert page.locator(".head-to-head tbody tr").count() == 3
    assert fits_the_phone(page)
    keep(page, "players-player-page-360")
    page.goto(f"{server.url}{href}")
    assert page.get_by_role("heading", level=1).inner_text().startswith("Replay")

    page.goto(f"{server.url}/players/?game=sixdice&min=3")
    rows = page.locator(".board-rows li")
    assert rows.count() == 4
    assert page.locator(".board-rows .rating").first.inner_text()
    page.fill("#q", "ines")
    page.get_by_role("button", name="Search").click()
    assert page.locator(".found a").first.inner_text() == "Inês"
    assert fits_the_phone(page)
    keep(page, "players-leaderboard-360")


def test_a_guest_still_joins_with_one_tap(server, phone, league):  # noqa: F811
    page = phone(f"{server.url}{league['join']}")
    assert page.get_by_role("link", name="Make a profile (no password)").is_visible()
    page.fill("#name", "Walk-in")
    page.get_by_role("button", name="Take a seat").click()
    page.wait_for_selector("text=Walk-in")
    assert Path(SCREENS).exists()
