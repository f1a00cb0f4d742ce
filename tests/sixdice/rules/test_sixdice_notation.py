"""One line of notation per action."""

from __future__ import annotations

from sixdice.rules import Hand, apply, default_action, describe, new_game, position

NAMES = ["Ana", "Bo", "Cy"]


def test_start_roll_and_draw_and_flip_lines():
    st = new_game(NAMES)
    assert (
        describe(st, {"type": "roll", "values": [3, -1, 2, -2, 1, 1]}, NAMES) == "Ana rolls +3 −1 +2 −2 +1 +1"
    )
    st = position([Hand(((3, -3),), (1,)), Hand(((2, -2),), (1, -1))], bank=10, players=["Ana", "Bo"])
    flip = {"type": "flip", "victim": 1, "own": 2, "own_to": 3, "other": 2, "other_to": -1}
    assert describe(st, flip, ["Ana", "Bo"]) == "Ana: +1→+3, Bo's +1→−1"
    st = apply(st, flip)
    assert describe(st, {"type": "roll", "values": [2]}, ["Ana", "Bo"]) == "Ana draws +2"


def test_keep_group_and_pair_lines():
    st = position([Hand((), (3, -3, 2, -2, 1, -1)), Hand(((1, -1),), ())], bank=10, players=["Ana", "Bo"])
    st = apply(st, {"type": "flip", "victim": 1, "own": 5, "own_to": -2, "other": 0, "other_to": 2})
    st = apply(st, {"type": "roll", "values": [2]})
    line = describe(st, {"type": "keep", "keep": [0, 1]}, ["Ana", "Bo"])
    assert line == "Ana keeps (+3 −3)(+2 −2), returns (+2 −2) to the bank"
    st2 = position([Hand((), (3, 3)), Hand((), (-1, 2))], bank=10, players=["Ana", "Bo"])
    st2 = apply(st2, {"type": "flip", "victim": 1, "own": 0, "own_to": 2, "other": 1, "other_to": 3})
    st2 = apply(st2, {"type": "roll", "values": [1]})
    assert (
        describe(st2, {"type": "roll", "values": [-2]}, ["Ana", "Bo"])
        == "Ana takes a pair from the bank: (+2 −2) · Bo's hand was regrouped"  # the victim's balancing
    )
    st3 = position([Hand((), (2, -2, 2, -1, -1)), Hand(((1, -1),), ())], bank=10, players=["Ana", "Bo"])
    st3 = apply(st3, {"type": "flip", "victim": 1, "own": 0, "own_to": 3, "other": 1, "other_to": -2})
    st3 = apply(st3, {"type": "roll", "values": [1]})
    assert describe(st3, default_action(st3), ["Ana", "Bo"]) == "Ana groups (+2 −2)(+1 −1)(+3 −1)"


def test_the_end_of_the_game_is_told():
    mover = Hand(((3, -3),), (3, 3, 3, 3, 3))
    victim = Hand(((3, -3),), (-3, -3, -3, -3, -3))
    st = position([mover, victim], bank=4, players=["Ana", "Bo"])
    flip = {"type": "flip", "victim": 1, "own": 1, "own_to": 3, "other": 0, "other_to": -3}
    assert describe(st, flip, ["Ana", "Bo"]) == "Ana: −3→+3, Bo's +3→−3 · Ana and Bo win: all threes"
    assert describe(st, {"type": "end_on_time"}, ["Ana", "Bo"]) == "Time is up · Ana and Bo win"
    assert describe(st, {"type": "flip", "victim": 0}, ["Ana", "Bo"]) == "(illegal flip)"
