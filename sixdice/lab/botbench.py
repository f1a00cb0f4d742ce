"""Timings of the Six-Dice bots: ``python -m sixdice.lab.botbench``.

Plays seeded games in which every seat is a bot of one strength and times
every decision (flips, groupings, keeps) on this one process.  Prints the
median, the 99th percentile and the largest time per decision for 2, 4 and 8
players, and the strong bot's median as a multiple of the greedy's in the
same run.  The strong bot's budget is a number of options
(:data:`~sixdice.rules.bots.STRONG_BUDGET`); its targets are a median of at
most 200 ms and a 99th percentile of at most 500 ms on one core.  The times
are the process's CPU time (one core), so other load on the machine does not
inflate them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from sixdice.rules.bots import STRONG_BUDGET, Bot, play
from sixdice.rules.game import State, new_game


def decision_times(
    strength: str,
    players: int,
    games: int,
    seed: int,
    budget: int = STRONG_BUDGET,
    clock: Callable[[], float] = time.process_time,
    kinds: tuple[str, ...] = ("flip", "group", "keep"),
) -> list[float]:
    """Seconds per decision of ``strength`` bots in ``games`` seeded games of ``players``.

    ``clock`` is the process's CPU time by default: on a shared machine the
    wall clock also counts the time other processes hold the core.
    """
    times: list[float] = []
    for g in range(games):
        bots = [Bot(strength, seed=f"{seed}-{g}-{s}", budget=budget, time_cap=None) for s in range(players)]

        def timed(bot: Bot) -> Callable[[State], dict]:
            def act(st: State) -> dict:
                t = clock()
                a = bot.act(st)
                if st.pending is not None and st.pending.kind in kinds:
                    times.append(clock() - t)
                return a

            return act

        play(new_game(players), {s: timed(b) for s, b in enumerate(bots)}, random.Random(f"dice-{seed}-{g}"))
    return times


def _pct(times: list[float], q: float) -> float:
    s = sorted(times)
    return s[min(len(s) - 1, int(len(s) * q))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sixdice.lab.botbench", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games per player count (default 8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=STRONG_BUDGET)
    args = parser.parse_args(argv)
    print(
        f"strong budget: {args.budget} options per decision; {args.games} game(s) per player count; "
        "CPU time of this process per decision"
    )
    every: list[float] = []
    for players in (2, 4, 8):
        greedy = decision_times("greedy", players, args.games, args.seed)
        strong = decision_times("strong", players, args.games, args.seed, args.budget)
        every += strong
        flips = decision_times("strong", players, args.games, args.seed, args.budget, kinds=("flip",))
        for label, ts in (("greedy", greedy), ("strong", strong), ("strong, flips only", flips)):
            print(
                f"{label + ' bot,':<26} {players} players: {len(ts):4d} decisions  median {statistics.median(ts) * 1e3:7.1f} ms"
                f"  p99 {_pct(ts, 0.99) * 1e3:7.1f} ms  max {max(ts) * 1e3:7.1f} ms"
            )
        print(f"  strong median / greedy median: {statistics.median(strong) / statistics.median(greedy):.1f}x")
    print(
        f"strong bot, all decisions: median {statistics.median(every) * 1e3:.1f} ms, p99 {_pct(every, 0.99) * 1e3:.1f} ms"
        f" (targets: 200 ms, 500 ms)"
    )


if __name__ == "__main__":
    main()
