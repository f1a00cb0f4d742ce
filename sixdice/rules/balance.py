"""Balancing a hand (steps 1-3 of the spec), flips and the all-threes test.

Everything works on count vectors (how many dice of each face), so the
search for every legal grouping stays fast for large hands; results are
memoised on those count vectors.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from sixdice.gamekit.notation import Part, Refusal, gettext_noop, ngettext, part

from .dice import (
    FACE_SET,
    FACES,
    GROUP_COUNTS,
    ZERO_GROUP_INDEX,
    ZERO_GROUPS,
    Counts,
    counts_of,
    fmt_dice,
    fmt_group,
)


class IllegalGrouping(Refusal):
    """A grouping that the rules do not allow; the message says why.

    ``msgid`` and ``params`` give the message for translation (see
    :class:`sixdice.gamekit.notation.Refusal`); ``str()`` is the English sentence.
    """


@dataclass(frozen=True)
class Grouping:
    """A balanced hand before the keep step: zero-sum groups, non-zero pairs, loose dice.

    Canonical form (what :func:`group_hand`, :func:`groupings` and
    :func:`check_grouping` return): zero-sum groups in the order of
    :data:`ZERO_GROUPS`, each spelled exactly as there; pairs written
    ``(blue, red)`` and ordered as R6 pairs them (the smaller colour's dice
    largest first, then the partner largest first); loose dice largest first.
    """

    zero_groups: tuple[tuple[int, ...], ...] = ()
    pairs: tuple[tuple[int, int], ...] = ()
    loose: tuple[int, ...] = ()

    @property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """Zero-sum groups then pairs: the grouping order used by R7 and by keep indices."""
        return self.zero_groups + self.pairs

    def dice(self) -> tuple[int, ...]:
        out: list[int] = []
        for g in self.groups:
            out.extend(g)
        out.extend(self.loose)
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "zero_groups": [list(g) for g in self.zero_groups],
            "pairs": [list(p) for p in self.pairs],
            "loose": list(self.loose),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Grouping:
        return cls(
            tuple(tuple(g) for g in d.get("zero_groups", ())),
            tuple((p[0], p[1]) for p in d.get("pairs", ())),
            tuple(d.get("loose", ())),
        )

    def __str__(self) -> str:
        parts = "".join(fmt_group(g) for g in self.groups)
        if self.loose:
            parts += (" " if parts else "") + fmt_dice(self.loose)
        return parts or "(no dice)"


def _sub(c: Counts, g: Counts, k: int = 1) -> Counts:
    return (
        c[0] - k * g[0],
        c[1] - k * g[1],
        c[2] - k * g[2],
        c[3] - k * g[3],
        c[4] - k * g[4],
        c[5] - k * g[5],
    )


_NONZERO = tuple(tuple((i, g[i]) for i in range(6) if g[i]) for g in GROUP_COUNTS)


def _fits_i(c: Counts, gi: int) -> int:
    best = 1 << 30
    for i, n in _NONZERO[gi]:
        k = c[i] // n
        if k < best:
            best = k
    return best


@lru_cache(maxsize=200_000)
def _best_from(i: int, c: Counts) -> int:
    """The largest number of zero-sum groups formed from ``c`` with group kinds ``i..12``."""
    if i == 0:
        return _most_groups(c)
    if i < 3:  # the pairs' kinds are still open: the most groups with every kind bounds it
        bound = _most_groups(c)
    else:
        red = c[0] + c[1] + c[2]
        blue = c[3] + c[4] + c[5]
        bound = red if red < blue else blue  # every group holds a die of each colour
    if bound == 0:
        return 0
    top = 0
    while i < 13:  # a kind that does not fit adds nothing: on to the first that does
        top = _fits_i(c, i)
        if top:
            break
        i += 1
    if i == 13:
        return 0
    g = GROUP_COUNTS[i]
    best = 0
    for k in range(top, -1, -1):
        if k + bound <= best:  # what is left cannot do better
            break
        n = k + _best_from(i + 1, _sub(c, g, k))
        if n > best:
            best = n
            if best >= bound:
                break
    return best


def _most_groups(c: Counts) -> int:
    """The largest number of zero-sum groups formed from ``c`` (every kind open).

    Some largest grouping holds every pair ``(m, -m)`` the hand can form: in a largest grouping
    where an ``m`` and a ``-m`` are not paired, pairing them and regrouping the rest of their two
    groups (a zero-sum rest: one group at least) loses none.  So the pairs come first and the rest,
    of one colour per magnitude, is searched with the other kinds (few such rests: remembered).
    """
    p3 = c[0] if c[0] < c[5] else c[5]
    p2 = c[1] if c[1] < c[4] else c[4]
    p1 = c[2] if c[2] < c[3] else c[3]
    return p3 + p2 + p1 + _best_from(3, (c[0] - p3, c[1] - p2, c[2] - p1, c[3] - p1, c[4] - p2, c[5] - p3))


def max_zero_groups(dice: Iterable[int]) -> int:
    """The largest possible number of zero-sum groups in a hand (R5)."""
    return _best_from(0, counts_of(dice))


def _greedy_counts(c: Counts) -> tuple[tuple[int, ...], Counts]:
    ks = []
    for gi, g in enumerate(GROUP_COUNTS):
        k = _fits_i(c, gi)
        if k:
            c = _sub(c, g, k)
        ks.append(k)
    return tuple(ks), c


@lru_cache(maxsize=20_000)
def _zero_groups_of(ks: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The zero-sum groups of ``ks[i]`` groups of each kind ``i`` (few distinct: remembered)."""
    out: list[tuple[int, ...]] = []
    for k, g in zip(ks, ZERO_GROUPS, strict=True):
        out.extend([g] * k)
    return tuple(out)


