"""The compensation tuner: record games once, re-score them under any compensation table.

    python -m sixdice.lab.tune record --preset recommended --players 4 --play greedy --games 1000 --seed 1 [--jobs 2]
    python -m sixdice.lab.tune fit --preset recommended --players 4 [--play greedy --play strong] [--seed 1] [--json]

A compensation added to the final score does not change play when the
players do not know it.  So ``record`` plays a cell's games under the
preset's rules *without* its compensation and keeps them in chunks
(:mod:`sixdice.lab.records`: each seat's score at the round limit and how the
game ended); it goes on from the chunks already recorded.

``fit`` re-scores the recorded games under candidate tables (in whole and
half points, so that ties break; the first player's figure is 0 or more, the
smallest is 0): a game that ended on all threes keeps its winners, any other
is won by the largest score plus compensation (ties shared).  It searches
the table that brings every seat of every play strength asked for closest
to fair (the largest distance from the fair share, then the sum of squares),
by coordinate descent from no compensation, and prints each seat's share
before and after with its 95% bootstrap interval (the games resampled), and
the early leader's share (the leader after a third of the rounds, scores
compensated, as the study counts it).

Then one fresh study, in which the bots know the compensation (it is a house
rule of the preset), tells how much play changes when the players know it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sixdice.lab import records
from sixdice.lab.arena import GameResult
from sixdice.lab.rulestudy import rules_of
from sixdice.rules.variants import MAX_COMPENSATION, Variants

STEP = 0.5
BOOT = 1000


def base_rules(preset: str, players: int) -> tuple[str, Variants, int]:
    """The preset's label, rules without any compensation, and bank per player: the rules games are recorded under."""
    label, v, b = rules_of(preset, None, None, players)
    return label, replace(v, compensation=()), b


def _winners(g: GameResult, table: Sequence[float], n: int) -> tuple[int, ...]:
    """The winners' places in the turn order under ``table``."""
    assert g.first is not None
    if g.end_reason == "all_threes" or not g.scores:
        return tuple((w - g.first) % n for w in g.winners)
    sc = [g.scores[(g.first + p) % n] + table[p] for p in range(n)]
    top = max(sc)
    return tuple(p for p in range(n) if sc[p] == top)


def credits(games: Sequence[GameResult], table: Sequence[float], n: int) -> list[list[float]]:
    """Per game (those with a turn order), each place's share of the win under ``table``."""
    out = []
    for g in games:
        if g.first is None:
            continue
        row = [0.0] * n
        ws = _winners(g, table, n)
        for p in ws:
            row[p] += 1 / len(ws)
        out.append(row)
    return out


def shares(games: Sequence[GameResult], table: Sequence[float], n: int) -> list[float]:
    rows = credits(games, table, n)
    return [sum(r[p] for r in rows) / len(rows) if rows else 0.0 for p in range(n)]


def leader_share(games: Sequence[GameResult], table: Sequence[float], n: int) -> float:
    """The share of games won by the leader after a third of the rounds (scores compensated; tied leaders share)."""
    total = 0.0
    for g in games:
        if g.first is None or not g.scores_third:
            continue
        sc = [g.scores_third[(g.first + p) % n] + table[p] for p in range(n)]
        top = max(sc)
        leaders = [p for p in range(n) if sc[p] == top]
        ws = _winners(g, table, n)
        for p in leaders:
            if p in ws:
                total += 1 / len(ws) / len(leaders)
    return total / len(games) if games else 0.0


