"""Six-Dice bots of three strengths: ``random``, ``greedy`` and ``strong``.

Pure Python: no Django, no I/O, no global randomness.  Every bot owns a
``random.Random`` (seeded by its caller), so a bot plays the same moves for
the same seed and the same game.  A bot makes every decision a seat makes:

* the flip (its own die and new face, the victim, the victim's die and new face);
* the balancing grouping, where :func:`~sixdice.rules.groupings` offers a choice;
* the two groups to keep, where there is a choice.

Rolls are not decisions: the table (or the arena) rolls them.

Strengths
---------

``random``
    Uniform over the legal actions: :func:`~sixdice.rules.random_flip` (uniform
    over every legal flip, die by die), a uniform grouping, a uniform keep.

``greedy``
    One ply.  Every distinct flip (same victim, same faces before and after:
    which of two equal dice turns does not matter, balancing regroups the
    hands from scratch, R4) is scored by the *expected* evaluation after it:
    the flip, the draw (the six faces, 1/6 each), the mover's balancing (the
    grouping and keep that score best for the mover), the no-groups pair (its
    three magnitudes, 1/3 each) and the victim's balancing (the defaults).
    A grouping or keep choice takes the option that scores best.

``strong``
    Monte-Carlo search with determinised bank draws: the greedy scores pick
    the best few candidates (:data:`STRONG_CANDIDATES`); a fixed number of
    iterations (:data:`STRONG_ITERATIONS`, UCB1 over the candidates) each play
    one candidate, draw every die from the bot's own ``rng`` and play the
    following turns (everybody with a fast "playout" policy, defaults for
    balancing) up to a horizon of :data:`STRONG_HORIZON` turns, then score the
    position with the evaluation.  The candidate with the best mean wins.  The
    budget is a number of iterations, so the bot is deterministic under a seed;
    a wall-clock cap (:data:`STRONG_TIME_CAP`) only guards a slow machine.

The evaluation
--------------

For seat ``s`` with hand value ``v`` (``a = |v|``, sign ``σ = +1`` when
``v >= 0``), ``t`` the share of the game's turns already played (0 at the
start, 1 at the round limit)::

    f(s) = a + (1 - t) * (W_THREES * t3 + W_SIZE * size) + W_NEAR * near

``t3`` counts the dice equal to ``3σ`` (progress towards all threes, in the
hand's own sign), ``size`` the dice in the hand, ``near`` is 1 when the hand
is one die short of all threes (6+ dice, all ``3σ`` but one).  The
evaluation of a position for seat ``me`` is ``f(me) - max(f(o) for the
others)``: my progress against the best opponent.  As the round limit nears
the absolute value, which decides the game, dominates.  A finished game
scores ``WIN`` for a win alone, ``WIN / k`` for a win shared by ``k``,
``-WIN`` for a loss.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .balance import _FLIP_TABLE, Grouping, default_keep, groupings, keep_options
from .dice import FACE_INDEX, FACES, Counts, counts_of, dice_of
from .game import State, apply, random_flip

STRENGTHS: tuple[str, ...] = ("random", "greedy", "strong")

W_THREES = 1.0
W_SIZE = 0.5
W_NEAR = 4.0
WIN = 1000.0

STRONG_ITERATIONS = 96
"""Playouts per strong decision (a fixed count: the bot is deterministic under a seed)."""
STRONG_CANDIDATES = 6
"""How many of the greedy's best options the strong bot searches."""
STRONG_HORIZON = 3
"""Turns played out after the decision's own turn, before the evaluation."""
STRONG_TIME_CAP = 2.0
"""Seconds: a safety net on a very slow machine only; the iteration budget decides."""

Action = dict[str, Any]
I3 = FACE_INDEX[3]
IM3 = FACE_INDEX[-3]
ZERO: Counts = (0, 0, 0, 0, 0, 0)


def _unit(face: int) -> Counts:
    c = [0, 0, 0, 0, 0, 0]
    c[FACE_INDEX[face]] = 1
    return (c[0], c[1], c[2], c[3], c[4], c[5])


UNIT = {f: _unit(f) for f in FACES}


def _add(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5])


def _sub(a: Counts, b: Counts) -> Counts:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4], a[5] - b[5])


def _value(c: Counts) -> int:
    return -3 * c[0] - 2 * c[1] - c[2] + c[3] + 2 * c[4] + 3 * c[5]


