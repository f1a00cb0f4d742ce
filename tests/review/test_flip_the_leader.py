"""Flip the leader, a house rule and part of the 3-player recommended rules: every flip goes against the hand
furthest from zero. The table keeps it, every flip of a played game obeys it, the mover's phone says whom the
flip goes against, and export, import and replay keep it."""

from __future__ import annotations

import copy
import json

import pytest
from django.urls import reverse

from sixdice.gamekit.engine import get_engine
from sixdice.review import exchange
from sixdice.review.steps import replay_steps
from sixdice.rules.game import State, leaders_to_flip
from sixdice.rules.variants import preset, preset_of

from .conftest import page_text, play

pytestmark = pytest.mark.django_db

OPTIONS = {"rounds": 3, "auto_balance": True, "rules": "recommended"}


@pytest.fixture
def game():
    return play("sixdice", ("Ana", "Ben", "Cy"), seed=5, options=OPTIONS)


def test_the_three_player_recommended_rules_flip_the_leader(game):
    variants, _bank = preset("recommended", 3)
    assert variants.flip_the_leader and variants.last_turn_score and variants.compensation == (1.0, 0.0, 0.0)
    assert game.options["flip_the_leader"] is True and game.initial_state["variants"]["flip_the_leader"] is True
    assert not preset("recommended", 4)[0].flip_the_leader  # 2 and 4 or more players: not part of their rules


def test_every_flip_of_the_game_went_against_the_hand_furthest_from_zero(game):
    steps = replay_steps(game)
    flips = 0
    for before, step in zip(steps, steps[1:], strict=False):
        action = step.action
        if not action or action.get("type") != "flip":
            continue
        st = State.from_dict(before.state)
        lead = leaders_to_flip(st, st.pending.seat)
        assert lead and action["victim"] in lead
        top = max(abs(st.hands[s].value) for s in lead)
        assert all(abs(st.hands[s].value) == top for s in lead)
        flips += 1
    assert flips >= 6  # three rounds of three players, every turn with a flip


def test_the_movers_phone_names_whom_the_flip_goes_against(game):
    engine = get_engine("sixdice")
    steps = replay_steps(game)
    at_flip = next(s.state for s in steps if State.from_dict(s.state).pending is not None
                   and State.from_dict(s.state).pending.kind == "flip")
    st = State.from_dict(at_flip)
    mover = st.pending.seat
    _shared, own = engine.view_parts(at_flip)
    mine = own(mover)
    assert mine["must_flip"] == sorted(leaders_to_flip(st, mover))
    assert {f[0] for f in mine["legal_flips"]} <= set(mine["must_flip"])
    assert "must_flip" not in own((mover + 1) % 3)  # the mover's own: another phone is not asked to flip


def test_export_import_and_replay_keep_the_rule(game):
    first = exchange.export_game(game)
    assert first["game"]["options"]["flip_the_leader"] is True
    assert first["final_state"]["variants"]["flip_the_leader"] is True
    game.delete()
    (imported,) = exchange.import_documents([json.loads(exchange.dumps(first))])
    assert imported.options == first["game"]["options"] and imported.state == first["final_state"]
    again = copy.deepcopy(exchange.export_game(imported))
    for doc in (again, first):
        doc["table"].pop("code")
        doc.pop("signature")
    assert again == first
    assert replay_steps(imported)[-1].state == imported.state


def test_the_rules_sheet_says_it_in_plain_words(client, game):
    page = page_text(client.get(reverse("review:replay", args=[game.table.code, game.number])).content.decode())
    assert "Flip the leader: your flip goes against the player whose hand is furthest from zero" in page


def test_a_three_player_game_of_the_rules_before_still_reads_as_recommended():
    """Exported before 7 December: a hand scored at its owner's last turn, no flip the leader, no table."""
    from dataclasses import replace

    before = replace(preset("recommended", 3)[0], flip_the_leader=False, compensation=())
    assert preset_of(before, 12, 3) == "recommended"
    assert preset_of(replace(before, flip_the_leader=True), 12, 3) == "custom"  # the rule without its table
