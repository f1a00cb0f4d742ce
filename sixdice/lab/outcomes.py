"""The balancing table: ``python -m sixdice.lab.outcomes [--games 2400] [--jobs N]``.

A hand is a small multiset of six faces, so what balancing can make of it
(:func:`~sixdice.rules.bots.balance_outcomes`: every grouping, then every keep)
is a pure function of its count vector, and so are its legal groupings
(:func:`~sixdice.rules.groupings`, which the game itself asks for every hand it
balances).  Computing them is most of a cold bot's time, so the laboratory
computes both once for many hands, saves the table in ``var/lab/`` and installs
it in every process that plays (:data:`~sixdice.rules.bots.OUTCOME_TABLE`,
:data:`~sixdice.rules.balance.GROUPINGS_TABLE`).  The table holds every hand of
up to :data:`SMALL` dice and every hand met in seeded training games (seeds of
their own: never the games the bench times); a hand not in it is computed as
before, so the table changes no result, only the time.
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import random
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from sixdice.rules import balance, bots
from sixdice.rules.balance import Grouping
from sixdice.rules.dice import Counts

SMALL = 10
"""Every hand of up to this many dice is in the table."""
VERSION = 3
"""Changes when the balancing, the table's form or what it holds changes: an old table file is then
built again (version 2: the groupings too; version 3: the hands of :data:`GAMES` training games)."""
PATH = Path(__file__).resolve().parents[2] / "var" / "lab" / f"outcomes-v{VERSION}.pickle"
TRAIN_SEED = 31_000_000
GAMES = 2400
"""Training games whose hands go in the table (600 before version 3: a greedy 4-player game of the
bench then met about 24 hands outside it, each computed there; with 2,400, about 5)."""
"""The training games' seeds start here (far from the bench's and the studies' seeds)."""

Row = tuple[Counts, int, bool, int, "tuple[int, int] | None"]
GroupingRow = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...], tuple[int, ...]]
Entry = tuple[tuple[bots.Outcome, ...], tuple[Grouping, ...]]
"""What the table holds for a hand: its balancing outcomes and its legal groupings."""
Table = dict[Counts, Entry]


def small_hands(max_dice: int) -> Iterator[Counts]:
    """Every count vector of 0 to ``max_dice`` dice."""
    def rec(i: int, left: int, acc: tuple[int, ...]) -> Iterator[Counts]:
        if i == 5:
            for k in range(left + 1):
                yield (*acc, k)  # type: ignore[misc]
            return
        for k in range(left + 1):
            yield from rec(i + 1, left - k, (*acc, k))
    return rec(0, max_dice, ())


def _met_in_game(seed: int) -> set[Counts]:
    """The hands whose balancing a seeded game of greedy bots (2 to 5 players, the recommended rules) asks for."""
    from sixdice.rules.bots import Bot, play
    from sixdice.rules.game import new_game
    from sixdice.rules.variants import preset

    met: set[Counts] = set()
    orig = bots.compute_outcomes

    def spy(c: Counts) -> tuple[bots.Outcome, ...]:
        met.add(c)
        return orig(c)

    bots.compute_outcomes = spy
    try:
        players = 2 + seed % 4
        v, b = preset("recommended", players)
        st = new_game(players, bank=b * players, variants=v)
        seats = {s: Bot("greedy", seed=f"train-{seed}-{s}", time_cap=None) for s in range(players)}
        play(st, {s: seats[s].act for s in range(players)}, random.Random(f"train-{seed}"))
    finally:
        bots.compute_outcomes = orig
    return met


def _rows(hands: list[Counts]) -> list[tuple[Counts, tuple[Row, ...], tuple[GroupingRow, ...]]]:
    return [(c, tuple((o.kept, o.returned, o.needs_pair, o.grouping, o.keep) for o in bots.compute_outcomes(c)),
             tuple((g.zero_groups, g.pairs, g.loose) for g in balance._search_groupings(c)))
            for c in hands]


def _chunks(xs: list[Counts], n: int) -> Iterable[list[Counts]]:
    for i in range(0, len(xs), n):
        yield xs[i : i + n]