def _threes(c: Counts) -> bool:
    n = c[0] + c[1] + c[2] + c[3] + c[4] + c[5]
    return n >= 6 and (c[0] == n or c[5] == n)


# ---------------------------------------------------------------- balancing on counts


@dataclass(frozen=True)
class Outcome:
    """One way to balance a hand: what stays, how many dice go back, whether the pair is due."""

    kept: Counts
    returned: int
    needs_pair: bool
    grouping: int  # index into groupings(dice)
    keep: tuple[int, int] | None  # keep choice, None when there is nothing to choose


def _outcome(g: Grouping, gi: int, keep: tuple[int, int] | None) -> Outcome:
    groups = g.groups
    if keep is None:
        kept = counts_of(g.dice())
    else:
        i, j = keep
        kept = counts_of(groups[i] + groups[j] + g.loose)
    n = sum(len(x) for x in groups) + len(g.loose)
    return Outcome(kept, n - sum(kept), not groups, gi, keep)


@lru_cache(maxsize=50_000)
def balance_outcomes(c: Counts) -> tuple[Outcome, ...]:
    """Every distinct result of balancing a hand (grouping x keep), the default first."""
    out: list[Outcome] = []
    seen: set[Counts] = set()
    for gi, g in enumerate(groupings(dice_of(c))):
        opts: list[tuple[int, int] | None] = list(keep_options(g)) or [None]
        if gi == 0 and len(opts) > 1:  # the default keep first
            dk = default_keep(g)
            opts.remove(dk)
            opts.insert(0, dk)
        for k in opts:
            o = _outcome(g, gi, k)
            if o.kept not in seen:
                seen.add(o.kept)
                out.append(o)
    return tuple(out)


@lru_cache(maxsize=50_000)
def default_outcome(c: Counts) -> Outcome:
    """The result of the default balancing (R5 greedy grouping, R6 pairing, R7 keep)."""
    return balance_outcomes(c)[0]


# ---------------------------------------------------------------- the evaluation


def hand_score(c: Counts, t: float) -> float:
    """``f(s)`` of the module docstring, for a hand of counts ``c`` at game share ``t``."""
    v = _value(c)
    size = c[0] + c[1] + c[2] + c[3] + c[4] + c[5]
    t3 = c[I3] if v >= 0 else c[IM3]
    score = abs(v) + (1.0 - t) * (W_THREES * t3 + W_SIZE * size)
    if size >= 6 and size - t3 == 1:
        score += W_NEAR
    return score


def evaluate(hands: Sequence[Counts], me: int, t: float) -> float:
    """The evaluation of the hands for seat ``me``: my score against the best opponent's."""
    mine = hand_score(hands[me], t)
    best = max(hand_score(h, t) for s, h in enumerate(hands) if s != me)
    return mine - best


def final_score(hands: Sequence[Counts], me: int) -> float:
    """The result at the round limit: ``WIN`` alone, ``WIN / k`` shared, ``-WIN`` lost."""
    vals = [abs(_value(h)) for h in hands]
    top = max(vals)
    if vals[me] != top:
        return -WIN
    return WIN / vals.count(top)


def _threes_score(hands: Sequence[Counts], seats: Sequence[int], me: int) -> float | None:
    won = [s for s in seats if _threes(hands[s])]
    if not won:
        return None
    return WIN / len(won) if me in won else -WIN


# ---------------------------------------------------------------- a position on counts


@dataclass
class Pos:
    """The game reduced to what decides it: dice counts per seat, the bank, the turn count."""

    hands: list[Counts]
    bank: int
    turns: int  # turns made
    total: int  # turns in the game (rounds x players)

    @classmethod
    def of(cls, st: State) -> Pos:
        return cls([counts_of(h.dice()) for h in st.hands], st.bank, st.turns, st.rounds * st.n)

    def t(self) -> float:
        return min(1.0, self.turns / self.total) if self.total else 1.0


FlipKind = tuple[int, int, int, int, int]  # victim, own face, own new face, victim face, victim new face


def flip_kinds(hands: Sequence[Counts], m: int) -> list[FlipKind]:
    """Every distinct flip of seat ``m`` (dice of equal faces are one choice)."""
    own = hands[m]
    out: list[FlipKind] = []
    for s, h in enumerate(hands):
        if s == m:
            continue
        for i, v in enumerate(FACES):
            if not own[i]:
                continue
            for j, w in enumerate(FACES):
                if not h[j]:
                    continue
                for nv, nw in _FLIP_TABLE[v, w]:
                    out.append((s, v, nv, w, nw))
    return out


