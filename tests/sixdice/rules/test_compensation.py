"""The compensation by place in the turn order (``Variants.compensation``): a house rule of the recommended rules."""

from __future__ import annotations

import random

import pytest

from sixdice.rules.bots import Bot, Pos, play
from sixdice.rules.game import Hand, State, apply, compensation_lines, final_scores, new_game, position
from sixdice.rules.variants import COMPENSATION, Variants, preset, valid_compensation

HANDS = [Hand(((3, -1),), ()), Hand(((-3, 1),), ()), Hand(((3, 1),), ())]  # values +2, -2, +4


def test_each_place_adds_its_points_at_the_round_limit():
    st = position(HANDS, mover=1, bank=0, variants=Variants(compensation=(0, 1.5, 3)))
    assert st.first == 1
    # values 2, 2, 4; turn order 1, 2, 0: seat 1 first (+0), seat 2 second (+1.5), seat 0 third (+3)
    assert final_scores(st) == [5, 2, 5.5]
    assert compensation_lines(st) == [(2, 1.5, 1), (0, 3, 2)]
    ended = apply(st, {"type": "end_on_time"})
    assert ended.winners == (2,)  # 4 + 1.5 beats 2 + 3
    plain = apply(position(HANDS, mover=1, bank=0), {"type": "end_on_time"})
    assert plain.winners == (2,) and final_scores(plain) == [2, 2, 4]


def test_a_whole_compensation_can_tie_and_the_win_is_shared():
    st = position(HANDS, mover=1, bank=0, variants=Variants(compensation=(0, 0, 2)))
    assert final_scores(st) == [4, 2, 4]  # seat 0 (third) adds 2 and ties seat 2
    halves = position(HANDS, mover=1, bank=0, variants=Variants(compensation=(0, 0, 2.5)))
    assert apply(halves, {"type": "end_on_time"}).winners == (0,)  # the half point breaks that tie
    assert apply(st, {"type": "end_on_time"}).winners == (0, 2)


def test_all_threes_wins_whatever_the_compensation():
    hands = [Hand(((3, -3),), (3, 3, 3, 3)), Hand(((3, -3),), (2,))]
    v = Variants(threes_dice=5, compensation=(0, 20))
    st = position(hands, mover=0, bank=10, variants=v)
    won = apply(st, {"type": "flip", "victim": 1, "own": 1, "own_to": 3, "other": 0, "other_to": -3})
    assert won.over and won.end_reason == "all_threes" and won.winners == (0,)


def test_the_rule_travels_in_the_state_and_replays():
    v = Variants(reverse_last_round=True, refill=3, threes_dice=5, compensation=(0, 1.5))
    d = v.to_dict()
    assert d["compensation"] == [0, 1.5] and Variants.from_dict(d) == v
    assert Variants.from_dict({}) == Variants() and "compensation" not in Variants().to_dict()
    rng = random.Random(4)
    log = []

    def record(s: State) -> None:
        log.append(s)

    st = play(new_game(2, variants=v), {0: Bot("greedy", 1).act, 1: Bot("greedy", 2).act}, rng, record)
    again = State.from_dict(st.to_dict())
    assert again.variants == v and final_scores(again) == final_scores(st)
    assert st.to_dict()["variants"]["compensation"] == [0, 1.5]


def test_a_compensation_is_one_figure_per_player_in_halves():
    assert valid_compensation((), 4) and valid_compensation((0, 0.5, 1, 20), 4)
    for bad in ((0, 1), (0, 0.25, 0, 0), (0, -1, 0, 0), (0, 21, 0, 0)):
        assert not valid_compensation(bad, 4)
    with pytest.raises(ValueError, match="compensation"):
        new_game(3, variants=Variants(compensation=(0, 0.25)))
    with pytest.raises(ValueError, match="compensation"):
        new_game(3, variants=Variants(compensation=(0,) * 9))
    # a game takes a table made for another number of players: a place past its end adds nothing
    st = position(HANDS, mover=1, bank=0, variants=Variants(compensation=(0, 1.5)))
    assert final_scores(st) == [2, 2, 5.5]


def test_the_bots_count_the_compensation():
    st = position(HANDS, mover=1, bank=0, variants=Variants(compensation=(0, 1.5, 3)))
    assert Pos.of(st).bonus == (3.0, 0.0, 1.5)


def test_the_recommended_rules_carry_the_fitted_table():
    assert {4, 5} <= set(COMPENSATION)
    for players in range(2, 9):
        v, _ = preset("recommended", players)
        assert v.compensation == tuple(float(x) for x in COMPENSATION.get(players, ()))
        assert valid_compensation(v.compensation, players)
        assert not v.compensation or min(v.compensation) == 0
        assert preset("as_written", players)[0].compensation == ()


def test_the_strong_search_counts_the_compensation_at_the_end():
    from sixdice.rules.bots import WIN, final_score, last_turn_value
    from sixdice.rules.dice import counts_of

    five, four = counts_of((3, 2)), counts_of((3, 1))
    assert final_score([five, four], 1) == -WIN
    assert final_score([five, four], 1, (0.0, 1.5)) == WIN
    assert final_score([five, four], 1, (0.0, 1.0)) == WIN / 2
    # seat 0 moves last with no bank: a compensation of 20 for seat 1 is out of its reach
    assert last_turn_value([five, four], 0, 0, 1, 6, (0.0, 20.0)) == WIN