def _colours(rest: Counts) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(blue counts of 1,2,3), (red counts of magnitude 1,2,3)."""
    return (rest[3], rest[4], rest[5]), (rest[2], rest[1], rest[0])


def _pair(minority_is_red: bool, a: int, b: int) -> tuple[int, int]:
    """Pair of a minority die of magnitude a with a majority die of magnitude b, written (blue, red)."""
    return (b, -a) if minority_is_red else (a, -b)


def _loose_of(blue: Sequence[int], red: Sequence[int]) -> tuple[int, ...]:
    out: list[int] = []
    for m in (3, 2, 1):
        out.extend([m] * blue[m - 1])
    for m in (3, 2, 1):
        out.extend([-m] * red[m - 1])
    return tuple(out)


def _default_pairing(rest: Counts) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    blue, red = _colours(rest)
    nb, nr = sum(blue), sum(red)
    if not nb or not nr:
        return (), _loose_of(blue, red)
    minority_is_red = nr <= nb
    mino, majo = (list(red), list(blue)) if minority_is_red else (list(blue), list(red))
    mino_list = [m for m in (3, 2, 1) for _ in range(mino[m - 1])]
    majo_list = [m for m in (3, 2, 1) for _ in range(majo[m - 1])]
    pairs = tuple(_pair(minority_is_red, a, b) for a, b in zip(mino_list, majo_list, strict=False))
    left = majo_list[len(mino_list) :]
    loose = tuple(left) if minority_is_red else tuple(-m for m in left)
    return pairs, loose


@lru_cache(maxsize=20_000)
def _all_pairings(rest: Counts) -> tuple[tuple[tuple[tuple[int, int], ...], tuple[int, ...]], ...]:
    """Every R6 pairing of the dice ``rest`` left after the zero-sum groups, with the loose dice
    (remembered: the same rest comes back from many hands)."""
    blue, red = _colours(rest)
    nb, nr = sum(blue), sum(red)
    if not nb or not nr:
        return (((), _loose_of(blue, red)),)
    minority_is_red = nr <= nb
    mino, majo = (red, blue) if minority_is_red else (blue, red)
    results: list[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = []
    _pairings_from(3, list(majo), [], mino, minority_is_red, results)
    return tuple(results)


# The searches below are module functions, not nested closures that call themselves: a closure that
# refers to itself is a reference cycle, left for the garbage collector at every call (a busy server
# balancing many hands paid for it in long collector passes; docs/performance.md).
def _pairings_from(
    a: int, avail: list[int], acc: list[tuple[int, int]], mino: Sequence[int], minority_is_red: bool,
    results: list[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]],
) -> None:
    """Distribute the minority dice of magnitude ``a`` (3, 2, 1) over the majority magnitudes 3, 2, 1."""
    if a == 0:
        left = [m for m in (3, 2, 1) for _ in range(avail[m - 1])]
        loose = tuple(left) if minority_is_red else tuple(-m for m in left)
        results.append((tuple(_pair(minority_is_red, x, y) for x, y in acc), loose))
        return
    _pairings_dist(a, 3, mino[a - 1], avail, acc, mino, minority_is_red, results)


def _pairings_dist(
    a: int, b: int, need: int, avail: list[int], acc: list[tuple[int, int]], mino: Sequence[int],
    minority_is_red: bool, results: list[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]],
) -> None:
    if need == 0:
        _pairings_from(a - 1, avail, acc, mino, minority_is_red, results)
        return
    if b == 0:
        return
    top = min(need, avail[b - 1])
    for k in range(top, -1, -1):
        if b == 1 and k != need:
            continue
        av = avail.copy()
        av[b - 1] -= k
        _pairings_dist(a, b - 1, need - k, av, acc + [(a, b)] * k, mino, minority_is_red, results)


def _grouping_from(ks: Sequence[int], rest: Counts) -> Grouping:
    pairs, loose = _default_pairing(rest)
    return Grouping(_zero_groups_of(tuple(ks)), pairs, loose)


@lru_cache(maxsize=100_000)
def _group_counts(c: Counts) -> Grouping:
    ks, rest = _greedy_counts(c)
    return _grouping_from(ks, rest)


def group_hand(dice: Iterable[int]) -> Grouping:
    """The default grouping (R5 greedy zero-sum groups, then R6 largest-first pairs)."""
    return _group_counts(counts_of(dice))


GROUPINGS_TABLE: dict[Counts, tuple[Grouping, ...]] = {}
"""Every legal grouping of many hands, found once (the laboratory installs them: ``sixdice.lab.outcomes``).

