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
    Expectimax over the bank draws, two plies deep, under a fixed budget.  The
    greedy scores rank the options; the best :data:`STRONG_BUDGET` of them are
    searched: for a flip, my draw (six faces), my best balancing, the
    no-groups pair (three magnitudes), the victim's default balancing, then the
    next seat's reply -- its flip, its draw (six faces), default balancing --
    and the leaf, from my side.  A grouping or keep choice is searched the same
    way from the balanced hand on.  The option with the best expected value is
    played (ties: the greedy's order).

    * **The reply.**  With 2 players the next seat's flip is the one the greedy
      bot would play there (:func:`_greedy_reply`): the opponent of a table's
      app player is often a beginner who follows the hints' one-ply logic, and
      a model of that reply is worth more than a pessimistic one.  With more
      players it is the flip that scores best for that seat after default
      balancing, the draw left out (:func:`_reply_flip`), which is cheaper,
      and the search plays on from there: a round of turns (:data:`PLAYOUT_ROUNDS`),
      every seat's flip modelled the same way (:func:`playout`), then the
      evaluation, or the final result when the game ends first.  So the bot
      sees who can still flip whom before its next turn.
    * **The end of the game is searched exactly.**  When my turn is the last,
      the result is the final one (who holds the largest absolute value).
      When the next seat's turn is the last, that seat is assumed to play its
      best flip for the final result over *every* distinct flip, averaged over
      its draw, with its balancing to the largest absolute value
      (:func:`last_turn_value`); with 2 players a leaf at the start of the
      game's last turn is scored the same way.  With 2 players the last two
      turns search every option (:data:`STRONG_ENDGAME_BUDGET`).
    * **The 2-player leaf is a chance of winning.**  With 2 players the leaf
      (the start of my next turn) is scored ``WIN * (2p - 1)``, ``p`` from a
      logistic model fitted per number of turns left (:data:`LEAF_2P`,
      :func:`mover_win_chance`): the margin of absolute values, whether both
      values have the same sign, and the most my flip alone can add to the
      margin (:func:`flip_swing`).  It knows what the linear evaluation does
      not: who moves last, and that a flip between hands of opposite signs
      moves both absolute values alike.  With more players the leaf is the
      evaluation below.
    * **House rules.**  The bots play the rules in force: all threes with 5
      dice (:attr:`Pos.need`), the last round in reverse order (who moves next,
      :func:`next_mover`), a hand scored at the end of its owner's last turn
      and the compensation for the first seats (the greedy scores).

    The budget is a number of options, not a time, so the bot plays the same
    move for the same position; a wall-clock cap (:data:`STRONG_TIME_CAP`) only
    guards a very slow machine.

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
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from .balance import _FLIP_TABLE, Grouping, _groupings_counts, default_keep, groupings, keep_options
from .dice import FACE_INDEX, FACES, Counts, counts_of
from .game import State, apply, barred_victims, random_flip

STRENGTHS: tuple[str, ...] = ("random", "greedy", "strong")

W_THREES = 1.0
W_SIZE = 0.5
W_NEAR = 4.0
WIN = 1000.0

STRONG_BUDGET = 24
"""How many of the greedy's best options the strong bot searches (a fixed count, not a time)."""
STRONG_ENDGAME_BUDGET = 1000
"""2 players, the last two turns of the game (searched exactly): how many options are searched (all of them)."""
PLAYOUT_ROUNDS = 1
"""3 or more players: how many rounds of turns the search plays out from the reply on (:func:`playout`)..."""
PLAYOUT_MAX_TURNS = 5
"""... and at most this many turns (a table of 8 plays out 5): the time per decision stays bounded."""
BIG_TABLE = 6
"""From this many players on the strong bot searches half its budget (the time per decision stays bounded)."""
STRONG_VERSION = 2
"""Changes when the strong bot plays differently: the study keeps its measured cells under it."""
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


_PAIR1, _PAIR2, _PAIR3 = (_add(UNIT[m], UNIT[-m]) for m in (1, 2, 3))
"""The counts of the no-groups pair of each magnitude (1, 2, 3)."""


def _value(c: Counts) -> int:
    return -3 * c[0] - 2 * c[1] - c[2] + c[3] + 2 * c[4] + 3 * c[5]


def _threes(c: Counts, need: int = 6) -> bool:
    """All threes: ``need`` or more dice (6 as written, 5 under the house rule), all +3 or all -3."""
    n = c[0] + c[1] + c[2] + c[3] + c[4] + c[5]
    return n >= need and (c[0] == n or c[5] == n)


# ---------------------------------------------------------------- balancing on counts


@dataclass(frozen=True)
class Outcome:
    """One way to balance a hand: what stays, how many dice go back, whether the pair is due."""

    kept: Counts
    returned: int
    needs_pair: bool
    grouping: int  # index into groupings(dice)
    keep: tuple[int, int] | None  # keep choice, None when there is nothing to choose


OUTCOME_TABLE: dict[Counts, tuple[Outcome, ...]] = {}
"""Balancing outcomes computed once for many hands (the laboratory installs them: ``sixdice.lab.outcomes``).

A hand is a small multiset of faces, so the balancing of every hand a game
meets fits in a table; :func:`balance_outcomes` reads it before computing.
Empty unless someone installs a table; the entries equal what
:func:`compute_outcomes` gives, so results never change."""


@lru_cache(maxsize=50_000)
def balance_outcomes(c: Counts) -> tuple[Outcome, ...]:
    """Every distinct result of balancing a hand (grouping x keep), the default first."""
    known = OUTCOME_TABLE.get(c)
    if known is not None:
        return known
    return compute_outcomes(c)


def compute_outcomes(c: Counts) -> tuple[Outcome, ...]:
    """:func:`balance_outcomes`, always computed from the groupings (no table, no memo)."""
    out: list[Outcome] = []
    seen: set[Counts] = set()
    n = c[0] + c[1] + c[2] + c[3] + c[4] + c[5]
    for gi, g in enumerate(_groupings_counts(c)):
        groups = g.groups
        opts: list[tuple[int, int] | None] = list(keep_options(g)) or [None]
        if gi == 0 and len(opts) > 1:  # the default keep first
            dk = default_keep(g)
            opts.remove(dk)
            opts.insert(0, dk)
        loose = counts_of(g.loose)
        for k in opts:
            if k is None:  # nothing to choose: the hand keeps every die
                kept = c
            else:
                kept = _add(_add(_group_counts_of(groups[k[0]]), _group_counts_of(groups[k[1]])), loose)
            if kept not in seen:
                seen.add(kept)
                out.append(Outcome(kept, n - sum(kept), not groups, gi, k))
    return tuple(out)


_GROUP_COUNTS: dict[tuple[int, ...], Counts] = {}


def _group_counts_of(group: tuple[int, ...]) -> Counts:
    """The count vector of a group (a zero-sum group or a pair: few, remembered)."""
    got = _GROUP_COUNTS.get(group)
    if got is None:
        got = _GROUP_COUNTS[group] = counts_of(group)
    return got


@lru_cache(maxsize=50_000)
def default_outcome(c: Counts) -> Outcome:
    """The result of the default balancing (R5 greedy grouping, R6 pairing, R7 keep)."""
    return balance_outcomes(c)[0]


# ---------------------------------------------------------------- the evaluation


@lru_cache(maxsize=200_000)
def hand_score(c: Counts, t: float, need: int = 6) -> float:
    """``f(s)`` of the module docstring, for a hand of counts ``c`` at game share ``t``
    (``need``: the dice all threes needs)."""
    v = _value(c)
    size = c[0] + c[1] + c[2] + c[3] + c[4] + c[5]
    t3 = c[I3] if v >= 0 else c[IM3]
    score = abs(v) + (1.0 - t) * (W_THREES * t3 + W_SIZE * size)
    if size >= need and size - t3 == 1:
        score += W_NEAR
    return score


def evaluate(hands: Sequence[Counts], me: int, t: float, need: int = 6) -> float:
    """The evaluation of the hands for seat ``me``: my score against the best opponent's."""
    mine = hand_score(hands[me], t, need)
    best = max(hand_score(h, t, need) for s, h in enumerate(hands) if s != me)
    return mine - best


def final_score(hands: Sequence[Counts], me: int, bonus: Sequence[float] = ()) -> float:
    """The result at the round limit: ``WIN`` alone, ``WIN / k`` shared, ``-WIN`` lost (``bonus``: the
    points each seat adds, the compensation)."""
    vals = [abs(_value(h)) + (bonus[s] if bonus else 0.0) for s, h in enumerate(hands)]
    top = max(vals)
    if vals[me] != top:
        return -WIN
    return WIN / vals.count(top)


def _threes_score(hands: Sequence[Counts], seats: Sequence[int], me: int, need: int = 6) -> float | None:
    won = [s for s in seats if _threes(hands[s], need)]
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
    fixed: dict[int, float] = field(default_factory=dict)  # house rules: seats whose score is already fixed
    bonus: tuple[float, ...] = ()  # house rules: points each seat adds at the round limit
    need: int = 6  # house rules: the dice all threes needs
    reverse_at: int = -1  # house rules: the turns made when the last round, in reverse order, begins (-1: never)

    @classmethod
    def of(cls, st: State) -> Pos:
        done = (st.round - 1) * st.n + st.moved if st.round >= 1 else 0  # turns made, from round and moved
        v = st.variants
        pos = cls([h.counts() for h in st.hands], st.bank, done, st.rounds * st.n, need=v.threes_dice,
                  reverse_at=(st.rounds - 1) * st.n if v.reverse_last_round and st.rounds > 1 else -1)
        if (v.first_bonus or v.compensation) and st.first is not None:
            key = (v.first_bonus, v.compensation, st.first, st.n)
            bonus = _BONUSES.get(key)
            if bonus is None:
                bonus = tuple(float(v.first_bonus * (st.n - 1 - (s - st.first) % st.n)) + v.bonus((s - st.first) % st.n)
                              for s in range(st.n))
                if len(_BONUSES) >= 1000:
                    _BONUSES.clear()
                _BONUSES[key] = bonus
            pos.bonus = bonus
        if v.last_turn_score and st.scored:
            pos.fixed = {s: float(abs(x)) + (pos.bonus[s] if pos.bonus else 0.0)
                         for s, x in enumerate(st.scored) if x is not None}
        return pos

    def score(self, s: int, c: Counts, t: float) -> float:
        """Seat ``s``'s :func:`hand_score` with hand ``c``, under the house rules."""
        f = self.fixed.get(s)
        if f is not None:
            return f
        return hand_score(c, t, self.need) + (self.bonus[s] if self.bonus else 0.0)

    def t(self) -> float:
        return min(1.0, self.turns / self.total) if self.total else 1.0

    def after(self, m: int, done: int) -> int:
        """The seat that moves after ``m``, ``done`` turns made once ``m``'s turn is over."""
        return next_mover(m, done, len(self.hands), self.reverse_at)


_BONUSES: dict[tuple[int, tuple[float, ...], int, int], tuple[float, ...]] = {}
"""The points each seat adds at the round limit, per house rules' bonus and compensation, first seat
and number of seats (:meth:`Pos.of`)."""


def next_mover(m: int, done: int, n: int, reverse_at: int = -1) -> int:
    """The seat that moves after seat ``m`` once ``done`` turns are made: the next in seat order,
    or, in a last round played in reverse order (from ``reverse_at`` turns made on), the one before
    (the player who moved last in the round before moves again first)."""
    if reverse_at < 0 or done < reverse_at:
        return (m + 1) % n
    return m if done == reverse_at else (m - 1) % n


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


# ---------------------------------------------------------------- what the evaluation needs of a hand
#
# hand_score(c, t) is ``a + (1 - t) * b``, plus W_NEAR when the hand is near all threes, with ``a``, ``b``
# and the "near" flag depending on the hand only.  The bots keep these parts per hand (and the
# balancings worth comparing, and what the mover's draw can bring) instead of per hand *and* game
# share, so nothing starts again when the game share changes, turn after turn.  Every score is still
# computed with the same operations in the same order as hand_score: results do not change.

Parts = tuple[int, float, bool]
"""A hand's ``(a, b, near)``: :func:`hand_score` is ``a + (1 - t) * b`` (+ :data:`W_NEAR` when ``near``)."""
Candidate = tuple[int, float, bool, int]
"""A balancing worth comparing: the parts of what it keeps (:data:`Parts`) and its place in
:func:`balance_outcomes` (a number, not the outcome: a memo of numbers only is no work for the
garbage collector)."""
PlanEntry = tuple[tuple[int, float, bool, "tuple[Parts, Parts, Parts] | None"], ...]
MoverPlan = tuple[int, int, tuple[PlanEntry, ...]]

_MEMO_CAP = 100_000
"""The per-hand memos below are emptied when they reach this many entries (a bounded memory)."""
_ROWS_CAP = 20_000
"""The same for the rows of the flip scores (a row serves a turn or a search, and is larger)."""
_PARTS: dict[tuple[Counts, int], Parts] = {}
_CANDIDATES: dict[tuple[Counts, int], tuple[Candidate, ...]] = {}
_PLANS: dict[tuple[Counts, int, int], MoverPlan] = {}
_ENTRIES: dict[tuple[Counts, int, int], PlanEntry | None] = {}
_VICTIM: dict[tuple[Counts, int], Parts | None] = {}
_CHANGES: dict[tuple[Counts, int], Any] = {}
_UNSET: Any = (math.nan, math.nan, False)
"""An entry of a row below not worked out yet."""
_MOVER_ROWS: dict[tuple[Counts, int, float, int], list[Any]] = {}
"""Per mover's hand, bank (capped at 3), game share and dice for all threes: the mover's part of the
greedy score of each own change, at ``6 * i + ni`` (face numbers), filled as the flips ask for them."""
_VICTIM_ROWS: dict[tuple[Counts, int], list[Any]] = {}
"""Per victim's hand and dice for all threes: :func:`_victim_parts` of each change, at ``6 * j + nj``."""


def clear_memos() -> None:
    """Empty the per-hand memos (they never change a result; for tests and measurements)."""
    for d in (_PARTS, _CANDIDATES, _PLANS, _ENTRIES, _VICTIM, _CHANGES, _MOVER_ROWS, _VICTIM_ROWS, _VICTIM_XS, _LOOSE_COUNTS, _CHANGE_ROWS):
        d.clear()
    _SIGNATURES.clear()
    _WIN_CHANCES.clear()
    _DRAW_VALUES.clear()


def _parts(c: Counts, need: int) -> Parts:
    """The parts of :func:`hand_score` for hand ``c`` (see :data:`Parts`)."""
    p = _PARTS.get((c, need))
    if p is None:
        v = _value(c)
        size = c[0] + c[1] + c[2] + c[3] + c[4] + c[5]
        t3 = c[I3] if v >= 0 else c[IM3]
        p = (abs(v), W_THREES * t3 + W_SIZE * size, size >= need and size - t3 == 1)
        if len(_PARTS) >= _MEMO_CAP:
            _PARTS.clear()
        _PARTS[c, need] = p
    return p


def _candidates(c: Counts, need: int) -> tuple[Candidate, ...]:
    """The balancings of ``c`` that can score best for its owner at some game share, in the order of
    :func:`balance_outcomes` (the default first), with the parts of what each keeps and its place
    there (:data:`Candidate`).

    A balancing is left out when an earlier one scores at least as much at every game share (its
    ``a`` and ``b`` at least as large, near all threes whenever it is): it can never be chosen,
    since the first of equal scores is.
    """
    got = _CANDIDATES.get((c, need))
    if got is None:
        out: list[Candidate] = []
        known = _PARTS
        for i, o in enumerate(OUTCOME_TABLE.get(c) or balance_outcomes(c)):
            kept = o.kept
            a, b, near = known.get((kept, need)) or _parts(kept, need)
            for a2, b2, near2, _ in out:
                if a2 >= a and b2 >= b and (near2 or not near):
                    break
            else:
                out.append((a, b, near, i))
        got = tuple(out)
        if len(_CANDIDATES) >= _MEMO_CAP:
            _CANDIDATES.clear()
        _CANDIDATES[c, need] = got
    return got


def _draw_entry(c: Counts, bank: int, need: int) -> PlanEntry | None:
    """The mover's hand ``c`` after the draw, ``bank`` dice left (capped at 2): ``None`` when it is
    all threes, else its candidate balancings (:func:`_candidates`), each with the parts of the
    three pair hands when the no-groups pair is due."""
    key = (c, bank, need)
    entry: PlanEntry | None = _ENTRIES.get(key, _UNSET)
    if entry is not _UNSET:
        return entry
    entry = None
    if not _threes(c, need):
        rows = []
        outcomes = OUTCOME_TABLE.get(c) or balance_outcomes(c)
        for a, b, near, i in _candidates(c, need):
            o = outcomes[i]
            pair: tuple[Parts, Parts, Parts] | None = None
            if o.needs_pair and bank + o.returned >= 2:
                kept = o.kept
                pair = (_parts(_add(kept, _PAIR1), need), _parts(_add(kept, _PAIR2), need),
                        _parts(_add(kept, _PAIR3), need))
            rows.append((a, b, near, pair))
        entry = tuple(rows)
    if len(_ENTRIES) >= _MEMO_CAP:
        _ENTRIES.clear()
    _ENTRIES[key] = entry
    return entry


def _mover_plan(mine: Counts, bank: int, need: int) -> MoverPlan:
    """What the mover's draw can bring hand ``mine`` (``bank`` capped at 3), for :func:`_expectation`:
    the number of draws, the draws that make all threes, and for every other draw (in face order)
    its :func:`_draw_entry`."""
    key = (mine, bank, need)
    plan = _PLANS.get(key)
    if plan is None:
        wins = 0
        entries: list[PlanEntry] = []
        if bank >= 1:
            b = bank - 1 if bank < 3 else 2
            for f in FACES:
                entry = _draw_entry(_add(mine, UNIT[f]), b, need)
                if entry is None:
                    wins += 1
                else:
                    entries.append(entry)
            k = 6
        else:
            entry = _draw_entry(mine, 0, need)
            if entry is None:
                wins += 1
            else:
                entries.append(entry)
            k = 1
        plan = (k, wins, tuple(entries))
        if len(_PLANS) >= _MEMO_CAP:
            _PLANS.clear()
        _PLANS[key] = plan
    return plan


def _victim_parts(theirs: Counts, need: int) -> Parts | None:
    """A victim's hand after the flip: ``None`` when it is all threes, else the parts of what its
    default balancing keeps."""
    key = (theirs, need)
    got = _VICTIM.get(key, _UNSET)
    if got is not _UNSET:
        return got
    got = None if _threes(theirs, need) else _parts((OUTCOME_TABLE.get(theirs) or balance_outcomes(theirs))[0].kept, need)
    if len(_VICTIM) >= _MEMO_CAP:
        _VICTIM.clear()
    _VICTIM[key] = got
    return got


@lru_cache(maxsize=200_000)
def own_best(c: Counts, t: float, need: int = 6) -> Outcome:
    """The balancing of a hand that scores best for its owner (the default first on a tie).

    The others' hands do not change while a hand balances, so the best for the
    evaluation is the best :func:`hand_score`.
    """
    cands = _candidates(c, need)
    outcomes = balance_outcomes(c)
    if len(cands) == 1:
        return outcomes[cands[0][3]]
    best = cands[0][3]
    u = 1.0 - t
    a, b, near, _ = cands[0]
    best_e = a + u * b
    if near:
        best_e += W_NEAR
    for a, b, near, i in cands[1:]:
        e = a + u * b
        if near:
            e += W_NEAR
        if e > best_e:
            best, best_e = i, e
    return outcomes[best]


def _pair_score(kept: Counts, t: float, need: int = 6) -> float:
    """The owner's expected score after the no-groups pair (three magnitudes, 1/3 each)."""
    return sum(hand_score(_add(kept, _add(UNIT[m], UNIT[-m])), t, need) for m in (1, 2, 3)) / 3


def mover_expectation(mine: Counts, bank: int, t: float, need: int = 6) -> tuple[float, float, float]:
    """After the flip, for the mover's hand ``mine``: the draw (six faces; none on an empty bank),
    the mover's best balancing, the no-groups pair when due.

    Returns (chance of all threes on the draw, expected score times the chance
    of no such win, the chance of no such win).
    """
    return _mover_expectation(mine, bank if bank < 3 else 3, t, need)


@lru_cache(maxsize=200_000)
def _mover_expectation(mine: Counts, bank: int, t: float, need: int) -> tuple[float, float, float]:
    """:func:`mover_expectation`, remembered (``bank`` capped at 3: past a die for the draw and two
    for the pair, its size changes nothing)."""
    return _expectation(_mover_plan(mine, bank, need), 1.0 - t)


def _expectation(plan: MoverPlan, u: float) -> tuple[float, float, float]:
    """:func:`mover_expectation` from the hand's plan (:func:`_mover_plan`) at ``u = 1 - t``: the
    same sums as drawing, balancing and scoring draw by draw, in the same order."""
    k, wins, entries = plan
    acc = 0.0
    for entry in entries:
        acc += _entry_score(entry, u)
    return wins / k, acc / k, (k - wins) / k


def _entry_score(entry: PlanEntry, u: float) -> float:
    """The owner's score after one draw of :func:`_expectation` (:func:`_draw_entry`) at ``u = 1 - t``:
    its best balancing (the first on a tie), the no-groups pair taken on average."""
    a, b, near, pair = entry[0]
    e = a + u * b
    if near:
        e += W_NEAR
    if len(entry) > 1:  # the owner's best balancing at this game share (the first on a tie)
        for a2, b2, near2, pair2 in entry[1:]:
            e2 = a2 + u * b2
            if near2:
                e2 += W_NEAR
            if e2 > e:
                e, pair = e2, pair2
    if pair is None:
        return e
    (a1, b1, n1), (a2, b2, n2), (a3, b3, n3) = pair
    s1 = a1 + u * b1
    if n1:
        s1 += W_NEAR
    s2 = a2 + u * b2
    if n2:
        s2 += W_NEAR
    s3 = a3 + u * b3
    if n3:
        s3 += W_NEAR
    return (s1 + s2 + s3) / 3


def _shared_expectation(mine: Counts, bank: int, t: float, need: int,
                        shared: dict[int, tuple[PlanEntry, float]]) -> tuple[float, float, float]:
    """:func:`_mover_expectation` within one scan of flips (``bank`` capped at 3): a hand after the
    flip and the draw that several own changes reach (the die turned to ``nv`` and the draw ``f``,
    or to ``f`` and the draw ``nv``) is scored once (``shared``: its entry and score, by the entry's
    id; the entry is held, so no other takes its id).  The same sums in the same order."""
    k, wins, entries = _mover_plan(mine, bank, need)
    u = 1.0 - t
    acc = 0.0
    for entry in entries:
        got = shared.get(id(entry))
        if got is None:
            got = shared[id(entry)] = (entry, _entry_score(entry, u))
        acc += got[1]
    return wins / k, acc / k, (k - wins) / k


def _best_others(scores: Sequence[float], skip: tuple[int, int]) -> float:
    return max((x for i, x in enumerate(scores) if i not in skip), default=-math.inf)


def greedy_flip_scores(pos: Pos, m: int, kinds: Sequence[FlipKind]) -> list[float]:
    """The greedy score of every flip ``kinds`` of the mover ``m``: the expected evaluation after
    the flip, the draw, the mover's best balancing (and pair) and the victim's default balancing.

    ``evaluate`` is my score minus the best other score, so the expectation
    splits into the mover's part (which depends only on the mover's own die and
    new face) and the victim's part (which depends only on the victim's die and
    new face).  :func:`_scan_flips` scores every flip of the mover the same way, faster.
    """
    mover_part, victim_part = _flip_parts(pos, m)
    mover: dict[tuple[int, int], tuple[float, float] | None] = {}
    victim: dict[tuple[int, int, int], float | None] = {}
    out: list[float] = []
    for s, v, nv, w, nw in kinds:
        if (v, nv) not in mover:
            mover[v, nv] = mover_part(v, nv)
        if (s, w, nw) not in victim:
            victim[s, w, nw] = victim_part(s, w, nw)
        out.append(_flip_score(mover[v, nv], victim[s, w, nw]))
    return out


def _flip_score(me: tuple[float, float] | None, x: float | None) -> float:
    """A flip's greedy score from its mover's part (``None``: the mover's all threes) and its
    victim's part (``None``: the victim's all threes)."""
    if me is None:
        return WIN / 2 if x is None else WIN
    if x is None:
        return -WIN
    return me[0] + me[1] * x


class FlipSetting(NamedTuple):
    """What scoring the flips of the mover ``m`` needs, worked out once (:func:`_flip_setting`)."""

    t: float  # the game share once the turn is over
    u: float  # 1 - t
    hands: list[Counts]
    fixed: dict[int, float]  # house rules: the seats whose score is already fixed
    bonus: tuple[float, ...]  # house rules: the compensation
    ruled: bool  # either of them in force
    need: int  # the dice all threes needs
    scores: list[float]  # every seat's score now, at game share t
    lift: float  # the mover's compensation
    bank: int  # capped at 3: a die for the draw and two for the pair
    hm: Counts  # the mover's hand


def _flip_setting(pos: Pos, m: int) -> FlipSetting:
    """The setting of the greedy score of the mover ``m``'s flips (:func:`_flip_parts`, :func:`_scan_flips`)."""
    total = pos.total
    t = (pos.turns + 1) / total if total else 1.0
    hands = pos.hands
    fixed = pos.fixed
    bonus = pos.bonus
    ruled = bool(fixed or bonus)
    need = pos.need
    scores = [pos.score(s, h, t) for s, h in enumerate(hands)] if ruled else [hand_score(h, t, need) for h in hands]
    return FlipSetting(t, 1.0 - t, hands, fixed, bonus, ruled, need, scores, bonus[m] if bonus else 0.0,
                       pos.bank if pos.bank < 3 else 3, hands[m])


def _flip_parts(
    pos: Pos, m: int
) -> tuple[Callable[[int, int], tuple[float, float] | None], Callable[[int, int, int], float | None]]:
    """The two parts of the greedy score of a flip of the mover ``m`` (see :func:`greedy_flip_scores`).

    The mover's part of a flip turning its ``v`` to ``nv``: ``None`` when that makes all threes,
    else ``(p_win * WIN + acc, p_rest)`` of :func:`mover_expectation`.  The victim's part of a
    flip turning seat ``s``'s ``w`` to ``nw``: ``None`` when that makes the victim's all threes,
    else ``lift - worst``, ``worst`` the best score among the seats other than the mover once
    the victim has balanced.  The score is ``p_win * WIN + acc + p_rest * (lift - worst)``.
    """
    t, u, hands, fixed, bonus, ruled, need, scores, lift, bank, hm = _flip_setting(pos, m)
    # the best score among the seats other than the mover and the victim, per victim
    rest = [_best_others(scores, (m, s)) for s in range(len(hands))]

    def mover_part(v: int, nv: int) -> tuple[float, float] | None:
        mine = _add(_sub(hm, UNIT[v]), UNIT[nv])
        if _threes(mine, need):
            return None
        p_win, acc, p_rest = _mover_expectation(mine, bank, t, need)
        return (p_win * WIN + acc, p_rest)

    def victim_part(s: int, w: int, nw: int) -> float | None:
        got = _victim_parts(_add(_sub(hands[s], UNIT[w]), UNIT[nw]), need)
        if got is None:
            return None
        f = fixed.get(s) if fixed else None
        if f is not None:
            x = f
        else:
            a, b, near = got
            x = a + u * b
            if near:
                x += W_NEAR
            if ruled:
                x = x + (bonus[s] if bonus else 0.0)
        worst = rest[s]
        if x > worst:
            worst = x
        return lift - worst

    return mover_part, victim_part


_FLIP_INDEX: tuple[tuple[tuple[tuple[int, int, int, int], ...], ...], ...] = tuple(
    tuple(tuple((nv, nw, FACE_INDEX[nv], FACE_INDEX[nw]) for nv, nw in _FLIP_TABLE[v, w]) for w in FACES)
    for v in FACES
)
"""``_FLIP_INDEX[i][j]``: the legal flips of an own die of face number ``i`` against a die of face
number ``j``, as (new own face, new other face, their face numbers), in the order of ``_FLIP_TABLE``."""


def _scan_flips(pos: Pos, m: int, barred: frozenset[int], every: bool) -> tuple[list[FlipKind], list[float]]:
    """Every distinct flip of the mover ``m`` (the victims ``barred`` left out), in the order of
    :func:`flip_kinds`, with its greedy score (:func:`greedy_flip_scores`, the same operations).

    ``every`` false: only the best flip (the first of equal scores) and its score, or nothing
    when there is no flip.  The parts of the score are worked out once per own change and once
    per victim's change, in small arrays indexed by face numbers, kept per hand; the flips
    between the faces the two hands hold come from :func:`_flip_grid`.
    """
    return _scan(_flip_setting(pos, m), m, barred, every)


def _scan(setting: FlipSetting, m: int, barred: frozenset[int], every: bool) -> tuple[list[FlipKind], list[float]]:
    """:func:`_scan_flips` in the setting of the mover ``m``'s flips (:func:`_flip_setting`)."""
    t, u, hands, fixed, bonus, ruled, need, scores, lift, bank, hm = setting
    two = len(hands) == 2
    own_mask = _face_mask(hm)
    key = (hm, bank, t, need)
    mover = _MOVER_ROWS.get(key)
    if mover is None:
        if len(_MOVER_ROWS) >= _ROWS_CAP:
            _MOVER_ROWS.clear()
        mover = _MOVER_ROWS[key] = [_UNSET] * 36
    unset = _UNSET
    kinds: list[FlipKind] = []
    scores_out: list[float] = []
    best: FlipKind | None = None
    best_sc = -math.inf
    shared: dict[int, tuple[PlanEntry, float]] = {}
    for s, h in enumerate(hands):
        if s == m or s in barred:
            continue
        owns, changes, pairs, faces = _flip_grid(own_mask, _face_mask(h))
        if not pairs:
            continue
        special = False  # an all threes among the parts: scored case by case
        for a in owns:  # the mover's part of each own change (None: the change makes all threes)
            me = mover[a]
            if me is unset:  # _shared_expectation, written out: the same sums in the same order
                mine = _add(hm, _CHANGE_DELTA[a])
                if _threes(mine, need):
                    me = None
                else:
                    k, wins, entries = _PLANS.get((mine, bank, need)) or _mover_plan(mine, bank, need)
                    acc = 0.0
                    for entry in entries:
                        got = shared.get(id(entry))
                        if got is None:
                            if len(entry) == 1 and entry[0][3] is None:  # _entry_score, written out
                                ea, eb, enear, _ = entry[0]
                                e = ea + u * eb
                                if enear:
                                    e += W_NEAR
                            else:
                                e = _entry_score(entry, u)
                            got = shared[id(entry)] = (entry, e)
                        acc += got[1]
                    me = (wins / k * WIN + acc / k, (k - wins) / k)
                mover[a] = me
            if me is None:
                special = True
        rest = _best_others(scores, (m, s))
        f = fixed.get(s) if fixed else None
        add = bonus[s] if bonus else 0.0
        if two:  # the 2-player reply meets the same victim's hand again and again: remembered
            vx = _VICTIM_XS.get((h, u, need, f, add, lift, rest, ruled))
            if vx is None:
                vx = _victim_xs(h, u, need, f, add, lift, rest, ruled, None)
        else:
            vx = _victim_xs(h, u, need, f, add, lift, rest, ruled, changes)
        xs, threes = vx  # lift - worst, per victim's change (None: the victim's all threes)
        if threes and not special:
            special = any(xs[c] is None for c in changes)
        if special:
            scs = [_flip_score(mover[a], xs[c]) for a, c in pairs]
        else:
            scs = [mover[a][0] + mover[a][1] * xs[c] for a, c in pairs]
        if every:
            kinds.extend((s, v, nv, w, nw) for v, nv, w, nw in faces)
            scores_out.extend(scs)
        else:
            top = max(scs)
            if top > best_sc:  # the first of equal scores: the first victim, then the first flip
                v, nv, w, nw = faces[scs.index(top)]
                best, best_sc = (s, v, nv, w, nw), top
    if not every and best is not None:
        return [best], [best_sc]
    return kinds, scores_out


_VICTIM_XS: dict[tuple[Counts, float, int, float | None, float, float, float, bool], tuple[Sequence[Any], bool]] = {}


def _victim_xs(h: Counts, u: float, need: int, f: float | None, add: float, lift: float, rest: float,
               ruled: bool, changes: tuple[int, ...] | None) -> tuple[Sequence[Any], bool]:
    """The victim's part of the greedy score (:func:`_scan_flips`) of every change of its hand ``h``
    (``6 * face number + new face number``): ``lift - worst``, ``worst`` the larger of ``rest`` (the
    best score of the seats other than the mover and the victim) and the victim's score once it has
    balanced (``f`` when its score is fixed; ``add`` its compensation when ``ruled``), at ``u = 1 - t``;
    ``None`` when the change makes the victim's all threes.  And whether some change does.
    ``changes``: only those (as a list, not remembered); ``None``: every change of the hand,
    remembered (with 2 players the greedy reply meets the same hand at the same game share for many
    of the mover's options and draws)."""
    key = (h, need)
    vrow = _VICTIM_ROWS.get(key)
    if vrow is None:
        if len(_VICTIM_ROWS) >= _ROWS_CAP:
            _VICTIM_ROWS.clear()
        vrow = _VICTIM_ROWS[key] = [_UNSET] * 36
    unset = _UNSET
    xs: list[Any] = [unset] * 36
    threes = False
    for c in _HAND_CHANGES[_face_mask(h)] if changes is None else changes:
        parts = vrow[c]
        if parts is unset:
            parts = vrow[c] = _victim_parts(_add(h, _CHANGE_DELTA[c]), need)
        if parts is None:
            xs[c] = None
            threes = True
            continue
        if f is not None:
            y = f
        else:
            a_, b_, near = parts
            y = a_ + u * b_
            if near:
                y += W_NEAR
            if ruled:
                y = y + add
        xs[c] = lift - (y if y > rest else rest)
    if changes is not None:
        return xs, threes
    got = (tuple(xs), threes)
    if len(_VICTIM_XS) >= _ROWS_CAP:
        _VICTIM_XS.clear()
    _VICTIM_XS[h, u, need, f, add, lift, rest, ruled] = got
    return got


_CHANGE_DELTA: tuple[Counts, ...] = tuple(_sub(UNIT[FACES[a % 6]], UNIT[FACES[a // 6]]) for a in range(36))
"""The change of a hand's counts when a die of face number ``a // 6`` turns to face number ``a % 6``."""
_FACE_DELTA: dict[tuple[int, int], Counts] = {(v, nv): _sub(UNIT[nv], UNIT[v]) for v in FACES for nv in FACES}
"""The same, by the faces: ``(v, nv)``."""
_HAND_CHANGES: tuple[tuple[int, ...], ...] = tuple(
    tuple(6 * j + k for j in range(6) if mask >> j & 1 for k in range(6) if k != j) for mask in range(64))
"""Every change of a die of a hand holding the faces ``mask`` (a bit per face number), as ``6 * face
number + new face number``."""


def _face_mask(c: Counts) -> int:
    """The faces a hand holds, a bit per face number."""
    return (bool(c[0]) | bool(c[1]) << 1 | bool(c[2]) << 2 | bool(c[3]) << 3 | bool(c[4]) << 4
            | bool(c[5]) << 5)


FlipGrid = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...], tuple[tuple[int, int, int, int], ...]]
_GRIDS: dict[tuple[int, int], FlipGrid] = {}


def _flip_grid(own: int, theirs: int) -> FlipGrid:
    """The flips between a hand holding the faces ``own`` and one holding ``theirs`` (a bit per face
    number; at most 64 x 64 such pairs, each worked out once): the own changes they make, the
    other hand's changes (each as ``6 * face number + new face number``), and every flip in the
    order of :func:`flip_kinds`, as its own and other change and as ``(v, nv, w, nw)``."""
    got = _GRIDS.get((own, theirs))
    if got is None:
        pairs: tuple[tuple[int, int], ...] = ()
        faces: tuple[tuple[int, int, int, int], ...] = ()
        for i in _BITS[own]:
            for j in _BITS[theirs]:
                p, f = _FACE_FLIPS[i][j]
                pairs += p
                faces += f
        got = _GRIDS[own, theirs] = (tuple(dict.fromkeys(a for a, _c in pairs)),
                                     tuple(dict.fromkeys(c for _a, c in pairs)), pairs, faces)
    return got


_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(6) if mask >> i & 1) for mask in range(64))
"""The face numbers of each set of faces (a bit per face number)."""
_FACE_FLIPS: tuple[tuple[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int, int, int], ...]], ...], ...] = tuple(
    tuple((tuple((6 * i + ni, 6 * j + nj) for _nv, _nw, ni, nj in _FLIP_INDEX[i][j]),
           tuple((FACES[i], nv, FACES[j], nw) for nv, nw, _ni, _nj in _FLIP_INDEX[i][j]))
          for j in range(6))
    for i in range(6)
)
"""The flips of an own die of face number ``i`` against a die of face number ``j``, for
:func:`_flip_grid`: as own and other change, and as ``(v, nv, w, nw)``."""


