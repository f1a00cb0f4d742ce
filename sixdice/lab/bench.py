"""Timings of the rules: ``python -m sixdice.lab.bench``.

Prints the median and the 99th percentile of each operation.  "cold" clears
the memo caches before every call; "warm" is what a running server sees.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator

from sixdice.lab.simulate import play_game
from sixdice.rules import balance
from sixdice.rules.balance import group_hand, groupings, legal_flips
from sixdice.rules.dice import FACES


def _clear() -> None:
    balance._group_counts.cache_clear()
    balance._groupings_counts.cache_clear()
    balance._best_from.cache_clear()


def _times(fn: Callable[[], object], repeat: int, cold: bool) -> list[float]:
    out = []
    for _ in range(repeat):
        if cold:
            _clear()
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def _each(fn: Callable[[list[int]], object], hands: Iterator[list[int]]) -> Callable[[], object]:
    """A call of ``fn`` on the next hand each time."""
    return lambda: fn(next(hands))


def _fmt(label: str, times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return f"{label:<44} median {statistics.median(times) * 1e6:9.1f} µs   p99 {p99 * 1e6:9.1f} µs"


def main() -> None:
    rng = random.Random(1)
    hands60 = [[rng.choice(FACES) for _ in range(60)] for _ in range(200)]
    hands20 = [[rng.choice(FACES) for _ in range(20)] for _ in range(200)]
    pairs12 = [
        ([rng.choice(FACES) for _ in range(12)], [rng.choice(FACES) for _ in range(12)]) for _ in range(200)
    ]
    for cold in (True, False):
        tag = "cold" if cold else "warm"
        if not cold:  # a running server has seen these hands before
            for h in hands60:
                group_hand(h)
            for h in hands20:
                groupings(h)
        print(_fmt(f"group_hand, 60 dice ({tag})", _times(_each(group_hand, iter(hands60 * 5)), 1000, cold)))
        print(_fmt(f"groupings, 20 dice ({tag})", _times(_each(groupings, iter(hands20)), 200, cold)))
    itp = iter(pairs12 * 5)
    print(_fmt("legal_flips, two 12-dice hands", _times(lambda: legal_flips(*next(itp)), 1000, False)))
    game_rng = random.Random(2)
    _clear()
    first = _times(lambda: play_game(4, 12, game_rng, "random"), 100, False)
    print(_fmt("random game, 4 x 12, first 100 (cold caches)", first))
    print(f"{'  games per second':<44} {len(first) / sum(first):9.1f}")
    per_game = _times(lambda: play_game(4, 12, game_rng, "random"), 300, False)
    print(_fmt("random game, 4 x 12, next 300", per_game))
    print(f"{'  games per second (one core)':<44} {len(per_game) / sum(per_game):9.1f}")


if __name__ == "__main__":
    main()