def bootstrap(games: Sequence[GameResult], table: Sequence[float], n: int, reps: int = BOOT,
              seed: int = 1) -> list[tuple[float, float]]:
    """Each place's 95% interval of its share, the games resampled ``reps`` times (seeded)."""
    rows = credits(games, table, n)
    if not rows:
        return [(0.0, 1.0)] * n
    rng = random.Random(seed)
    k = len(rows)
    sums: list[list[float]] = [[] for _ in range(n)]
    for _ in range(reps):
        acc = [0.0] * n
        for _ in range(k):
            r = rows[rng.randrange(k)]
            for p in range(n):
                acc[p] += r[p]
        for p in range(n):
            sums[p].append(acc[p] / k)
    out = []
    for xs in sums:
        xs.sort()
        out.append((xs[int(0.025 * reps)], xs[min(reps - 1, int(0.975 * reps))]))
    return out


def badness(cells: Sequence[tuple[Sequence[GameResult], int]], table: Sequence[float]) -> tuple[float, float]:
    """(the largest distance of a seat from fair, the sum of squared distances) over every cell."""
    worst = 0.0
    sq = 0.0
    for games, n in cells:
        for x in shares(games, table, n):
            d = abs(x - 1 / n)
            worst = max(worst, d)
            sq += d * d
    return (round(worst, 9), round(sq, 12))


def fit(cells: Sequence[tuple[Sequence[GameResult], int]], n: int, top: float = 8.0,
        monotone: bool = False) -> tuple[float, ...]:
    """The table (one figure per place, halves, the smallest 0) that brings every seat closest to fair.

    ``monotone``: only tables that give an earlier place at least as much as a later one (a smoother
    table for a small sample, where the best table would follow the noise)."""
    grid = [i * STEP for i in range(int(top / STEP) + 1)]
    table = [0.0] * n
    best = badness(cells, table)
    for _ in range(20):
        moved = False
        for p in range(n):
            for x in grid:
                if x == table[p]:
                    continue
                cand = list(table)
                cand[p] = x
                low = min(cand)
                cand = [c - low for c in cand]
                if monotone and any(cand[i] < cand[i + 1] for i in range(n - 1)):
                    continue
                b = badness(cells, cand)
                if b < best:
                    best, table, moved = b, cand, True
        if not moved:
            break
    return tuple(table)


@dataclass
class Report:
    play: str
    games: int
    before: list[float]
    before_ci: list[tuple[float, float]]
    after: list[float]
    after_ci: list[tuple[float, float]]
    leader_before: float
    leader_after: float

    def to_dict(self) -> dict[str, Any]:
        r4 = lambda xs: [round(x, 4) for x in xs]  # noqa: E731
        return {"play": self.play, "games": self.games, "before": r4(self.before),
                "before_ci": [r4(c) for c in self.before_ci], "after": r4(self.after),
                "after_ci": [r4(c) for c in self.after_ci], "leader_before": round(self.leader_before, 4),
                "leader_after": round(self.leader_after, 4)}


def report(games: Sequence[GameResult], play: str, n: int, table: Sequence[float], reps: int = BOOT) -> Report:
    zero = [0.0] * n
    return Report(play, len(games), shares(games, zero, n), bootstrap(games, zero, n, reps),
                  shares(games, table, n), bootstrap(games, table, n, reps),
                  leader_share(games, zero, n), leader_share(games, table, n))


def fmt_table(table: Sequence[float]) -> str:
    return " / ".join(f"{x:g}" for x in table)


def _fmt(xs: Sequence[float], cis: Sequence[tuple[float, float]]) -> str:
    return " / ".join(f"{100 * x:.1f} [{100 * a:.1f}–{100 * b:.1f}]" for x, (a, b) in zip(xs, cis, strict=True))


FULL = {"greedy": {2: 1000, 3: 1000, 4: 1000, 5: 1000, 6: 200, 7: 200, 8: 200}, "strong": {n: 300 for n in range(2, 9)}}
"""The games a cell needs to be at full scale (issue 40)."""
MONOTONE_FROM = 6
"""From this many players on the report fits monotone tables (:func:`fit`): their cells hold 200 games."""
BEGIN = "<!-- compensation: written by python -m sixdice.lab.tune report -->"
END = "<!-- /compensation -->"


