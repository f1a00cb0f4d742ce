"""Exact two-player solver: the win probability of every pair of hands.

The state is ``(mine, theirs)`` with *me* about to roll; 21 hands per side
(the empty hand and the 20 straights that are not full).  With ``V`` the
probability that the roller wins when both maximise their own chance::

    V(a, b) = sum over rolls r of p(r) * max over a' in options(r, a) of
              (1 if a' is full else 1 - V(b', a'))

where ``b' = ()`` when ``r`` busts ``b`` (busting before building, B2) and
``options`` is ``[a]`` when no die can be added.  Only the *set* of values
rolled matters, so each roll of ``n`` dice is reduced to its bit mask with
exact multinomial probabilities, and rolls giving the same (bust, options)
are merged.

The fixed point is found by Gauss-Seidel sweeps in order of decreasing total
hand length (a hand only grows, except when busted, so most successors are
already fresh), solving the "nobody can move" two-cycles
``(a, b) <-> (b, a)`` exactly, until no value moves by more than 1e-12.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from .straights import FULL, HANDS, Straight, _options, as_hand, busts, hand_options, mask_of, roll_masks

N = len(HANDS)
INDEX: dict[Straight, int] = {h: i for i, h in enumerate(HANDS)}
TOLERANCE = 1e-12


_Entry = tuple[float, bool, tuple[int, ...]]  # (p, busted, option indices)
_Transition = tuple[float, float, tuple[_Entry, ...]]  # (p_win, p_stay, entries)


def _transitions() -> list[_Transition]:
    """Per state ``i * N + j``: (p_win, p_stay, entries) with entries
    ``(p, busted, option indices)`` for rolls that do not win at once."""
    table: list[_Transition] = []
    for i, a in enumerate(HANDS):
        dist = [(m, float(p)) for m, p in roll_masks(6 - len(a))]
        for b in HANDS:
            need = mask_of(b) ^ 0b111111 if b else None
            win = 0.0
            stay = 0.0
            merged: dict[tuple[bool, tuple[int, ...]], float] = {}
            key: tuple[bool, tuple[int, ...]]
            for m, p in dist:
                bust = need is not None and (m & need) == need
                opts = _options(m, a)
                if FULL in opts:
                    win += p
                    continue
                if not opts:
                    if not bust:
                        stay += p
                        continue
                    key = (True, (i,))
                else:
                    key = (bust, tuple(INDEX[o] for o in opts))
                merged[key] = merged.get(key, 0.0) + p
            entries = tuple((p, bust, opts) for (bust, opts), p in merged.items())
            table.append((win, stay, entries))  # lands at index i * N + j (j: the index of b)
    return table


def _order() -> list[tuple[int, int]]:
    """Unordered pairs {a, b} by decreasing total length."""
    pairs = [(i, j) for i in range(N) for j in range(i, N)]
    pairs.sort(key=lambda ij: -(len(HANDS[ij[0]]) + len(HANDS[ij[1]])))
    return pairs


def solve(tolerance: float = TOLERANCE, max_sweeps: int = 10_000) -> tuple[list[float], int]:
    """Solve the game; returns (values indexed ``i * N + j``, sweeps used)."""
    table = _transitions()
    order = _order()
    V = [0.5] * (N * N)

    def partial(i: int, j: int) -> tuple[float, float]:
        win, stay, entries = table[i * N + j]
        c = win
        for p, bust, opts in entries:
            base = 0 if bust else j * N  # the opponent's hand after my roll
            best = 0.0
            for o in opts:
                v = 1.0 - V[base + o]
                if v > best:
                    best = v
            c += p * best
        return c, stay

    sweeps = 0
    while True:
        sweeps += 1
        delta = 0.0
        for i, j in order:
            c1, q1 = partial(i, j)
            if i == j:
                new1 = (c1 + q1) / (1.0 + q1)
                d = abs(new1 - V[i * N + i])
                V[i * N + i] = new1
                if d > delta:
                    delta = d
                continue
            c2, q2 = partial(j, i)
            # V1 = c1 + q1 (1 - V2), V2 = c2 + q2 (1 - V1)
            new1 = (c1 + q1 - q1 * c2 - q1 * q2) / (1.0 - q1 * q2)
            new2 = c2 + q2 * (1.0 - new1)
            d = max(abs(new1 - V[i * N + j]), abs(new2 - V[j * N + i]))
            V[i * N + j] = new1
            V[j * N + i] = new2
            if d > delta:
                delta = d
        if delta < tolerance or sweeps >= max_sweeps:
            return V, sweeps


@lru_cache(maxsize=1)
def _table() -> tuple[float, ...]:
    values, _ = solve()
    return tuple(values)


def win_probability(hand: Iterable[int] = (), opponent_hand: Iterable[int] = ()) -> float:
    """Probability that the player about to roll, holding ``hand``, wins
    against ``opponent_hand`` when both play to maximise their own chance.

    A full ``hand`` has already won (1.0); a full opponent hand has (0.0).
    """
    a, b = as_hand(hand), as_hand(opponent_hand)
    if len(a) == 6:
        return 1.0
    if len(b) == 6:
        return 0.0
    return _table()[INDEX[a] * N + INDEX[b]]


def rank_options(
    hand: Iterable[int], opponent_hand: Iterable[int], roll: Iterable[int]
) -> list[tuple[Straight, float]]:
    """Every option for ``roll`` with the roller's win probability, best first.

    The roll busts the opponent first (B2), so a busted opponent counts as
    holding ``()``.  When no die can be added the only entry is the kept hand.
    Ties keep the sorted order of the options.
    """
    a, b = as_hand(hand), as_hand(opponent_hand)
    r = tuple(roll)
    if busts(r, b):
        b = ()
    opts = hand_options(r, a) or [a]
    scored = [(o, 1.0 if len(o) == 6 else 1.0 - win_probability(b, o)) for o in opts]
    scored.sort(key=lambda t: -t[1])
    return scored


def best_option(hand: Iterable[int], opponent_hand: Iterable[int], roll: Iterable[int]) -> Straight:
    """The optimal straight to hold after ``roll`` (two players)."""
    return rank_options(hand, opponent_hand, roll)[0][0]
