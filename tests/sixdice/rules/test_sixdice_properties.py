"""Random games: conservation, balanced hands, replay, purity, JSON round trip."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sixdice.rules import (
    ZERO_GROUPS,
    State,
    apply,
    default_action,
    legal_actions,
    new_game,
    random_flip,
    roll_action,
)

ZERO_KINDS = {tuple(sorted(g)) for g in ZERO_GROUPS}


def random_action(state: State, rng: random.Random, policy: str) -> dict:
    a = roll_action(state, rng)
    if a is not None:
        return a
    if state.pending.kind == "flip":
        return random_flip(state, rng)
    if policy == "default":
        return default_action(state)
    return rng.choice(legal_actions(state))


def check_turn_start(state: State, r8: set[int]) -> None:
    """Between turns every hand is balanced."""
    for seat, hand in enumerate(state.hands):
        assert len(hand.groups) <= 2
        if not hand.groups:
            assert seat in r8, f"seat {seat} has no group without R8"
        assert not (any(v > 0 for v in hand.loose) and any(v < 0 for v in hand.loose))
        for g in hand.groups:
            assert len(g) >= 2 and any(v > 0 for v in g) and any(v < 0 for v in g)
            if sum(g) == 0:
                assert tuple(sorted(g)) in ZERO_KINDS
            else:
                assert len(g) == 2


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    players=st.integers(2, 6),
    rounds=st.integers(1, 4),
    extra=st.integers(0, 12),
    policy=st.sampled_from(["random", "default"]),
)
def test_random_games_keep_every_invariant_and_replay_exactly(seed, players, rounds, extra, policy):
    rng = random.Random(seed)
    start = new_game(players, rounds=rounds, bank=6 * players + extra)
    state = start
    actions = []
    r8: set[int] = set()
    while not state.over:
        action = random_action(state, rng, policy)
        before = json.dumps(state.to_dict())
        after = apply(state, action)
        assert json.dumps(state.to_dict()) == before  # apply never mutates
        actions.append(json.loads(json.dumps(action)))
        for note in after.skipped:
            step, seat = note.split(":")
            if step == "pair":
                r8.add(int(seat))
        for seat, hand in enumerate(after.hands):
            if hand.groups:
                r8.discard(seat)
        state = after
        assert state.bank >= 0
        assert state.bank + sum(h.size for h in state.hands) == state.total
        if not state.over and state.pending.kind == "flip":
            check_turn_start(state, r8)
        if len(actions) % 7 == 0:
            assert State.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert state.winners
    assert state.end_reason in ("all_threes", "rounds")
    replayed = start
    for a in actions:
        replayed = apply(replayed, a)
    assert replayed == state
    assert replayed.to_dict() == state.to_dict()