def greedy_flip_value(pos: Pos, m: int, k: FlipKind) -> float:
    """The greedy score of one flip (see :func:`greedy_flip_scores`)."""
    return greedy_flip_scores(pos, m, [k])[0]


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
    return _top_options(st, None)


def _ranked_flips(st: State, pos: Pos, seat: int) -> tuple[list[FlipKind], list[float], list[int]]:
    """The mover's distinct flips, their greedy scores, and their order best first (stable)."""
    kinds, scores = _scan_flips(pos, seat, barred_victims(st, seat), True)  # no flip back, flip the leader
    order = sorted(range(len(kinds)), key=scores.__getitem__, reverse=True)
    return kinds, scores, order


def _top_options(st: State, limit: int | None) -> list[Option]:
    """:func:`scored_options`, the first ``limit`` of them only (``None``: all); the actions of the
    others are never built (a flip's action is the costly part of a greedy decision)."""
    p = st.pending
    if p is None or st.over or p.kind not in ("flip", "group", "keep"):
        return []
    pos = Pos.of(st)
    seat = p.seat
    if p.kind == "flip":
        kinds, scores, order = _ranked_flips(st, pos, seat)
        return [Option(_flip_action(st, seat, kinds[i]), scores[i], kind=kinds[i]) for i in order[:limit]]
    choices = _balance_choices(st, pos, seat)
    order = sorted(range(len(choices)), key=lambda i: -choices[i][1])
    out = []
    for i in order[:limit]:
        choice, score, kept = choices[i]
        if isinstance(choice, Grouping):
            action = _group_action(choice)
        else:
            action = {"type": "keep", "keep": [choice[0], choice[1]]}
        out.append(Option(action, score, kept=kept))
    return out