:func:`groupings` reads it before searching.  Empty unless someone installs a table; its
entries equal what the search finds, so results never change."""


@lru_cache(maxsize=20_000)
def _groupings_counts(c: Counts) -> tuple[Grouping, ...]:
    known = GROUPINGS_TABLE.get(c)
    if known is not None:
        return known
    return _search_groupings(c)


def _search_groupings(c: Counts) -> tuple[Grouping, ...]:
    """Every legal grouping of the hand ``c``, the default first (always searched: no table, no memo)."""
    found = [
        Grouping(_zero_groups_of(ks), pairs, loose)
        for ks, rest in _ks_from(0, c, _best_from(0, c))
        for pairs, loose in _all_pairings(rest)
    ]
    default = _group_counts(c)
    rest = [g for g in found if g != default]
    return (default, *rest)


_NO_KINDS: tuple[tuple[int, ...], ...] = tuple((0,) * (len(GROUP_COUNTS) - i) for i in range(len(GROUP_COUNTS) + 1))
"""``_NO_KINDS[i]``: no group of the kinds ``i`` to 12."""


@lru_cache(maxsize=100_000)
def _ks_from(i: int, c: Counts, left: int) -> tuple[tuple[tuple[int, ...], Counts], ...]:
    """Every way to take ``left`` more zero-sum groups from ``c`` with the group kinds ``i`` to 12, in
    the search's order (the most of each kind first): the number of groups of each of those kinds
    and the dice left.  Remembered: what is left of a hand once some groups are taken comes back
    from many hands."""
    if left == 0:
        return ((_NO_KINDS[i], c),)
    j = i
    while j < len(GROUP_COUNTS) and not _fits_i(c, j):  # a kind that does not fit: none of it, nothing to check
        j += 1
    if j == len(GROUP_COUNTS):
        return ()
    skip = _NO_KINDS[len(GROUP_COUNTS) - (j - i)]
    g = GROUP_COUNTS[j]
    out: list[tuple[tuple[int, ...], Counts]] = []
    for k in range(min(_fits_i(c, j), left), -1, -1):
        c2 = _sub(c, g, k)
        if k + _best_from(j + 1, c2) >= left:
            for ks, rest in _ks_from(j + 1, c2, left - k):
                out.append(((*skip, k, *ks), rest))
    return tuple(out)


@lru_cache(maxsize=20_000)
def _groupings_set(c: Counts) -> frozenset[Grouping]:
    return frozenset(_groupings_counts(c))


def is_listed_grouping(dice: Iterable[int], grouping: Grouping) -> bool:
    """Whether ``grouping`` (in canonical form) is one of :func:`groupings` (a fast legality test)."""
    return grouping in _groupings_set(counts_of(dice))


def groupings(dice: Iterable[int]) -> list[Grouping]:
    """Every legal grouping (R5 and R6) of a hand, the default first, without duplicates."""
    return list(_groupings_counts(counts_of(dice)))


def _zero_subset(group: Sequence[int]) -> tuple[int, ...] | None:
    for size in range(2, len(group)):
        for sub in combinations(group, size):
            if sum(sub) == 0:
                return sub
    return None


def _multiset_diff(a: Sequence[int], b: Sequence[int]) -> tuple[list[int], list[int]]:
    ca, cb = counts_of(a), counts_of(b)
    missing: list[int] = []
    extra: list[int] = []
    for v, x, y in zip(FACES, ca, cb, strict=True):
        if x > y:
            missing.extend([v] * (x - y))
        elif y > x:
            extra.extend([v] * (y - x))
    return missing, extra


NOT_A_FACE = gettext_noop("%(where)s: %(value)s is not a face (faces are −3, −2, −1, +1, +2, +3).")


def _check_faces(where: Part, dice: Iterable[Any]) -> None:
    for v in dice:
        if type(v) is not int or v not in FACE_SET:
            raise IllegalGrouping(NOT_A_FACE, params={"where": where, "value": repr(v)})


def canonical(grouping: Grouping) -> Grouping:
    """The same grouping in canonical order (see :class:`Grouping`); no legality check."""
    zg = sorted((ZERO_GROUP_INDEX.get(counts_of(g), 99), g) for g in grouping.zero_groups)
    zero = tuple(ZERO_GROUPS[i] if i < 99 else tuple(g) for i, g in zg)
    pairs = []
    for p in grouping.pairs:
        b = max(p)
        r = min(p)
        pairs.append((b, r))
    nb = sum(1 for v in grouping.loose if v > 0)
    nr = len(grouping.loose) - nb
    red_minority = nb > 0 or nr == 0  # the loose dice are the majority colour
    if red_minority:
        pairs.sort(key=lambda p: (p[1], -p[0]))  # red largest first (−3 before −1), then blue
    else:
        pairs.sort(key=lambda p: (-p[0], p[1]))
    loose = tuple(sorted(grouping.loose, key=lambda v: (-(v > 0), -abs(v))))
    return Grouping(zero, tuple(pairs), loose)


def check_grouping(dice: Iterable[int], grouping: Grouping) -> Grouping:
    """Check a grouping of ``dice`` against R5 and R6; return it in canonical form.

    Raises :class:`IllegalGrouping` with a message for players and hosts.
    """
    dice = tuple(dice)
    for g in grouping.zero_groups:
        _check_faces(part(gettext_noop("Group %(group)s"), group=repr(g)), g)
    for p in grouping.pairs:
        _check_faces(part(gettext_noop("Pair %(pair)s"), pair=repr(p)), p)
        if len(p) != 2:
            raise IllegalGrouping(gettext_noop("Pair %(pair)s must hold exactly 2 dice."), params={"pair": fmt_group(p)})
    _check_faces(part(gettext_noop("Loose dice")), grouping.loose)
    missing, extra = _multiset_diff(dice, grouping.dice())
    if missing and extra:
        raise IllegalGrouping(
            gettext_noop(
                "The grouping does not use exactly the dice of the hand (missing %(missing)s; not in the hand %(extra)s)."
            ),
            params={"missing": fmt_dice(missing), "extra": fmt_dice(extra)},
        )
    if missing:
        raise IllegalGrouping(
            gettext_noop("The grouping does not use exactly the dice of the hand (missing %(missing)s)."),
            params={"missing": fmt_dice(missing)},
        )
    if extra:
        raise IllegalGrouping(
            gettext_noop("The grouping does not use exactly the dice of the hand (not in the hand %(extra)s)."),
            params={"extra": fmt_dice(extra)},
        )
    for g in grouping.zero_groups:
        if len(g) < 2:
            raise IllegalGrouping(
                gettext_noop("Group %(group)s is too small: a zero-sum group has 2 to 5 dice."),
                params={"group": fmt_group(g)},
            )
        if sum(g) != 0:
            raise IllegalGrouping(
                gettext_noop("Group %(group)s does not sum to 0 (it sums to %(sum)s)."),
                params={"group": fmt_group(g), "sum": f"{sum(g):+d}"},
            )
        if counts_of(g) not in ZERO_GROUP_INDEX:
            sub = _zero_subset(g)
            raise IllegalGrouping(
                gettext_noop("Group %(group)s is not minimal: its part %(part)s already sums to 0."),
                params={"group": fmt_group(g), "part": fmt_group(sub or ())},
            )
    for p in grouping.pairs:
        if sum(p) == 0:
            raise IllegalGrouping(
                gettext_noop("Pair %(pair)s sums to 0: it is a zero-sum group, not a pair."),
                params={"pair": fmt_group(p)},
            )
        if (p[0] > 0) == (p[1] > 0):
            raise IllegalGrouping(
                gettext_noop("Pair %(pair)s must hold one blue and one red die."), params={"pair": fmt_group(p)}
            )
    best = max_zero_groups(dice)
    if len(grouping.zero_groups) < best:
        raise IllegalGrouping(
            ngettext("Only %(count)s zero-sum group; this hand allows %(best)s (form as many as possible).",
                     "Only %(count)s zero-sum groups; this hand allows %(best)s (form as many as possible).",
                     len(grouping.zero_groups)),
            params={"count": len(grouping.zero_groups), "best": best},
        )
    nb = sum(1 for v in grouping.loose if v > 0)
    nr = len(grouping.loose) - nb
    if nb and nr:
        raise IllegalGrouping(
            gettext_noop(
                "Loose dice %(loose)s hold both colours: every die of the colour with fewer "
                "dice must be paired with a die of the other colour."
            ),
            params={"loose": fmt_dice(grouping.loose)},
        )
    return canonical(grouping)


# ---------------------------------------------------------------- keep (step 3)


def keep_options(grouping: Grouping) -> list[tuple[int, int]]:
    """Distinct choices of 2 groups to keep, as index pairs into ``grouping.groups``.

    Empty when the hand has at most 2 groups (nothing to choose).  Two index
    pairs that keep the same dice are the same choice; the first one is listed.
    """
    groups = grouping.groups
    if len(groups) <= 2:
        return []
    return list(_keep_options(groups))


@lru_cache(maxsize=20_000)
def _keep_options(groups: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """:func:`keep_options` of a hand's groups (few distinct: remembered)."""
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    out: list[tuple[int, int]] = []
    for i, j in combinations(range(len(groups)), 2):
        key = (min(groups[i], groups[j]), max(groups[i], groups[j]))
        if key not in seen:
            seen.add(key)
            out.append((i, j))
    return tuple(out)


