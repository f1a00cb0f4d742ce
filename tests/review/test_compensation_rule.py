"""The compensation by place in the turn order, a house rule: the table's options, export, import, replay,
the rules sheet and the end screen's line ("Ben +1.5 for moving second")."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.errors import OptionsError
from sixdice.review import exchange
from sixdice.review.steps import replay_steps
from sixdice.rules.game import State, final_scores
from sixdice.tables.writes import checked_path

from .conftest import play

pytestmark = pytest.mark.django_db

OPTIONS = {"rounds": 2, "auto_balance": True, "rules": "custom", "refill": "3", "compensation": "0 1,5 2"}


@pytest.fixture
def game():
    return play("sixdice", ("Ana", "Ben", "Cy"), seed=11, options=OPTIONS)


def _without_code(doc: dict) -> dict:
    doc = copy.deepcopy(doc)
    doc["table"].pop("code")
    doc.pop("signature")
    return doc


def test_the_table_keeps_the_compensation_and_the_game_counts_it(game):
    assert game.options["compensation"] == [0, 1.5, 2]
    assert game.initial_state["variants"]["compensation"] == [0, 1.5, 2]
    st = State.from_dict(game.state)
    assert st.over and st.variants.compensation == (0.0, 1.5, 2.0)
    plain = [abs(v) for v in st.values()]
    extra = [final_scores(st)[s] - plain[s] for s in range(3)]
    assert sorted(extra) == [0, 1.5, 2] and extra[st.first] == 0
    if st.end_reason != "all_threes":
        top = max(final_scores(st))
        assert set(st.winners) == {s for s in range(3) if final_scores(st)[s] == top}


def test_export_import_and_replay_keep_the_compensation(game):
    first = exchange.export_game(game)
    assert first["game"]["options"]["compensation"] == [0, 1.5, 2]
    assert first["final_state"]["variants"]["compensation"] == [0, 1.5, 2]
    events = list(game.events.order_by("seq"))
    steps = replay_steps(game)
    for k, step in enumerate(steps):
        assert step.state == checked_path.replay(game, events[:k])
    game.delete()
    (imported,) = exchange.import_documents([json.loads(exchange.dumps(first))])
    assert imported.options == first["game"]["options"] and imported.state == first["final_state"]
    assert _without_code(exchange.export_game(imported)) == _without_code(first)
    assert replay_steps(imported)[-1].state == imported.state


def test_the_end_screen_says_who_added_what(game):
    engine = get_engine("sixdice")
    shared, _own = engine.view_parts(game.state)
    st = State.from_dict(game.state)
    assert st.end_reason == "rounds"
    second, third = (st.first + 1) % 3, (st.first + 2) % 3
    assert shared["compensation"] == [{"seat": second, "points": 1.5, "place": 1},
                                      {"seat": third, "points": 2, "place": 2}]


def test_the_table_page_carries_the_line_in_every_language(client, game):
    """The board draws the line from the page's words (``comp_<place>``), translated in every language."""
    page = client.get(f"/t/{game.table.code}/").content.decode()
    assert '"comp_1": "{name} +{points} for moving second"' in page
    assert "compensationLines" in (Path(__file__).resolve().parents[2] / "static/js/sixdice_board.js").read_text()
    for lang, words in (("fr", "pour avoir joué en deuxième"), ("nl", "speelde als tweede"),
                        ("pt", "por jogar em segundo lugar"), ("uk", "за друге місце в порядку ходів")):
        with translation.override(lang):
            said = translation.gettext("{name} +{points} for moving second")
        assert words in said and "{name}" in said and "+{points}" in said


def test_the_rules_sheet_of_the_replay_shows_the_table(client, game):
    page = client.get(reverse("review:replay", args=[game.table.code, game.number])).content.decode()
    assert "Compensation for your place in the turn order" in page and "0 / +1.5 / +2" in page


@pytest.mark.parametrize("bad", ["0 1", "0 x 2", "0 0.25 1", "0 -1 2", "0 1 99"])
def test_a_bad_compensation_is_refused_in_plain_words(bad):
    engine = get_engine("sixdice")
    with pytest.raises(OptionsError) as e:
        engine.clean_options({"rules": "custom", "compensation": bad}, players=3)
    assert "one figure per player" in str(e.value)


def test_the_recommended_rules_carry_the_table_for_the_number_of_players():
    from sixdice.rules.variants import preset

    engine = get_engine("sixdice")
    for n in range(2, 9):
        o = engine.clean_options({"rules": "recommended"}, players=n)
        assert o.get("compensation") == preset("recommended", n)[0].to_dict().get("compensation")
        assert engine.rules_in_force(o, players=n)["preset"] == "recommended"
