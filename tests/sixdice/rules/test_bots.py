"""Six-Dice bots: every decision legal, determinism under a seed, the arena's seat rotation."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from sixdice.lab.arena import match, rates, seat_counts, seating, wilson
from sixdice.rules import FACES, Hand, State, apply, default_action, legal_actions, new_game, position
from sixdice.rules.bots import (
    LEAF_2P,
    STRENGTHS,
    WIN,
    Bot,
    Pos,
    _flipped,
    _greedy_reply,
    _reply_flip,
    _threes,
    _value,
    balance_outcomes,
    bot_action,
    default_outcome,
    evaluate,
    final_best,
    final_score,
    flip_kinds,
    flip_swing,
    greedy_flip_value,
    hand_score,
    hint,
    is_decision,
    last_turn_memo,
    last_turn_value,
    mover_win_chance,
    next_mover,
    own_best,
    play,
    playout,
    scored_options,
)
from sixdice.rules.dice import counts_of
from sixdice.rules.game import flip_actions
from sixdice.rules.variants import Variants


def _roll(st: State, dice: random.Random) -> dict:
    assert st.pending is not None
    return {"type": "roll", "values": [dice.choice(FACES) for _ in range(st.pending.count)]}


def _decisions(games: int, seed: int, players: tuple[int, ...] = (2, 3, 4, 5, 6, 8)):
    """Decision points of seeded games whose seats play uniformly at random (banks and rounds vary)."""
    rng = random.Random(seed)
    for g in range(games):
        n = players[g % len(players)]
        bank = rng.choice([None, 6 * n, 7 * n, 9 * n])  # small banks reach R8
        st = new_game(n, bank=bank, rounds=rng.randint(1, 6))
        walker = Bot("random", seed=rng.random())
        while not st.over:
            if is_decision(st):
                yield st
                st = apply(st, walker.act(st))
            else:
                st = apply(st, _roll(st, rng))


def _legal(st: State, action: dict) -> None:
    """The action is accepted by the rules and, for a flip/keep, is one of the listed legal actions."""
    apply(st, action)  # raises IllegalAction if it is not legal
    if action["type"] in ("flip", "keep"):
        assert action in legal_actions(st)


def test_random_and_greedy_decisions_are_legal_in_thousands_of_positions():
    bots = {s: Bot(s, seed=5) for s in ("random", "greedy")}
    kinds: Counter[str] = Counter()
    count = 0
    for st in _decisions(60, seed=11):
        assert st.pending is not None
        kinds[st.pending.kind] += 1
        for bot in bots.values():
            _legal(st, bot.act(st))
        count += 1
    assert count >= 2000, count
    assert kinds["flip"] and kinds["group"] and kinds["keep"], kinds


def test_strong_decisions_are_legal_with_a_small_budget():
    bot = Bot("strong", seed=3, budget=2, time_cap=None)
    count = 0
    for i, st in enumerate(_decisions(24, seed=12)):
        if i % 3:
            continue
        _legal(st, bot.act(st))
        count += 1
    assert count >= 250, count


def test_every_scored_option_is_legal_and_flips_cover_every_distinct_flip():
    for i, st in enumerate(_decisions(6, seed=13)):
        if i % 7:
            continue
        opts = scored_options(st)
        assert opts, "a decision has at least one option"
        for o in opts:
            apply(st, o.action)
        scores = [o.score for o in opts]
        assert scores == sorted(scores, reverse=True)
        assert st.pending is not None
        if st.pending.kind == "flip":
            distinct = {
                (a["victim"], st.hands[st.pending.seat].dice()[a["own"]], a["own_to"],
                 st.hands[a["victim"]].dice()[a["other"]], a["other_to"])
                for a in legal_actions(st)
            }
            assert len(opts) == len(distinct)


@pytest.mark.parametrize("strength", STRENGTHS)
def test_a_bot_plays_the_same_game_for_the_same_seed(strength):
    def game(seed: int) -> list[dict]:
        log: list[dict] = []
        bots = {s: Bot(strength, seed=seed + s, budget=3, time_cap=None) for s in range(3)}

        def chooser(seat: int):
            def act(st: State) -> dict:
                a = bots[seat].act(st)
                log.append(a)
                return a

            return act

        play(new_game(3, rounds=3), {s: chooser(s) for s in range(3)}, random.Random(99))
        return log

    first = game(1)
    assert first and first == game(1)


def test_the_random_bot_depends_on_its_seed():
    st = next(s for s in _decisions(1, seed=14, players=(4,)) if s.pending.kind == "flip")
    picks = {str(Bot("random", seed=k).act(st)) for k in range(30)}
    assert len(picks) > 1


def test_bots_take_an_all_threes_flip():
    # Ana: (+3 −3) and five +3; Bo holds a +3: Ana's −3 → +3 (+6) against Bo's +3 → −3 wins at once.
    st = position([Hand(((3, -3),), (3, 3, 3, 3, 3)), Hand(((3, -1),), (2,))], bank=10)
    assert st.pending.kind == "flip"
    for strength in ("greedy", "strong"):
        action = bot_action(st, strength, random.Random(1), time_cap=None)
        after = apply(st, action)
        assert after.over and after.end_reason == "all_threes" and after.winners == (0,), strength
    pos = Pos.of(st)
    best = max(flip_kinds(pos.hands, 0), key=lambda k: greedy_flip_value(pos, 0, k))
    assert greedy_flip_value(pos, 0, best) == WIN


def test_greedy_prefers_a_bigger_hand_value_on_the_last_turn():
    # The last turn of the game: Ana (+4) against Bo (+5).  The best flip for Ana
    # takes value from Bo; the greedy must end with the larger absolute value.
    st = position(
        [Hand(((2, -1),), (3,)), Hand(((3, -1),), (3,))], bank=20, rounds=1, moved=1, mover=0
    )
    action = bot_action(st, "greedy", random.Random(0))
    after = apply(st, action)
    assert abs(after.hands[0].value) > abs(after.hands[1].value)


def test_hint_gives_a_legal_action_with_a_value_and_none_without_a_decision():
    st = next(s for s in _decisions(1, seed=15, players=(3,)) if s.pending.kind == "flip")
    h = hint(st, budget=3, time_cap=None)
    assert h is not None
    apply(st, h.action)
    assert len(h.candidates) == 3 and any(a == h.action and v == h.search_value for a, v in h.candidates)
    assert h.search_value == max(v for _, v in h.candidates)
    assert h.value == h.greedy_value  # the lead shown to players: one ply on
    assert hint(st, budget=3, time_cap=None) == h  # the same hint for the same state
    rolling = new_game(2)
    assert rolling.pending.kind == "roll" and hint(rolling) is None


def test_bad_requests_get_clear_errors():
    with pytest.raises(ValueError, match="Unknown bot strength"):
        Bot("expert")
    with pytest.raises(ValueError, match="no decision"):
        bot_action(new_game(2), "greedy", random.Random(0))


def test_seating_rotates_every_policy_through_every_seat():
    for players in (2, 3, 4, 6):
        games = players * 3
        counts: dict[str, Counter[int]] = {}
        for g in range(games):
            for seat, p in enumerate(seating(["strong", "greedy"], players, g)):
                counts.setdefault(p, Counter())[seat] += 1
        for p, c in counts.items():
            assert len(set(c.values())) == 1 and len(c) == players, (players, p, c)


def test_arena_match_rotates_seats_and_counts_shares():
    res = match(["greedy", "random"], 2, 4, seed=3, rounds=2)
    assert seat_counts(res) == {"greedy": [2, 2], "random": [2, 2]}
    res4 = match(["greedy", "random"], 4, 4, seed=3, rounds=1)
    assert seat_counts(res4) == {"greedy": [2, 2, 2, 2], "random": [2, 2, 2, 2]}
    total = sum(r.score for r in rates(res4))
    assert total == pytest.approx(len(res4))  # every game gives out exactly one win in shares
    assert match(["greedy", "random"], 2, 4, seed=3, rounds=2) == res  # seeded


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0


# ---------------------------------------------------------------- the strong search: endgame, leaf, determinism


def _share(st: State, seat: int) -> float:
    assert st.over
    return WIN / len(st.winners) if seat in st.winners else -WIN


def _finish(st: State, r: int) -> float:
    """Seat ``r``'s final result through the engine: ``r`` balances as best it can, the victim by default."""
    if st.over:
        return _share(st, r)
    p = st.pending
    assert p is not None
    if p.kind == "roll":
        if p.purpose == "draw":
            return sum(_finish(apply(st, {"type": "roll", "values": [f]}), r) for f in FACES) / 6
        return _finish(apply(st, {"type": "roll", "values": [1] * p.count}), r)  # the pair adds no value
    if p.seat == r:
        return max(_finish(apply(st, a), r) for a in legal_actions(st))
    default = default_action(st)
    assert default is not None
    return _finish(apply(st, default), r)


