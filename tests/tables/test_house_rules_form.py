"""The new-table form's rules: recommended (preselected), as written one tap away, or each house rule on its own."""

from __future__ import annotations

import pytest
from django.test import Client

from sixdice.tables.models import Table

pytestmark = pytest.mark.django_db


def test_the_form_preselects_the_recommended_rules_with_as_written_and_each_variant_beside(client: Client):
    page = client.get("/new/sixdice/").content.decode()
    assert 'name="rules" value="recommended" checked' in page
    assert 'name="rules" value="as_written" aria' in page and 'name="rules" value="as_written" checked' not in page
    assert 'name="rules" value="custom"' in page
    # Each preset's line says what it does at a table in plain words: no bots, no sample sizes.
    assert "greedy" not in page and "1000 games" not in page and "bots (" not in page
    assert "every seat wins about as often (21% to 27% of games)" in page
    assert "where you sit matters a lot: one seat wins 16% of games, another 40%" in page
    for name in ("last_turn_score", "reverse_last_round", "no_flip_back", "threes_dice", "refill", "first_bonus"):
        assert f'name="{name}"' in page
    assert "house-rules" not in client.get("/new/runbuster/").content.decode()


def test_as_written_stores_no_house_rule_even_if_a_box_is_ticked(client: Client):
    client.post("/new/sixdice/", {"players": "3", "dice": "app", "rules": "as_written", "no_flip_back": "on"})
    options = Table.objects.get().options
    assert "no_flip_back" not in options and "rules" not in options
    assert options["bank"] == 36


def test_recommended_sets_the_preset_and_the_host_page_shows_it(client: Client):
    from sixdice.rules.variants import preset

    response = client.post("/new/sixdice/", {"players": "4", "dice": "app", "rules": "recommended"})
    table = Table.objects.get()
    variants, per_player = preset("recommended", 4)
    assert {k: table.options[k] for k in variants.to_dict()} == variants.to_dict()
    assert table.options["bank"] == per_player * 4
    host = client.get(response.url).content.decode()
    assert 'id="rules-in-force"' in host and "Recommended house rules" in host


def test_each_house_rule_on_its_own(client: Client):
    response = client.post("/new/sixdice/", {"players": "3", "dice": "app", "rules": "custom", "no_flip_back": "on",
                                             "first_bonus": "2", "refill": ""})
    options = Table.objects.get().options
    assert options["no_flip_back"] is True and options["first_bonus"] == 2
    assert "refill" not in options and "last_turn_score" not in options
    host = client.get(response.url).content.decode()
    assert "No flip back" in host and "Compensation for the first seats" in host


def test_a_bad_house_rule_is_refused_and_creates_nothing(client: Client):
    response = client.post("/new/sixdice/", {"players": "3", "rules": "custom", "refill": "99"})
    assert response.status_code == 400 and b"refill" in response.content
    response = client.post("/new/sixdice/", {"players": "3", "rules": "mine"})
    assert response.status_code == 400
    assert not Table.objects.exists()


def test_a_table_created_without_rules_still_plays_them_as_written(client: Client):
    """An API client or an old form that sends no "rules": the rules as written, as before (exports unchanged)."""
    client.post("/new/sixdice/", {"players": "3", "dice": "app"})
    options = Table.objects.get().options
    assert not {"reverse_last_round", "last_turn_score", "no_flip_back", "refill", "threes_dice"} & set(options)


def test_the_form_says_how_many_rounds_a_coached_first_game_plays(client: Client):
    page = client.get("/new/sixdice/").content.decode()
    assert "The first game has hints on and plays at most 4 rounds" in page
    assert "plays at most" not in client.get("/new/runbuster/").content.decode()  # a round of Run Buster is short