def greedy_action(st: State) -> Action:
    """The greedy bot's decision: the option with the best greedy score (the first on a tie)."""
    p = st.pending
    assert p is not None
    if p.kind == "flip":
        kinds, _ = _scan_flips(Pos.of(st), p.seat, barred_victims(st, p.seat), False)
        if kinds:
            return _flip_action(st, p.seat, kinds[0])
    return _top_options(st, 1)[0].action


def _balance_choices(st: State, pos: Pos, seat: int) -> list[tuple[Grouping | tuple[int, int], float, Counts]]:
    """Grouping or keep choices of ``seat`` (a grouping, or the indices of the two groups kept),
    each with its score, the evaluation of the balanced hand, and the dice it keeps (after a
    grouping: with its best keep).  Only the choices played are made into actions.

    The rest of the turn (the victim's balancing when ``seat`` is the mover)
    uses the defaults; the no-groups pair is taken on average.
    """
    p = st.pending
    assert p is not None
    t = (pos.turns + 1) / pos.total if pos.total else 1.0
    need = pos.need
    hands = pos.hands
    # :func:`evaluate` of a balanced hand: its score minus the others' best, which balancing does not change
    others = max(hand_score(h, t, need) for s, h in enumerate(hands) if s != seat)
    bank = pos.bank
    out: list[tuple[Grouping | tuple[int, int], float, Counts]] = []
    if p.kind == "group":
        whole = hands[seat]
        for g in _groupings_counts(whole):  # :func:`groupings` of the hand's counts, without the copy
            opts = keep_options(g)
            if not opts:  # nothing to choose: the hand keeps every die
                out.append((g, _kept_score(whole, bank, not g.groups, t, need, others), whole))
                continue
            best_e, best_kept = -math.inf, whole
            for kk in opts:
                kept = _kept_of(g, kk)
                e = _kept_score(kept, bank + sum(whole) - sum(kept), not g.groups, t, need, others)
                if e > best_e:
                    best_e, best_kept = e, kept
            out.append((g, best_e, best_kept))
    else:
        g = _hand_groups(st, seat)
        whole = hands[seat]
        for kk in keep_options(g):
            kept = _kept_of(g, kk)
            out.append((kk, _kept_score(kept, bank + sum(whole) - sum(kept), not g.groups, t, need, others), kept))
    return out


