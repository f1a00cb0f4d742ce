"""House rules (sixdice.rules.variants): each variant's rule, and the defaults as written."""

from __future__ import annotations

import json
import random

import pytest

from sixdice.rules import Hand, IllegalAction, State, apply, default_action, new_game, position, roll_action
from sixdice.rules.bots import Bot, play
from sixdice.rules.game import (
    barred_victim,
    barred_victims,
    final_scores,
    flip_actions,
    leaders_to_flip,
    random_flip,
)
from sixdice.rules.variants import AS_WRITTEN, EARLIER_RECOMMENDED, PRESETS, Variants, preset, preset_of


def flip(victim, own, own_to, other, other_to):
    return {"type": "flip", "victim": victim, "own": own, "own_to": own_to, "other": other, "other_to": other_to}


def to_next_flip(st: State, rng: random.Random) -> State:
    """Roll (seeded) and take the default balancing until the game waits for a flip (or is over)."""
    while not st.over and st.pending.kind != "flip":
        st = apply(st, roll_action(st, rng) or default_action(st))
    return st


def conserved(st: State) -> bool:
    return st.bank + sum(h.size for h in st.hands) == st.total


def random_game(n: int, variants: Variants, seed: int, rounds: int = 12) -> list[State]:
    """Every state of a seeded game with random flips and default balancing."""
    rng = random.Random(seed)
    st = new_game(n, rounds=rounds, variants=variants)
    out = [st]
    while not st.over:
        p = st.pending
        if p.kind == "roll":
            a = roll_action(st, rng)
        elif p.kind == "flip":
            a = random_flip(st, rng)
        else:
            a = default_action(st)
        st = apply(st, a)
        out.append(st)
    return out


# ---------------------------------------------------------------- the defaults are the rules as written


def test_the_default_is_the_rules_as_written_and_leaves_no_trace():
    st = new_game(3)
    assert st.variants == AS_WRITTEN and AS_WRITTEN.as_written
    d = st.to_dict()
    assert "variants" not in d and "scored" not in d and "last_flip" not in d
    assert Variants.from_dict(None) == Variants.from_dict({}) == AS_WRITTEN
    assert AS_WRITTEN.to_dict() == {}
    for n in range(2, 9):
        assert preset_of(AS_WRITTEN, 12, n) == "as_written"
        assert preset_of(*preset("recommended", n), n) == "recommended"
        assert preset_of(Variants(no_flip_back=True), 12, n) == "custom"


def test_a_game_as_written_plays_the_same_with_or_without_the_variants_argument():
    a = random_game(3, AS_WRITTEN, seed=5)
    rng = random.Random(5)
    st = new_game(3)
    while not st.over:
        p = st.pending
        st = apply(st, roll_action(st, rng) if p.kind == "roll" else random_flip(st, rng) if p.kind == "flip"
                   else default_action(st))
    assert st.to_dict() == a[-1].to_dict()


@pytest.mark.parametrize("variants", [
    Variants(last_turn_score=True), Variants(reverse_last_round=True), Variants(no_flip_back=True),
    Variants(refill=3), Variants(threes_dice=5), Variants(first_bonus=2),
    *(v for v, _b in PRESETS["recommended"].values()),
])
def test_every_variant_round_trips_through_the_state_dict(variants):
    for st in random_game(3, variants, seed=11, rounds=3):
        d = json.loads(json.dumps(st.to_dict()))
        assert State.from_dict(d).to_dict() == d
        assert State.from_dict(d).variants == variants
        assert conserved(st)


# ---------------------------------------------------------------- a hand scored at the end of its owner's last turn


def test_a_hand_is_scored_at_the_end_of_its_owners_last_turn():
    v = Variants(last_turn_score=True)
    st = position([Hand(((3, -1),), ()), Hand(((-3, 1),), ())], bank=0, rounds=1, variants=v)
    st = apply(st, flip(1, 0, 2, 0, -2))  # Ana 3 -> 2 (hand +1), Bo's -3 -> -2 (hand -1)
    while st.pending.kind != "flip":
        st = apply(st, default_action(st))
    assert st.current == 1 and st.scored == (st.hands[0].value, None)
    ana = st.hands[0].value
    st = apply(st, flip(0, 1, -3, 0, 3))  # Bo -2 -> -3, Ana's 2 -> 3: Ana's dice change, not her score
    while not st.over:
        st = apply(st, default_action(st))
    assert st.hands[0].value != ana
    assert final_scores(st) == [abs(ana), abs(st.hands[1].value)]
    assert st.scored == (ana, st.hands[1].value)
    # as written the same game is a tie (both |3|); scored at the last turn, Bo's flip does not reach Ana's score
    assert st.winners == ((1,) if abs(st.hands[1].value) > abs(ana) else (0,) if abs(ana) > abs(st.hands[1].value) else (0, 1))


