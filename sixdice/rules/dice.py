"""Faces, the 13 minimal zero-sum groups, count vectors and dice notation."""

from __future__ import annotations

from collections.abc import Iterable

from sixdice.gamekit.notation import signed

FACES: tuple[int, ...] = (-3, -2, -1, 1, 2, 3)
"""The six faces in ascending order: red (negative) −3, −2, −1, then blue +1, +2, +3."""

FACE_SET = frozenset(FACES)
FACE_INDEX: dict[int, int] = {v: i for i, v in enumerate(FACES)}

ZERO_GROUPS: tuple[tuple[int, ...], ...] = (
    (3, -3),
    (2, -2),
    (1, -1),
    (3, -2, -1),
    (-3, 2, 1),
    (2, -1, -1),
    (-2, 1, 1),
    (3, -1, -1, -1),
    (-3, 1, 1, 1),
    (2, 2, -3, -1),
    (-2, -2, 3, 1),
    (3, 3, -2, -2, -2),
    (-3, -3, 2, 2, 2),
)
"""The 13 minimal zero-sum groups, in the order and the spelling of the spec (the greedy order)."""

Counts = tuple[int, int, int, int, int, int]
"""How many dice of each face, in the order of :data:`FACES`."""


def counts_of(dice: Iterable[int]) -> Counts:
    c = [0, 0, 0, 0, 0, 0]
    for v in dice:
        c[FACE_INDEX[v]] += 1
    return (c[0], c[1], c[2], c[3], c[4], c[5])


def dice_of(counts: Counts) -> tuple[int, ...]:
    """The dice of a count vector, in face order (the inverse of :func:`counts_of`)."""
    out: list[int] = []
    for v, n in zip(FACES, counts, strict=True):
        out.extend([v] * n)
    return tuple(out)


GROUP_COUNTS: tuple[Counts, ...] = tuple(counts_of(g) for g in ZERO_GROUPS)
ZERO_GROUP_INDEX: dict[Counts, int] = {c: i for i, c in enumerate(GROUP_COUNTS)}

def fmt_dice(dice: Iterable[int]) -> str:
    return " ".join(signed(v) for v in dice)


def fmt_group(group: Iterable[int]) -> str:
    return f"({fmt_dice(group)})"
