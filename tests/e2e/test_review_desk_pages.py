"""The review desk's pages changed for issue 39, at 1366×768 as a club's administrator opens them.

The Events list strikes a move taken back and filters by the players' names; a game's summary lists every move
the host made for a seat, the one taken back marked; a profile added through the admin's form gets its player
page, and a profile's page gives its rating and place in words; an unsigned file is refused naming the page's own
checkbox.  Screenshots go to docs/screens/ (``review-desk-events.png``, ``review-desk-host-moves.png``,
``review-desk-profile.png``, ``review-desk-import.png``); axe finds nothing serious on them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import shoot
from tests.e2e.review_desk import LAPTOP, reviewer_page, seed

pytestmark = pytest.mark.browser
ZONE = "Europe/Kyiv"
BOX = "Also take games this install did not sign"

SEED = """
import json, random
from django.contrib.auth import get_user_model
from sixdice.gamekit.replay import undone_by
from sixdice.players import services as players
from sixdice.review import exchange
from tests.players.helpers import play, table_with
from tests.review.desk_games import host_typed_game

get_user_model().objects.create_superuser("reviewer", "r@example.com", "pw-for-tests-1", first_name="Rita")
game, _typed = host_typed_game()
events = list(game.events.order_by("seq"))
gone = sorted(undone_by((e.actor, e.action) for e in events))
host = [e.seq for e in events if e.actor == "host" and e.action.get("type") != "undo"]
ana, bo = (players.create_profile(name=n)[0] for n in ("Ana", "Bo"))
rng = random.Random(3)
table = table_with("runbuster", [ana, bo])
for _ in range(3):
    play(table, rng)
other = play(table_with("runbuster", ["Chloé", "Dev"]), rng)
unsigned = {k: v for k, v in exchange.export_game(other).items() if k != "signature"}
other.table.delete()
print(json.dumps({"game": game.pk, "players": game.players, "gone": gone, "host": host, "ana": ana.pk,
                  "unsigned": exchange.dumps(unsigned)}))