def _flipped(hands: Sequence[Counts], m: int, k: FlipKind) -> list[Counts]:
    s, v, nv, w, nw = k
    out = list(hands)
    out[m] = _add(_sub(out[m], UNIT[v]), UNIT[nv])
    out[s] = _add(_sub(out[s], UNIT[w]), UNIT[nw])
    return out


def _best_outcome(hands: list[Counts], seat: int, me: int, t: float) -> Outcome:
    """The balancing of ``seat`` that scores best for ``me`` (the seat's owner when ``seat == me``)."""
    opts = balance_outcomes(hands[seat])
    if len(opts) == 1:
        return opts[0]
    best = opts[0]
    best_e = -math.inf
    saved = hands[seat]
    for o in opts:
        hands[seat] = o.kept
        e = evaluate(hands, me, t)
        if e > best_e:
            best, best_e = o, e
    hands[seat] = saved
    return best


def greedy_flip_value(pos: Pos, m: int, k: FlipKind) -> float:
    """The expected evaluation for the mover ``m`` after flip ``k``, the draw and both balancings.

    The draw is averaged over the six faces (R8: none when the bank is
    empty), the mover balances as scores best for the mover, the no-groups
    pair is averaged over its three magnitudes, the victim balances by the
    defaults.
    """
    hands = _flipped(pos.hands, m, k)
    victim = k[0]
    won = _threes_score(hands, (m, victim), m)
    if won is not None:
        return won
    t = (pos.turns + 1) / pos.total if pos.total else 1.0
    draws: Sequence[int | None] = FACES if pos.bank >= 1 else (None,)
    total = 0.0
    for f in draws:
        h = list(hands)
        bank = pos.bank
        if f is not None:
            h[m] = _add(h[m], UNIT[f])
            bank -= 1
            if _threes(h[m]):
                total += WIN
                continue
        o = _best_outcome(h, m, m, t)
        h[m] = o.kept
        bank += o.returned
        if o.needs_pair and bank >= 2:
            sub = 0.0
            for mag in (1, 2, 3):
                h2 = list(h)
                h2[m] = _add(o.kept, _add(UNIT[mag], UNIT[-mag]))
                sub += _victim_then_eval(h2, m, victim, t)
            total += sub / 3
        else:
            total += _victim_then_eval(h, m, victim, t)
    return total / len(draws)


def _victim_then_eval(h: list[Counts], m: int, victim: int, t: float) -> float:
    """The victim balances by the defaults (its pair, if due, is left out); the evaluation for ``m``."""
    saved = h[victim]
    h[victim] = default_outcome(saved).kept
    e = evaluate(h, m, t)
    h[victim] = saved
    return e


# ---------------------------------------------------------------- mapping choices to actions


def _flip_action(st: State, m: int, k: FlipKind) -> Action:
    s, v, nv, w, nw = k
    own = st.hands[m].dice()
    other = st.hands[s].dice()
    return {"type": "flip", "victim": s, "own": own.index(v), "own_to": nv, "other": other.index(w), "other_to": nw}


def _group_action(g: Grouping) -> Action:
    return {"type": "group", "zero_groups": [list(x) for x in g.zero_groups], "pairs": [list(x) for x in g.pairs]}


def _hand_groups(st: State, seat: int) -> Grouping:
    hand = st.hands[seat]
    return Grouping((), hand.groups, hand.loose)  # type: ignore[arg-type]


# ---------------------------------------------------------------- options and their greedy scores


@dataclass(frozen=True)
class Option:
    """One decision open to the bot, with its greedy score (expected evaluation, higher is better)."""

    action: Action
    score: float
    kind: FlipKind | None = None  # for a flip
    kept: Counts | None = None  # for a grouping or keep: the dice the hand keeps (best keep after a grouping)


def scored_options(st: State) -> list[Option]:
    """Every distinct decision open now, scored by the greedy evaluation, best first (stable)."""
    p = st.pending
    if p is None or st.over or p.kind not in ("flip", "group", "keep"):
        return []
    pos = Pos.of(st)
    seat = p.seat
    if p.kind == "flip":
        opts = [Option(_flip_action(st, seat, k), greedy_flip_value(pos, seat, k), kind=k) for k in flip_kinds(pos.hands, seat)]
    else:
        opts = _balance_options(st, pos, seat)
    order = sorted(range(len(opts)), key=lambda i: -opts[i].score)
    return [opts[i] for i in order]


