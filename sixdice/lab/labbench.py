"""The laboratory's speed: ``python -m sixdice.lab.labbench``.

Times the two things a balance study spends its hours on, on one core (the
process's CPU time, so other load on a shared machine does not count):

* **a greedy game**: a whole seeded game of 4 greedy bots under the
  recommended rules, in a fresh process (the memo tables fill as the games go,
  as they do in a study); games 1 to ``--games``;
* **a strong decision**: the strong bot's search (:func:`~sixdice.rules.bots.strong_search`)
  on the flips (its costly decisions) met in seeded greedy games of 2 and 4 players under the
  recommended rules (the positions are the same for every version of the bots).

It measures, in one run, two fresh processes: **before** (every balancing
computed hand by hand and the search's newer memos switched off: the
laboratory before the balancing table, :func:`before`) and **after** (the
balancing table of :mod:`sixdice.lab.outcomes` installed, built first with
every core if there is none).  It prints the median and the 99th percentile
of each, their ratio, and the ratio to :data:`BASELINE` (the same timings on
commit 0e72f64, measured on this machine at another time; see
``docs/sixdice-balance.md``, *The laboratory's speed*).  The same-run ratio is
the one that counts on a shared machine.  ``--mode before|after`` measures
one mode in this process and prints JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from typing import Any

BASELINE: dict[str, tuple[float, float]] = {
    # what: (median, p99) in seconds, commit 0e72f64, this script, this machine (loaded)
    "greedy game, 4 players": (0.1104, 0.3937),
    "strong decision, 2 players": (0.0301, 0.0403),
    "strong decision, 4 players": (0.0504, 0.4780),
}


def _p99(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * 0.99))]


def greedy_games(games: int, players: int = 4) -> list[float]:
    from sixdice.lab.arena import play_game
    from sixdice.rules.variants import preset

    v, b = preset("recommended", players)
    out = []
    for g in range(games):
        t = time.process_time()
        play_game(("greedy",) * players, 10**6 + g, bank=b * players, variants=v)
        out.append(time.process_time() - t)
    return out


def positions(players: int, count: int, seed: int = 7) -> list[Any]:
    """``count`` flips met in seeded greedy games (every 3rd flip from round 1 on)."""
    from sixdice.rules.bots import Bot, is_decision
    from sixdice.rules.dice import FACES
    from sixdice.rules.game import apply, new_game
    from sixdice.rules.variants import preset

    v, b = preset("recommended", players)
    out: list[Any] = []
    g = 0
    k = 0
    while len(out) < count:
        dice = random.Random(f"bench-{seed}-{g}")
        bot = Bot("greedy", seed=g, time_cap=None)
        st = new_game(players, bank=b * players, variants=v)
        while not st.over and len(out) < count:
            p = st.pending
            assert p is not None
            if p.kind == "roll":
                st = apply(st, {"type": "roll", "values": [dice.choice(FACES) for _ in range(p.count)]})
                continue
            if is_decision(st) and st.round >= 1 and p.kind == "flip":
                k += 1
                if k % 3 == 0:
                    out.append(st)
            st = apply(st, bot.act(st))
        g += 1
    return out


def strong_decisions(players: int, count: int) -> list[float]:
    from sixdice.rules.bots import strong_search

    sts = positions(players, count)
    out = []
    for st in sts:
        t = time.process_time()
        strong_search(st, time_cap=None)
        out.append(time.process_time() - t)
    return out


def before() -> None:
    """This process plays as the laboratory did before the balancing table and the search's memos:
    every balancing computed, the mover's expectation and the victims' changes not remembered."""
    from sixdice.lab import outcomes
    from sixdice.rules import bots

    outcomes.uninstall()
    bots._mover_expectation = bots._mover_expectation.__wrapped__  # type: ignore[assignment]
    bots._victim_changes = bots._victim_changes.__wrapped__  # type: ignore[assignment]


def measure(mode: str, games: int, decisions: int) -> dict[str, Any]:
    """The figures of one fresh process: ``before`` (see :func:`before`) or ``after`` (the table installed)."""
    from sixdice.lab import outcomes

    load = 0.0
    if mode == "before":
        before()
    else:
        t = time.process_time()
        outcomes.install()
        load = time.process_time() - t
    return {
        "load": load,
        "greedy game, 4 players": greedy_games(games),
        "strong decision, 2 players": strong_decisions(2, decisions),
        "strong decision, 4 players": strong_decisions(4, decisions),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sixdice.lab.labbench", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="greedy games timed")
    parser.add_argument("--decisions", type=int, default=60, help="strong decisions timed per player count")
    parser.add_argument("--mode", choices=("before", "after"), help="measure one mode in this process, print JSON")
    args = parser.parse_args(argv)
    if args.mode:
        print(json.dumps(measure(args.mode, args.games, args.decisions)))
        return
    from sixdice.lab import outcomes

    if outcomes.load() is None:
        print("building the balancing table (python -m sixdice.lab.outcomes, every core) ...", flush=True)
        outcomes.main([])
    runs = {}
    for mode in ("before", "after"):  # each in a fresh process: the memos start empty, as in a study
        out = subprocess.run(
            [sys.executable, "-m", "sixdice.lab.labbench", "--mode", mode, "--games", str(args.games),
             "--decisions", str(args.decisions)], check=True, capture_output=True, text=True,
        ).stdout
        runs[mode] = json.loads(out.strip().splitlines()[-1])
    print(f"balancing table loaded in {runs['after']['load'] * 1e3:.0f} ms (once per process)")
    for label in ("greedy game, 4 players", "strong decision, 2 players", "strong decision, 4 players"):
        b, a = runs["before"][label], runs["after"][label]
        bm, am = statistics.median(b), statistics.median(a)
        base = BASELINE.get(label, (0.0, 0.0))
        old = f"   (0e72f64: {base[0] * 1e3:.1f} ms, {base[0] / am:4.2f}x)" if base[0] and am else ""
        print(f"{label:<28} before: median {bm * 1e3:6.1f} ms p99 {_p99(b) * 1e3:6.1f} ms   "
              f"after: median {am * 1e3:6.1f} ms p99 {_p99(a) * 1e3:6.1f} ms   {bm / am:4.2f}x{old}", flush=True)


if __name__ == "__main__":
    main()
