"""The laboratory's speed: ``python -m sixdice.lab.labbench``.

Times the two things a balance study spends its hours on, on one core (the
process's CPU time, so other load on a shared machine counts less):

* **a greedy game**: a whole seeded game of 4 greedy bots under the
  recommended rules, in a fresh process (the memo tables fill as the games go,
  as they do in a study); games 1 to ``--games``;
* **a strong decision**: the strong bot's search (:func:`~sixdice.rules.bots.strong_search`)
  on the flips (its costly decisions) met in seeded greedy games of 2 and 4 players under the
  recommended rules (the positions are the same for every version of the bots).

It measures, in one run, a fresh process per mode: **0e72f64** (the code of commit
0e72f64, the reference of issue 40, taken from git into a temporary folder
and timed by this same script; skipped when git or the commit is missing),
**before** (this code with every balancing computed hand by hand and the
search's memos of the mover's expectation and the victims' least scores switched
off, :func:`before`) and **after** (the balancing table of
:mod:`sixdice.lab.outcomes` installed, built first with every core if there
is none).  The modes take turns, a few games or decisions each (every
process plays its games in order, its memos filling as in a study), so that
on a shared machine they meet the same load.  It prints the median and the
99th percentile of each and the ratios of after to 0e72f64 and to before.  Without the 0e72f64 run, the ratio
to 0e72f64 uses :data:`BASELINE` (the same timings measured on this machine at
another time; see ``docs/sixdice-balance.md``, *The laboratory's speed*): the
same-run ratio is the one that counts on a shared machine.  ``--mode
reference|before|after`` measures one mode in this process and prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REFERENCE = "0e72f64"
"""The commit whose laboratory issue 40 asks to make five times faster."""
ROOT = Path(__file__).resolve().parents[2]
BASELINE: dict[str, tuple[float, float]] = {
    # what: (median, p99) in seconds, commit 0e72f64, this script, this machine (loaded)
    "greedy game, 4 players": (0.1104, 0.3937),
    "strong decision, 2 players": (0.0301, 0.0403),
    "strong decision, 4 players": (0.0504, 0.4780),
}


def _p99(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * 0.99))]


def greedy_games(games: int, players: int = 4, start: int = 0) -> list[float]:
    """The CPU time of each of the greedy games ``start`` to ``start + games - 1`` (numbered from 0)."""
    from sixdice.lab.arena import play_game
    from sixdice.rules.variants import preset

    v, b = preset("recommended", players)
    out = []
    for g in range(start, start + games):
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


def strong_decisions(players: int, count: int, sts: list[Any] | None = None) -> list[float]:
    """The CPU time of the strong search on each position ``sts`` (default: :func:`positions`)."""
    from sixdice.rules.bots import strong_search

    if sts is None:
        sts = positions(players, count)
    out = []
    for st in sts:
        t = time.process_time()
        strong_search(st, time_cap=None)
        out.append(time.process_time() - t)
    return out


def before() -> None:
    """This process plays as the laboratory did before the balancing table and the search's memos:
    every balancing computed, the mover's expectation and the victims' least scores not remembered."""
    from sixdice.lab import outcomes
    from sixdice.rules import bots

    outcomes.uninstall()
    bots._mover_expectation = bots._mover_expectation.__wrapped__  # type: ignore[assignment]
    bots._victim_least = bots._victim_least.__wrapped__  # type: ignore[assignment]


def set_up(mode: str) -> float:
    """Set this process up for ``mode`` (``before``, ``after`` or ``reference``); the table's load
    time in CPU seconds (0 unless ``after``)."""
    if mode == "before":
        before()
        return 0.0
    if mode == "after":
        from sixdice.lab import outcomes

        t = time.process_time()
        outcomes.install()
        return time.process_time() - t
    return 0.0


def measure(mode: str, games: int, decisions: int) -> dict[str, Any]:
    """The figures of one fresh process: ``before`` (see :func:`before`), ``after`` (the table
    installed) or ``reference`` (the code as it is, nothing installed: for the code of
    :data:`REFERENCE`, which has no table)."""
    load = set_up(mode)
    return {
        "load": load,
        "greedy game, 4 players": greedy_games(games),
        "strong decision, 2 players": strong_decisions(2, decisions),
        "strong decision, 4 players": strong_decisions(4, decisions),
    }


def reference_tree(folder: Path) -> Path | None:
    """The package ``sixdice`` of commit :data:`REFERENCE` under ``folder``, with this script in it
    (the same workloads), or ``None`` when git or the commit is not at hand."""
    git = shutil.which("git")
    if git is None:
        return None
    archive = subprocess.run([git, "-C", str(ROOT), "archive", REFERENCE, "sixdice"], capture_output=True)
    if archive.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    shutil.copy(Path(__file__), folder / "sixdice" / "lab" / "labbench.py")
    return folder


LABELS = ("greedy game, 4 players", "strong decision, 2 players", "strong decision, 4 players")


def serve(mode: str) -> None:
    """One mode in this process (:func:`measure`'s set-up), timing what the driver asks for, one
    line at a time: ``greedy START COUNT`` (those greedy games) or ``strong PLAYERS TOTAL START
    COUNT`` (those of the ``TOTAL`` positions of :func:`positions`, found once).  Each answer is a
    JSON line: the CPU seconds of each item (the first line: the table's load time)."""
    load = set_up(mode)
    print(json.dumps(load), flush=True)
    found: dict[int, list[Any]] = {}
    for line in sys.stdin:
        what, *args = line.split()
        if what == "greedy":
            start, count = map(int, args)
            out = greedy_games(count, start=start)
        else:
            players, total, start, count = map(int, args)
            if players not in found:
                found[players] = positions(players, total)
            out = strong_decisions(players, total, found[players][start : start + count])
        print(json.dumps(out), flush=True)


class _Worker:
    """A fresh process serving one mode (:func:`serve`)."""

    def __init__(self, mode: str, tree: Path | None = None) -> None:
        env = dict(os.environ)
        if tree is not None:
            env["PYTHONPATH"] = str(tree)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sixdice.lab.labbench", "--serve", mode], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, env=env, cwd=str(tree or ROOT),
        )
        self.load: float = self._answer()

    def _answer(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("a labbench process stopped")
        return json.loads(line)

    def ask(self, request: str) -> list[float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(request + "\n")
        self.proc.stdin.flush()
        out: list[float] = self._answer()
        return out

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def interleaved(workers: dict[str, _Worker], games: int, decisions: int, chunk: int = 4) -> dict[str, dict[str, list[float]]]:
    """Every mode's figures, measured ``chunk`` items at a time, mode after mode: on a shared
    machine every mode meets the same load (each process still plays its games in order, its
    memos filling as in a study)."""
    runs: dict[str, dict[str, list[float]]] = {m: {label: [] for label in LABELS} for m in workers}
    requests = [(LABELS[0], f"greedy {i} {min(chunk, games - i)}") for i in range(0, games, chunk)]
    for players, label in ((2, LABELS[1]), (4, LABELS[2])):
        step = 3 * chunk
        requests += [(label, f"strong {players} {decisions} {i} {min(step, decisions - i)}")
                     for i in range(0, decisions, step)]
    for label, request in requests:
        for mode, w in workers.items():
            runs[mode][label] += w.ask(request)
    return runs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sixdice.lab.labbench", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="greedy games timed")
    parser.add_argument("--decisions", type=int, default=60, help="strong decisions timed per player count")
    parser.add_argument("--mode", choices=("reference", "before", "after"),
                        help="measure one mode in this process, print JSON")
    parser.add_argument("--serve", choices=("reference", "before", "after"), help=argparse.SUPPRESS)
    parser.add_argument("--no-reference", action="store_true", help=f"do not time commit {REFERENCE} in this run")
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve)
        return
    if args.mode:
        print(json.dumps(measure(args.mode, args.games, args.decisions)))
        return
    from sixdice.lab import outcomes

    if outcomes.load() is None:
        print("building the balancing table (python -m sixdice.lab.outcomes, every core) ...", flush=True)
        outcomes.main([])
    with tempfile.TemporaryDirectory(prefix="labbench-") as tmp:
        tree = None if args.no_reference else reference_tree(Path(tmp))
        workers: dict[str, _Worker] = {}
        if tree is not None:  # each mode in a fresh process: the memos start empty, as in a study
            workers["reference"] = _Worker("reference", tree)
        workers["before"] = _Worker("before")
        workers["after"] = _Worker("after")
        try:
            runs = interleaved(workers, args.games, args.decisions)
        finally:
            for w in workers.values():
                w.close()
    print(f"balancing table loaded in {workers['after'].load * 1e3:.0f} ms (once per process); "
          f"the modes measured in turns of a few games or decisions")
    if "reference" not in runs:
        print(f"(commit {REFERENCE} not timed in this run: its figures are the stored ones, {BASELINE_NOTE})")

    def fig(xs: list[float]) -> str:
        return f"median {statistics.median(xs) * 1e3:6.1f} ms p99 {_p99(xs) * 1e3:6.1f} ms"

    for label in LABELS:
        b, a = runs["before"][label], runs["after"][label]
        bm, am = statistics.median(b), statistics.median(a)
        if "reference" in runs:
            r = runs["reference"][label]
            rm = statistics.median(r)
            ref = f"{REFERENCE}: {fig(r)}   "
        else:
            rm = BASELINE.get(label, (0.0, 0.0))[0]
            ref = f"{REFERENCE} (stored): median {rm * 1e3:6.1f} ms   "
        print(f"{label:<28} {ref}before: {fig(b)}   after: {fig(a)}   "
              f"after vs {REFERENCE}: {rm / am:4.2f}x   after vs before: {bm / am:4.2f}x", flush=True)


BASELINE_NOTE = "measured on this machine at another time, under load"

if __name__ == "__main__":
    main()
