"""What the Six-Dice view tells the board, so that the page decides nothing of the rules itself.

``broken_hands`` (the hands a flip broke, grouped again from scratch), ``hand_parts`` (each hand's dice
as zero-sum groups, pairs, broken groups and loose dice, with their sums) and ``keep_choices`` (the
kept and returned groups of each keep choice, the default first).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sixdice.engine import ENGINE
from sixdice.gamekit.engine import SYSTEM
from sixdice.rules import Hand, position
from sixdice.rules.dice import ZERO_GROUPS

NAMES = ["Ana", "Bo", "Cy"]
ZERO_SHAPES = {tuple(sorted(g)) for g in ZERO_GROUPS}


def _flat(hand: dict[str, Any]) -> list[int]:
    return [x for g in hand["groups"] for x in g] + list(hand["loose"])


def _formed_by_a_balancing(group: list[int]) -> bool:
    """A zero-sum group of the rules' list, or a pair of one blue and one red die that does not sum to 0."""
    if tuple(sorted(group)) in ZERO_SHAPES:
        return True
    return len(group) == 2 and sum(group) != 0 and (group[0] > 0) != (group[1] > 0)


def _flip_state() -> dict[str, Any]:
    """Ana (seat 0) to flip; her hand and Bo's both hold groups."""
    st = position(
        [Hand(((3, -3), (2, -1)), (1,)), Hand(((2, -2),), (1, 1)), Hand(((1, -1),), ())],
        bank=10, players=NAMES,
    )
    return st.to_dict()


def test_a_flip_breaks_both_hands_until_each_is_grouped_again():
    state = _flip_state()
    view = ENGINE.view(state, None)
    assert view["broken_hands"] == []
    assert view["hand_parts"][0] == [
        {"kind": "zero", "dice": [3, -3], "sum": 0},
        {"kind": "pair", "dice": [2, -1], "sum": 1},
        {"kind": "loose", "dice": [1], "sum": 1},
    ]
    assert view["hand_parts"][2] == [{"kind": "zero", "dice": [1, -1], "sum": 0}]  # no loose dice: no loose part

    # Ana turns her +3 to +1, and Bo's +1 to +3.
    state = ENGINE.apply(state, {"type": "flip", "victim": 1, "own": 0, "own_to": 1, "other": 2, "other_to": 3}, actor=0)
    view = ENGINE.view(state, 0)
    assert view["pending"]["kind"] == "roll" and view["pending"]["seat"] == 0  # her draw
    assert view["broken_hands"] == [0, 1]
    assert view["hand_parts"][0] == [
        {"kind": "broken", "dice": [1, -3], "sum": -2},
        {"kind": "broken", "dice": [2, -1], "sum": 1},
        {"kind": "loose", "dice": [1], "sum": 1},
    ]
    assert [p["kind"] for p in view["hand_parts"][1]] == ["broken", "loose"]
    assert [p["kind"] for p in view["hand_parts"][2]] == ["zero"]  # Cy's hand was not touched

    # Her draw, then her grouping (a choice): both hands still broken.
    state = ENGINE.apply(state, {"type": "roll", "values": [-1]}, actor=SYSTEM)
    assert state["pending"]["kind"] == "group" and state["pending"]["seat"] == 0
    assert ENGINE.view(state, None)["broken_hands"] == [0, 1]
    # Grouped: her groups are real again (the keep is next); Bo's are still broken.
    state = ENGINE.apply(state, {"type": "group", "zero_groups": [[1, -1], [1, -1]], "pairs": [[2, -3]]}, actor=0)
    assert state["pending"]["kind"] == "keep" and state["pending"]["seat"] == 0
    view = ENGINE.view(state, None)
    assert view["broken_hands"] == [1]
    assert [p["kind"] for p in view["hand_parts"][0]] == ["zero", "zero", "pair"]
    # Her keep; Bo's hand has one grouping, made by the app: Bo's turn, every hand grouped.
    state = ENGINE.apply(state, {"type": "keep", "keep": [0, 2]}, actor=0)
    assert state["pending"] == {"kind": "flip", "seat": 1, "default": None}
    view = ENGINE.view(state, None)
    assert view["broken_hands"] == []
    assert view["hand_parts"][1] == [{"kind": "zero", "dice": [2, -2], "sum": 0}, {"kind": "loose", "dice": [3, 1], "sum": 4}]


