"""Ordinary dice at a real-dice table (issue 43): the mapping, the option, the state and the dice a table needs."""

from __future__ import annotations

import random
import re

import pytest

from sixdice import ordinary_dice
from sixdice.engine import ENGINE
from sixdice.gamekit.engine import DEFAULT
from sixdice.gamekit.errors import OptionsError
from sixdice.gamekit.replay import replay
from sixdice.rules.game import START_DICE
from sixdice.rules.variants import preset


def test_opposite_faces_add_to_seven_and_negate_the_value():
    for value in (1, 2, 3, -1, -2, -3):
        pips = ordinary_dice.pips_of(value)
        assert ordinary_dice.value_of(pips) == value
        assert ordinary_dice.value_of(7 - pips) == -value  # turning the die over
    assert [ordinary_dice.pips_of(v) for v in (1, 2, 3, -3, -2, -1)] == [1, 2, 3, 4, 5, 6]
    assert "".join(ordinary_dice.glyph(p) for p in range(1, 7)) == "\u2680\u2681\u2682\u2683\u2684\u2685"
    with pytest.raises(ValueError):
        ordinary_dice.pips_of(0)
    with pytest.raises(ValueError):
        ordinary_dice.value_of(7)


def test_the_option_is_kept_only_for_ordinary_dice_at_a_real_dice_table():
    opts = ENGINE.clean_options({"dice": "physical", "faces": "ordinary"}, players=3)
    assert opts["faces"] == "ordinary"
    for raw in ({"dice": "physical"}, {"dice": "physical", "faces": "sixdice"}, {"dice": "physical", "faces": ""}, {}):
        assert "faces" not in ENGINE.clean_options(raw, players=3)  # the game's own dice: options as before
    with pytest.raises(OptionsError, match="choose real dice"):
        ENGINE.clean_options({"dice": "app", "faces": "ordinary"}, players=3)
    with pytest.raises(OptionsError, match="must be"):
        ENGINE.clean_options({"dice": "physical", "faces": "d20"}, players=3)
    with pytest.raises(OptionsError, match="must be"):
        ENGINE.clean_options({"dice": "physical", "faces": ["ordinary"]}, players=3)


def _play(options: dict, values: list[list[int]] | None = None) -> tuple[dict, dict, list[tuple[int, dict]]]:
    """A whole game of 3, every roll typed in (from ``values`` when given), random flips and the default choices:
    the first state, the last and the actions."""
    rng, dice = random.Random(43), random.Random(7)  # the players' choices, the dice
    first = state = ENGINE.start(players=["Ana", "Bo", "Cy"], options=ENGINE.clean_options(options, players=3))
    rolls = iter(values or [])
    log = []
    while not ENGINE.outcome(state):
        (seat,) = ENGINE.actors(state)
        p = state["pending"]
        if p["kind"] == "roll":
            action = {"type": "roll",
                      "values": next(rolls) if values else [dice.choice((1, 2, 3, -1, -2, -3)) for _ in range(p["count"])]}
        else:
            action = ENGINE.bot_action(state, seat, rng, strength="random" if p["kind"] == "flip" else DEFAULT)
        log.append((seat, action))
        state = ENGINE.apply(state, action, actor=seat)
    return first, state, log


def test_a_game_with_ordinary_dice_plays_as_the_same_values_with_the_games_own_dice():
    first, last, log = _play({"dice": "physical", "faces": "ordinary", "rounds": 3})
    assert first["faces"] == last["faces"] == "ordinary"  # the option travels with the state
    rolls = [a["values"] for _, a in log if a["type"] == "roll"]
    own_first, own_last, own_log = _play({"dice": "physical", "rounds": 3}, rolls)
    assert "faces" not in own_first and "faces" not in own_last
    assert own_log == log
    assert {k: v for k, v in last.items() if k not in ("faces", "turn_over")} == own_last
    assert ENGINE.view_parts(last)[0]["faces"] == "ordinary"
    assert ENGINE.view_parts(own_last)[0]["faces"] == "sixdice"
    # the one replay of the app (import, review, undo) rebuilds it from the log
    assert replay_to(first, log) == last


