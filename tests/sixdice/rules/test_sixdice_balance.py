"""Balancing (R5-R7), flips and the all-threes test, from the spec's examples."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixdice.rules import (
    FACES,
    ZERO_GROUPS,
    Flip,
    Grouping,
    IllegalGrouping,
    check_grouping,
    default_keep,
    group_hand,
    groupings,
    is_all_threes,
    keep_options,
    legal_flips,
    max_zero_groups,
)

hands = st.lists(st.sampled_from(FACES), max_size=30)


def ms(dice):
    return tuple(sorted(dice))


# ---------------------------------------------------------------- faces and groups


def test_faces_and_the_13_groups_as_written_in_the_spec():
    assert sorted(FACES) == [-3, -2, -1, 1, 2, 3]
    assert ZERO_GROUPS == (
        (3, -3),
        (2, -2),
        (1, -1),
        (3, -2, -1),
        (-3, 2, 1),
        (2, -1, -1),
        (-2, 1, 1),
        (3, -1, -1, -1),
        (-3, 1, 1, 1),
        (2, 2, -3, -1),
        (-2, -2, 3, 1),
        (3, 3, -2, -2, -2),
        (-3, -3, 2, 2, 2),
    )


def test_there_are_exactly_13_minimal_zero_sum_groups_by_brute_force():
    found = set()
    for size in range(2, 9):  # nothing minimal beyond 5 dice, checked up to 8
        for combo in combinations_with_replacement(FACES, size):
            if sum(combo) != 0:
                continue
            has_zero_part = any(sum(sub) == 0 for k in range(1, size) for sub in combinations(combo, k))
            if not has_zero_part:
                found.add(combo)
    assert len(found) == 13
    assert found == {ms(g) for g in ZERO_GROUPS}
    assert max(len(g) for g in found) == 5


# ---------------------------------------------------------------- R5 / R6 defaults


@pytest.mark.parametrize("group", [(3, -3), (-3, 2, 1), (2, -1, -1), (2, 2, -3, -1)])
def test_seed_groups_form_one_zero_group(group):
    g = group_hand(group)
    assert len(g.zero_groups) == 1 and ms(g.zero_groups[0]) == ms(group)
    assert g.pairs == () and g.loose == ()


@pytest.mark.parametrize("rest", [(-3, 2), (3, -1)])
def test_seed_remainders_become_a_non_zero_pair(rest):
    g = group_hand(rest)
    assert g.zero_groups == ()
    assert len(g.pairs) == 1 and ms(g.pairs[0]) == ms(rest)
    assert g.loose == ()


def test_r5_greedy_takes_pairs_first_in_list_order():
    g = group_hand([2, -2, 2, -1, -1, 1])
    assert g.zero_groups == ((2, -2), (1, -1))
    assert g.pairs == ((2, -1),)
    assert g.loose == ()


def test_r5_owner_may_choose_another_grouping_with_as_many_groups():
    options = groupings([2, -2, 2, -1, -1, 1])
    assert options[0] == group_hand([2, -2, 2, -1, -1, 1])
    assert Grouping(((2, -2), (2, -1, -1)), (), (1,)) in options
    assert len(options) == 2


def test_r5_fewer_groups_is_not_offered():
    # (+3 -2 -1) alone would leave +2 +1 loose: 1 group where 2 are possible
    assert groupings([3, 2, 1, -1, -2]) == [Grouping(((2, -2), (1, -1)), (), (3,))]


def test_r6_pairs_the_smaller_colour_largest_first():
    g = group_hand([3, 2, -1])
    assert g.pairs == ((3, -1),) and g.loose == (2,)
    g = group_hand([-3, -3, -2, 1])  # blue is the smaller colour
    assert g.zero_groups == ()
    assert g.pairs == ((1, -3),) and g.loose == (-3, -2)


def test_r6_every_pairing_is_offered():
    options = groupings([3, 2, -1])
    assert {(g.pairs, g.loose) for g in options} == {(((3, -1),), (2,)), (((2, -1),), (3,))}


def test_r6_equal_colours_are_all_paired():
    g = group_hand([3, 3, -1, -1])
    assert g.pairs == ((3, -1), (3, -1)) and g.loose == ()


def test_one_colour_or_empty_hand_has_no_group():
    assert group_hand([3, 3, 1]) == Grouping((), (), (3, 3, 1))
    assert group_hand([]) == Grouping()
    assert groupings([]) == [Grouping()]


# ---------------------------------------------------------------- check_grouping


def test_check_grouping_accepts_any_order_and_returns_canonical_form():
    g = check_grouping([1, -1, 2, -2, 2], Grouping(((-1, 1), (-2, 2)), (), (2,)))
    assert g == Grouping(((2, -2), (1, -1)), (), (2,))


@pytest.mark.parametrize(
    ("dice", "grouping", "words"),
    [
        ([3, -3], Grouping(((3, -2),), (), ()), "does not use exactly the dice"),
        ([3, -3, 1], Grouping(((3, -3),), (), ()), r"missing \+1"),
        ([3, -3, 2, -2], Grouping(((3, -3, 2, -2),), (), ()), "not minimal"),
        ([3, -2], Grouping(((3, -2),), (), ()), "does not sum to 0"),
        ([3, -3, 1, -1], Grouping(((3, -3),), (), (1, -1)), "this hand allows 2"),
        ([3, 1], Grouping((), ((3, 1),), ()), "one blue and one red"),
        ([2, -2], Grouping((), ((2, -2),), ()), "zero-sum group, not a pair"),
        ([3, 2, -1], Grouping((), (), (3, 2, -1)), "both colours"),
        ([3, 0], Grouping((), (), (3, 0)), "not a face"),
        ([3, 1, -1, -2], Grouping(((1, -1),), ((3, -2, 1),), ()), "exactly 2 dice"),
    ],
)
def test_check_grouping_refuses_with_a_reason(dice, grouping, words):
    with pytest.raises(IllegalGrouping, match=words):
        check_grouping(dice, grouping)


def test_illegal_grouping_is_a_value_error():
    assert issubclass(IllegalGrouping, ValueError)


# ---------------------------------------------------------------- R7 keep


def test_r7_three_zero_groups_tie_and_the_first_two_are_kept():
    g = group_hand([3, -3, 2, -2, 1, -1])
    assert keep_options(g) == [(0, 1), (0, 2), (1, 2)]
    assert default_keep(g) == (0, 1)


def test_r7_keeps_the_largest_absolute_value_ties_to_grouping_order():
    g = group_hand([3, -3, 2, -2, 3, -1, 3])
    assert g.groups == ((3, -3), (2, -2), (3, -1))
    assert g.loose == (3,)
    # (0,2) and (1,2) both leave +5; (0,2) comes first
    assert default_keep(g) == (0, 2)


def test_r7_same_groups_are_one_choice():
    g = group_hand([1, -1, 1, -1, 1, -1])
    assert keep_options(g) == [(0, 1)]
    assert keep_options(group_hand([1, -1, 2, -2])) == []
    assert default_keep(group_hand([1, -1])) is None


# ---------------------------------------------------------------- flips and the win


def test_seed_flip_example():
    flips = legal_flips([1], [1, -1])
    assert Flip(0, 3, 0, -1, 2) in flips  # victim's blue 1 -> red 1
    assert Flip(0, 3, 1, -3, 2) in flips  # victim's red 1 -> red 3
    assert Flip(0, 3, 0, 0, 1) not in flips


@given(hands.filter(bool), hands.filter(bool))
def test_every_listed_flip_is_legal_and_every_legal_flip_is_listed(own, other):
    own, other = own[:8], other[:8]
    flips = legal_flips(own, other)
    for f in flips:
        assert f.own_to in FACES and f.other_to in FACES
        assert f.d != 0 and f.own_to - own[f.own_index] == f.d
        assert f.other_to - other[f.other_index] == -f.d
    expected = {
        (i, nv, j, w - (nv - v))
        for i, v in enumerate(own)
        for nv in FACES
        if nv != v
        for j, w in enumerate(other)
        if w - (nv - v) in FACES
    }
    assert {(f.own_index, f.own_to, f.other_index, f.other_to) for f in flips} == expected
    assert len(flips) == len(expected)


def test_is_all_threes():
    assert is_all_threes([3] * 6)
    assert is_all_threes([-3] * 7)
    assert not is_all_threes([3] * 5)
    assert not is_all_threes([3] * 5 + [-3])
    assert not is_all_threes([2] * 6)


# ---------------------------------------------------------------- properties


@given(hands)
def test_greedy_reaches_the_largest_number_of_groups(dice):
    options = groupings(dice)
    best = max(len(g.zero_groups) for g in options)
    assert best == max_zero_groups(dice)
    assert len(group_hand(dice).zero_groups) == best
    assert all(len(g.zero_groups) == best for g in options)


@given(hands)
def test_every_grouping_is_legal_and_distinct(dice):
    options = groupings(dice)
    assert options[0] == group_hand(dice)
    keys = set()
    for g in options:
        assert check_grouping(dice, g) == g
        assert Counter(g.dice()) == Counter(dice)
        for z in g.zero_groups:
            assert ms(z) in {ms(x) for x in ZERO_GROUPS}
        assert not (any(v > 0 for v in g.loose) and any(v < 0 for v in g.loose))
        key = (ms(map(ms, g.groups)), ms(g.loose))
        assert key not in keys
        keys.add(key)


@given(hands)
def test_no_zero_sum_part_is_left_outside_the_zero_groups(dice):
    g = group_hand(dice)
    rest = [v for p in g.pairs for v in p] + list(g.loose)
    for a, b in combinations(rest, 2):
        assert a + b != 0
    assert max_zero_groups(rest) == 0
