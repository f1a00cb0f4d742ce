"""Straights, complements, busting and building: the arithmetic of Run Buster.

A straight is a tuple of consecutive values in 1..6, e.g. ``(2, 3, 4)``; the
empty tuple is the empty hand.  Everything here is pure and deterministic;
randomness only enters through :func:`roll_dice`, which takes its ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

VALUES = (1, 2, 3, 4, 5, 6)
FULL: tuple[int, ...] = VALUES
Straight = tuple[int, ...]

#: Every straight, the full one included, in sorted order (21 of them).
STRAIGHTS: tuple[Straight, ...] = tuple(
    sorted(tuple(range(lo, hi + 1)) for lo in VALUES for hi in VALUES if hi >= lo)
)
#: Every hand a player can hold while still playing: the empty hand and the
#: 20 straights that are not full (21 hands).
HANDS: tuple[Straight, ...] = ((),) + tuple(s for s in STRAIGHTS if s != FULL)


def is_straight(values: Iterable[int]) -> bool:
    """``True`` for a non-empty run of consecutive values in 1..6."""
    s = tuple(values)
    return bool(s) and all(v in VALUES for v in s) and s == tuple(range(s[0], s[0] + len(s)))


def as_hand(values: Iterable[int]) -> Straight:
    """Normalise ``values`` to a hand (empty or a straight); ``ValueError`` otherwise."""
    s = tuple(int(v) for v in values)
    if s and not is_straight(s):
        raise ValueError(f"{list(s)} is not a straight.")
    return s


def mask_of(values: Iterable[int]) -> int:
    """The set of distinct values as a bit mask (bit ``v - 1`` for value ``v``)."""
    m = 0
    for v in values:
        m |= 1 << (v - 1)
    return m


def complement(straight: Iterable[int]) -> Straight:
    """The values that complete ``straight`` to the full straight.

    ``complement((2, 3, 4)) == (1, 5, 6)``.  The empty hand has no complement
    (ruling B1) and the full straight needs nothing: both give ``()``.
    """
    s = set(straight)
    if not s:
        return ()
    return tuple(v for v in VALUES if v not in s)


def busts(roll: Iterable[int], straight: Iterable[int]) -> bool:
    """Whether ``roll`` contains the complement of ``straight`` (each missing value once).

    An empty hand is never busted (B1); a full straight has finished and is
    never busted either.
    """
    s = tuple(straight)
    if not s or len(s) >= 6:
        return False
    return set(complement(s)) <= set(roll)


@lru_cache(maxsize=4096)
def _options(mask: int, hand: Straight) -> tuple[Straight, ...]:
    if not hand:
        out = []
        for s in STRAIGHTS:
            if mask_of(s) & mask == mask_of(s):
                out.append(s)
        return tuple(out)
    lo, hi = hand[0], hand[-1]
    out = []
    for s in STRAIGHTS:
        if s[0] <= lo and s[-1] >= hi and len(s) > len(hand):
            extra = mask_of(s) & ~mask_of(hand)
            if extra & mask == extra:
                out.append(s)
    return tuple(out)


def hand_options(roll: Iterable[int], hand: Iterable[int] = ()) -> list[Straight]:
    """The straights a player may hold after rolling ``roll``, sorted.

    With an empty hand: every straight formed from the rolled values.  With a
    straight: every longer straight containing it whose new values were all
    rolled.  ``[]`` when no die can be added (the hand stays as it is).
    """
    h = as_hand(hand)
    if len(h) >= 6:
        return []
    return list(_options(mask_of(roll), h))


def roll_dice(rng: random.Random, n: int) -> list[int]:
    """Roll ``n`` dice with the given random generator."""
    return [rng.randint(1, 6) for _ in range(n)]


def cup_size(hand: Iterable[int]) -> int:
    """How many dice are in the cup of a player holding ``hand``."""
    return 6 - len(tuple(hand))


@lru_cache(maxsize=8)
def roll_masks(n: int) -> tuple[tuple[int, Fraction], ...]:
    """Exact distribution of the set of distinct values rolled with ``n`` dice.

    Built from the multisets of values (combinations with replacement) with
    multinomial weights; returns ``(mask, probability)`` pairs, probabilities
    as exact fractions summing to 1.
    """
    if n < 0 or n > 6:
        raise ValueError("between 0 and 6 dice")
    total = 6**n
    acc: dict[int, int] = {}
    for combo in combinations_with_replacement(VALUES, n):
        ways = factorial(n)
        for v in set(combo):
            ways //= factorial(combo.count(v))
        m = mask_of(combo)
        acc[m] = acc.get(m, 0) + ways
    return tuple(sorted((m, Fraction(w, total)) for m, w in acc.items()))


@lru_cache(maxsize=256)
def bust_chance(n: int, straight: Straight) -> float:
    """Probability that a roll of ``n`` dice busts ``straight``."""
    if not straight or len(straight) >= 6:
        return 0.0
    need = mask_of(complement(straight))
    return float(sum(p for m, p in roll_masks(n) if m & need == need))