def _kept_of(g: Grouping, keep: tuple[int, int]) -> Counts:
    """The dice a hand grouped as ``g`` keeps when it keeps the groups ``keep``."""
    groups = g.groups
    return _add(_add(_group_counts_of(groups[keep[0]]), _group_counts_of(groups[keep[1]])), _loose_counts(g.loose))


_LOOSE_COUNTS: dict[tuple[int, ...], Counts] = {}


def _loose_counts(loose: tuple[int, ...]) -> Counts:
    """The count vector of a grouping's loose dice (few distinct: remembered, bounded)."""
    got = _LOOSE_COUNTS.get(loose)
    if got is None:
        if len(_LOOSE_COUNTS) >= _MEMO_CAP:
            _LOOSE_COUNTS.clear()
        got = _LOOSE_COUNTS[loose] = counts_of(loose)
    return got


def _kept_score(kept: Counts, bank: int, needs_pair: bool, t: float, need: int, others: float) -> float:
    """:func:`evaluate` for the balancing seat once its hand keeps ``kept`` (``bank`` dice in the
    bank then), ``others`` the best score of the other seats; the no-groups pair taken on average."""
    if needs_pair and bank >= 2:
        tot = 0.0
        for mag in (1, 2, 3):
            tot += hand_score(_add(kept, _add(UNIT[mag], UNIT[-mag])), t, need) - others
        return tot / 3
    return hand_score(kept, t, need) - others