def _balance_options(st: State, pos: Pos, seat: int) -> list[Option]:
    """Grouping or keep choices of ``seat``, scored by the evaluation of the balanced hand.

    The rest of the turn (the victim's balancing when ``seat`` is the mover)
    uses the defaults; the no-groups pair is taken on average.
    """
    p = st.pending
    assert p is not None
    t = (pos.turns + 1) / pos.total if pos.total else 1.0
    hands = list(pos.hands)
    out: list[Option] = []
    if p.kind == "group":
        dice = st.hands[seat].dice()
        for g in groupings(dice):
            kopts: list[tuple[int, int] | None] = list(keep_options(g)) or [None]
            best_e, best_kept = -math.inf, hands[seat]
            for kk in kopts:
                o = _outcome(g, 0, kk)
                e = _score_kept(hands, pos.bank, seat, o, t)
                if e > best_e:
                    best_e, best_kept = e, o.kept
            out.append(Option(_group_action(g), best_e, kept=best_kept))
    else:
        g = _hand_groups(st, seat)
        for kk in keep_options(g):
            o = _outcome(g, 0, kk)
            out.append(Option({"type": "keep", "keep": [kk[0], kk[1]]}, _score_kept(hands, pos.bank, seat, o, t), kept=o.kept))
    return out


def _score_kept(hands: list[Counts], bank: int, seat: int, o: Outcome, t: float) -> float:
    h = list(hands)
    h[seat] = o.kept
    bank += o.returned
    if o.needs_pair and bank >= 2:
        tot = 0.0
        for mag in (1, 2, 3):
            h2 = list(h)
            h2[seat] = _add(o.kept, _add(UNIT[mag], UNIT[-mag]))
            tot += evaluate(h2, seat, t)
        return tot / 3
    return evaluate(h, seat, t)


# ---------------------------------------------------------------- the strong search


def _playout_flip(hands: list[Counts], m: int, rng: random.Random) -> FlipKind | None:
    """The fast playout policy: the flip that most raises my |value| against the leader's."""
    kinds = flip_kinds(hands, m)
    if not kinds:
        return None
    vals = [_value(h) for h in hands]
    vm = vals[m]
    lead = max((abs(v) for s, v in enumerate(vals) if s != m), default=0)
    best: list[FlipKind] = []
    best_g = -math.inf
    for k in kinds:
        s, v, nv, w, nw = k
        d = nv - v
        gain = abs(vm + d) - abs(vm)
        vs = vals[s]
        hurt = abs(vs) - abs(vs - d)
        if abs(vs) >= lead:
            hurt *= 2.0
        g = gain + hurt
        if g > best_g:
            best_g, best = g, [k]
        elif g == best_g:
            best.append(k)
    return best[0] if len(best) == 1 else rng.choice(best)


def _play_balance(hands: list[Counts], bank: int, seat: int, rng: random.Random) -> tuple[int, bool]:
    """Default balancing and, when due, the no-groups pair; returns the bank and whether it was a pair."""
    o = default_outcome(hands[seat])
    hands[seat] = o.kept
    bank += o.returned
    if o.needs_pair and bank >= 2:
        mag = rng.choice((1, 2, 3))
        hands[seat] = _add(o.kept, _add(UNIT[mag], UNIT[-mag]))
        bank -= 2
    return bank, False


def _playout_turn(hands: list[Counts], bank: int, m: int, rng: random.Random, me: int) -> tuple[int, float | None]:
    """One turn of seat ``m`` in a playout; returns the bank and a final score if the game ended."""
    k = _playout_flip(hands, m, rng)
    victim = None
    if k is not None:
        hands[:] = _flipped(hands, m, k)
        victim = k[0]
        won = _threes_score(hands, (m, victim), me)
        if won is not None:
            return bank, won
    if bank >= 1:
        f = FACES[rng.randrange(6)]
        hands[m] = _add(hands[m], UNIT[f])
        bank -= 1
        won = _threes_score(hands, (m,), me)
        if won is not None:
            return bank, won
    bank, _ = _play_balance(hands, bank, m, rng)
    if victim is not None:
        bank, _ = _play_balance(hands, bank, victim, rng)
    return bank, None


