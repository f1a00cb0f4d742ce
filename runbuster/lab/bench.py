"""Time the exact solve and the hint look-ups.

    python -m runbuster.lab.bench [--runs 15]

The solve is timed from scratch (roll distributions, option and transition
tables included) several times;
prints the median, p99 and max, then the median latency of one hint
(:func:`rank_options` for a random position and roll, table cached).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from runbuster.rules.solver import rank_options, solve, win_probability
from runbuster.rules.straights import HANDS, _options, roll_dice, roll_masks


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--hints", type=int, default=20_000)
    args = parser.parse_args(argv)

    times = []
    sweeps = 0
    for _ in range(args.runs):
        roll_masks.cache_clear()  # cold: roll distributions and option tables rebuilt too
        _options.cache_clear()
        t0 = time.perf_counter()
        _, sweeps = solve()
        times.append(time.perf_counter() - t0)
    print(
        f"full solve ({len(HANDS)}x{len(HANDS)} positions, {sweeps} sweeps to 1e-12): "
        f"median {statistics.median(times) * 1e3:.1f} ms, p99 {_pct(times, 0.99) * 1e3:.1f} ms, "
        f"max {max(times) * 1e3:.1f} ms over {args.runs} runs"
    )
    print(f"first player's win probability: {win_probability((), ()):.6f}")

    rng = random.Random(1)
    lat = []
    for _ in range(args.hints):
        a, b = rng.choice(HANDS), rng.choice(HANDS)
        roll = roll_dice(rng, 6 - len(a))
        t0 = time.perf_counter()
        rank_options(a, b, roll)
        lat.append(time.perf_counter() - t0)
    print(
        f"hint (rank_options): median {statistics.median(lat) * 1e6:.1f} µs, "
        f"p99 {_pct(lat, 0.99) * 1e6:.1f} µs over {args.hints} look-ups"
    )


if __name__ == "__main__":
    main()