# ---------------------------------------------------------------- the strong search


@lru_cache(maxsize=100_000)
def _reply_flip(hands: tuple[Counts, ...], r: int, t: float, need: int = 6) -> FlipKind | None:
    """The model of seat ``r``'s flip: the one that scores best for ``r`` after the default
    balancing of both hands (the draw left out).

    A flip is legal when the mover's change ``d`` equals minus the victim's,
    so the best flip is, for each change ``d``, the mover's best own die for
    ``d`` against the victim's die that leaves the best opponent weakest.
    """
    best_own, own_scores, top_sc, ranked = _own_changes(hands[r], t, need)
    # the best score among the seats other than the mover (``top``, seat ``top_s``) and among the
    # seats other than the mover and ``top_s`` (``second``): the best of the seats other than the
    # mover and a victim ``s`` is ``second`` when ``s`` is ``top_s``, else ``top``
    inf = math.inf
    top = second = -inf
    top_s = -1
    for i, h in enumerate(hands):
        if i == r:
            continue
        y = hand_score(h, t, need)
        if y > top:
            top, second, top_s = y, top, i
        elif y > second:
            second = y
    # The best value: for each victim and change d, the victim's die that leaves the best
    # opponent weakest is the one with the least score after the change (the value is
    # ``sc - max(rest, vs)``, which only grows as ``vs`` shrinks).
    # A victim whose best value cannot pass the best so far (at most ``top_sc - rest``) is passed over.
    # The own changes are tried from the best scoring down: none after one scoring at most the value
    # found so far plus ``rest`` can pass it (a change's value is at most its score minus ``rest``).
    best_s = -1
    best_e = -inf
    best_least: tuple[float, ...] = ()
    for s, h in enumerate(hands):
        if s == r:
            continue
        rest = second if s == top_s else top
        if top_sc - rest <= best_e:
            continue
        least = _victim_least(h, t, need)
        e = -inf
        for i, sc in ranked:
            if sc - rest <= e:
                break
            lv = least[i]
            if lv == inf:  # the victim cannot make the change
                continue
            val = sc - (rest if rest > lv else lv)
            if val > e:
                e = val
        if e > best_e:
            best_s, best_e, best_least = s, e, least
    if best_s < 0:
        return None
    # The flip played: the first reaching the best value, in the order victim, victim's die, change;
    # only a change whose best value (against the victim's least score) reaches the best can.
    rest = second if best_s == top_s else top
    least = best_least
    reach = [best_own[k] for k, (i, sc) in enumerate(own_scores)
             if (lv := least[i]) != inf and sc - (rest if rest > lv else lv) == best_e]
    u = 1.0 - t
    for w, row in _change_rows(hands[best_s], need):
        for d, sc, v, nv in reach:
            x = row[d + 6]
            if x is None:  # no such change, or it makes the victim's all threes
                continue
            nw, (a, b, near) = x
            vs = a + u * b  # the victim's score after the change and its default balancing
            if near:
                vs += W_NEAR
            if sc - (rest if rest > vs else vs) == best_e:
                return (best_s, v, nv, w, nw)
    raise AssertionError("the best reply is among the flips")  # pragma: no cover


@lru_cache(maxsize=100_000)
def _own_changes(
    own: Counts, t: float, need: int
) -> tuple[tuple[tuple[int, float, int, int], ...], tuple[tuple[int, float], ...], float, tuple[tuple[int, float], ...]]:
    """For each change ``d`` a flip can make to a die of the hand ``own`` (in the order first met):
    ``(d, score, v, nv)``, the own die ``v`` turned to ``nv`` that scores best after default
    balancing (the first on a tie; ``inf`` when it makes all threes); the same changes as
    ``(d + 6, score)`` (the index of :func:`_victim_least`); the largest of those scores; and
    the same changes again from the largest score down."""
    u = 1.0 - t
    best_own: dict[int, tuple[float, int, int]] = {}  # d -> (score, v, nv)
    for v, changes in _change_parts(own, need):
        for d, nv, parts in changes:
            d = -d  # the change of the own die
            if parts is None:
                sc = math.inf
            else:
                a, b, near = parts
                sc = a + u * b
                if near:
                    sc += W_NEAR
            if d not in best_own or sc > best_own[d][0]:
                best_own[d] = (sc, v, nv)
    scores = tuple((d + 6, sc) for d, (sc, _v, _nv) in best_own.items())
    ranked = tuple(sorted(scores, key=_second, reverse=True))
    return (tuple((d, sc, v, nv) for d, (sc, v, nv) in best_own.items()), scores,
            ranked[0][1] if ranked else -math.inf, ranked)


