import math
import random

import pytest

from runbuster.rules import (
    FULL,
    HANDS,
    apply,
    bot_action,
    busts,
    hand_options,
    new_game,
    rank_options,
    roll_masks,
    solve,
    win_probability,
)
from runbuster.rules.straights import VALUES


def test_first_player_value():
    assert abs(win_probability((), ()) - 0.5085) < 0.0005


def test_solver_converges_quickly():
    values, sweeps = solve()
    assert sweeps < 200
    assert all(0.0 <= v <= 1.0 for v in values)


def _bellman(a, b):
    """The right-hand side of the optimality equation, computed from scratch."""
    total = 0.0
    for mask, p in roll_masks(6 - len(a)):
        roll = [v for v in VALUES if mask >> (v - 1) & 1]
        theirs = () if busts(roll, b) else b
        opts = hand_options(roll, a) or [a]
        total += float(p) * max(1.0 if o == FULL else 1.0 - win_probability(theirs, o) for o in opts)
    return total


@pytest.mark.parametrize("seed", range(6))
def test_values_satisfy_the_optimality_equation(seed):
    rng = random.Random(seed)
    for _ in range(15):
        a, b = rng.choice(HANDS), rng.choice(HANDS)
        assert _bellman(a, b) == pytest.approx(win_probability(a, b), abs=1e-10)


def test_terminal_values():
    assert win_probability(FULL, (1, 2)) == 1.0
    assert win_probability((1, 2), FULL) == 0.0


def test_rank_options_seed_example():
    # Blue, empty hand, rolls (1,3,3,5,6,6) against Red's (1,2,3,4): Red is busted first
    ranked = rank_options((), (1, 2, 3, 4), (1, 3, 3, 5, 6, 6))
    assert sorted(o for o, _ in ranked) == [(1,), (3,), (5,), (5, 6), (6,)]
    probs = [p for _, p in ranked]
    assert probs == sorted(probs, reverse=True)
    for o, p in ranked:
        assert p == pytest.approx(1.0 - win_probability((), o))


def test_rank_options_without_option_keeps_hand():
    ranked = rank_options((4, 5), (1,), (1, 2, 4, 5))
    assert ranked == [((4, 5), pytest.approx(1.0 - win_probability((1,), (4, 5))))]


def test_rank_options_winning_roll():
    ranked = rank_options((1, 2, 3, 4), (1, 2, 3, 4, 5), (5, 6))
    assert ranked[0] == (FULL, 1.0)


def test_longer_is_not_always_better():
    # the spec's strategy fact: some roll makes a shorter straight the better choice
    found = False
    for mask, _ in roll_masks(6):
        roll = [v for v in VALUES if mask >> (v - 1) & 1]
        ranked = rank_options((), (), roll)
        if len(ranked[0][0]) < max(len(o) for o, _ in ranked):
            found = True
            break
    assert found


def test_self_play_agrees_with_the_solver():
    rng = random.Random(20261129)
    games = 2500
    wins = 0
    for _ in range(games):
        s = new_game(2, first=0)
        while not s.over:
            s = apply(s, bot_action(s, rng, "optimal"))
        wins += s.finished[0] == 0
    p = win_probability((), ())
    sigma = math.sqrt(p * (1 - p) / games)
    assert abs(wins / games - p) < 4 * sigma
