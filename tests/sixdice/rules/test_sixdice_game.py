"""The game flow: start, turns, R1-R4, R8-R10, and every illegal action."""

from __future__ import annotations

import json

import pytest

from sixdice.rules import (
    Hand,
    IllegalAction,
    State,
    apply,
    default_action,
    legal_actions,
    new_game,
    position,
)


def play(st: State, *actions) -> State:
    for a in actions:
        st = apply(st, a)
    return st


def roll(*values):
    return {"type": "roll", "values": list(values)}


def flip(victim, own, own_to, other, other_to):
    return {
        "type": "flip",
        "victim": victim,
        "own": own,
        "own_to": own_to,
        "other": other,
        "other_to": other_to,
    }


def settle(st: State) -> State:
    """Take every default balancing choice until the game waits for a roll or a flip."""
    while not st.over and st.pending.kind in ("group", "keep"):
        st = apply(st, default_action(st))
    return st


# ---------------------------------------------------------------- start


def test_new_game_waits_for_the_first_start_roll():
    st = new_game(["Ana", "Bo", "Cy"])
    assert st.players == ("Ana", "Bo", "Cy")
    assert st.total == st.bank == 36
    assert st.pending.kind == "roll" and st.pending.seat == 0
    assert st.pending.count == 6 and st.pending.purpose == "start"
    assert st.round == 0 and not st.over


def test_new_game_with_a_count_and_options():
    st = new_game(4, bank=60, rounds=6, dice="physical", auto_balance=True)
    assert st.players == ("Player 1", "Player 2", "Player 3", "Player 4")
    assert (st.total, st.rounds, st.dice, st.auto_balance) == (60, 6, "physical", True)


@pytest.mark.parametrize(
    ("args", "kw", "words"),
    [
        ((1,), {}, "2 to 8 players"),
        ((9,), {}, "2 to 8 players"),
        ((3,), {"bank": 17}, "at least 18"),
        ((3,), {"rounds": 0}, "at least 1 round"),
        ((3,), {"dice": "magic"}, "app"),
    ],
)
def test_new_game_refuses_bad_settings(args, kw, words):
    with pytest.raises(ValueError, match=words):
        new_game(*args, **kw)


def test_r1_closest_to_zero_starts_and_ties_go_to_the_first_seat():
    st = new_game(["Ana", "Bo", "Cy"])
    st = play(st, roll(3, 3, 3, 3, 2, -1), roll(1, 1, 1, 1, 1, -2), roll(-1, -1, -1, -1, -1, 2))
    st = settle(st)
    assert st.values() == [13, 3, -3]
    assert st.first == 1 and st.current == 1 and st.round == 1
    assert st.pending.kind == "flip" and st.pending.seat == 1
    assert st.bank == 36 - 18


def test_start_no_groups_pair_and_all_rolls_then_balancing():
    st = new_game(["Ana", "Bo"])
    st = play(st, roll(1, 1, 1, 2, 2, 2))
    assert st.pending.purpose == "start" and st.pending.seat == 1  # everyone rolls first
    st = play(st, roll(3, -3, 1, 1, 1, 1))
    assert st.pending.kind == "roll" and st.pending.purpose == "pair" and st.pending.seat == 0
    assert st.pending.count == 1
    st = play(st, roll(-2))
    assert st.hands[0].groups == ((2, -2),)
    assert st.bank == 24 - 12 - 2
    # Bo may group (+3 -3) or (-3 +1 +1 +1): a choice
    assert st.pending.kind == "group" and st.pending.seat == 1 and st.pending.choices == 2
    st = settle(st)
    assert st.hands[1] == Hand(((3, -3),), (1, 1, 1, 1))
    assert st.first == 1  # Bo's hand is worth +4, Ana's +9


def test_all_threes_on_the_start_roll_wins_at_once():
    st = play(new_game(["Ana", "Bo"]), roll(-3, -3, -3, -3, -3, -3))
    assert st.over and st.winners == (0,) and st.end_reason == "all_threes"
    assert legal_actions(st) == []


# ---------------------------------------------------------------- a turn


def test_a_turn_flip_draw_balance_and_the_next_player():
    st = position([Hand(((3, -3),), (1,)), Hand(((2, -2),), (1,))], bank=10, players=["Ana", "Bo"])
    assert st.pending.kind == "flip" and st.pending.seat == 0
    st = play(st, flip(1, 2, 3, 2, -1))  # Ana's +1 -> +3, Bo's +1 -> -1
    assert st.hands[0].dice() == (3, -3, 3) and st.hands[1].dice() == (2, -2, -1)
    assert st.victim == 1
    assert st.pending.kind == "roll" and st.pending.purpose == "draw" and st.pending.seat == 0
    st = play(st, roll(2))
    assert st.bank == 9
    assert st.pending.kind == "flip" and st.pending.seat == 1 and st.current == 1
    assert st.moved == 1 and st.turns == 1
    assert st.hands[0] == Hand(((3, -3),), (3, 2))
    assert st.hands[1] == Hand(((2, -2),), (-1,))