"""


def axe_in_both_themes(page, where: str, load: Callable[[], None]) -> list[str]:
    """axe's serious and critical findings on the page ``load`` brings up, loaded afresh in the light and in the dark
    theme (a page loaded in its theme shows its final colours; switching themes on a shown page would fade the
    admin's links for 0.15 s, and axe would measure them halfway)."""
    from axe_playwright_python.sync_playwright import Axe

    problems = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        load()
        for v in Axe().run(page).response["violations"]:
            if v["impact"] in ("serious", "critical"):
                problems.append(f"{where} [{scheme}] {v['id']} ({v['impact']}): {v['help']}")
    page.emulate_media(color_scheme="light")
    return problems


@pytest.fixture(scope="module")
def server_env() -> dict[str, str]:
    return {"TIME_ZONE": ZONE}


@pytest.fixture(scope="module")
def night(server) -> dict:
    return seed(server, SEED, timeout=600)


@pytest.fixture
def reviewer(browser, server, night):
    with reviewer_page(browser, server) as page:
        yield page


def test_the_events_list_strikes_a_move_taken_back_and_filters_by_name(reviewer, server, night):
    page = reviewer
    page.goto(f"{server.url}/admin/tables/event/?game={night['game']}")
    struck = page.locator("td.field-log_line s.undone")
    expect(struck).to_have_count(len(night["gone"]))
    expect(page.locator("td.field-log_line .undone-by").first).to_contain_text("undone by the host at move")
    actor = page.locator("#changelist-filter")
    first, second = night["players"]
    expect(actor.get_by_role("link", name=f"{first} (seat 1)")).to_be_visible()
    expect(actor.get_by_role("link", name=re.compile(r"^Seat \d$"))).to_have_count(0)
    shoot(page, "review-desk-events")
    actor.get_by_role("link", name=f"{second} (seat 2)").click()
    expect(page.locator("td.field-actor_label").first).to_have_text(f"{second} (seat 2)")
    assert set(page.locator("td.field-actor_label").all_inner_texts()) == {f"{second} (seat 2)"}
    events = f"{server.url}/admin/tables/event/?game={night['game']}"
    assert axe_in_both_themes(page, "the Events list", lambda: page.goto(events)) == []


def test_the_summary_lists_every_host_move_with_the_one_taken_back(reviewer, server, night):
    page = reviewer
    page.goto(f"{server.url}/admin/tables/game/{night['game']}/change/")
    moves = page.locator("#host-moves")
    expect(moves).to_contain_text(f"The host's {len(night['host'])} moves, for a seat:")
    expect(moves.locator("a")).to_have_text([str(n) for n in night["host"]])
    taken = [n for n in night["host"] if n in night["gone"]]
    expect(moves.locator(".taken-back")).to_have_count(len(taken))
    expect(moves.locator("s")).to_have_text([str(n) for n in taken])
    box = moves.bounding_box()
    assert box is not None and box["y"] + box["height"] <= LAPTOP["height"], box  # on the first screen
    shoot(page, "review-desk-host-moves")
    assert axe_in_both_themes(page, "the game page", page.reload) == []


def test_a_profile_added_in_the_admin_has_its_page_and_a_rating_reads_as_a_number_and_a_place(reviewer, server,
                                                                                               night):
    page = reviewer
    page.goto(f"{server.url}/admin/players/profile/add/")
    page.fill("#id_display_name", "João")
    page.select_option("#id_colour", label="green")
    page.click("input[name=_save]")
    expect(page.locator(".messagelist")).to_contain_text("João")
    page.get_by_role("link", name="João").first.click()
    public_id = page.locator(".field-public_id .readonly").inner_text().strip()
    assert re.fullmatch(r"[\w-]{8}", public_id), public_id
    assert page.request.get(f"{server.url}/players/{public_id}/").status == 200
    for url in ("/stats/", "/players/"):
        assert page.request.get(server.url + url).status == 200, url

    page.goto(f"{server.url}/admin/players/profile/{night['ana']}/change/")
    ratings = page.locator(".inline-group")
    expect(ratings.locator("td.field-rating p")).to_have_text(re.compile(r"^-?\d+\.\d$"))
    expect(ratings.locator("td.field-place p")).to_have_text(re.compile(r"^[12] of 2$"))
    expect(ratings).not_to_contain_text("MU")
    expect(page.locator("#id_colour option:checked")).to_have_text("blue")
    ratings.scroll_into_view_if_needed()
    shoot(page, "review-desk-profile")
    assert axe_in_both_themes(page, "the profile page", page.reload) == []


def refuse(page, server, night) -> None:
    """Upload the unsigned file without ticking the checkbox; wait for the refusal."""
    page.goto(f"{server.url}/admin/tables/game/import/")
    page.set_input_files("input[type=file]", files=[
        {"name": "other-club.json", "mimeType": "application/json", "buffer": night["unsigned"].encode()}])
    page.get_by_role("button", name=re.compile("Import")).click()
    expect(page.locator("#import-refused")).to_be_visible()


def test_an_unsigned_file_is_refused_naming_the_pages_own_checkbox(reviewer, server, night):
    page = reviewer
    refuse(page, server, night)
    refused = page.locator("#import-refused")
    expect(refused).to_contain_text("The game is not signed by this install")
    expect(refused).to_contain_text(f"Tick “{BOX}” and import it again")
    expect(refused).not_to_contain_text("--unsigned")
    expect(page.get_by_label(BOX)).to_be_visible()
    shoot(page, "review-desk-import")
    assert axe_in_both_themes(page, "the refused import", lambda: refuse(page, server, night)) == []
    page.get_by_label(BOX).check()
    page.set_input_files("input[type=file]", files=[
        {"name": "other-club.json", "mimeType": "application/json", "buffer": night["unsigned"].encode()}])
    page.get_by_role("button", name=re.compile("Import")).click()
    expect(page.locator(".messagelist")).to_contain_text("Imported 1 game")
