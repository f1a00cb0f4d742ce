"""A Six-Dice game under house rules: export, import and replay keep them; the pages and statistics show them."""

from __future__ import annotations

import copy
import json

import pytest
from django.urls import reverse

from sixdice.gamekit.engine import get_engine
from sixdice.review import exchange, stats
from sixdice.review.steps import replay_steps
from sixdice.tables.writes import checked_path

from .conftest import play

pytestmark = pytest.mark.django_db

HOUSE = {"rounds": 3, "auto_balance": True, "rules": "custom", "last_turn_score": "on", "reverse_last_round": "on",
         "no_flip_back": "on", "refill": "3", "threes_dice": "5", "first_bonus": "1"}


@pytest.fixture
def house_game():
    return play("sixdice", ("Ana", "Bo", "Cy"), seed=5, options=HOUSE)


@pytest.fixture
def recommended_game():
    return play("sixdice", ("Ana", "Bo", "Cy"), seed=6, options={"rounds": 2, "auto_balance": True, "rules": "recommended"})


def _without_code(doc: dict) -> dict:
    doc = copy.deepcopy(doc)
    doc["table"].pop("code")
    doc.pop("signature")
    return doc


def test_the_options_keep_the_house_rules(house_game):
    o = house_game.options
    assert o["last_turn_score"] is True and o["reverse_last_round"] is True and o["no_flip_back"] is True
    assert o["refill"] == 3 and o["threes_dice"] == 5 and o["first_bonus"] == 1
    assert house_game.initial_state["variants"] == {k: o[k] for k in
                                                    ("last_turn_score", "reverse_last_round", "no_flip_back",
                                                     "refill", "threes_dice", "first_bonus")}


def test_export_import_round_trip_keeps_the_house_rules(house_game):
    first = exchange.export_game(house_game)
    assert first["game"]["options"]["threes_dice"] == 5
    house_game.delete()
    (imported,) = exchange.import_documents([json.loads(exchange.dumps(first))])
    assert imported.options == first["game"]["options"]
    assert imported.state == first["final_state"] and imported.state["variants"]["refill"] == 3
    assert _without_code(exchange.export_game(imported)) == _without_code(first)


def test_a_file_without_house_rules_reads_as_written(db):
    game = play("sixdice", ("Ana", "Bo"), seed=3, options={"rounds": 1, "auto_balance": True})
    doc = exchange.export_game(game)
    for key in ("rules", "last_turn_score", "reverse_last_round", "no_flip_back", "refill", "threes_dice", "first_bonus"):
        assert key not in doc["game"]["options"]
    assert "variants" not in doc["initial_state"] and "variants" not in doc["final_state"]
    game.delete()
    (imported,) = exchange.import_documents([json.loads(exchange.dumps(doc))])
    engine = get_engine("sixdice")
    assert engine.rules_in_force(imported.options, players=2)["preset"] == "as_written"


def test_the_replay_rebuilds_every_step_under_the_house_rules(house_game):
    events = list(house_game.events.order_by("seq"))
    steps = replay_steps(house_game)
    for k, step in enumerate(steps):
        assert step.state == checked_path.replay(house_game, events[:k])
    assert steps[-1].state == house_game.state
    assert steps[-1].state["variants"]["threes_dice"] == 5


def test_the_replay_page_shows_the_rules_in_force(client, house_game, recommended_game):
    page = client.get(reverse("review:replay", args=[house_game.table.code, house_game.number])).content.decode()
    assert 'id="rules-in-force"' in page
    assert "scored at the end of its owner" in page and "reverse order" in page and "No flip back" in page
    assert "5 or more dice" in page
    page = client.get(reverse("review:replay", args=[recommended_game.table.code, 1])).content.decode()
    assert "Recommended house rules" in page


def test_statistics_split_results_by_rules(client, house_game, recommended_game):
    play("sixdice", ("Ana", "Bo"), seed=3, options={"rounds": 1, "auto_balance": True})
    figures = stats.compute("sixdice")
    (es,) = figures.engines
    rows = {r.rules: r.games for r in es.rules_rows}
    assert rows == {"as_written": 1, "recommended": 1, "custom": 1}
    assert [r.rules for r in es.rules_rows] == ["as_written", "recommended", "custom"]
    page = client.get(reverse("review:stats") + "?game=sixdice").content.decode()
    assert 'data-rules="recommended"' in page and "Results by rules" in page