def _last_turns(games: int, seed: int) -> list[State]:
    """The last turn of seeded 2-player games of 1 to 3 rounds (greedy play), at the mover's flip."""
    out = []
    rng = random.Random(seed)
    for g in range(games):
        st = new_game(2, rounds=1 + g % 3, bank=rng.choice([None, 13, 16]))
        walker = Bot("greedy", seed=rng.random())
        while not st.over:
            if st.pending.kind == "flip" and st.moved == 1 and st.round == st.rounds:
                out.append(st)
                break
            st = apply(st, walker.act(st) if is_decision(st) else _roll(st, rng))
    return out


def test_last_turn_value_is_the_exact_result_of_the_last_turn():
    positions = _last_turns(8, seed=21)
    assert len(positions) >= 6
    open_ones = 0
    for st in positions:
        r = st.pending.seat
        hands = [counts_of(h.dice()) for h in st.hands]
        exact = max(_finish(apply(st, a), r) for a in flip_actions(st))
        assert last_turn_value(hands, st.bank, r, r) == pytest.approx(exact), st.to_dict()
        open_ones += -WIN < exact < WIN
    assert open_ones >= 2, "some positions are decided by the draw"


def test_final_score_counts_a_shared_win_and_a_loss():
    a, b, c = counts_of([3, 3, -1]), counts_of([-3, 2]), counts_of([1, 1, -2, 1])  # values 5, -1, 1
    assert final_score([a, b, c], 0) == WIN and final_score([a, b, c], 1) == -WIN
    d = counts_of([-3, -2])  # -5: as large as a
    assert final_score([a, d, c], 0) == WIN / 2 and final_score([a, d, c], 1) == WIN / 2
    assert final_score([a, d, c], 2) == -WIN