def test_r2_no_legal_flip_skips_step_one():
    st = position([Hand((), (3,)), Hand((), (3, 3))], bank=5)
    assert st.pending.kind == "roll" and st.pending.purpose == "draw"
    assert st.skipped == ("flip:0",)
    assert st.victim is None


def test_r3_mover_balances_before_the_victim():
    st = position([Hand((), (3, -3, 2, -2, 1, -1)), Hand((), (2, -3, 3, -2, 1, -1))], bank=10)
    st = play(st, flip(1, 0, 2, 0, 3), roll(1))
    seats = []
    while st.pending.kind in ("group", "keep"):
        seats.append(st.pending.seat)
        st = apply(st, default_action(st))
    assert seats and seats[0] == 0 and 1 in seats
    assert seats == sorted(seats)


def test_r3_and_r8_with_two_dice_left_only_the_mover_gets_the_no_groups_pair():
    st = position([Hand((), (2, 2)), Hand((), (-2, -2))], bank=3)
    st = play(st, flip(1, 0, 3, 0, -3), roll(3))
    assert st.pending.kind == "roll" and st.pending.purpose == "pair" and st.pending.seat == 0
    st = play(st, roll(-1))
    assert st.hands[0] == Hand(((1, -1),), (3, 3, 2))
    assert st.hands[1] == Hand((), (-3, -2))
    assert "pair:1" in st.skipped
    assert st.bank == 0
    assert st.pending.kind == "flip" and st.pending.seat == 1


def test_r4_balancing_dissolves_old_groups():
    st = position([Hand(((2, -1, -1),), (2,)), Hand(((1, -1),), ())], bank=10)
    st = play(st, flip(1, 3, 1, 0, 2), roll(-2))  # Ana: +2 -> +1 ; Bo's +1 -> +2
    # Ana's dice 2 -1 -1 1 -2 regroup from scratch: (+2 -2)(+1 -1), loose -1
    assert st.hands[0] == Hand(((2, -2), (1, -1)), (-1,))


def test_r7_keep_choice_default_and_returned_dice():
    st = position([Hand((), (3, -3, 2, -2, 1, -1)), Hand(((1, -1),), ())], bank=10)
    st = play(st, flip(1, 0, 2, 0, 2), roll(-3))  # Ana +3 -> +2, Bo's +1 -> +2; Ana draws -3
    # (+2 -2)(-3 +2 +1) would also make 2 zero-sum groups: Ana takes the default grouping
    assert st.pending.kind == "group" and st.pending.choices > 1
    st = apply(st, default_action(st))
    assert st.hands[0] == Hand(((2, -2), (1, -1), (2, -3)), (-3,))
    assert st.pending.kind == "keep" and st.pending.seat == 0
    assert st.pending.default == (0, 2)  # leaves -4, as (1, 2) does; (0, 2) comes first
    assert st.pending.choices == 3
    st = apply(st, default_action(st))
    assert st.hands[0] == Hand(((2, -2), (2, -3)), (-3,))
    assert st.bank == 10 - 1 + 2


def test_keep_action_returns_the_other_groups_to_the_bank():
    st = position([Hand((), (3, -3, 2, -2, 1, -1)), Hand(((1, -1),), ())], bank=10)
    st = play(st, flip(1, 5, -2, 0, 2), roll(2))  # Ana: -1 -> -2 ; Bo's +1 -> +2; Ana draws +2
    assert st.hands[0] == Hand(((3, -3), (2, -2), (2, -2)), (1,))
    assert st.pending.kind == "keep" and st.pending.choices == 2
    st = apply(st, {"type": "keep", "keep": [1, 2]})
    assert st.hands[0] == Hand(((2, -2), (2, -2)), (1,))
    assert st.bank == 10 - 1 + 2