def test_keep_choices_name_the_kept_and_the_returned_groups_default_first():
    st = position(
        [Hand((), (3, -3, 2, -2, 1, -1)), Hand(((1, -1),), ()), Hand(((1, -1),), ())], bank=10, players=NAMES
    )
    state = ENGINE.apply(st.to_dict(), {"type": "flip", "victim": 1, "own": 5, "own_to": -2, "other": 0, "other_to": 2},
                         actor=0)
    state = ENGINE.apply(state, {"type": "roll", "values": [2]}, actor=SYSTEM)
    assert state["pending"]["kind"] == "keep"
    view = ENGINE.view(state, 0)
    groups = state["hands"][0]["groups"]
    choices = view["keep_choices"]
    assert choices[0]["default"] and sorted(choices[0]["keep"]) == sorted(state["pending"]["default"])
    assert [c["default"] for c in choices].count(True) == 1
    assert sorted(map(sorted, (c["keep"] for c in choices))) == sorted(map(sorted, view["keep_options"]))
    for c in choices:
        kept = [p["dice"] for p in c["kept"]]
        returned = [p["dice"] for p in c["returned"]]
        assert kept == [groups[k] for k in c["keep"]]
        assert sorted(kept + returned) == sorted(groups)
        for p in c["kept"] + c["returned"]:
            assert p["sum"] == sum(p["dice"]) and p["kind"] == ("zero" if p["sum"] == 0 else "pair")
    assert "keep_choices" not in ENGINE.view(state, 2)  # only the seat that keeps (and the host)
    assert ENGINE.view(state, None)["keep_choices"] == choices


def _page_broken_hands(view: dict[str, Any]) -> set[int]:
    """The rule the page applied before the server said it (``brokenHands`` in the former static/js/sixdice.js), for a game
    still played (where something is always pending)."""
    m, victim, p = view["current"], view["victim"], view["pending"]
    if victim is None or m is None:
        return set()
    if (p["kind"] == "roll" and p["purpose"] == "draw" and p["seat"] == m) or (p["kind"] == "group" and p["seat"] == m):
        return {m, victim}
    if p["seat"] == m or (p["kind"] == "group" and p["seat"] == victim):
        return {victim}
    return set()


def _random_action(state: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], Any]:
    action = ENGINE.system_action(state, {}, rng)
    if action is not None:
        return action, SYSTEM
    seat = next(iter(ENGINE.actors(state)))
    view = ENGINE.view(state, seat)
    kind = state["pending"]["kind"]
    if kind == "flip":
        f = rng.choice(view["legal_flips"])
        return dict(zip(("victim", "own", "own_to", "other", "other_to"), f, strict=True), type="flip"), seat
    if kind == "group":
        g = rng.choice(view["groupings"])
        return {"type": "group", "zero_groups": g["zero_groups"], "pairs": g["pairs"]}, seat
    return {"type": "keep", "keep": rng.choice(view["keep_options"])}, seat


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_the_board_parts_hold_in_every_state_of_whole_games(seed, players):
    """In every state of seeded games: the parts are the hand's dice in order with their sums, a group
    not broken is one a balancing forms, only the hands a flip touched are broken, and while the game
    is played the server says what the page used to work out."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    state = ENGINE.start(players=names, options=ENGINE.clean_options({"rounds": 3}, players=players))
    states = 0
    broken_seen = 0
    while True:
        view = ENGINE.view(state, None)
        assert json.loads(json.dumps(view)) == view
        broken = set(view["broken_hands"])
        broken_seen += bool(broken)
        assert broken <= {view["current"], view["victim"]}
        for s, (hand, parts) in enumerate(zip(view["hands"], view["hand_parts"], strict=True)):
            assert [x for p in parts for x in p["dice"]] == _flat(hand)
            assert sum(p["sum"] for p in parts) == view["values"][s]
            for p in parts:
                assert p["sum"] == sum(p["dice"])
                if p["kind"] == "loose":
                    assert p is parts[-1] and p["dice"] == hand["loose"]
                else:
                    assert p["kind"] == ("broken" if s in broken else "zero" if p["sum"] == 0 else "pair")
            if s not in broken:
                assert all(_formed_by_a_balancing(g) for g in hand["groups"]), (s, hand)
        if not view["over"]:
            assert broken == _page_broken_hands(view)
        states += 1
        if ENGINE.outcome(state) is not None:
            break
        action, actor = _random_action(state, rng)
        state = json.loads(json.dumps(ENGINE.apply(state, action, actor=actor)))
    assert states > 20 and broken_seen > 0


def test_a_game_won_by_a_flip_shows_the_victims_broken_groups_loose():
    """All threes at once: the game ends before any balancing; the victim's group the flip changed is no
    group any more, so it is drawn loose (the winner's hand, all loose dice, has no group to break)."""
    st = position([Hand((), (3, 3, 3, 3, 3, 2)), Hand(((3, -2, -1),), (1,)), Hand(((1, -1),), ())],
                  bank=10, players=NAMES)
    state = ENGINE.apply(st.to_dict(), {"type": "flip", "victim": 1, "own": 5, "own_to": 3, "other": 1, "other_to": -3},
                         actor=0)
    view = ENGINE.view(state, None)
    assert view["over"] and view["end_reason"] == "all_threes" and view["winners"] == [0]
    assert view["broken_hands"] == [1]
    assert view["hand_parts"][1][0] == {"kind": "broken", "dice": [3, -3, -1], "sum": -1}
    assert view["hand_parts"][0] == [{"kind": "loose", "dice": [3, 3, 3, 3, 3, 3], "sum": 18}]
    assert view["hand_parts"][2] == [{"kind": "zero", "dice": [1, -1], "sum": 0}]