# ---------------------------------------------------------------- the last round in reverse order


def test_the_last_round_is_played_in_reverse_order():
    for variants, expected in ((AS_WRITTEN, [0, 1, 2, 0, 1, 2]), (Variants(reverse_last_round=True), [0, 1, 2, 2, 1, 0])):
        states = random_game(3, variants, seed=3, rounds=2)
        movers: list[int] = []
        for st in states:
            if st.pending is not None and st.pending.kind == "flip" and (not movers or st.turns >= len(movers)):
                movers.append(st.current)
        first = states[-1].first
        assert states[-1].end_reason == "rounds" and states[-1].turns == 6
        assert [(m - first) % 3 for m in movers] == expected


# ---------------------------------------------------------------- no flip back


def test_no_flip_back_bars_the_player_who_just_flipped_you():
    v = Variants(no_flip_back=True)
    hands = [Hand(((3, -3),), (1,)), Hand(((2, -2),), (1,)), Hand(((1, -1),), (2,))]
    st = position(hands, bank=20, variants=v)
    st = apply(st, flip(1, 2, 3, 2, -1))  # Ana flips Bo
    st = to_next_flip(st, random.Random(1))
    assert st.current == 1 and st.last_flip == (0, 1)
    assert barred_victim(st, 1) == 0
    assert flip_actions(st) and all(a["victim"] == 2 for a in flip_actions(st))
    with pytest.raises(IllegalAction, match="No flip back"):
        apply(st, next(a for a in _all_flips(st) if a["victim"] == 0))
    rng = random.Random(2)
    assert all(random_flip(st, rng)["victim"] == 2 for _ in range(50))
    assert Bot("greedy", seed=1).act(st)["victim"] == 2
    # as written, Ana is a legal victim
    st2 = position(hands, bank=20)
    st2 = to_next_flip(apply(st2, flip(1, 2, 3, 2, -1)), random.Random(1))
    assert any(a["victim"] == 0 for a in flip_actions(st2))


def _all_flips(st: State) -> list[dict]:
    """Every flip of the mover against any other seat, barred or not."""
    from sixdice.rules.balance import legal_flips

    own = st.hands[st.current].dice()
    return [flip(s, f.own_index, f.own_to, f.other_index, f.other_to)
            for s, h in enumerate(st.hands) if s != st.current for f in legal_flips(own, h.dice())]


def test_no_flip_back_does_nothing_with_two_players():
    v = Variants(no_flip_back=True)
    st = position([Hand(((3, -3),), (1,)), Hand(((2, -2),), (1,))], bank=20, variants=v)
    st = to_next_flip(apply(st, flip(1, 2, 3, 2, -1)), random.Random(1))
    assert barred_victim(st, 1) is None and flip_actions(st)


# ---------------------------------------------------------------- flip the leader


def test_flip_the_leader_sends_every_flip_against_the_hand_furthest_from_zero():
    v = Variants(flip_the_leader=True)
    # values: Ana +1, Bo -5, Cy +4, Di +2; Ana moves
    hands = [Hand(((3, -3),), (1,)), Hand(((2, -2),), (-3, -2)), Hand(((1, -1),), (2, 2)), Hand(((1, -1),), (2,))]
    st = position(hands, bank=20, variants=v)
    assert leaders_to_flip(st, 0) == {1}
    assert barred_victims(st, 0) == {2, 3}
    assert {a["victim"] for a in flip_actions(st)} == {1}
    with pytest.raises(IllegalAction, match=r"Flip the leader: your flip goes against the hand furthest from zero \(Player 2\)"):
        apply(st, next(a for a in _all_flips(st) if a["victim"] == 2))
    rng = random.Random(3)
    assert all(random_flip(st, rng)["victim"] == 1 for _ in range(30))
    assert Bot("greedy", seed=1).act(st)["victim"] == 1
    # the leader flips the player furthest from zero among the others
    assert leaders_to_flip(position(hands, mover=1, bank=20, variants=v), 1) == {2}
    # tied: either of them; as written: anyone
    tied = [hands[0], Hand(((2, -2),), (-3, -1)), hands[2], hands[3]]  # Bo -4, Cy +4
    assert leaders_to_flip(position(tied, bank=20, variants=v), 0) == {1, 2}
    assert {a["victim"] for a in flip_actions(position(tied, bank=20, variants=v))} == {1, 2}
    assert {a["victim"] for a in flip_actions(position(hands, bank=20))} == {1, 2, 3}