def test_a_flip_says_which_real_dice_to_turn_until_its_turn_is_over():
    first, _, log = _play({"dice": "physical", "faces": "ordinary", "rounds": 3})
    state, seen = first, 0
    for seat, action in log:
        before = state
        state = ENGINE.apply(state, action, actor=seat)
        if action["type"] == "flip":
            seen += 1
            mover, victim = before["pending"]["seat"], action["victim"]
            own = [x for g in before["hands"][mover]["groups"] for x in g] + before["hands"][mover]["loose"]
            other = [x for g in before["hands"][victim]["groups"] for x in g] + before["hands"][victim]["loose"]
            assert state["turn_over"] == [[mover, own[action["own"]], action["own_to"]],
                                          [victim, other[action["other"]], action["other_to"]]]
            assert ENGINE.view_parts(state)[0]["turn_over"] == state["turn_over"]
            flip = state["turn_over"]
        elif state["pending"] and state["pending"]["kind"] == "flip" or state["current"] != before["current"]:
            assert "turn_over" not in state  # the next turn: the notice is gone
        elif "turn_over" in before:
            assert state["turn_over"] == flip  # the draw and the balancing of the same turn
    assert seen >= 6


def replay_to(first: dict, log: list[tuple[int, dict]]) -> dict:
    *_, step = replay(ENGINE, first, log)
    return step.after


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("rules", ["as_written", "recommended"])
def test_the_dice_a_table_needs_follow_the_rules(players, rules):
    need = ENGINE.presentation.dice_needed({"rules": rules}, players=players)
    variants, per_player = preset(rules, players)
    assert need["total"] == 12 * players == per_player * players  # the rules: a bank of 12 per player
    assert need["hands"] == START_DICE * players == 6 * players  # each player starts with 6
    assert need["bank"] == need["total"] - need["hands"]
    assert need["refill"] == variants.refill * players
    bigger = ENGINE.presentation.dice_needed({"rules": rules, "bank": str(20 * players)}, players=players)
    assert bigger["total"] == 20 * players and bigger["bank"] == 14 * players


def _said(html: str) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r'data-dice-(\w+)="(\d+)"', html)}


@pytest.mark.django_db
@pytest.mark.parametrize("players", range(2, 9))
def test_the_new_table_form_says_the_dice_the_rules_ask_for(client, players):
    """The rules (/work/shared/spec/six-dice.md): 6 dice each to start, a bank of 12 per player in all; the
    recommended rules refill the bank to 3 per player each round."""
    for rules, refill in (("as_written", 0), ("recommended", 3 * players)):
        html = client.get(f"/new/sixdice/dice/?players={players}&rules={rules}&dice=physical&faces=ordinary").json()["html"]
        assert _said(html) == {"total": 12 * players, "hands": 6 * players, "bank": 6 * players, "refill": refill}
        assert f"The group needs {12 * players} dice for {players} players." in html
        assert f"{6 * players} dice are rolled at the start, 6 for each player;" in html
        assert f"the app keeps count of the other {6 * players} dice, in the bank." in html
        assert (f"up to {refill} new dice may join at once" in html) == bool(refill)
    fr = client.get(f"/new/sixdice/dice/?players={players}&rules=as_written", HTTP_ACCEPT_LANGUAGE="fr").json()["html"]
    assert f"Le groupe a besoin de {12 * players} dés pour {players} joueurs." in fr


@pytest.mark.django_db
def test_the_form_says_why_it_cannot_count_and_a_refused_form_keeps_the_count(client):
    html = client.get("/new/sixdice/dice/?players=3&bank=5").json()["html"]
    assert "The bank must hold 18 to 150 dice for 3 players" in html and "data-dice" not in html
    assert client.get("/new/sixdice/dice/?players=x").json()["html"].count("Six-Dice takes 2 to 8 players") == 1
    assert client.get("/new/runbuster/dice/?players=3").json() == {"html": ""}  # a game that says nothing of it
    assert client.get("/new/nosuchgame/dice/").status_code == 404
    page = client.post("/new/sixdice/", {"players": "5", "dice": "app", "faces": "ordinary", "rules": "as_written"})
    assert page.status_code == 400 and page.content.decode().count("choose real dice") == 2  # the form's error, the count's
    page = client.post("/new/sixdice/", {"players": "5", "dice": "physical", "faces": "ordinary", "rules": "as_written",
                                         "bots": "7"})
    assert page.status_code == 400 and "every seat but one" in page.content.decode()
    assert _said(page.content.decode()) == {"total": 60, "hands": 30, "bank": 30, "refill": 0}
