"""The pages that show a game ask its presentation: the lessons offered, the rules pages and their context."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sixdice.gamekit.engine import REGISTRY, get_engine

pytestmark = pytest.mark.django_db


def test_the_home_page_and_the_learn_page_offer_the_lessons_the_presentations_name(client):
    with_lesson = [e for e in REGISTRY.values() if e.presentation.lesson]
    assert {e.slug for e in with_lesson} == {"sixdice", "runbuster"}  # the test game has none
    for page in (reverse("tables:home"), reverse("tables:learn_home")):
        html = client.get(page).content.decode()
        for engine in REGISTRY.values():
            link = reverse("tables:learn", args=[engine.slug])
            assert (f'href="{link}"' in html) == bool(engine.presentation.lesson), (page, engine.slug)
    assert client.get(reverse("tables:learn", args=["tiny"])).status_code == 404
    assert client.get(reverse("tables:learn", args=["sixdice"])).status_code == 200


def test_a_rules_page_is_the_presentations_template_with_its_context(client):
    response = client.get(reverse("tables:rules", args=["sixdice"]))
    assert response.status_code == 200
    assert response.templates[0].name == "rules/sixdice.en.html"
    shown = get_engine("sixdice").presentation
    assert response.context["bank_examples"] == shown.rules_context()["bank_examples"]
    assert response.context["bank_examples"][0] == {"players": 2, "dice": 24}
    assert client.get(reverse("tables:rules", args=["runbuster"])).templates[0].name == "rules/runbuster.en.html"
    assert client.get(reverse("tables:rules", args=["tiny"])).status_code == 404  # no rules_template


def test_the_house_rules_filter_asks_the_game_for_its_rules_in_force():
    from sixdice.tables.writes import services
    from sixdice.templatetags.house_rules import house_rules

    sixdice, _ = services.create_table(game="sixdice", options={"rules": "recommended"}, capacity=3)
    rules = house_rules(sixdice)
    assert rules == get_engine("sixdice").rules_in_force(sixdice.options, players=3)
    assert rules["preset"] == "recommended"
    for other in ("runbuster", "tiny"):  # no house rules: the declared default, {}
        table, _ = services.create_table(game=other, options={}, capacity=2)
        assert get_engine(other).rules_in_force(table.options, players=2) == {}
        assert house_rules(table) is None