def build(small: int = SMALL, games: int = 0, jobs: int | None = None) -> Table:
    """The table: every hand of up to ``small`` dice and every hand met in ``games`` training games,
    computed in ``jobs`` processes (default: every core)."""
    jobs = jobs or os.cpu_count() or 1
    hands: set[Counts] = set(small_hands(small))
    if jobs == 1:
        for g in range(games):
            hands |= _met_in_game(TRAIN_SEED + g)
        rows = _rows(sorted(hands))
    else:
        with ProcessPoolExecutor(jobs) as ex:
            for met in ex.map(_met_in_game, range(TRAIN_SEED, TRAIN_SEED + games)):
                hands |= met
            rows = [r for part in ex.map(_rows, _chunks(sorted(hands), 500)) for r in part]
    return _table(rows)


def _table(rows: Iterable[tuple[Counts, tuple[Row, ...], tuple[GroupingRow, ...]]]) -> Table:
    same: dict[Any, Any] = {}  # equal parts of groupings held once
    out: Table = {}
    for c, rs, gs in rows:
        out[c] = (tuple(bots.Outcome(*r) for r in rs),
                  tuple(Grouping(same.setdefault(z, z), same.setdefault(p, p), same.setdefault(lo, lo)) for z, p, lo in gs))
    return out


def save(table: Table, path: Path = PATH) -> None:
    rows = [(c, tuple((o.kept, o.returned, o.needs_pair, o.grouping, o.keep) for o in os_),
             tuple((g.zero_groups, g.pairs, g.loose) for g in gs))
            for c, (os_, gs) in table.items()]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL))
    tmp.replace(path)


LAB_GC_THRESHOLDS = (50_000, 20, 100)
"""The garbage collector's thresholds once the saved table is installed (the served app's default too)."""
_thresholds_before: list[tuple[int, int, int]] = []
"""The thresholds :func:`install` replaced, given back by :func:`uninstall`."""


def load(path: Path = PATH) -> Table | None:
    """The saved table, or ``None`` when there is none."""
    if not path.exists():
        return None
    return _table(pickle.loads(path.read_bytes()))  # noqa: S301 - our own file, written by save()


def install(table: Table | None = None) -> int:
    """Install ``table`` (default: the saved one, if any, once) for this process; the number of hands it holds."""
    saved = table is None
    if table is None:
        if bots.OUTCOME_TABLE:  # already installed
            return len(bots.OUTCOME_TABLE)
        table = load()
    if table:
        bots.OUTCOME_TABLE.update((c, os_) for c, (os_, _) in table.items())
        balance.GROUPINGS_TABLE.update((c, gs) for c, (_, gs) in table.items())
        if saved:
            # The table's objects (most of a million) live as long as the process: the garbage collector passes
            # over them from now on (a full collection would read them all, game after game), and
            # processes forked after this share them without copying.
            gc.freeze()
            # A study fills memos of many small containers that live for the whole run: the young collections
            # the default threshold (700) asks for scan them again and again.  As the served app does
            # (``SIXDICE_GC_THRESHOLDS``), collect the young generation less often.
            _thresholds_before.append(gc.get_threshold())
            gc.set_threshold(*LAB_GC_THRESHOLDS)
    return len(bots.OUTCOME_TABLE)


def uninstall() -> None:
    """Back to computing every hand (the laboratory before the table)."""
    bots.OUTCOME_TABLE.clear()
    balance.GROUPINGS_TABLE.clear()
    gc.unfreeze()
    if _thresholds_before:
        gc.set_threshold(*_thresholds_before[0])
        _thresholds_before.clear()
    bots.balance_outcomes.cache_clear()
    balance._groupings_counts.cache_clear()
    balance._groupings_set.cache_clear()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sixdice.lab.outcomes", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help="training games whose hands go in the table")
    parser.add_argument("--small", type=int, default=SMALL, help="every hand of up to this many dice goes in")
    parser.add_argument("--jobs", type=int, default=0, help="processes (default: every core)")
    args = parser.parse_args(argv)
    t = time.perf_counter()
    table = build(args.small, args.games, args.jobs or None)
    save(table)
    print(f"{len(table)} hands, {time.perf_counter() - t:.1f} s, {PATH.stat().st_size / 1e6:.1f} MB: {PATH}")


if __name__ == "__main__":
    main()