def test_flip_the_leader_passes_over_a_leader_nobody_can_flip():
    from sixdice.rules.balance import has_legal_flip

    v = Variants(flip_the_leader=True)
    # Ana holds only +3s: a die of hers can only go down, so her victim's die must go up; Bo (+12, all +3) has none
    # that can, so the flip goes against Cy (+2), the furthest from zero of the players Ana can flip
    hands = [Hand((), (3, 3)), Hand((), (3, 3, 3, 3)), Hand(((1, -1),), (2,))]
    st = position(hands, bank=20, variants=v)
    assert not has_legal_flip(st.hands[0].dice(), st.hands[1].dice())
    assert leaders_to_flip(st, 0) == {2} and {a["victim"] for a in flip_actions(st)} == {2}


def test_flip_the_leader_and_no_flip_back_together():
    from sixdice.rules.game import replace

    v = Variants(flip_the_leader=True, no_flip_back=True)
    # Ana +1, Bo -2, Cy +4; Cy flipped Ana just before: Ana may not flip him back, so she flips Bo
    hands = [Hand(((3, -3),), (1,)), Hand(((2, -2),), (-2,)), Hand(((1, -1),), (2, 2))]
    st = replace(position(hands, mover=0, bank=20, variants=v), last_flip=(2, 0))
    assert barred_victim(st, 0) == 2 and leaders_to_flip(st, 0) == {1}
    assert barred_victims(st, 0) == {2} and {a["victim"] for a in flip_actions(st)} == {1}


# ---------------------------------------------------------------- the bank refills


def test_the_bank_refills_at_the_start_of_every_round():
    v = Variants(refill=3)
    for st in random_game(3, v, seed=7, rounds=4):
        assert conserved(st)
    states = random_game(3, v, seed=7, rounds=4)
    starts = [s for a, s in zip(states, states[1:], strict=False) if s.round > a.round >= 1]
    assert starts and all(s.bank >= 9 for s in starts)
    assert states[-1].total >= 36
    plain = random_game(3, AS_WRITTEN, seed=7, rounds=4)
    assert plain[-1].total == 36


# ---------------------------------------------------------------- all threes with 5 dice


def test_all_threes_with_five_dice():
    hands = [Hand(((3, -3),), (3, 3, 3)), Hand(((3, -1),), ())]
    st = position(hands, bank=10, variants=Variants(threes_dice=5))
    won = apply(st, flip(1, 1, 3, 0, -3))  # -3 -> +3: five dice, all +3
    assert won.over and won.winners == (0,) and won.end_reason == "all_threes"
    as_written = apply(position(hands, bank=10), flip(1, 1, 3, 0, -3))
    assert not as_written.over


# ---------------------------------------------------------------- compensation for the first seats


def test_compensation_for_the_first_seats_at_the_round_limit():
    hands = [Hand(((3, -1),), ()), Hand(((-3, 1),), ()), Hand(((3, 1),), ())]  # values +2, -2, +4
    st = position(hands, mover=1, bank=0, variants=Variants(first_bonus=1))
    assert st.first == 1
    # turn order 1, 2, 0: seat 1 adds 2 points, seat 2 adds 1, seat 0 adds none
    assert final_scores(st) == [2, 4, 5]
    assert final_scores(position(hands, mover=1, bank=0)) == [2, 2, 4]


def test_the_greedy_bot_plays_every_preset_to_the_end():
    for name in PRESETS:
        v, per_player = preset(name, 4)
        st = new_game(4, bank=per_player * 4, variants=v)
        bots = {s: Bot("greedy", seed=f"{name}-{s}").act for s in range(4)}
        end = play(st, bots, random.Random(f"dice-{name}"))
        assert end.over and conserved(end)


def test_the_recommended_rules_of_an_earlier_version_still_read_as_recommended():
    # 6 players before 6 December: the table fitted on greedy play alone (a game played then, or its export)
    before = Variants(last_turn_score=True, no_flip_back=True, refill=3, threes_dice=5, compensation=(2, 1.5, 1.5, 1, 0.5, 0))
    assert preset("recommended", 6)[0] != before
    assert preset_of(before, 12, 6) == "recommended"
    assert preset_of(before, 18, 6) == "custom"  # another bank: house rules
    assert preset_of(Variants(last_turn_score=True, compensation=(2, 1.5, 1.5, 1, 0.5, 0)), 12, 6) == "custom"
    for players, versions in EARLIER_RECOMMENDED.items():
        current, bank = preset("recommended", players)
        assert current not in versions and bank == 12
        for v in versions:
            assert preset_of(v, 12, players) == "recommended"


def test_the_seven_and_eight_player_tables_before_7_december_still_read_as_recommended():
    # 7 players had no table, 8 players the table fitted on games played without it
    for players, table in ((7, ()), (8, (2, 2, 1.5, 0, 0.5, 0, 0, 0))):
        before = Variants(last_turn_score=True, no_flip_back=True, refill=3, threes_dice=5, compensation=table)
        now = preset("recommended", players)[0]
        assert now != before and now.compensation and len(now.compensation) == players
        assert preset_of(before, 12, players) == "recommended"
        assert preset_of(now, 12, players) == "recommended"
