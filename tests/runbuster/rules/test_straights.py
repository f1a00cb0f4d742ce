from fractions import Fraction
from itertools import product

import pytest

from runbuster.rules import (
    FULL,
    HANDS,
    STRAIGHTS,
    bust_chance,
    busts,
    complement,
    hand_options,
    is_straight,
    roll_masks,
)


def test_straight_tables():
    assert len(STRAIGHTS) == 21 and FULL in STRAIGHTS
    assert len(HANDS) == 21 and () in HANDS and FULL not in HANDS
    assert all(is_straight(s) for s in STRAIGHTS)


@pytest.mark.parametrize(
    ("straight", "expected"),
    [((2, 3, 4), (1, 5, 6)), ((1, 2, 3, 4), (5, 6)), ((3, 4, 5, 6), (1, 2)), ((1,), (2, 3, 4, 5, 6)), ((), ()), (FULL, ())],
)
def test_complement(straight, expected):
    assert complement(straight) == expected


def test_spec_hand_options():
    assert hand_options((3, 4, 4, 6), (4, 5)) == [(3, 4, 5), (3, 4, 5, 6), (4, 5, 6)]
    assert hand_options((2, 2, 4, 5, 5, 6)) == [(2,), (4,), (4, 5), (4, 5, 6), (5,), (5, 6), (6,)]
    assert hand_options((1, 2, 4, 5), (4, 5)) == []


def test_seed_bust_example():
    # Red holds (1,2,3,4); Blue rolls (1,3,3,5,6,6), which contains (5,6)
    assert busts((1, 3, 3, 5, 6, 6), (1, 2, 3, 4))
    assert hand_options((1, 3, 3, 5, 6, 6)) == [(1,), (3,), (5,), (5, 6), (6,)]
    assert not busts((1, 3, 3, 5, 5, 5), (1, 2, 3, 4))


def test_b1_empty_hand_never_busted_and_full_never_busted():
    for roll in product(range(1, 7), repeat=3):
        assert not busts(roll, ())
    assert not busts((1, 2, 3, 4, 5, 6), ())
    assert not busts((1, 2, 3, 4, 5, 6), FULL)


def test_full_hand_has_no_options():
    assert hand_options((1, 2, 3), FULL) == []


def test_hand_option_rejects_non_straight():
    with pytest.raises(ValueError):
        hand_options((1, 2), (1, 3))


def test_first_roll_win_probability_by_enumeration():
    wins = sum(1 for roll in product(range(1, 7), repeat=6) if FULL in hand_options(roll))
    assert Fraction(wins, 6**6) == Fraction(720, 46656)
    via_masks = sum(p for m, p in roll_masks(6) if m == 0b111111)
    assert via_masks == Fraction(720, 46656)


@pytest.mark.parametrize("n", range(0, 7))
def test_roll_masks_are_a_distribution(n):
    masks = roll_masks(n)
    assert sum(p for _, p in masks) == 1
    counts = {}
    for roll in product(range(1, 7), repeat=n):
        m = 0
        for v in roll:
            m |= 1 << (v - 1)
        counts[m] = counts.get(m, 0) + 1
    assert dict(masks) == {m: Fraction(c, 6**n) for m, c in counts.items()}


def test_bust_chance():
    assert bust_chance(1, (1, 2, 3, 4, 5)) == pytest.approx(1 / 6)
    assert bust_chance(6, ()) == 0.0
    assert bust_chance(2, (1, 2, 3)) == 0.0  # three values missing, two dice