def report_markdown(preset: str = "recommended", seed: int = 1, root: Path = records.ROOT, reps: int = BOOT) -> str:
    """The *Compensation* section of docs/sixdice-balance.md, from every cell recorded so far."""
    from sixdice.rules.variants import COMPENSATION

    lines = [BEGIN, "## Compensation by place in the turn order", "",
             f"Written by `python -m sixdice.lab.tune report` from the games recorded in `sixdice/lab/records/` "
             f"(the {preset} rules without their compensation, seed {seed}; each cell's figure is the sum of its "
             "chunks so far). *Before*: each place's win share as played; *after*: the same games re-scored with "
             "the compensation of the recommended rules (`COMPENSATION` in `sixdice/rules/variants.py`) added to "
             "each final score (a game won by all threes keeps its winners). Brackets: 95% bootstrap intervals "
             f"({reps} resamples). *Fit*: the table `python -m sixdice.lab.tune fit` finds on this cell alone (6 to 8 players, `--monotone`: an earlier place never gets less than a later one, the 200-game cells being small). "
             "*Early leader*: the share of games won by the leader after round 4 (scores compensated); the "
             "limit is 1.5 × fair.", "",
             "*Played knowing it*: the same seeded games played by bots that know the compensation (the "
             "done-when command `python -m sixdice.lab.study --preset recommended --players N --play P --games G "
             "--seed 1 --json`, which records its own chunks): how much play changes when the players know it.", "",
             "| players | play | games (full scale) | compensation in force | before | after | within 5 points "
             "after | early leader after (limit) | fit on this cell | played knowing it |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    missing = []
    for n in range(2, 9):
        label, v, b = base_rules(preset, n)
        table = tuple(float(x) for x in COMPENSATION.get(n, ())) or (0.0,) * n
        for play in ("greedy", "strong"):
            gs = records.recorded(label, play, n, seed, v, b, root)
            full = FULL[play][n]
            if len(gs) < full:
                missing.append((n, play, len(gs), full))
            if not gs:
                continue
            r = report(gs, play, n, table, reps)
            ok = all(abs(x - 1 / n) <= 0.05 for x in r.after)
            scale = f"{len(gs)}" + ("" if len(gs) >= full else f" **of {full}**")
            in_force = fmt_table(COMPENSATION[n]) if n in COMPENSATION else "none"
            knowing = "not played"
            if n in COMPENSATION:
                kv, _kb = rules_of(preset, None, None, n)[1:]
                ks = records.recorded(label, play, n, seed, kv, b, root)
                if ks:
                    # raw scores plus the table in force give back the winners as played
                    kr = report(ks, play, n, table, reps)
                    knowing = f"{_fmt(kr.after, kr.after_ci)} ({len(ks)} games)"
            lines.append(
                f"| {n} | {play} | {scale} | {in_force} | {_fmt(r.before, r.before_ci)} | {_fmt(r.after, r.after_ci)} "
                f"| {'yes' if ok else '**no**'} | {100 * r.leader_after:.1f}% ({150 / n:.1f}%) "
                f"| {fmt_table(fit([(gs, n)], n, monotone=n >= MONOTONE_FROM))} | {knowing} |")
    lines.append("")
    if missing:
        lines.append("Not yet at full scale (resume with the commands below; each run goes on from the chunks "
                     "recorded):")
        lines.append("")
        for n, play, have, full in missing:
            lines.append(f"- {n} players, {play}: {have} of {full} games — `nice -n 19 python -m sixdice.lab.tune "
                         f"record --players {n} --play {play} --games {full} --jobs 1`")
        lines.append("")
    lines.append(END)
    return "\n".join(lines) + "\n"


def write_report(path: Path, text: str) -> None:
    """Put the section in ``path``: in place of the one before, else before the hand-written part."""
    doc = path.read_text(encoding="utf-8") if path.exists() else ""
    if BEGIN in doc and END in doc:
        doc = doc[: doc.index(BEGIN)] + text.rstrip("\n") + doc[doc.index(END) + len(END):]
    else:
        mark = "<!-- written by hand: kept when the study runs again -->"
        at = doc.index(mark) if mark in doc else len(doc)
        doc = doc[:at] + text + "\n" + doc[at:]
    path.write_text(doc, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sixdice.lab.tune", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="record games (the preset's rules without compensation)")
    rec.add_argument("--play", default="greedy", choices=("greedy", "strong", "random"))
    rec.add_argument("--games", type=int, default=1000)
    rec.add_argument("--jobs", type=int, default=1)
    rec.add_argument("--progress", action="store_true")
    ft = sub.add_parser("fit", help="fit and print the compensation table from the recorded games")
    ft.add_argument("--play", action="append", choices=("greedy", "strong", "random"),
                    help="strengths the table must serve (repeatable; default: greedy)")
    ft.add_argument("--table", help="score this table instead of fitting one, e.g. 0,1.5")
    ft.add_argument("--boot", type=int, default=BOOT, help="bootstrap resamples")
    ft.add_argument("--json", action="store_true")
    ft.add_argument("--monotone", action="store_true",
                    help="only tables that give an earlier place at least as much as a later one (small samples)")
    rp = sub.add_parser("report", help="write the Compensation section of docs/sixdice-balance.md")
    rp.add_argument("--out", default="docs/sixdice-balance.md")
    rp.add_argument("--boot", type=int, default=BOOT)
    rp.add_argument("--preset", default="recommended")
    rp.add_argument("--seed", type=int, default=1)
    rp.add_argument("--records", default=str(records.ROOT))
    for p in (rec, ft):
        p.add_argument("--preset", default="recommended")
        p.add_argument("--players", type=int, required=True)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--records", default=str(records.ROOT))
    args = parser.parse_args(argv)
    if args.command == "report":
        write_report(Path(args.out), report_markdown(args.preset, args.seed, Path(args.records), args.boot))
        print(f"wrote {args.out}", file=sys.stderr)
        return
    n = args.players
    label, v, b = base_rules(args.preset, n)
    root = Path(args.records)
    if args.command == "record":
        games = records.games(label, args.play, n, args.games, args.seed, v, b, args.jobs, root, progress=args.progress)
        print(f"{len(games)} games recorded in {root / records.cell_name(label, n, args.play, args.seed, v, b)}",
              file=sys.stderr)
        return
    plays = args.play or ["greedy"]
    cells = []
    for play in plays:
        gs = records.recorded(label, play, n, args.seed, v, b, root)
        if not gs:
            parser.error(f"no {play} games recorded for {label}, {n} players, seed {args.seed}: run `record` first")
        cells.append((gs, n))
    if args.table:
        table = tuple(float(x) for x in args.table.split(","))
        if len(table) != n or any(not 0 <= x <= MAX_COMPENSATION for x in table):
            parser.error(f"--table: {n} figures from 0 to {MAX_COMPENSATION}")
    else:
        table = fit(cells, n, monotone=args.monotone)
    reps = [report(gs, play, n, table, args.boot) for (gs, _), play in zip(cells, plays, strict=True)]
    if args.json:
        print(json.dumps({"preset": label, "players": n, "seed": args.seed, "compensation": list(table),
                          "cells": [r.to_dict() for r in reps]}))
        return
    print(f"{label}, {n} players: compensation by place in the turn order (first player first): {fmt_table(table)}")
    for r in reps:
        print(f"  {r.play}, {r.games} games recorded (fair {100 / n:.1f}%)")
        print(f"    before: {_fmt(r.before, r.before_ci)}   early leader wins {100 * r.leader_before:.1f}%")
        print(f"    after:  {_fmt(r.after, r.after_ci)}   early leader wins {100 * r.leader_after:.1f}%")


if __name__ == "__main__":
    main()