def _second(x: tuple[int, float]) -> float:
    return x[1]


def _change_parts(h: Counts, need: int) -> tuple[tuple[int, tuple[tuple[int, int, Parts | None], ...]], ...]:
    """For each face ``w`` the hand ``h`` holds (in face order): for each new face ``nw`` (in face
    order), ``(w - nw, nw, parts)``, the parts of what the changed hand keeps after default balancing
    (``None`` when the change makes all threes)."""
    key = (h, need)
    got = _CHANGES.get(key)
    if got is None:
        out = []
        known = _VICTIM
        unset = _UNSET
        for j, w in enumerate(FACES):
            if not h[j]:
                continue
            less = _sub(h, UNIT[w])
            row = []
            for nw in FACES:
                if nw != w:
                    changed = _add(less, UNIT[nw])
                    parts = known.get((changed, need), unset)
                    if parts is unset:
                        parts = _victim_parts(changed, need)
                    row.append((w - nw, nw, parts))
            out.append((w, tuple(row)))
        got = tuple(out)
        if len(_CHANGES) >= _MEMO_CAP:
            _CHANGES.clear()
        _CHANGES[key] = got
    return got


@lru_cache(maxsize=100_000)
def _victim_least(h: Counts, t: float, need: int) -> tuple[float, ...]:
    """For each change ``d`` a flip can make to a die of the hand ``h``, at ``d + 6``: the least
    score the hand can have after it and its default balancing (a change that makes all threes
    left out); ``inf`` for a change it cannot make."""
    u = 1.0 - t
    least = [math.inf] * 13
    for _w, rows in _change_parts(h, need):
        for d, _nw, parts in rows:
            if parts is not None:
                a, b, near = parts
                vs = a + u * b
                if near:
                    vs += W_NEAR
                if vs < least[d + 6]:
                    least[d + 6] = vs
    return tuple(least)


ChangeRow = tuple["tuple[int, Parts] | None", ...]
_CHANGE_ROWS: dict[tuple[Counts, int], tuple[tuple[int, ChangeRow], ...]] = {}


def _change_rows(h: Counts, need: int) -> tuple[tuple[int, ChangeRow], ...]:
    """:func:`_change_parts` by change: for each face ``w`` the hand holds, at ``d + 6`` for each
    change ``d`` of that die, ``(nw, parts)`` (``None``: no such change, or it makes all threes)."""
    key = (h, need)
    got = _CHANGE_ROWS.get(key)
    if got is None:
        out = []
        for w, rows in _change_parts(h, need):
            row: list[tuple[int, Parts] | None] = [None] * 13
            for d, nw, parts in rows:
                if parts is not None:
                    row[d + 6] = (nw, parts)
            out.append((w, tuple(row)))
        got = tuple(out)
        if len(_CHANGE_ROWS) >= _MEMO_CAP:
            _CHANGE_ROWS.clear()
        _CHANGE_ROWS[key] = got
    return got


def _reply_value(
    hands: list[Counts], bank: int, r: int, me: int, turns: int, total_turns: int, need: int = 6,
    reverse_at: int = -1,
) -> float:
    """Seat ``r``'s turn, the value for ``me``; ``turns`` counts the turns made once it is over.

    2 players: the greedy's flip, the draw averaged, default balancing, then the leaf.
    3 or more: the :func:`playout` from ``r``'s turn on.
    """
    n = len(hands)
    if n >= 3:
        return playout(hands, r, me, turns - 1, total_turns, min(PLAYOUT_ROUNDS * n, PLAYOUT_MAX_TURNS), need, reverse_at)
    t = min(1.0, turns / total_turns)
    k = _greedy_reply(tuple(hands), min(bank, 3), r, turns - 1, total_turns, need)
    h = list(hands)
    victim = None
    if k is not None:
        h = _flipped(h, r, k)
        victim = k[0]
        won = _threes_score(h, (r, victim), me, need)
        if won is not None:
            return won
    draws: Sequence[int | None] = FACES if bank >= 1 else (None,)
    nxt = next_mover(r, turns, 2, reverse_at)
    if victim is not None:  # the victim's balancing does not depend on the draw
        ov = default_outcome(h[victim])
        h[victim] = ov.kept
        bank += ov.returned
    # before the game's last turn the leaf is the chance of winning (:func:`leaf_value`)
    chance = turns < total_turns and turns + 1 != total_turns
    left = total_turns - turns
    mine = h[r]
    if chance:  # the value then depends on the two hands and the turns left only: remembered
        key = (mine, h[1 - r], left, nxt == r, nxt == me, r == me, bank >= 1, need)
        value = _DRAW_VALUES.get(key)
        if value is None:
            value = _draw_chances(mine, h[1 - r], draws, left, nxt == r, nxt != me, WIN if r == me else -WIN, need)
            if len(_DRAW_VALUES) >= _MEMO_CAP:
                _DRAW_VALUES.clear()
            _DRAW_VALUES[key] = value
        return value
    total = 0.0
    for f in draws:
        b = bank
        c = mine
        if f is not None:
            c = _add(c, UNIT[f])
            b -= 1
            if _threes(c, need):
                total += WIN if r == me else -WIN
                continue
        o = default_outcome(c)
        h[r] = o.kept
        b += o.returned
        total += leaf_value(h, me, nxt, turns, total_turns, t, b, need)
    return total / len(draws)


def _draw_chances(mine: Counts, other: Counts, draws: Sequence[int | None], left: int, replier_next: bool,
                  against: bool, threes: float, need: int) -> float:
    """2 players, before the game's last turn: :func:`_reply_value` once the reply is played, the
    replier holding ``mine`` and the other ``other``: the replier's draw averaged (``threes``: the
    value of its all threes), its default balancing, then ``WIN * (2p - 1)``, ``p`` the chance of
    winning of the seat about to move (the replier when ``replier_next``) with ``left`` turns left
    (:func:`mover_win_chance`; ``against``: the value is for the other seat).  The same sums."""
    row = left if left <= len(LEAF_2P) else len(LEAF_2P) - (left - len(LEAF_2P)) % 2
    ko = _SIGNATURES.get(other) or _signature(other)
    total = 0.0
    for f in draws:
        c = mine
        if f is not None:
            c = _add(c, UNIT[f])
            if _threes(c, need):
                total += threes
                continue
        kept = default_outcome(c).kept
        km = _SIGNATURES.get(kept) or _signature(kept)
        p = _WIN_CHANCES.get((km, ko, row) if replier_next else (ko, km, row))
        if p is None:
            p = _chance(km, ko, row) if replier_next else _chance(ko, km, row)
        if against:
            p = 1.0 - p
        total += WIN * (2.0 * p - 1.0)
    return total / len(draws)


_DRAW_VALUES: dict[tuple[Counts, Counts, int, bool, bool, bool, bool, int], float] = {}
"""2 players, before the game's last turn: :func:`_reply_value` once the reply is played (the
replier's draw averaged, its default balancing, then the chance of winning), by the replier's hand
and the other's after the flip, the turns left, who moves next and who asks, whether the bank
holds a die, and the dice all threes needs."""


def playout(
    hands: Sequence[Counts], r: int, me: int, done: int, total: int, horizon: int, need: int = 6,
    reverse_at: int = -1,
) -> float:
    """3 or more players: the value for ``me`` when up to ``horizon`` turns are played out from
    seat ``r``'s on, ``done`` turns made before it: the final result when the game ends within
    the horizon, else :func:`evaluate` there.

    Every seat plays the flip modelled by :func:`_reply_flip` and balances to its best
    score, the victim by default; the draws are left out.  It sees who can still flip
    whom in the turns to come, which the evaluation after one reply does not.
    """
    h = list(hands)
    n = len(h)
    stop = min(total, done + horizon)
    while done < stop:
        t = (done + 1) / total
        k = _reply_flip(tuple(h), r, t, need)
        if k is not None:
            s, v, nv, w, nw = k
            h[r] = _add(h[r], _FACE_DELTA[v, nv])
            h[s] = _add(h[s], _FACE_DELTA[w, nw])
            if _threes(h[r], need) or _threes(h[s], need):
                won = _threes_score(h, (r, s), me, need)
                assert won is not None
                return won
            h[s] = default_outcome(h[s]).kept
        h[r] = own_best(h[r], t, need).kept
        done += 1
        r = (r + 1) % n if reverse_at < 0 or done < reverse_at else next_mover(r, done, n, reverse_at)
    if done >= total:
        return final_score(h, me)
    return evaluate(h, me, done / total, need)


@lru_cache(maxsize=50_000)
def _greedy_reply(
    hands: tuple[Counts, ...], bank: int, r: int, turns: int, total: int, need: int = 6
) -> FlipKind | None:
    """2 players: seat ``r``'s flip as the greedy bot would play it, ``turns`` turns made before it.

    ``bank`` may be capped at 3: the greedy score only asks whether the bank holds a die
    for the draw and two more for the no-groups pair.
    """
    t = (turns + 1) / total if total else 1.0  # the setting of :func:`_flip_setting`, no house rules
    hs = list(hands)
    setting = FlipSetting(t, 1.0 - t, hs, _NO_FIXED, (), False, need, [hand_score(h, t, need) for h in hs], 0.0,
                          bank if bank < 3 else 3, hs[r])
    kinds, _ = _scan(setting, r, _NOBODY, False)
    return kinds[0] if kinds else None