def default_keep(grouping: Grouping) -> tuple[int, int] | None:
    """R7: the two groups that leave the largest absolute hand value; ties to the earliest."""
    groups = grouping.groups
    if len(groups) <= 2:
        return None
    base = sum(grouping.loose)
    best: tuple[int, int] | None = None
    best_v = -1
    for i, j in combinations(range(len(groups)), 2):
        v = abs(base + sum(groups[i]) + sum(groups[j]))
        if v > best_v:
            best, best_v = (i, j), v
    return best


# ---------------------------------------------------------------- flips and the win


@dataclass(frozen=True)
class Flip:
    """The mover turns own die ``own_index`` to ``own_to`` (change ``d``) and the
    other hand's die ``other_index`` to ``other_to`` (change ``-d``)."""

    own_index: int
    own_to: int
    other_index: int
    other_to: int
    d: int


_FLIP_TABLE: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {
    (v, w): tuple((nv, w - (nv - v)) for nv in FACES if nv != v and (w - (nv - v)) in FACE_SET)
    for v in FACES
    for w in FACES
}
"""For an own die ``v`` and another hand's die ``w``: every legal (new own face, new other face)."""


@lru_cache(maxsize=65_536)
def _flip(i: int, nv: int, j: int, nw: int, d: int) -> Flip:
    return Flip(i, nv, j, nw, d)


def legal_flips(own: Sequence[int], other: Sequence[int]) -> list[Flip]:
    """Every legal flip between the dice ``own`` and the dice ``other`` (by position)."""
    out: list[Flip] = []
    for i, v in enumerate(own):
        for nv in FACES:
            if nv == v:
                continue
            d = nv - v
            for j, w in enumerate(other):
                nw = w - d
                if nw in FACE_SET:
                    out.append(_flip(i, nv, j, nw, d))
    return out


def has_legal_flip(own: Iterable[int], other: Iterable[int]) -> bool:
    own_set = set(own)
    other_set = set(other)
    for v in own_set:
        for nv in FACES:
            if nv != v:
                d = nv - v
                for w in other_set:
                    if (w - d) in FACE_SET:
                        return True
    return False


def is_all_threes(dice: Sequence[int]) -> bool:
    """6 or more dice, all +3 or all −3."""
    if len(dice) < 6:
        return False
    first = dice[0]
    return (first == 3 or first == -3) and all(v == first for v in dice)
