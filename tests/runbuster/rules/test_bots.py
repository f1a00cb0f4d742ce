import random

import pytest

from runbuster.rules import (
    CHOOSE,
    POLICIES,
    ROLL,
    State,
    apply,
    bot_action,
    choose_straight,
    heuristic_scores,
    legal_actions,
    new_game,
    suggestion,
)


@pytest.mark.parametrize("players", range(2, 9))
def test_bots_play_legal_games_to_the_end(players):
    rng = random.Random(players)
    for game in range(3):
        policies = [POLICIES[(game + k) % len(POLICIES)] for k in range(players)]
        s = new_game(players, first=rng.randrange(players))
        steps = 0
        while not s.over:
            action = bot_action(s, rng, policies[s.current])
            if s.phase != ROLL:
                assert action in legal_actions(s)
            s = apply(s, action)
            steps += 1
            assert steps < 20_000
        assert len(s.finished) == players - 1 and s.loser not in s.finished


def test_bot_roll_without_rng_is_a_template():
    assert bot_action(new_game(2)) == {"type": "roll"}


def test_greedy_takes_longest_and_full_wins():
    s = State(players=3, hands=((), (1,), (2,)), current=0)
    s = apply(s, {"type": "roll", "values": [2, 2, 4, 5, 5, 6]})
    assert choose_straight(s, "greedy") == (4, 5, 6)
    s = State(players=3, hands=((1, 2, 3, 4, 5), (1,), (2,)), current=0)
    s = apply(s, {"type": "roll", "values": [6]})
    for policy in ("optimal", "heuristic", "greedy"):
        assert choose_straight(s, policy) == (1, 2, 3, 4, 5, 6)


def test_heuristic_prefers_short_against_many_full_cups():
    s = State(players=6, hands=((),) * 6, current=0)
    s = apply(s, {"type": "roll", "values": [1, 2, 3, 4, 5, 5]})
    scores = heuristic_scores(s)
    assert scores[0][0] != (1, 2, 3, 4, 5)
    assert s.phase == CHOOSE and suggestion(s) == scores[0][0]


def test_unknown_policy():
    s = apply(new_game(3), {"type": "roll", "values": [1, 2, 3, 4, 5, 5]})
    with pytest.raises(ValueError):
        choose_straight(s, "clever")


def test_simulation_runs_and_reports():
    from runbuster.lab.simulate import report, run

    stats = run(30, 3, ["optimal", "greedy", "random"], seed=3, rotate=True)
    assert stats.games == 30 and sum(stats.wins.values()) == 30 and sum(stats.losses.values()) == 30
    text = report(stats)
    assert "turns" in text and "busts per round" in text