_NO_FIXED: dict[int, float] = {}
"""No seat's score fixed (never changed)."""
_NOBODY: frozenset[int] = frozenset()


# The 2-player leaf: the chance that the seat about to move wins, a logistic model of
# (b0, b_margin, b_margin_same, b_same, b_swing) per number of turns left ``R`` (1..24,
# the mover's turn included), fitted on the turn starts of 3,000 seeded greedy-vs-greedy
# games: ``python -m sixdice.lab.leaffit`` prints this table again (docs/sixdice-engine.md, *Bots*).  ``margin`` is the mover's |value| minus
# the opponent's, ``same`` is 1 when both values have the same (non-zero) sign, ``swing``
# the most the mover's flip alone can add to the margin (:func:`flip_swing`).
LEAF_2P: tuple[tuple[float, float, float, float, float], ...] = (
    (1.053, 0.893, -0.077, -0.659, 0.773),  # R=1, held-out log-loss 0.206
    (-2.072, 0.485, 0.040, 0.166, 0.162),  # R=2, held-out log-loss 0.275
    (1.888, 0.492, -0.012, -0.264, 0.341),  # R=3, held-out log-loss 0.295
    (-2.261, 0.410, -0.015, -0.295, 0.211),  # R=4, held-out log-loss 0.315
    (1.887, 0.394, -0.028, -0.523, 0.269),  # R=5, held-out log-loss 0.329
    (-2.044, 0.342, -0.047, -0.007, 0.147),  # R=6, held-out log-loss 0.352
    (2.034, 0.286, 0.029, -0.074, 0.162),  # R=7, held-out log-loss 0.357
    (-2.199, 0.272, -0.022, 0.033, 0.156),  # R=8, held-out log-loss 0.377
    (2.091, 0.266, -0.011, -0.423, 0.139),  # R=9, held-out log-loss 0.381
    (-2.328, 0.248, -0.020, -0.245, 0.185),  # R=10, held-out log-loss 0.391
    (1.947, 0.224, 0.009, -0.259, 0.123),  # R=11, held-out log-loss 0.395
    (-2.078, 0.219, -0.016, -0.024, 0.135),  # R=12, held-out log-loss 0.403
    (1.940, 0.231, -0.017, -0.550, 0.132),  # R=13, held-out log-loss 0.406
    (-1.996, 0.204, -0.013, 0.010, 0.123),  # R=14, held-out log-loss 0.415
    (1.852, 0.204, -0.004, -0.334, 0.112),  # R=15, held-out log-loss 0.414
    (-2.018, 0.176, -0.010, 0.067, 0.115),  # R=16, held-out log-loss 0.426
    (1.920, 0.207, -0.024, -0.395, 0.102),  # R=17, held-out log-loss 0.424
    (-2.074, 0.145, 0.013, -0.037, 0.122),  # R=18, held-out log-loss 0.431
    (1.792, 0.151, 0.019, -0.172, 0.081),  # R=19, held-out log-loss 0.432
    (-1.819, 0.204, -0.085, -0.281, 0.114),  # R=20, held-out log-loss 0.433
    (1.818, 0.138, 0.034, 0.048, 0.061),  # R=21, held-out log-loss 0.430
    (-1.871, 0.202, -0.066, -0.334, 0.129),  # R=22, held-out log-loss 0.432
    (1.643, 0.118, 0.077, 0.001, 0.082),  # R=23, held-out log-loss 0.439
    (-1.809, 0.108, 0.036, 0.214, 0.067),  # R=24, held-out log-loss 0.434
)


@lru_cache(maxsize=64)
def _changes(present: tuple[bool, ...], victim: bool) -> frozenset[int]:
    """The changes ``d`` a flip can make to a hand holding the faces ``present`` (the victim's as ``-d``)."""
    return frozenset((w - nw) if victim else (nw - w) for i, w in enumerate(FACES) if present[i] for nw in FACES if nw != w)


@lru_cache(maxsize=200_000)
def flip_swing(mover: Counts, other: Counts) -> int:
    """2 players: the most the mover's flip can add to ``|mover| - |other|`` (the draw left out; 0 without a flip)."""
    km = _SIGNATURES.get(mover)
    if km is None:
        km = _signature(mover)
    ko = _SIGNATURES.get(other)
    if ko is None:
        ko = _signature(other)
    return _swing(km, ko)


def _swing(km: tuple[int, int], ko: tuple[int, int]) -> int:
    """:func:`flip_swing` from the two hands' signatures (:func:`_signature`)."""
    vm, mm = km
    vo, mo = ko
    ds = _SHARED_CHANGES.get((mm, mo))
    if ds is None:
        ds = _SHARED_CHANGES[mm, mo] = tuple(sorted(
            _changes(tuple(bool(mm >> i & 1) for i in range(6)), False)
            & _changes(tuple(bool(mo >> i & 1) for i in range(6)), True)))
    if not ds:
        return 0
    # |vm + d| - |vo - d| only grows with d (when -vm < vo), only shrinks (when -vm > vo) or
    # stays (when equal): its largest over the changes is at the smallest or the largest
    lo, hi = ds[0], ds[-1]
    a = abs(vm + lo) - abs(vo - lo)
    b = abs(vm + hi) - abs(vo - hi)
    return (a if a > b else b) - abs(vm) + abs(vo)


_SHARED_CHANGES: dict[tuple[int, int], tuple[int, ...]] = {}
"""Per pair of face sets (a bit per face): the changes a flip between such hands can make, sorted."""


def mover_win_chance(mover: Counts, other: Counts, left: int) -> float:
    """2 players: the chance that the seat about to move (hand ``mover``) wins with ``left`` turns left."""
    if left > len(LEAF_2P):  # a longer game: the furthest row of the same parity
        left = len(LEAF_2P) - (left - len(LEAF_2P)) % 2
    km = _SIGNATURES.get(mover)
    if km is None:
        km = _signature(mover)
    ko = _SIGNATURES.get(other)
    if ko is None:
        ko = _signature(other)
    return _WIN_CHANCES.get((km, ko, left)) or _chance(km, ko, left)


def _chance(km: tuple[int, int], ko: tuple[int, int], row: int) -> float:
    """:func:`mover_win_chance` from the two hands' signatures (:func:`_signature`) and the row of
    :data:`LEAF_2P` (the turns left, capped), worked out and remembered."""
    b0, bm, bms, bs, bw = LEAF_2P[row - 1]
    vm, vo = km[0], ko[0]
    margin = abs(vm) - abs(vo)
    same = 1.0 if vm * vo > 0 else 0.0
    z = b0 + bm * margin + (bms * margin + bs) * same + bw * _swing(km, ko)
    p = 1.0 / (1.0 + math.exp(-z))
    if len(_WIN_CHANCES) >= _MEMO_CAP:
        _WIN_CHANCES.clear()
    _WIN_CHANCES[km, ko, row] = p
    return p


_SIGNATURES: dict[Counts, tuple[int, int]] = {}
_WIN_CHANCES: dict[tuple[tuple[int, int], tuple[int, int], int], float] = {}
""":func:`mover_win_chance` depends on the hands only through their values and the faces they hold
(:func:`flip_swing`): it is remembered per such signature and the turns left."""


def _signature(c: Counts) -> tuple[int, int]:
    """A hand's value and the faces it holds (a bit per face)."""
    sig = (_value(c), _face_mask(c))
    if len(_SIGNATURES) >= _MEMO_CAP:
        _SIGNATURES.clear()
    _SIGNATURES[c] = sig
    return sig


def leaf_value(
    hands: Sequence[Counts], me: int, mover: int, turns: int, total_turns: int, t: float, bank: int = 1,
    need: int = 6,
) -> float:
    """The value for ``me`` of a position at the start of ``mover``'s turn, ``turns`` turns made.

    2 players: the last turn of the game is searched exactly (:func:`last_turn_value`);
    before it, ``WIN * (2p - 1)`` with ``p`` my chance of winning from :func:`mover_win_chance`;
    more players: :func:`evaluate` at game share ``t``.
    """
    if len(hands) != 2 or turns >= total_turns:
        return evaluate(hands, me, t, need)
    if turns + 1 == total_turns:
        return last_turn_memo(tuple(hands), min(bank, 1), mover, me, need)
    p = mover_win_chance(hands[mover], hands[1 - mover], total_turns - turns)
    if mover != me:
        p = 1.0 - p
    return WIN * (2.0 * p - 1.0)


@lru_cache(maxsize=50_000)
def final_best(c: Counts) -> Counts:
    """The balanced hand with the largest absolute value (the best balancing on the last turn)."""
    return max((o.kept for o in balance_outcomes(c)), key=lambda k: abs(_value(k)))


@lru_cache(maxsize=50_000)
def last_turn_memo(hands: tuple[Counts, ...], bank: int, r: int, me: int, need: int = 6,
                   bonus: tuple[float, ...] = ()) -> float:
    """:func:`last_turn_value`, remembered (``bank`` may be capped at 1: only a draw or none matters)."""
    return last_turn_value(hands, bank, r, me, need, bonus)


