"""One truth per fact: the lesson teaches the rules the new-table form starts on, reading its numbers from that
preset; the lesson's log says only what happened; the rules panel names the bank's size as dice in the game; the
host's name is asked once."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from sixdice.engine import ENGINE as SIXDICE
from sixdice.gamekit import lesson as kit
from sixdice.lesson import LESSON, RULES, RULES_PRESET
from sixdice.rules.game import State
from sixdice.rules.variants import AS_WRITTEN, preset
from sixdice.tables.models import Table

API = "/learn/sixdice/api/"


def _post(client: Client, body: dict) -> dict:
    return client.post(API, json.dumps(body), content_type="application/json").json()


@pytest.mark.django_db
def test_the_lesson_plays_the_preset_the_new_table_form_starts_on(client: Client):
    form = client.get("/new/sixdice/").content.decode()
    checked = re.search(r'name="rules" value="(\w+)" checked', form)
    assert checked and checked.group(1) == RULES_PRESET == "recommended"
    variants, _bank = preset(RULES_PRESET, 2)
    assert variants == RULES and RULES != AS_WRITTEN  # the recommended rules differ from the rules as written
    for step in LESSON.steps:
        state, _ = kit.step_state(SIXDICE, LESSON, step)
        assert State.from_dict(state).variants == variants, step.key


@pytest.mark.django_db
def test_the_lesson_says_the_presets_numbers_and_that_a_table_may_choose_otherwise(client: Client):
    threes = [i for i, s in enumerate(LESSON.steps) if s.key == "threes"][0]
    step = _post(client, {"go": threes})
    assert f"{RULES.threes_dice} or more dice that are all +3" in step["ask"]
    assert "Six or more" not in step["ask"] and "recommended rules" in step["ask"]
    assert "at your table the host may choose otherwise" in step["about"]
    assert _post(client, {"go": 0})["about"] == step["about"]  # the first step says it too, the others not
    assert _post(client, {"go": threes + 1})["about"] == ""
    _post(client, {"go": threes})
    # The position teaches exactly that many: the learner's hand holds the preset's number of dice, and wins.
    state = State.from_dict(client.get(API).json() and kit.step_state(SIXDICE, LESSON, LESSON.steps[threes])[0])
    assert state.hands[0].size == RULES.threes_dice
    win = {"type": "flip", "victim": 1, "own": 1, "own_to": 3, "other": 2, "other_to": -3}
    done = _post(client, {"action": win})
    assert done["met"], done
    # The bank step: its title says what the position shows, and its lesson names the preset's refill.
    bank = [i for i, s in enumerate(LESSON.steps) if s.key == "bank"][0]
    step = _post(client, {"go": bank})
    assert step["title"] == "An empty bank" and "The bank is empty" in step["ask"]
    flip = step["offers"][0]
    met = _post(client, {"action": flip})
    assert met["met"] and f"to {RULES.refill} dice per player" in met["done"]
    # In French, the same figures.
    client.cookies["django_language"] = "fr"
    fr = _post(client, {"go": threes})
    assert f"{RULES.threes_dice} dés ou plus" in fr["ask"] and "l’hôte peut en choisir d’autres" in fr["about"]


@pytest.mark.django_db
def test_a_try_that_is_set_back_is_marked_so_and_the_regrouping_line_claims_no_change_of_dice(client: Client):
    last = [i for i, s in enumerate(LESSON.steps) if s.key == "last"][0]
    step = _post(client, {"go": last})
    # A flip that leaves Bea furthest from zero: the game ends with Bea's win, and the position is set back.
    losing = None
    for action in step["offers"]:
        tapped, _ = kit.tap(SIXDICE, LESSON, LESSON.steps[last], kit.step_state(SIXDICE, LESSON, LESSON.steps[last])[0],
                            action)
        if tapped.reset:
            losing = action
            break
    assert losing is not None
    tried = _post(client, {"action": losing})
    assert tried["reset"] and tried["wrong"] and any("Bea wins" in line for line in tried["lines"])
    # The page shows those lines under "What your try did (the board is now set back as it was):"
    # (static/js/lesson.js, tests/e2e/test_truths.py); the state is the step's start again.
    assert client.get(API).json()["view"] == step["view"]
    reasons = LESSON.reasons["%(name)s's hand was regrouped"]
    assert "dice changed" not in reasons and "balanced again" in reasons


@pytest.mark.django_db
def test_the_rules_panel_gives_the_dice_in_the_game_not_a_second_bank_figure(client: Client):
    client.post("/new/sixdice/", {"players": "4", "dice": "app", "rules": "recommended"})
    table = Table.objects.get()
    page = client.get(f"/t/{table.code}/").content.decode()
    panel = page[page.index('id="rules-in-force"'):]
    panel = panel[:panel.index("</div>")]
    assert "48 dice in the game" in panel and "Bank: 48" not in panel
    assert "the board shows how many it holds now" in panel


@pytest.mark.django_db
def test_the_host_gives_her_name_once(client: Client):
    response = client.post("/new/sixdice/", {"players": "3", "dice": "app", "host_name": "Hana"})
    page = client.get(response.url).content.decode()
    form = page[page.index('id="host-sit"'):]
    form = form[:form.index("</form>")]
    assert "Take a seat as Hana" in form and 'id="host-sit-name"' not in form
    assert 'type="hidden" name="name" value="Hana"' in form
    client.post(f"/t/{Table.objects.get().code}/host/sit/", {"name": "Hana"})
    assert Table.objects.get().seats.get().name == "Hana"
    # Without a name on the form, the seat form asks for one.
    other = Client()
    response = other.post("/new/sixdice/", {"players": "3", "dice": "app"})
    page = other.get(response.url).content.decode()
    assert 'id="host-sit-name"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_places_are_one_string_on_the_run_buster_board_and_the_rank_badges(client: Client, lang: str):
    """The Run Buster board's places and the rank badges read the same words ("2nd"), from one template."""
    client.cookies["django_language"] = lang
    client.post("/new/runbuster/", {"players": "3", "dice": "app"})
    page = client.get(f"/t/{Table.objects.get().code}/").content.decode()

    def strings(element_id: str) -> dict:
        block = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', page, re.S)
        assert block, element_id
        return json.loads(block.group(1))

    board, ranks = strings("rb-i18n"), strings("ranks-i18n")
    assert board["ordinals"] == ranks["ordinals"]
    places = board["ordinals"].split(",")
    assert len(places) == 8 and places[1] == ("2nd" if lang == "en" else "2e")