def _continue(
    hands: list[Counts], bank: int, turns: int, total: int, nxt: int, me: int, rng: random.Random, horizon: int
) -> float:
    """Play ``horizon`` more turns from seat ``nxt`` (fewer at the round limit) and score for ``me``."""
    n = len(hands)
    for _ in range(horizon):
        if turns >= total:
            return final_score(hands, me)
        bank, won = _playout_turn(hands, bank, nxt, rng, me)
        if won is not None:
            return won
        turns += 1
        nxt = (nxt + 1) % n
    if turns >= total:
        return final_score(hands, me)
    return evaluate(hands, me, turns / total)


def _rollout_flip(pos: Pos, m: int, k: FlipKind, rng: random.Random, horizon: int) -> float:
    hands = _flipped(pos.hands, m, k)
    victim = k[0]
    won = _threes_score(hands, (m, victim), m)
    if won is not None:
        return won
    bank = pos.bank
    t = (pos.turns + 1) / pos.total if pos.total else 1.0
    if bank >= 1:
        f = FACES[rng.randrange(6)]
        hands[m] = _add(hands[m], UNIT[f])
        bank -= 1
        if _threes(hands[m]):
            return WIN
    o = _best_outcome(hands, m, m, t)
    hands[m] = o.kept
    bank += o.returned
    if o.needs_pair and bank >= 2:
        mag = rng.choice((1, 2, 3))
        hands[m] = _add(o.kept, _add(UNIT[mag], UNIT[-mag]))
        bank -= 2
    bank, _ = _play_balance(hands, bank, victim, rng)
    return _continue(hands, bank, pos.turns + 1, pos.total, (m + 1) % len(hands), m, rng, horizon)


def _rollout_kept(st: State, pos: Pos, seat: int, kept: Counts, rng: random.Random, horizon: int) -> float:
    """After a balancing choice of ``seat``: finish the turn (pair, victim's defaults), then play out."""
    hands = list(pos.hands)
    bank = pos.bank + sum(hands[seat]) - sum(kept)
    hands[seat] = kept
    if not _has_group_after(kept) and bank >= 2:
        mag = rng.choice((1, 2, 3))
        hands[seat] = _add(kept, _add(UNIT[mag], UNIT[-mag]))
        bank -= 2
    m = st.current if st.current is not None else seat
    if seat == m and st.victim is not None and st.victim != seat:
        bank, _ = _play_balance(hands, bank, st.victim, rng)
    turns = pos.turns + 1
    if turns >= pos.total:
        return final_score(hands, seat)
    return _continue(hands, bank, turns, pos.total, (m + 1) % len(hands), seat, rng, horizon)


def _has_group_after(kept: Counts) -> bool:
    """A balanced hand holding both colours holds a group; one of one colour holds none."""
    return bool(kept[0] + kept[1] + kept[2]) and bool(kept[3] + kept[4] + kept[5])


@dataclass(frozen=True)
class Hint:
    """A strong bot's suggestion: the action, its estimated value, and the alternatives searched."""

    action: Action
    value: float  # mean playout result for the seat (evaluation units, WIN for a certain win)
    visits: int
    candidates: tuple[tuple[Action, float, int], ...]  # action, mean, visits