def last_turn_value(hands: Sequence[Counts], bank: int, r: int, me: int, need: int = 6,
                    bonus: Sequence[float] = ()) -> float:
    """The last turn of the game, seat ``r`` moving: the expected final result for ``me``.

    Seat ``r`` plays the flip with the best expected result for itself over every
    distinct flip, its draw (six faces; none on an empty bank) and its balancing to
    the largest absolute value; the victim balances by default.  The no-groups pair
    adds no value, so it is left out.  Exact for this model of the victim's balancing.
    """
    draws: Sequence[int | None] = FACES if bank >= 1 else (None,)
    kinds: list[FlipKind | None] = list(flip_kinds(hands, r)) or [None]
    own: dict[tuple[int, int], list[Counts | None]] = {}
    vict: dict[tuple[int, int, int], Counts] = {}
    add = list(bonus) if bonus else [0.0] * len(hands)  # the compensation of each seat
    base = [abs(_value(h)) + add[s] for s, h in enumerate(hands)]
    best_r = -math.inf
    best_me = 0.0
    for k in kinds:
        h = list(hands)
        vals = list(base)
        if k is not None:
            s, v, nv, w, nw = k
            h = _flipped(hands, r, k)
            won = _threes_score(h, (r, s), r, need)
            if won is not None:
                mine = _threes_score(h, (r, s), me, need)
                if won > best_r:
                    best_r, best_me = won, (mine if mine is not None else -WIN)
                continue
            vk = vict.get((s, w, nw))
            if vk is None:
                vk = vict[s, w, nw] = default_outcome(h[s]).kept
            vals[s] = abs(_value(vk)) + add[s]
            key = (v, nv)
        else:
            key = (0, 0)
        outs = own.get(key)
        if outs is None:
            outs = []
            for f in draws:
                c = h[r] if f is None else _add(h[r], UNIT[f])
                outs.append(None if _threes(c, need) else final_best(c))
            own[key] = outs
        acc_r = acc_me = 0.0
        for o in outs:
            if o is None:
                acc_r += WIN
                acc_me += WIN if me == r else -WIN
                continue
            vals[r] = abs(_value(o)) + add[r]
            top = max(vals)
            k_top = vals.count(top)
            acc_r += WIN / k_top if vals[r] == top else -WIN
            acc_me += WIN / k_top if vals[me] == top else -WIN
        if acc_r > best_r * len(outs):
            best_r, best_me = acc_r / len(outs), acc_me / len(outs)
    return best_me


def strong_flip_value(pos: Pos, m: int, k: FlipKind) -> float:
    """Expectimax for the mover ``m``'s flip ``k``: my draw (6 faces), my best balancing, the
    victim's defaults, then the next seat's reply with its draw (6 faces); the round limit is
    scored exactly."""
    hands = _flipped(pos.hands, m, k)
    victim = k[0]
    need = pos.need
    won = _threes_score(hands, (m, victim), m, need)
    if won is not None:
        return won
    t1 = (pos.turns + 1) / pos.total
    last = pos.turns + 1 >= pos.total
    draws: Sequence[int | None] = FACES if pos.bank >= 1 else (None,)
    total = 0.0
    nxt = pos.after(m, pos.turns + 1)
    ov = default_outcome(hands[victim])  # the victim's balancing: the same for every draw and pair
    for f in draws:
        h = list(hands)
        bank = pos.bank
        if f is not None:
            h[m] = _add(h[m], UNIT[f])
            bank -= 1
            if _threes(h[m], need):
                total += WIN
                continue
        o = own_best(h[m], t1, need)
        h[m] = o.kept
        bank += o.returned
        pairs: Sequence[int | None] = (1, 2, 3) if (o.needs_pair and bank >= 2) else (None,)
        sub = 0.0
        for mag in pairs:
            h2 = list(h)
            b = bank
            if mag is not None:
                h2[m] = _add(o.kept, _add(UNIT[mag], UNIT[-mag]))
                b -= 2
            h2[victim] = ov.kept
            b += ov.returned
            if last:
                sub += final_score(h2, m, pos.bonus)
            elif pos.turns + 2 >= pos.total:
                sub += last_turn_memo(tuple(h2), min(b, 1), nxt, m, need, pos.bonus)
            else:
                sub += _reply_value(h2, b, nxt, m, pos.turns + 2, pos.total, need, pos.reverse_at)
        total += sub / len(pairs)
    return total / len(draws)


def strong_kept_value(st: State, pos: Pos, seat: int, kept: Counts) -> float:
    """Expectimax after ``seat`` balances to ``kept``: the no-groups pair (3 magnitudes), the
    victim's defaults when ``seat`` is the mover, then the next seat's reply (its draw averaged)."""
    hands = list(pos.hands)
    bank = pos.bank + sum(hands[seat]) - sum(kept)
    hands[seat] = kept
    m = st.current if st.current is not None else seat
    victims = [st.victim] if (seat == m and st.victim is not None and st.victim != seat) else []
    turns = pos.turns + 1
    pairs: Sequence[int | None] = (1, 2, 3) if (not _has_group_after(kept) and bank >= 2) else (None,)
    total = 0.0
    nxt = pos.after(m, turns)
    for mag in pairs:
        h = list(hands)
        b = bank
        if mag is not None:
            h[seat] = _add(kept, _add(UNIT[mag], UNIT[-mag]))
            b -= 2
        for v in victims:
            ov = default_outcome(h[v])
            h[v] = ov.kept
            b += ov.returned
        if turns >= pos.total:
            total += final_score(h, seat, pos.bonus)
        elif nxt == seat:
            total += leaf_value(h, seat, seat, turns, pos.total, turns / pos.total, b, pos.need)
        elif turns + 1 >= pos.total:
            total += last_turn_memo(tuple(h), min(b, 1), nxt, seat, pos.need, pos.bonus)
        else:
            total += _reply_value(h, b, nxt, seat, turns + 1, pos.total, pos.need, pos.reverse_at)
    return total / len(pairs)


def _has_group_after(kept: Counts) -> bool:
    """A balanced hand holding both colours holds a group; one of one colour holds none."""
    return bool(kept[0] + kept[1] + kept[2]) and bool(kept[3] + kept[4] + kept[5])


@dataclass(frozen=True)
class Hint:
    """A strong bot's suggestion: the action and its estimated value, and the options searched."""

    action: Action
    value: float  # shown to players: the expected lead over the best opponent one ply on (WIN: a win at once)
    greedy_value: float  # the one-ply (greedy) score of the same action (the same number as ``value``)
    candidates: tuple[tuple[Action, float], ...]  # every option searched, with its search value
    search_value: float = 0.0  # the search's value of the action (2 players: WIN * (2p - 1), p the chance of winning)


def strong_search(
    st: State,
    *,
    budget: int = STRONG_BUDGET,
    time_cap: float | None = STRONG_TIME_CAP,
) -> Hint | None:
    """Expectimax over the bank draws for the greedy's ``budget`` best options.

    The options are searched in the greedy's order; the best expectimax value
    wins (ties: the greedy's order).  During the start (round 0), with one
    option, or when an option wins at once, the greedy's choice stands.
    ``time_cap`` (seconds) stops the search early on a very slow machine,
    after at least two options; the tests never rely on it.
    """
    if not is_decision(st):
        return None
    pos = Pos.of(st)
    asked = budget
    if len(st.hands) >= BIG_TABLE:
        budget = max(2, budget // 2)
    if len(st.hands) == 2 and pos.turns + 2 >= pos.total:
        budget = max(budget, STRONG_ENDGAME_BUDGET)  # the last two turns are searched exactly: widen
    opts = _top_options(st, max(2, budget))  # only the options searched are built
    if not opts:
        return None
    p = st.pending
    assert p is not None
    first = opts[0]
    if len(opts) == 1 or first.score >= WIN or st.round == 0 or asked <= 1:
        return Hint(first.action, first.score, first.score, ((first.action, first.score),), first.score)
    deadline = time.perf_counter() + time_cap if time_cap else None
    searched: list[tuple[Option, float]] = []
    for o in opts[:budget]:
        if o.kind is not None:
            v = strong_flip_value(pos, p.seat, o.kind)
        else:
            assert o.kept is not None
            v = strong_kept_value(st, pos, p.seat, o.kept)
        searched.append((o, v))
        if deadline is not None and len(searched) >= 2 and time.perf_counter() > deadline:
            break
    best_o, best_v = searched[0]
    for o, v in searched[1:]:
        if v > best_v:
            best_o, best_v = o, v
    # The value shown is the one-ply expected lead, WIN for a win at once (the search's own value is a
    # chance of winning with 2 players, and the final result near the end: not a lead).
    return Hint(best_o.action, best_o.score, best_o.score, tuple((o.action, v) for o, v in searched), best_v)


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
    budget: int = STRONG_BUDGET,
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
        return greedy_action(st)
    hint = strong_search(st, budget=budget, time_cap=time_cap)
    assert hint is not None
    return hint.action


class Bot:
    """A bot with its own ``random.Random``: ``Bot("strong", seed=7).act(state)``."""

    def __init__(
        self,
        strength: str = "greedy",
        seed: int | str | None = 0,
        *,
        budget: int = STRONG_BUDGET,
        time_cap: float | None = STRONG_TIME_CAP,
    ) -> None:
        if strength not in STRENGTHS:
            raise ValueError(f"Unknown bot strength {strength!r}; expected one of {', '.join(STRENGTHS)}.")
        self.strength = strength
        self.rng = random.Random(seed)
        self.budget = budget
        self.time_cap = time_cap

    def act(self, st: State) -> Action:
        return bot_action(st, self.strength, self.rng, budget=self.budget, time_cap=self.time_cap)


def hint(st: State, *, budget: int = STRONG_BUDGET, time_cap: float | None = STRONG_TIME_CAP) -> Hint | None:
    """The strong bot's suggestion for the pending decision (the same hint for the same state)."""
    if not is_decision(st):
        return None
    return strong_search(st, budget=budget, time_cap=time_cap)


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