def test_flip_swing_is_the_best_margin_change_of_any_flip():
    rng = random.Random(22)
    for _ in range(300):
        hands = [counts_of(rng.choices(FACES, k=rng.randint(1, 8))) for _ in range(2)]
        best = 0
        kinds = flip_kinds(hands, 0)
        if kinds:
            base = abs(_value(hands[0])) - abs(_value(hands[1]))
            best = max(abs(_value(h[0])) - abs(_value(h[1])) - base for h in (_flipped(hands, 0, k) for k in kinds))
        assert flip_swing(hands[0], hands[1]) == best


def test_the_fitted_leaf_favours_the_larger_hand_and_stays_a_chance():
    for _b0, bm, bms, _bs, bw in LEAF_2P:
        assert bm > 0 and bm + bms > 0 and bw > 0  # margin and swing help the mover, whatever the signs
    big, small = counts_of([3, 3, 2, -1]), counts_of([1, 1, -1])
    for left in (1, 2, 7, 24, 40):
        p_big = mover_win_chance(big, small, left)
        p_small = mover_win_chance(small, big, left)
        assert 0.0 < p_small < p_big < 1.0, left


def test_strong_endgame_decisions_are_legal():
    bot = Bot("strong", seed=4, time_cap=None)
    count = 0
    for st in _decisions(20, seed=23, players=(2,)):
        if st.round == st.rounds:  # the last round: the exact endgame and the widened budget
            _legal(st, bot.act(st))
            count += 1
    assert count >= 40, count