def test_choose_a_grouping_and_keep():
    st = position([Hand((), (2, -2, 2, -1, -1)), Hand(((1, -1),), ())], bank=10)
    st = play(st, flip(1, 0, 3, 1, -2), roll(1))  # Ana: +2 -> +3 ; Bo's -1 -> -2
    # Ana holds +3 -2 +2 -1 -1 +1: greedy (+2 -2)(+1 -1) and the pair (+3 -1), or (+1 -1)(+3 -2 -1)
    assert st.pending.kind == "group" and st.pending.seat == 0
    choice = {"type": "group", "zero_groups": [[-1, -1, 2], [3, -2, -1]], "pairs": []}
    with pytest.raises(IllegalAction, match="does not hold"):
        apply(st, choice)
    options = legal_actions(st)
    assert len(options) == st.pending.choices == 2
    assert default_action(st) == options[0]
    default, other = apply(st, options[0]), apply(st, options[1])
    assert default.hands[0] == Hand(((2, -2), (1, -1), (3, -1)), ())
    assert default.pending.kind == "keep"
    assert other.hands[0] == Hand(((1, -1), (3, -2, -1)), (2,))
    assert other.pending.kind == "flip" and other.pending.seat == 1


def test_step4_no_groups_pair_is_rolled_and_set_opposite():
    st = position([Hand((), (3, 3)), Hand((), (-1, 2))], bank=10)
    st = play(st, flip(1, 0, 2, 1, 3), roll(1))  # Ana: +3 -> +2 ; Bo's +2 -> +3
    assert st.pending.kind == "roll" and st.pending.purpose == "pair" and st.pending.seat == 0
    st = play(st, roll(-3))
    assert st.hands[0].groups == ((3, -3),)
    assert st.bank == 10 - 1 - 2


def test_r8_empty_bank_skips_the_draw_and_the_pair():
    st = position([Hand((), (2, 2)), Hand((), (-2, -2))], bank=0)
    st = play(st, flip(1, 0, 3, 0, -3))
    assert "draw:0" in st.skipped and "pair:0" in st.skipped and "pair:1" in st.skipped
    assert st.pending.kind == "flip" and st.pending.seat == 1
    assert st.hands[0] == Hand((), (3, 2))


def test_r9_shared_win_from_the_spec_example():
    mover = Hand(((3, -3),), (3, 3, 3, 3, 3))
    victim = Hand(((3, -3),), (-3, -3, -3, -3, -3))
    st = position([mover, victim, Hand(((1, -1),), ())], bank=10)
    st = play(st, flip(1, 1, 3, 0, -3))  # -3 -> +3 (d = +6) against +3 -> -3
    assert st.over and st.end_reason == "all_threes" and st.winners == (0, 1)
    assert st.pending is None


def test_all_threes_single_winner_after_a_flip():
    st = position([Hand(((3, -3),), (3, 3, 3, 3, 3)), Hand(((3, -1),), ())], bank=10)
    st = play(st, flip(1, 1, 3, 0, -3))
    assert st.over and st.winners == (0,)


def test_round_limit_ends_the_game_and_r10_ties_share():
    st = position([Hand(((3, -1),), ()), Hand(((-3, 1),), ())], bank=0, rounds=1)
    st = play(st, flip(1, 0, 2, 0, -2))  # Ana 3 -> 2, Bo's -3 -> -2
    st = settle(st)
    assert st.pending.seat == 1
    st = play(st, flip(0, 1, -3, 0, 3))  # Bo's -2 -> -3, Ana's +2 -> +3
    st = settle(st)
    assert st.over and st.end_reason == "rounds"
    assert abs(st.values()[0]) == abs(st.values()[1])
    assert st.winners == (0, 1)


def test_end_on_time_r10_largest_absolute_value_wins():
    st = position([Hand(((3, -1),), ()), Hand(((-3, 1),), (-3,))], bank=5)
    st = apply(st, {"type": "end_on_time"})
    assert st.over and st.end_reason == "time" and st.winners == (1,)
    tie = apply(position([Hand(((3, -1),), ()), Hand(((-3, 1),), ())], bank=5), {"type": "end_on_time"})
    assert tie.winners == (0, 1)


def test_rounds_count_every_player_once():
    st = position([Hand(((3, -1),), ()), Hand(((-3, 1),), ()), Hand(((2, -1),), ())], bank=30, rounds=2)
    turns = 0
    while not st.over:
        if st.pending.kind == "flip":
            st = apply(st, legal_actions(st)[0])
            turns += 1
        elif st.pending.kind == "roll":
            st = apply(st, roll(*[1] * st.pending.count))
        else:
            st = apply(st, default_action(st))
    assert turns == 6 and st.turns == 6 and st.end_reason == "rounds"


# ---------------------------------------------------------------- round trip and purity


def test_to_dict_round_trips_through_json_and_apply_does_not_mutate():
    st = position([Hand((), (3, -3, 2, -2, 1, -1)), Hand((), (2, -3, 3, -2, 1, -1))], bank=10)
    st = play(st, flip(1, 0, 2, 0, 3), roll(1))
    d = st.to_dict()
    assert State.from_dict(json.loads(json.dumps(d))) == st
    before = json.dumps(d)
    apply(st, default_action(st))
    assert json.dumps(st.to_dict()) == before
    for key in ("bank", "hands", "round", "current", "winners", "over", "end_reason", "pending", "rounds"):
        assert key in d
    assert d["pending"]["kind"] in ("group", "keep") and "default" in d["pending"]


