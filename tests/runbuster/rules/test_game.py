import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runbuster.rules import (
    CHOOSE,
    END_TURN,
    FULL,
    ROLL,
    IllegalAction,
    State,
    apply,
    busts,
    hand_options,
    is_straight,
    legal_actions,
    new_game,
    replay,
)


def with_hands(players, hands, current=0):
    return State(players=players, hands=tuple(tuple(h) for h in hands), current=current)


def test_new_game_defaults():
    s = new_game(["Ana", "Bo"])
    assert s.current == 0 and s.first == 0 and s.phase == ROLL and s.hands == ((), ())
    assert new_game(3, first=2).current == 2
    with pytest.raises(ValueError):
        new_game(1)
    with pytest.raises(ValueError):
        new_game(9)
    with pytest.raises(ValueError):
        new_game(3, first=3)


def test_turn_flow_and_seed_bust():
    s = with_hands(2, [(1, 2, 3, 4), ()], current=1)
    assert legal_actions(s) == [{"type": "roll", "count": 6}]
    s = apply(s, {"type": "roll", "values": [1, 3, 3, 5, 6, 6]})
    assert s.busted == (0,) and s.hands[0] == () and s.phase == CHOOSE
    assert [a["straight"] for a in legal_actions(s)] == [[1], [3], [5], [5, 6], [6]]
    with pytest.raises(IllegalAction, match="at least one die"):
        apply(s, {"type": "end_turn"})
    with pytest.raises(IllegalAction):
        apply(s, {"type": "choose", "straight": [3, 4]})
    s = apply(s, {"type": "choose", "straight": [5, 6]})
    assert s.hands[1] == (5, 6) and s.phase == END_TURN
    s = apply(s, {"type": "end_turn"})
    assert s.current == 0 and s.phase == ROLL and s.turns == 1


def test_no_extension_keeps_hand_and_goes_to_end_turn():
    s = with_hands(2, [(4, 5), (1,)])
    s = apply(s, {"type": "roll", "values": [1, 2, 4, 5]})
    assert s.phase == END_TURN and s.hands[0] == (4, 5)
    assert legal_actions(s) == [{"type": "end_turn"}]


def test_roll_validation():
    s = with_hands(2, [(4, 5), ()])
    for bad in [None, [1, 2, 3], [1, 2, 3, 4, 5], [0, 1, 2, 3], [1, 2, 3, 7], "1234", [1, 2, 3, True]]:
        with pytest.raises(IllegalAction):
            apply(s, {"type": "roll", "values": bad})
    with pytest.raises(IllegalAction, match="Unknown action"):
        apply(s, {"type": "pass"})
    with pytest.raises(IllegalAction, match="Roll first"):
        apply(s, {"type": "end_turn"})


def test_b2_bust_and_win_in_one_turn():
    s = with_hands(2, [(1, 2, 3, 4), (1, 2, 3, 4, 5)])
    s = apply(s, {"type": "roll", "values": [5, 6]})
    assert s.busted == (1,) and s.hands[1] == ()
    s = apply(s, {"type": "choose", "straight": list(FULL)})
    assert s.over and s.finished == (0,) and s.loser == 1
    assert legal_actions(s) == []
    with pytest.raises(IllegalAction):
        apply(s, {"type": "end_turn"})


def test_multiplayer_one_die_busts_several():
    # one 6 completes both (1..5) and (1..4) with the 5; (3,4) needs 1, 2, 5, 6
    s = with_hands(4, [(), (1, 2, 3, 4, 5), (1, 2, 3, 4), (3, 4)])
    s = apply(s, {"type": "roll", "values": [6, 5, 3, 3, 3, 3]})
    assert s.busted == (1, 2)
    assert s.hands == ((), (), (), (3, 4))


def test_dropping_out_and_skipping_finished_players():
    s = with_hands(3, [(1, 2, 3, 4, 5), (1,), (2, 3, 4, 5, 6)])
    s = apply(s, {"type": "roll", "values": [6]})
    s = apply(s, {"type": "choose", "straight": list(FULL)})
    # no end_turn after finishing: the turn passes on by itself
    assert s.finished == (0,) and not s.over and s.current == 1 and s.phase == ROLL
    s = apply(s, {"type": "roll", "values": [3, 3, 3, 3, 3]})  # cannot bust the finished seat
    assert 0 not in s.busted and s.hands[0] == FULL
    s = apply(s, {"type": "end_turn"})
    assert s.current == 2
    s = apply(s, {"type": "roll", "values": [1]})
    s = apply(s, {"type": "choose", "straight": list(FULL)})
    assert s.over and s.finished == (0, 2) and s.loser == 1


def test_end_turn_skips_finished_seat():
    s = State(players=3, hands=(FULL, (1,), (2,)), current=2, phase=END_TURN, finished=(0,))
    assert apply(s, {"type": "end_turn"}).current == 1


def test_json_round_trip():
    s = with_hands(3, [(1, 2), (), (4,)])
    s = apply(s, {"type": "roll", "values": [3, 3, 1, 6]})
    d = json.loads(json.dumps(s.to_dict()))
    assert State.from_dict(d) == s
    assert set(d) >= {"hands", "current", "phase", "last_roll", "busted", "finished", "loser", "over"}
    with pytest.raises(ValueError):
        State.from_dict({"hands": [[1, 3]], "current": 0, "phase": "roll"})


# ---- properties -------------------------------------------------------------------------


@st.composite
def games(draw, max_steps=60):
    n = draw(st.integers(2, 8))
    state = new_game(n, first=draw(st.integers(0, n - 1)))
    states, actions = [state], []
    for _ in range(max_steps):
        if state.over:
            break
        if state.phase == ROLL:
            k = 6 - len(state.hand)
            action = {"type": "roll", "values": draw(st.lists(st.integers(1, 6), min_size=k, max_size=k))}
        elif state.phase == CHOOSE:
            opts = legal_actions(state)
            action = opts[draw(st.integers(0, len(opts) - 1))]
        else:
            action = {"type": "end_turn"}
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions


@settings(max_examples=60, deadline=None)
@given(games())
def test_game_invariants(game):
    states, actions = game
    for before, action, after in zip(states[:-1], actions, states[1:], strict=True):
        for seat, (h0, h1) in enumerate(zip(before.hands, after.hands, strict=True)):
            assert h1 == () or is_straight(h1)
            assert len(set(h1)) == len(h1)
            # a hand only grows by extension or is emptied by a bust
            if h1 != h0:
                assert h1 == () and seat in after.busted or (set(h0) < set(h1) and seat == before.current)
        if action["type"] == "roll":
            roll = after.last_roll
            for seat in after.busted:
                assert seat != before.current and busts(roll, before.hands[seat])
            for seat in before.active:
                if seat != before.current and seat not in after.busted:
                    assert not busts(roll, before.hands[seat])
            # a player who can extend must extend
            can = bool(hand_options(roll, before.hand))
            assert after.phase == (CHOOSE if can else END_TURN)
            if can:
                with pytest.raises(IllegalAction):
                    apply(after, {"type": "end_turn"})


@settings(max_examples=40, deadline=None)
@given(games())
def test_replay_and_no_mutation(game):
    states, actions = game
    snapshot = copy.deepcopy([s.to_dict() for s in states])
    assert replay(states[0], actions) == states[-1]
    assert [s.to_dict() for s in states] == snapshot
    for s in states:
        assert State.from_dict(json.loads(json.dumps(s.to_dict()))) == s