def test_strong_plays_the_same_with_cold_caches():
    """The search depends on the position only: clearing every memo gives the same decisions and values."""
    states = [s for i, s in enumerate(_decisions(6, seed=24, players=(2, 3))) if i % 4 == 0]
    first = [hint(s, time_cap=None) for s in states]
    for f in (balance_outcomes, default_outcome, own_best, hand_score, flip_swing, final_best, _reply_flip,
              _greedy_reply, last_turn_memo):
        f.cache_clear()
    assert [hint(s, time_cap=None) for s in states] == first
    assert sum(1 for h in first if h is not None) >= 20


def test_leaffit_recovers_a_known_logistic_and_collects_every_turn_left():
    from sixdice.lab.leaffit import collect, features, fit, log_loss

    rng = random.Random(25)
    true = [0.5, 0.8, -0.3]
    rows = []
    for _ in range(3000):
        x = [1.0, rng.uniform(-3, 3), rng.uniform(-3, 3)]
        z = sum(a * b for a, b in zip(true, x, strict=True))
        rows.append((x, 1.0 if rng.random() < 1 / (1 + math.exp(-z)) else 0.0))
    w = fit(rows)
    assert all(abs(a - b) < 0.15 for a, b in zip(w, true, strict=True)), w
    assert log_loss(w, rows) < log_loss([0.0, 0.0, 0.0], rows)
    by = collect(2, [1])
    assert sorted(by) == list(range(1, 25)) and all(len(v) == 2 for v in by.values())
    mine = collect(2, [1], strong=True)  # only the strong seat's turn starts: 12 a game
    assert sum(len(v) for v in mine.values()) == 24 and all(len(v) in (1, 2) for v in mine.values())
    big, small = counts_of([3, 3, 2, -1]), counts_of([1, 1, -1])
    assert features(big, small) == [1.0, 6.0, 6.0, 1.0, float(flip_swing(big, small))]


def test_study_turn_order_shares_leave_out_games_won_during_the_start():
    from sixdice.lab.arena import GameResult
    from sixdice.lab.study import order_shares

    games = [
        GameResult(["greedy"] * 2, (1,), "rounds", 24, 0),  # the second in turn order wins
        GameResult(["greedy"] * 2, (0, 1), "rounds", 24, 1),  # shared
        GameResult(["greedy"] * 2, (0,), "all_threes", 0, None),  # all threes in the first rolls: no turn order
    ]
    assert order_shares(games) == [0.25, 0.75]
    assert order_shares(games[2:]) == [0.0, 0.0]


def test_bots_take_a_five_dice_all_threes_flip_under_the_house_rule():
    # Ana: (+3 −3) and three +3, five dice.  Her −3 → +3 against Bo's +3 → −3 gives five +3:
    # all threes under "5 or more dice", not as written.
    hands = [Hand(((3, -3),), (3, 3, 3)), Hand(((3, -1),), (2,))]
    five = Variants(threes_dice=5)
    st = position(hands, bank=10, variants=five)
    for strength in ("greedy", "strong"):
        after = apply(st, bot_action(st, strength, random.Random(1), time_cap=None))
        assert after.over and after.end_reason == "all_threes" and after.winners == (0,), strength
    pos = Pos.of(st)
    assert pos.need == 5
    assert max(greedy_flip_value(pos, 0, k) for k in flip_kinds(pos.hands, 0)) == WIN
    as_written = Pos.of(position(hands, bank=10))  # the same hands under the rules as written: no win at once
    assert max(greedy_flip_value(as_written, 0, k) for k in flip_kinds(as_written.hands, 0)) < WIN