# ---------------------------------------------------------------- illegal actions


@pytest.fixture
def turn():
    return position(
        [Hand(((3, -3),), (1,)), Hand(((2, -2),), (1,)), Hand((), ())], bank=10, players=["Ana", "Bo", "Cy"]
    )


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("flip", "JSON object"),
        ({"type": "dance"}, "Unknown action type"),
        ({"type": "roll", "values": [1]}, "waits for Ana's flip, not a roll"),
        ({"type": "keep", "keep": [0, 1]}, "not a keep"),
        (flip(0, 0, 2, 0, 2), "another player"),
        (flip(5, 0, 2, 0, 2), "no seat 5"),
        (flip(2, 0, 2, 0, 2), "Cy has no dice"),
        (flip(1, 9, 2, 0, 2), "no die number 9"),
        (flip(1, 0, 2, 9, 2), "Bo has no die number 9"),
        (flip(1, 0, 3, 0, 2), "already shows"),
        (flip(1, 0, 2, 0, 1), "must change by"),
        (flip(1, 0, 4, 0, 1), "not a face"),
        (flip(1, 0, 2, 0, 0), "not a face"),
        ({"type": "flip", "victim": "Bo", "own": 0, "own_to": 2, "other": 0, "other_to": 3}, "whole number"),
        ({"type": "flip", "victim": 1}, "whole number"),
        ({**flip(1, 2, 3, 2, -1), "seat": 1}, "not for Bo"),
    ],
)
def test_illegal_flip_turn_actions(turn, action, words):
    with pytest.raises(IllegalAction, match=words):
        apply(turn, action)


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (roll(1, 2), "needs 1 die, got"),
        (roll(0), "not a face"),
        (roll(7), "not a face"),
        ({"type": "roll", "values": "3"}, "list of whole numbers"),
        ({"type": "roll"}, "list of whole numbers"),
        (flip(1, 0, 2, 0, 2), "waits for Ana's roll"),
    ],
)
def test_illegal_rolls(turn, action, words):
    st = apply(turn, flip(1, 2, 3, 2, -1))
    with pytest.raises(IllegalAction, match=words):
        apply(st, action)


def test_illegal_group_and_keep_choices():
    st = position([Hand((), (2, -2, 2, -1, -1)), Hand(((1, -1),), ())], bank=10, players=["Ana", "Bo"])
    st = play(st, flip(1, 0, 3, 1, -2), roll(1))
    assert st.pending.kind == "group"
    bad = [
        ({"type": "group", "zero_groups": [[3, -3]], "pairs": []}, "does not hold"),
        ({"type": "group", "zero_groups": "x", "pairs": []}, "lists of lists"),
        ({"type": "group", "zero_groups": [[3, -2]], "pairs": []}, "does not sum to 0"),
        ({"type": "group", "zero_groups": [[1, -1]], "pairs": []}, "this hand allows 2"),
        ({"type": "group", "zero_groups": [[1, -1], [2, -2]], "pairs": [], "loose": [3, -1]}, "both colours"),
        ({"type": "group", "zero_groups": [[1, -1], [3, -2, -1]], "pairs": [[2, 5]]}, "not a face"),
        ({"type": "keep", "keep": [0, 1]}, "not a keep"),
    ]
    for action, words in bad:
        with pytest.raises(IllegalAction, match=words):
            apply(st, action)
    # reach a keep choice
    st = position([Hand((), (3, -3, 2, -2, 1, -1)), Hand(((1, -1),), ())], bank=10, players=["Ana", "Bo"])
    st = play(st, flip(1, 5, -2, 0, 2), roll(2))  # Ana: -1 -> -2 ; Bo's +1 -> +2
    assert st.pending.kind == "keep" and st.pending.seat == 0
    for action, words in [
        ({"type": "keep", "keep": [0]}, "exactly 2"),
        ({"type": "keep", "keep": [1, 1]}, "2 different"),
        ({"type": "keep", "keep": [0, 7]}, "no group number 7"),
        ({"type": "keep", "keep": "01"}, "list of whole numbers"),
    ]:
        with pytest.raises(IllegalAction, match=words):
            apply(st, action)


def test_nothing_is_legal_once_the_game_is_over():
    st = apply(new_game(2), {"type": "end_on_time"})
    assert st.over and st.end_reason == "time"
    with pytest.raises(IllegalAction, match="over"):
        apply(st, roll(1, 1, 1, 1, 1, 1))
    assert default_action(st) is None
