import json

import pytest

from runbuster.rules import RoundResult, Tally, apply, new_game, next_first


def test_next_first_rotates_in_seat_order():
    assert [next_first(k, 3) for k in range(3)] == [1, 2, 0]


def test_tally_records_places_losses_and_rotation():
    t = Tally(players=3, first=2)
    t = t.record(RoundResult(finished=(0, 1), loser=2))
    assert t.first == 0 and t.rounds == 1
    t = t.record({"finished": [2, 0], "loser": 1})
    t = t.record([1, 0, 2])
    assert t.first == 2 and t.rounds == 3
    assert t.losses == (0, 1, 2)
    assert t.places == ((1, 2, 0), (1, 1, 1), (1, 0, 2))
    assert Tally.from_dict(json.loads(json.dumps(t.to_dict()))) == t
    with pytest.raises(ValueError):
        t.record([0, 0, 1])


def test_tally_from_a_finished_round():
    s = new_game(2, first=1)
    s = apply(s, {"type": "roll", "values": [6, 5, 4, 3, 2, 1]})
    s = apply(s, {"type": "choose", "straight": [1, 2, 3, 4, 5, 6]})
    assert s.over
    t = Tally(players=2, first=1).record(s.to_dict())
    assert t.losses == (1, 0) and t.first == 0