def test_the_search_knows_who_moves_next_in_a_reversed_last_round():
    for n in (2, 3, 4):
        st = new_game(n, rounds=3, variants=Variants(reverse_last_round=True))
        dice = random.Random(n)
        walker = Bot("greedy", seed=n)
        checked = 0
        while not st.over:
            p = st.pending
            if p.kind == "roll":
                st = apply(st, {"type": "roll", "values": [dice.choice(FACES) for _ in range(p.count)]})
                continue
            if p.kind == "flip" and st.round >= 1:
                pos = Pos.of(st)
                expected = pos.after(st.current, pos.turns + 1)
                mover, turns = st.current, st.turns
                while not st.over and (st.turns == turns or st.pending.kind == "roll"):
                    p = st.pending
                    if p.kind == "roll":
                        st = apply(st, {"type": "roll", "values": [dice.choice(FACES) for _ in range(p.count)]})
                    else:
                        st = apply(st, walker.act(st))
                if not st.over:
                    assert st.current == expected, (n, mover, turns)
                    checked += 1
                continue
            st = apply(st, walker.act(st))
        assert checked >= 3 * n - 2, (n, checked)
    assert next_mover(1, 3, 2, reverse_at=2) == 0 and next_mover(1, 2, 2, reverse_at=2) == 1


def test_the_two_player_reply_is_the_greedy_flip():
    st = next(s for s in _decisions(4, seed=31, players=(2,)) if s.pending.kind == "flip" and s.round >= 2)
    pos = Pos.of(st)
    seat = st.pending.seat
    greedy = bot_action(st, "greedy", random.Random(0))
    k = _greedy_reply(tuple(pos.hands), min(pos.bank, 3), seat, pos.turns, pos.total)
    assert k is not None
    own, other = st.hands[seat].dice(), st.hands[k[0]].dice()
    assert (greedy["victim"], own[greedy["own"]], greedy["own_to"], other[greedy["other"]], greedy["other_to"]) == k


def test_the_playout_plays_the_turns_within_its_horizon_then_evaluates():
    rng = random.Random(32)
    for _ in range(40):
        hands = [counts_of(rng.choices(FACES, k=rng.randint(2, 7))) for _ in range(4)]
        assert playout(hands, 1, 0, 10, 10, 8) == final_score(hands, 0)  # no turn left: the final result
        assert playout(hands, 1, 0, 4, 10, 0) == evaluate(hands, 0, 4 / 10)  # no turn within the horizon
        # one turn left, seat 3's: its modelled flip, its best balancing, the victim's default
        k = _reply_flip(tuple(hands), 3, 1.0)
        h = list(hands)
        if k is not None:
            h = _flipped(h, 3, k)
            if _threes(h[3]) or _threes(h[k[0]]):
                continue
            h[k[0]] = default_outcome(h[k[0]]).kept
        h[3] = own_best(h[3], 1.0).kept
        assert playout(hands, 3, 0, 9, 10, 8) == final_score(h, 0)


def test_the_modelled_reply_is_a_flip_of_the_best_value():
    """:func:`_reply_flip` (3 or more players) against every flip scored one by one: the mover's score
    after the change and its default balancing (all threes: infinite), minus the best of the victim's
    (after the change and its default balancing) and the other seats' scores; a change that makes the
    victim's all threes is not modelled.  The flip it returns has the best value of them all."""
    rng = random.Random(34)
    played = 0
    for _ in range(400):
        n = rng.randint(3, 6)
        hands = tuple(counts_of(rng.choices(FACES, k=rng.randint(1, 7))) for _ in range(n))
        r = rng.randrange(n)
        t = rng.choice([0.1, 0.5, 0.9, 1.0])

        def value(k, hands=hands, r=r, t=t):
            h = _flipped(list(hands), r, k)
            s = k[0]
            if _threes(h[s]):
                return None
            mine = math.inf if _threes(h[r]) else hand_score(default_outcome(h[r]).kept, t)
            rest = max((hand_score(x, t) for i, x in enumerate(hands) if i not in (r, s)), default=-math.inf)
            return mine - max(rest, hand_score(default_outcome(h[s]).kept, t))

        values = [v for k in flip_kinds(hands, r) if (v := value(k)) is not None]
        k = _reply_flip(hands, r, t)
        if not values:
            assert k is None
            continue
        assert k in flip_kinds(hands, r)
        assert value(k) == pytest.approx(max(values), rel=1e-12, abs=1e-12)
        played += 1
    assert played >= 300