def strong_search(
    st: State,
    rng: random.Random,
    *,
    iterations: int = STRONG_ITERATIONS,
    candidates: int = STRONG_CANDIDATES,
    horizon: int = STRONG_HORIZON,
    time_cap: float | None = STRONG_TIME_CAP,
) -> Hint | None:
    """Monte-Carlo search (UCB1 at the root, determinised draws) over the greedy's best options."""
    opts = scored_options(st)
    if not opts:
        return None
    p = st.pending
    assert p is not None
    if len(opts) == 1 or iterations <= 0:
        return Hint(opts[0].action, opts[0].score, 0, ((opts[0].action, opts[0].score, 0),))
    # a certain win needs no search; during the start (round 0) the greedy choice is kept
    if opts[0].score >= WIN or st.round == 0:
        return Hint(opts[0].action, opts[0].score, 0, ((opts[0].action, opts[0].score, 0),))
    cands = opts[:candidates]
    pos = Pos.of(st)
    seat = p.seat

    def run(o: Option) -> float:
        if o.kind is not None:
            return _rollout_flip(pos, seat, o.kind, rng, horizon)
        assert o.kept is not None
        return _rollout_kept(st, pos, seat, o.kept, rng, horizon)

    n = len(cands)
    sums = [0.0] * n
    visits = [0] * n
    deadline = time.perf_counter() + time_cap if time_cap else None
    scale = 20.0  # the spread of evaluations, for the exploration term
    for it in range(iterations):
        if it < n:
            i = it
        else:
            logt = math.log(it)
            i = max(range(n), key=lambda j: sums[j] / visits[j] + scale * math.sqrt(2 * logt / visits[j]))
        sums[i] += run(cands[i])
        visits[i] += 1
        if deadline is not None and it >= n and time.perf_counter() > deadline:
            break
    means = [sums[i] / visits[i] if visits[i] else -math.inf for i in range(n)]
    # the most robust: the best mean among the candidates (ties: the greedy order)
    best = max(range(n), key=lambda j: (means[j], -j))
    table = tuple((cands[j].action, means[j], visits[j]) for j in range(n))
    return Hint(cands[best].action, means[best], visits[best], table)


# ---------------------------------------------------------------- the bots


def random_action(st: State, rng: random.Random) -> Action:
    """Uniform over the legal actions of the pending decision."""
    p = st.pending
    assert p is not None
    if p.kind == "flip":
        a = random_flip(st, rng)
        assert a is not None
        return a
    if p.kind == "group":
        return _group_action(rng.choice(groupings(st.hands[p.seat].dice())))
    g = _hand_groups(st, p.seat)
    i, j = rng.choice(keep_options(g))
    return {"type": "keep", "keep": [i, j]}


def is_decision(st: State) -> bool:
    """Whether the game waits for a seat's decision (a flip, a grouping, a keep), not a roll."""
    return not st.over and st.pending is not None and st.pending.kind in ("flip", "group", "keep")


def bot_action(
    st: State,
    strength: str,
    rng: random.Random,
    *,
    iterations: int = STRONG_ITERATIONS,
    time_cap: float | None = STRONG_TIME_CAP,
) -> Action:
    """The decision a bot of ``strength`` takes for the pending flip, grouping or keep."""
    if strength not in STRENGTHS:
        raise ValueError(f"Unknown bot strength {strength!r}; expected one of {', '.join(STRENGTHS)}.")
    if not is_decision(st):
        raise ValueError("The game waits for no decision (a roll, or the game is over).")
    if strength == "random":
        return random_action(st, rng)
    if strength == "greedy":
        return scored_options(st)[0].action
    hint = strong_search(st, rng, iterations=iterations, time_cap=time_cap)
    assert hint is not None
    return hint.action


class Bot:
    """A bot with its own ``random.Random``: ``Bot("strong", seed=7).act(state)``."""

    def __init__(
        self,
        strength: str = "greedy",
        seed: int | str | None = 0,
        *,
        iterations: int = STRONG_ITERATIONS,
        time_cap: float | None = STRONG_TIME_CAP,
    ) -> None:
        if strength not in STRENGTHS:
            raise ValueError(f"Unknown bot strength {strength!r}; expected one of {', '.join(STRENGTHS)}.")
        self.strength = strength
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_cap = time_cap

    def act(self, st: State) -> Action:
        return bot_action(st, self.strength, self.rng, iterations=self.iterations, time_cap=self.time_cap)


def hint(st: State, seed: int | str = 0, *, iterations: int = STRONG_ITERATIONS) -> Hint | None:
    """The strong bot's suggestion for the pending decision (seeded: the same hint for the same state)."""
    if not is_decision(st):
        return None
    return strong_search(st, random.Random(seed), iterations=iterations, time_cap=STRONG_TIME_CAP)


def play(
    st: State,
    choosers: Mapping[int, Callable[[State], Action]],
    dice: random.Random,
    on_state: Callable[[State], None] | None = None,
) -> State:
    """Play ``st`` to the end: ``choosers[seat](state)`` decides, ``dice`` rolls every roll."""
    while not st.over:
        p = st.pending
        assert p is not None
        if p.kind == "roll":
            action: Action = {"type": "roll", "values": [dice.choice(FACES) for _ in range(p.count)]}
        else:
            action = choosers[p.seat](st)
        st = apply(st, action)
        if on_state is not None:
            on_state(st)
    return st
