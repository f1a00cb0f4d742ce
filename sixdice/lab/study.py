"""A balance study of Six-Dice: ``python -m sixdice.lab.study``.

    python -m sixdice.lab.study [--jobs 2] [--scale 1.0] [--out docs]

``--report`` (the page in the repository) plays both presets at 2 to 5 players
with greedy and strong play, the single variants and the arena, and writes
``docs/sixdice-balance.md`` with its three SVG charts (``docs/sixdice-balance-*.svg``)
drawn from the same cells.  ``--preset``/``--variants`` measure one cell.

``--classic`` is the first study: seeded games with every seat of one strength
(random, greedy, strong) for 2, 3, 4, 6 and 8 players under the default rules,
and games under rules options (a smaller bank, more rounds) with greedy play;
it writes its own page and charts in the same places.
``--scale`` multiplies every sample size (0.1 for a quick look).

The "5 or more dice" threshold is measured without changing the rules: the
games are played under the default rules and the study notes the first
moment a hand holds 5 or more dice all +3 or all −3 -- the moment a game
under that threshold would have ended (the bots do not aim for it, so the
figure is a lower bound).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import takewhile
from pathlib import Path
from typing import Any

from sixdice.lab import records, rulestudy
from sixdice.lab.arena import GameResult, match, rates, run_games, wilson
from sixdice.lab.rulestudy import THREES_TARGET
from sixdice.rules.bots import STRONG_BUDGET, STRONG_VERSION
from sixdice.rules.variants import PRESETS, Variants, preset

PLAYERS = (2, 3, 4, 6, 8)
POLICIES = ("random", "greedy", "strong")
# games per (policy, players) at scale 1: strong play is slow, so it gets fewer games
SAMPLES: dict[str, dict[int, int]] = {
    "random": {2: 1000, 3: 1000, 4: 1000, 6: 600, 8: 400},
    "greedy": {2: 400, 3: 300, 4: 200, 6: 100, 8: 60},
    "strong": {2: 100, 3: 60, 4: 40, 6: 20, 8: 12},
}
OPTION_PLAYERS = 4
OPTION_GAMES = 100
OPTIONS: tuple[tuple[str, str, int | None, int], ...] = (  # label, chart label, bank (None: 12 per player), rounds
    ("default: bank 12 per player, 12 rounds", "default", None, 12),
    ("smaller bank: 8 per player", "bank 8/p", 8 * OPTION_PLAYERS, 12),
    ("smallest bank: 6 per player", "bank 6/p", 6 * OPTION_PLAYERS, 12),
    ("more rounds: 24", "24 rounds", None, 24),
    ("smallest bank and 24 rounds", "6/p, 24 r.", 6 * OPTION_PLAYERS, 24),
)
SHORT = {label: short for label, short, _, _ in OPTIONS}
SEED = 2026


@dataclass
class Cell:
    policy: str
    players: int
    games: list[GameResult]


def _games(policy: str, players: int, games: int, seed: int, bank: int | None, rounds: int, jobs: int) -> list[GameResult]:
    todo = [((policy,) * players, seed * 10**6 + g, rounds, bank, STRONG_BUDGET) for g in range(games)]
    return run_games(todo, jobs)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(k: float, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.1f}% [{100 * lo:.1f}–{100 * hi:.1f}]"


def order_shares(games: Sequence[GameResult]) -> list[float]:
    """Win share by turn order (0 = the first player), a shared win split.

    A game won during the start (all threes in the first rolls, before R1
    picks the first player) has no turn order and is left out.
    """
    n = len(games[0].seats)
    out = [0.0] * n
    ordered = [g for g in games if g.first is not None]
    for g in ordered:
        assert g.first is not None
        for w in g.winners:
            out[(w - g.first) % n] += 1 / len(g.winners)
    return [x / len(ordered) if ordered else 0.0 for x in out]


def seat_shares(games: Sequence[GameResult]) -> list[float]:
    n = len(games[0].seats)
    out = [0.0] * n
    for g in games:
        for w in g.winners:
            out[w] += 1 / len(g.winners)
    return [x / len(games) for x in out]


def bank_by_round(games: Sequence[GameResult]) -> list[float]:
    """The average bank at the start of each round, as a share of the bank size."""
    n = len(games[0].seats)
    sums: dict[int, list[float]] = {}
    for g in games:
        total = 12 * n  # the study's default bank
        for i, b in enumerate(g.bank_by_turn):
            if i % n == 0:
                sums.setdefault(i // n, []).append(b / total)
    return [statistics.mean(sums[r]) for r in sorted(sums)]


# ---------------------------------------------------------------- SVG


_COLOURS = {"random": "#9e9e9e", "greedy": "#1f77b4", "strong": "#d62728", "6+ dice": "#1f77b4", "5+ dice": "#ff7f0e",
            "as written, greedy": "#9ecae1", "as written, strong": "#fc9272",
            "recommended, greedy": "#1f77b4", "recommended, strong": "#d62728"}


def _svg(width: int, height: int, body: list[str], title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="sans-serif" font-size="12" role="img" aria-label="{title}">\n'
        f"<title>{title}</title>\n"
        f'<rect width="{width}" height="{height}" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n"
    )


def _legend_width(names: Any, least: int) -> int:
    """The right margin that holds the legend: a swatch and the longest name (about 7 px a letter)."""
    return max(least, 44 + 7 * max((len(str(n)) for n in names), default=0))


def line_chart(
    series: dict[str, list[float]], title: str, xlabel: str, ylabel: str, ymax: float = 1.0, colours: dict[str, str] | None = None
) -> str:
    """A small line chart; x is the index (1-based)."""
    right = _legend_width(series, 130)
    w, h, left, top, bottom = 430 + right, 300, 56, 30, 44
    pw, ph = w - left - right, h - top - bottom
    xmax = max((len(v) for v in series.values()), default=1)
    body = [f'<text x="{left}" y="18" font-weight="bold">{title}</text>']
    for k in range(6):
        y = top + ph - ph * k / 5
        body.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        body.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{ymax * k / 5:.2g}</text>')
    for i in range(1, xmax + 1):
        if xmax <= 12 or i % max(1, xmax // 12) == 0 or i == 1:
            x = left + pw * (i - 1) / max(1, xmax - 1)
            body.append(f'<text x="{x:.1f}" y="{top + ph + 16}" text-anchor="middle">{i}</text>')
    body.append(f'<text x="{left + pw / 2}" y="{h - 8}" text-anchor="middle">{xlabel}</text>')
    body.append(f'<text x="14" y="{top + ph / 2}" transform="rotate(-90 14 {top + ph / 2})" text-anchor="middle">{ylabel}</text>')
    palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]
    for n, (name, ys) in enumerate(series.items()):
        colour = (colours or {}).get(name, palette[n % len(palette)])
        pts = " ".join(
            f"{left + pw * i / max(1, xmax - 1):.1f},{top + ph - ph * min(y, ymax) / ymax:.1f}" for i, y in enumerate(ys)
        )
        body.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>')
        ly = top + 10 + 18 * n
        body.append(f'<line x1="{w - right + 10}" y1="{ly}" x2="{w - right + 30}" y2="{ly}" stroke="{colour}" stroke-width="2"/>')
        body.append(f'<text x="{w - right + 36}" y="{ly + 4}">{name}</text>')
    return _svg(w, h, body, title)


def bar_chart(
    groups: dict[str, dict[str, float]], title: str, ylabel: str, ymax: float, reference: dict[str, float] | None = None,
    reference_label: str = "fair share",
) -> str:
    """Grouped bars: ``groups[x_label][series] = value``; an optional reference mark per group."""
    names = list(dict.fromkeys(s for g in groups.values() for s in g))
    right = _legend_width(names, 120)
    w, h, left, top, bottom = 440 + right, 300, 56, 30, 44
    pw, ph = w - left - right, h - top - bottom
    body = [f'<text x="{left}" y="18" font-weight="bold">{title}</text>']
    for k in range(6):
        y = top + ph - ph * k / 5
        body.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        body.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{ymax * k / 5:.2g}</text>')
    gw = pw / max(1, len(groups))
    bw = gw * 0.8 / max(1, len(names))
    for gi, (label, vals) in enumerate(groups.items()):
        x0 = left + gi * gw + gw * 0.1
        for si, name in enumerate(names):
            if name not in vals:
                continue
            v = min(vals[name], ymax)
            bh = ph * v / ymax
            body.append(
                f'<rect x="{x0 + si * bw:.1f}" y="{top + ph - bh:.1f}" width="{bw - 1:.1f}" height="{bh:.1f}" '
                f'fill="{_COLOURS.get(name, "#555")}"/>'
            )
        if reference and label in reference:
            y = top + ph - ph * reference[label] / ymax
            body.append(f'<line x1="{x0 - 2:.1f}" y1="{y:.1f}" x2="{x0 + gw * 0.8 + 2:.1f}" y2="{y:.1f}" stroke="black" stroke-dasharray="4 2"/>')
        body.append(f'<text x="{x0 + gw * 0.4:.1f}" y="{top + ph + 16}" text-anchor="middle">{label}</text>')
    body.append(f'<text x="14" y="{top + ph / 2}" transform="rotate(-90 14 {top + ph / 2})" text-anchor="middle">{ylabel}</text>')
    for si, name in enumerate(names):
        ly = top + 10 + 18 * si
        body.append(f'<rect x="{w - right + 10}" y="{ly - 8}" width="14" height="10" fill="{_COLOURS.get(name, "#555")}"/>')
        body.append(f'<text x="{w - right + 30}" y="{ly + 1}">{name}</text>')
    if reference:
        ly = top + 10 + 18 * len(names)
        body.append(f'<line x1="{w - right + 10}" y1="{ly - 3}" x2="{w - right + 24}" y2="{ly - 3}" stroke="black" stroke-dasharray="4 2"/>')
        body.append(f'<text x="{w - right + 30}" y="{ly + 1}">{reference_label}</text>')
    return _svg(w, h, body, title)


# ---------------------------------------------------------------- the report


def _ends(games: Sequence[GameResult], reason: str) -> int:
    return sum(1 for g in games if g.end_reason == reason)


def _five(games: Sequence[GameResult]) -> int:
    """Games in which some hand held 5 or more dice all +3 or all -3 (or that ended by all threes)."""
    return sum(1 for g in games if g.threes5_turn is not None or g.end_reason == "all_threes")


def _cells(by: dict[tuple[str, int], list[GameResult]]) -> Iterator[tuple[int, str, list[GameResult]]]:
    """(players, policy, games) of every measured cell, by players then policy."""
    for n in PLAYERS:
        for p in POLICIES:
            gs = by.get((p, n))
            if gs:
                yield n, p, gs


def write_report(
    cells: list[Cell], options: list[tuple[str, list[GameResult]]], out: Path, seconds: float, scale: float = 1.0
) -> str:
    by = {(c.policy, c.players): c.games for c in cells}
    lines: list[str] = []
    add = lines.append
    add("# Six-Dice balance study")
    add("")
    add(
        f"Generated by `python -m sixdice.lab.study --scale {scale:g}` (seeded; "
        f"{sum(len(c.games) for c in cells) + sum(len(g) for _, g in options)} games, {seconds / 60:.0f} minutes "
        "on this machine). Every seat of a game plays the same strength (see `docs/sixdice-engine.md`, *Bots*); "
        "the dice are rolled by a seeded generator; the rules are the defaults (bank 12 per player, 12 rounds) "
        "unless a section says otherwise. Percentages in brackets are 95% Wilson intervals."
    )
    add("")
    add("## Sample sizes")
    add("")
    add("| players | " + " | ".join(POLICIES) + " |")
    add("|---|" + "---|" * len(POLICIES))
    for n in PLAYERS:
        add(f"| {n} | " + " | ".join(str(len(by.get((p, n), []))) for p in POLICIES) + " |")
    add("")
    add("## How games end")
    add("")
    add(
        "Length in turns (the round limit is 12 × players turns), how games end "
        "(*all threes*, *rounds*; *time* never happens here, no table clock runs), "
        "and the share of games won by more than one player."
    )
    add("")
    add("| players | play | turns (mean) | all threes | round limit | shared wins |")
    add("|---|---|---|---|---|---|")
    for n, p, gs in _cells(by):
        k = len(gs)
        shared = sum(1 for g in gs if len(g.winners) > 1)
        add(
            f"| {n} | {p} | {statistics.mean(g.turns for g in gs):.1f} | {_ci(_ends(gs, 'all_threes'), k)} "
            f"| {_pct(_ends(gs, 'rounds') / k)} | {_ci(shared, k)} |"
        )
    add("")
    add("## First player and seats")
    add("")
    add(
        "Win share by turn order (the first player is the one R1 picks: the hand closest to 0), "
        "a shared win split between its winners; the fair share is 1/players. "
        "The chart shows the first player's share."
    )
    add("")
    add("![first player's win share](sixdice-balance-first.svg)")
    add("")
    add("| players | play | 1st | 2nd | 3rd | 4th | 5th | 6th | 7th | 8th | fair |")
    add("|---|---|" + "---|" * 9)
    for n, p, gs in _cells(by):
        sh = order_shares(gs)
        cells_txt = [_pct(x) for x in sh] + [""] * (8 - n)
        add(f"| {n} | {p} | " + " | ".join(cells_txt) + f" | {_pct(1 / n)} |")
    add("")
    add("By seat number (seat 1 breaks R1 ties, so it starts more often):")
    add("")
    add("| players | play | " + " | ".join(f"seat {i}" for i in range(1, 9)) + " |")
    add("|---|---|" + "---|" * 8)
    for n, p, gs in _cells(by):
        sh = seat_shares(gs)
        add(f"| {n} | {p} | " + " | ".join([_pct(x) for x in sh] + [""] * (8 - n)) + " |")
    add("")
    add("## The bank over the game")
    add("")
    add("The average bank at the start of each round, as a share of the bank size.")
    add("")
    add("![bank level by round, 4 players](sixdice-balance-bank.svg)")
    add("")
    add("| players | play | round 1 | round 4 | round 8 | round 12 |")
    add("|---|---|---|---|---|---|")
    for n, p, gs in _cells(by):
        br = bank_by_round(gs)
        add(f"| {n} | {p} | " + " | ".join(_pct(br[r]) if r < len(br) else "" for r in (0, 3, 7, 11)) + " |")
    add("")
    add("## Skipped steps (R2, R8)")
    add("")
    add(
        "Per game: flips skipped because the mover had no legal flip (R2), draws skipped on an empty "
        "bank and no-groups pairs skipped on a bank of fewer than 2 (R8); and the share of games with at least one."
    )
    add("")
    add("| players | play | R2 per game | games with R2 | R8 draws per game | R8 pairs per game | games with R8 |")
    add("|---|---|---|---|---|---|---|")
    for n, p, gs in _cells(by):
        k = len(gs)
        add(
            f"| {n} | {p} | {statistics.mean(g.r2 for g in gs):.2f} | {_pct(sum(1 for g in gs if g.r2) / k)} "
            f"| {statistics.mean(g.r8_draw for g in gs):.2f} | {statistics.mean(g.r8_pair for g in gs):.2f} "
            f"| {_pct(sum(1 for g in gs if g.r8_draw or g.r8_pair) / k)} |"
        )
    add("")
    add("## Rules options that bring all threes within reach")
    add("")
    add(
        f"{OPTION_PLAYERS} players, greedy play, {len(options[0][1]) if options else 0} games per line. "
        "*5 or more dice* is the share of games in which some hand held 5 or more dice all +3 or all −3 "
        "at some moment: under that threshold those games would have ended by all threes (a lower bound: "
        "the bots do not aim for it). None of these is a default: the defaults stay as the spec sets them."
    )
    add("")
    add("| rules | turns (mean) | all threes (6+ dice, the rule) | 5 or more dice (option) |")
    add("|---|---|---|---|")
    for label, gs in options:
        k = len(gs)
        five = _five(gs)
        add(f"| {label} | {statistics.mean(g.turns for g in gs):.1f} | {_ci(_ends(gs, 'all_threes'), k)} | {_ci(five, k)} |")
    add("")
    add("Under the default rules, the same measure for every strength:")
    add("")
    add("| players | play | all threes (6+ dice) | 5 or more dice |")
    add("|---|---|---|---|")
    for n, p, gs in _cells(by):
        k = len(gs)
        five = _five(gs)
        add(f"| {n} | {p} | {_ci(_ends(gs, 'all_threes'), k)} | {_ci(five, k)} |")
    add("")
    add("![all threes by strength and option](sixdice-balance-threes.svg)")
    add("")
    text = "\n".join(lines) + "\n"
    path = out / "sixdice-balance.md"
    kept = ""
    if path.exists():  # the hand-written interpretation below the mark survives a new run
        old = path.read_text(encoding="utf-8")
        if HAND_MARK in old:
            kept = old[old.index(HAND_MARK) :]
    path.write_text(text + FINDINGS_MARK + _findings(by, options) + ("\n" + kept if kept else ""), encoding="utf-8")
    return text


FINDINGS_MARK = "## What the figures say\n\n"
HAND_MARK = "<!-- written by hand: kept when the study runs again -->"


def _findings(by: dict[tuple[str, int], list[GameResult]], options: list[tuple[str, list[GameResult]]]) -> str:
    """Plain sentences computed from the figures (the interpretation is in docs/sixdice-engine.md too)."""
    def rate(p: str, n: int, reason: str = "all_threes") -> float:
        gs = by.get((p, n), [])
        return _ends(gs, reason) / len(gs) if gs else 0.0

    out = []
    cells = [(rate(p, n), p, n) for p in POLICIES for n in PLAYERS if by.get((p, n))]
    hi = max(cells)
    lo = min(cells)
    out.append(
        f"- All threes ended between {_pct(lo[0])} ({lo[1]}, {lo[2]} players) and {_pct(hi[0])} "
        f"({hi[1]}, {hi[2]} players) of the games; every other game ended on the round limit, "
        "won by the largest absolute hand value."
    )
    out.append(
        "- With 4 players, all threes ended "
        + ", ".join(f"{_pct(rate(p, 4))} of {p} games" for p in POLICIES if by.get((p, 4)))
        + "."
    )
    if options:
        best_label, best_gs = max(options, key=lambda o: _ends(o[1], "all_threes") / max(1, len(o[1])))
        five_best = max(
            (_five(gs) / max(1, len(gs)), label)
            for label, gs in options
        )
        out.append(
            f"- **Options.** The option with the most all-threes endings is *{best_label}* "
            f"({_pct(_ends(best_gs, 'all_threes') / max(1, len(best_gs)))}); a 5-dice threshold reaches "
            f"{_pct(five_best[0])} with *{five_best[1]}*."
        )
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- house rules


HOUSE_PLAYERS = (2, 3, 4, 5)
VARIANT_PLAYERS = (2, 3, 4, 5)
SINGLE_VARIANTS: tuple[tuple[str, str, int | None], ...] = (  # label, variants, bank per player (None: 12)
    ("as written", "", None),
    ("a hand is scored at the end of its owner's last turn", "last_turn_score", None),
    ("the last round in reverse order", "reverse_last_round", None),
    ("no flip back", "no_flip_back", None),
    ("a larger bank: 18 dice per player", "", 18),
    ("the bank refills to 3 dice per player each round", "refill=3", None),
    ("all threes with 5 or more dice", "threes_dice=5", None),
    ("compensation: 1 point per later seat", "first_bonus=1", None),
    ("compensation: 2 points per later seat", "first_bonus=2", None),
)


CACHED_ONLY = [False]  # --cached-only: write the report from the cells measured so far, play none
JOBS = [1]  # --jobs: processes that play a cell's games


def _play_key(play: str) -> str:
    """The play as the cache names it: strong play carries the strong bot's version."""
    return f"strong-v{STRONG_VERSION}" if play == "strong" else play


def _cell_key(label: str, players: int, play: str, games: int, seed: int, variants: Variants, bank: int) -> str:
    """A cell's name in the cache: the rules themselves are part of it, so a changed preset plays again."""
    rules = ",".join(f"{k}={v}" for k, v in sorted(variants.to_dict().items())) or "as written"
    return f"{label}|{players}|{_play_key(play)}|{games}|{seed}|{rules}|bank {bank}"


def _cached_cell(
    cache: dict[str, Any], path: Path | None, label: str, variants: Variants, bank: int, players: int, play: str,
    games: int, seed: int,
) -> dict[str, Any]:
    key = _cell_key(label, players, play, games, seed, variants, bank)
    if key not in cache and CACHED_ONLY[0]:
        # --cached-only: the largest sample of the same cell measured so far (its size is printed)
        mine = key.split("|")
        sizes = {int(f[3]): k for k in cache if (f := k.split("|"))[:3] + f[4:] == mine[:3] + mine[4:]}
        return cache[sizes[max(sizes)]] if sizes else {}
    if key not in cache:
        t0 = time.perf_counter()
        print(f"{label}: {play}, {players} players, {games} games", file=sys.stderr, flush=True)
        c = rulestudy.cell(play, players, games, seed + players, variants, bank, JOBS[0])
        c["rules"] = label
        c["seconds"] = round(time.perf_counter() - t0, 1)
        cache[key] = c
        if path is not None:
            path.write_text(json.dumps(cache, indent=1, sort_keys=True), encoding="utf-8")
    return cache[key]


def _arena_cell(
    cache: dict[str, Any], path: Path | None, players: int, games: int, seed: int, jobs: int = 1
) -> dict[str, Any]:
    key = f"arena|{_play_key('strong')},greedy|{players}|{games}|{seed}"
    if key not in cache and CACHED_ONLY[0]:
        return {}
    if key not in cache:
        print(f"arena: strong vs greedy, {players} players, {games} games", file=sys.stderr, flush=True)
        pols = ["strong"] + ["greedy"] * (players - 1)
        t0 = time.perf_counter()
        res = match(pols, players, games, seed, jobs=jobs)
        rt = {r.policy: r for r in rates(res)}["strong"]
        lo, hi = rt.interval()
        cache[key] = {"players": players, "games": games, "strong": round(rt.rate, 4), "ci": [round(lo, 4), round(hi, 4)],
                      "strong_by_order": _strong_by_order(res, players), "seconds": round(time.perf_counter() - t0, 1)}
        if path is not None:
            path.write_text(json.dumps(cache, indent=1, sort_keys=True), encoding="utf-8")
    return cache[key]


def _strong_by_order(results: Sequence[GameResult], players: int) -> list[float]:
    """The strong bot's win share by its place in the turn order (0: it moved first)."""
    won = [0.0] * players
    sat = [0] * players
    for r in results:
        if r.first is None:
            continue
        seat = r.seats.index("strong")
        place = (seat - r.first) % players
        sat[place] += 1
        if seat in r.winners:
            won[place] += 1 / len(r.winners)
    return [round(w / k, 4) if k else 0.0 for w, k in zip(won, sat, strict=True)]


def _fmt_ci(x: float, ci: Sequence[float]) -> str:
    return f"{100 * x:.1f}% [{100 * ci[0]:.1f}–{100 * ci[1]:.1f}]"


def _tick(ok: bool) -> str:
    return "yes" if ok else "**no**"


def report_charts(cells: dict[tuple[str, str, int], dict[str, Any]], out: Path) -> list[str]:
    """Draw the report's three charts into ``out`` from its cells (``cells[rules, play, players]``,
    empty when not measured) and return the lines of the page that show them."""
    series = {f"{'as written' if rules == 'as-written' else rules}, {play}": (rules, play)
              for rules in ("as-written", "recommended") for play in ("greedy", "strong")}

    def by_players(figure: Any) -> dict[str, dict[str, float]]:
        return {str(n): {name: figure(c) for name, (rules, play) in series.items()
                         if (c := cells.get((rules, play, n)))} for n in HOUSE_PLAYERS}

    first = by_players(lambda c: c["seat_share"][0])
    (out / "sixdice-balance-first.svg").write_text(
        bar_chart(first, "First player's win share, by number of players", "win share", 0.6, {str(n): 1 / n for n in HOUSE_PLAYERS}),
        encoding="utf-8")
    bank = {}
    for name, (rules, play) in series.items():
        rounds = (cells.get((rules, play, 4)) or {}).get("bank_by_round", [])
        ys = list(takewhile(lambda y: y is not None, rounds))  # up to the first round no game reached
        if ys:
            bank[name] = ys
    (out / "sixdice-balance-bank.svg").write_text(
        line_chart(bank, "Bank at the start of each round, 4 players", "round", "share of the starting bank", 1.0,
                   _COLOURS), encoding="utf-8")
    threes = by_players(lambda c: c["all_threes"])
    top = max([0.1, *(x for g in threes.values() for x in g.values())])
    (out / "sixdice-balance-threes.svg").write_text(
        bar_chart(threes, "Games ended by all threes, by number of players", "share of games",
                  round(min(1.0, top + 0.05), 1), {str(n): THREES_TARGET for n in HOUSE_PLAYERS}, "target"),
        encoding="utf-8")
    return [
        "## Charts",
        "",
        "The tables above drawn: the rules as written (light) and recommended (dark), greedy play (blue) "
        "and strong play (red). The dashed marks: in the first, the fair share (one in as many as play); in the "
        "third, the target of all threes (at least 20% of games).",
        "",
        "![First player's win share by number of players, both rule sets, greedy and strong play]"
        "(sixdice-balance-first.svg)",
        "",
        "![Bank at the start of each round, 4 players, both rule sets, greedy and strong play]"
        "(sixdice-balance-bank.svg)",
        "",
        "![Share of games ended by all threes by number of players, both rule sets, greedy and strong play]"
        "(sixdice-balance-threes.svg)",
        "",
    ]


def house_report(
    cache: dict[str, Any], path: Path | None, out: Path, *, greedy: int, strong: int, variant_games: int,
    arena_games: int, seed: int, arena_games_4: int | None = None,
) -> str:
    """Play (or take from the cache) every cell of the house-rules study and write ``sixdice-balance.md``."""
    lines: list[str] = []
    add = lines.append
    presets = (("as-written", "as_written"), ("recommended", "recommended"))
    # Play the cells in the order that matters most when time is short: greedy, then strong, then the rest.
    for play, k in (("greedy", greedy), ("strong", strong)):
        for title, key in presets if k > 0 else ():
            for n in HOUSE_PLAYERS:
                v, b = preset(key, n)
                _cached_cell(cache, path, title, v, b, n, play, k, seed)
    add("# Six-Dice balance study: the rules as written and the house rules")
    add("")
    add(
        f"Generated by `python -m sixdice.lab.study --report --greedy-games {greedy} --strong-games {strong} "
        f"--variant-games {variant_games} --arena-games {arena_games}"
        + (f" --arena-games-4 {arena_games_4}" if arena_games_4 else "")
        + f" --seed {seed}` (seeded: the same command "
        "gives the same figures; cells are kept in `docs/sixdice-balance.json` and reused). Every seat of a game "
        "plays the same strength (greedy or strong, see `docs/sixdice-engine.md`, *Bots*); the dice come from a "
        "seeded generator; 12 rounds. Brackets are 95% Wilson intervals. *Seat shares* are by turn order (the "
        "first player, picked by R1, first), a shared win split between its winners."
    )
    add("")
    add("The targets: every seat's win share within 5 points of fair (1/players); the bank empty before the "
        "last round in at most 10% of games; all threes ends at least 20% of games; the player leading after a "
        "third of the rounds (round 4) wins at most 1.5 × the fair share.")
    add("")
    add("**Recommended**, by number of players:")
    add("")
    for low, (rec, rec_bank) in sorted(PRESETS["recommended"].items()):
        add(f"- from {low} players: " + (", ".join(f"`{k}={v}`" for k, v in rec.to_dict().items()) or "as written")
            + f", bank {rec_bank} dice per player")
    add("")
    for title, key in presets if greedy > 0 else ():
        add(f"## {title.capitalize()}")
        add("")
        add("| players | play | games | seat shares (turn order) | fair | leader after round 4 wins | lead changes, 2nd half | "
            "bank empty before last round | all threes | seats / bank / threes / leader on target |")
        add("|---|---|---|---|---|---|---|---|---|---|")
        for play, k in (("greedy", greedy), ("strong", strong)):
            if k <= 0:
                continue
            for n in HOUSE_PLAYERS:
                v, b = preset(key, n)
                c = _cached_cell(cache, path, title, v, b, n, play, k, seed)
                if not c:
                    add(f"| {n} | {play} | {k} | not measured yet | | | | | | |")
                    continue
                t = c["targets"]
                add(
                    f"| {n} | {play} | {c['games']} | " + " / ".join(f"{100 * x:.1f}" for x in c["seat_share"])
                    + f" | {100 * c['fair_share']:.1f}% | {_fmt_ci(c['leader_after_third_wins'], c['leader_after_third_wins_ci'])} "
                    f"| {c['lead_changes_second_half']:.2f} "
                    f"| {_fmt_ci(c['bank_empty_before_last_round'], c['bank_empty_before_last_round_ci'])} "
                    f"| {_fmt_ci(c['all_threes'], c['all_threes_ci'])} "
                    f"| {' / '.join(_tick(t[x]) for x in ('seats', 'bank', 'threes', 'leader'))} |"
                )
        add("")
        add("Bank at the start of rounds 1, 4, 8 and 12 (share of the starting bank), greedy play:")
        add("")
        add("| players | round 1 | round 4 | round 8 | round 12 | ends |")
        add("|---|---|---|---|---|---|")
        for n in HOUSE_PLAYERS:
            v, b = preset(key, n)
            c = _cached_cell(cache, path, title, v, b, n, "greedy", greedy, seed)
            if not c:
                continue
            br = c["bank_by_round"]
            add(f"| {n} | " + " | ".join(_pct(br[r]) if r < len(br) and br[r] is not None else "" for r in (0, 3, 7, 11))
                + " | " + ", ".join(f"{k2} {_pct(x)}" for k2, x in c["ends"].items()) + " |")
        add("")
    if greedy > 0:
        got = {(title, play, n): _cached_cell(cache, path, title, *preset(key, n), n, play, k, seed)
               for title, key in presets for play, k in (("greedy", greedy), ("strong", strong)) if k > 0
               for n in HOUSE_PLAYERS}
        lines += report_charts(got, out)
    if variant_games > 0:
        add("## Each variant on its own")
        add("")
        add(f"Greedy play, {variant_games} games per line; every other rule as written. Seat shares by turn order.")
        add("")
        add("| variant | players | seat shares | leader after round 4 wins | lead changes, 2nd half | bank empty before last round | all threes |")
        add("|---|---|---|---|---|---|---|")
        for label, text, bank in SINGLE_VARIANTS:
            v = rulestudy.parse_variants(text)
            for n in VARIANT_PLAYERS:
                c = _cached_cell(cache, path, label, v, bank or 12, n, "greedy", variant_games, seed)
                if not c:
                    continue
                add(
                    f"| {label} | {n} | " + " / ".join(f"{100 * x:.1f}" for x in c["seat_share"])
                    + f" | {_fmt_ci(c['leader_after_third_wins'], c['leader_after_third_wins_ci'])} "
                    f"| {c['lead_changes_second_half']:.2f} "
                    f"| {_fmt_ci(c['bank_empty_before_last_round'], c['bank_empty_before_last_round_ci'])} "
                    f"| {_fmt_ci(c['all_threes'], c['all_threes_ci'])} |"
                )
        add("")
    if arena_games > 0:
        add("## The strong bot against greedy")
        add("")
        add("`python -m sixdice.lab.arena` under the rules as written, seats rotated, shared wins split:")
        add("")
        add("| match | games | strong wins | by its place in the turn order (first to last) | target |")
        add("|---|---|---|---|---|")
        for n, target in ((2, "65%"), (4, "40%")):
            games_n = arena_games if n == 2 else (arena_games_4 or max(4, arena_games // 2))
            a = _arena_cell(cache, path, n, games_n, seed, JOBS[0])
            desc = "strong vs greedy, 2 players" if n == 2 else "1 strong, 3 greedy, 4 players"
            if not a:
                add(f"| {desc} | not measured yet | | | {target} |")
                continue
            order = " / ".join(f"{100 * x:.1f}%" for x in a.get("strong_by_order", []))
            add(f"| {desc} | {a['games']} | {_fmt_ci(a['strong'], a['ci'])} | {order} | {target} |")
        add("")
    old = out / "sixdice-balance.md"
    keep = ""
    if old.exists():
        text = old.read_text(encoding="utf-8")
        marker = "<!-- written by hand: kept when the study runs again -->"
        if marker in text:
            keep = text[text.index(marker):]
    from sixdice.lab.tune import BEGIN, END

    if old.exists() and BEGIN in (text := old.read_text(encoding="utf-8")) and END in text:
        # the Compensation section (python -m sixdice.lab.tune report) stays
        lines += ["", text[text.index(BEGIN): text.index(END) + len(END)]]
    body = "\n".join(lines) + "\n" + ("\n" + keep if keep else "")
    old.write_text(body, encoding="utf-8")
    return body


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sixdice.lab.study", description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="processes (the machine may be shared)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every sample size")
    parser.add_argument("--out", default="docs", help="folder for the report and its charts")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--classic", action="store_true", help="the first study (strengths x players, rules as written)")
    parser.add_argument("--preset", help="one cell under a preset: as-written or recommended")
    parser.add_argument("--variants", help='one cell under these variants, e.g. "last_turn_score,refill=3"')
    parser.add_argument("--bank-per-player", type=int, default=None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--play", default="greedy", choices=("random", "greedy", "strong"))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--json", action="store_true", help="print the cell as one JSON object")
    parser.add_argument("--records", default=str(records.ROOT),
                        help="recorded games: read, and the missing chunks played and added (default: %(default)s)")
    parser.add_argument("--no-records", action="store_true", help="play every game, record none")
    parser.add_argument("--progress", action="store_true", help="a progress bar on stderr")
    parser.add_argument("--report", action="store_true", help="the house-rules study: write docs/sixdice-balance.md")
    parser.add_argument("--greedy-games", type=int, default=1000)
    parser.add_argument("--strong-games", type=int, default=300)
    parser.add_argument("--variant-games", type=int, default=300)
    parser.add_argument("--arena-games", type=int, default=2000)
    parser.add_argument("--arena-games-4", type=int, default=None, help="4-player arena games (default: half of --arena-games)")
    parser.add_argument("--cached-only", action="store_true", help="write the report from the cells measured so far")
    parser.add_argument("--cache", default=None, help="cells measured so far (default: OUT/sixdice-balance.json)")
    args = parser.parse_args(argv)
    if args.preset or args.variants or args.json or args.bank_per_player is not None:
        label, v, b = rulestudy.rules_of(args.preset, args.variants, args.bank_per_player, args.players)
        root = None if args.no_records else Path(args.records)
        c = rulestudy.cell(args.play, args.players, args.games, args.seed, v, b, args.jobs, label=label, root=root,
                           progress=args.progress)
        c = {"preset": label, **c}
        if args.json:
            print(json.dumps(c))
        else:
            print(json.dumps(c, indent=1))
        return
    if args.report or not args.classic:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        cpath = Path(args.cache) if args.cache else out / "sixdice-balance.json"
        cache = json.loads(cpath.read_text(encoding="utf-8")) if cpath.exists() else {}
        CACHED_ONLY[0] = args.cached_only
        JOBS[0] = args.jobs
        house_report(cache, cpath, out, greedy=args.greedy_games, strong=args.strong_games,
                     variant_games=args.variant_games, arena_games=args.arena_games, seed=args.seed,
                     arena_games_4=args.arena_games_4)
        print(f"wrote {out / 'sixdice-balance.md'}", file=sys.stderr)
        return
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    cells: list[Cell] = []
    for p in POLICIES:
        for n in PLAYERS:
            k = max(2, round(SAMPLES[p][n] * args.scale))
            print(f"{p}, {n} players: {k} games", file=sys.stderr, flush=True)
            cells.append(Cell(p, n, _games(p, n, k, args.seed + n, None, 12, args.jobs)))
    options: list[tuple[str, list[GameResult]]] = []
    for label, _short, bank, rounds in OPTIONS:
        k = max(2, round(OPTION_GAMES * args.scale))
        print(f"options: {label}: {k} games", file=sys.stderr, flush=True)
        options.append((label, _games("greedy", OPTION_PLAYERS, k, args.seed + 100, bank, rounds, args.jobs)))
    by = {(c.policy, c.players): c.games for c in cells}
    first = {
        str(n): {p: order_shares(by[p, n])[0] for p in POLICIES if by.get((p, n))} for n in PLAYERS
    }
    (out / "sixdice-balance-first.svg").write_text(
        bar_chart(first, "First player's win share, by number of players", "win share", 0.6, {str(n): 1 / n for n in PLAYERS}), encoding="utf-8"
    )
    (out / "sixdice-balance-bank.svg").write_text(
        line_chart(
            {p: bank_by_round(by[p, 4]) for p in POLICIES if by.get((p, 4))},
            "Bank at the start of each round, 4 players",
            "round",
            "share of the bank size",
            1.0,
            _COLOURS,
        ),
        encoding="utf-8",
    )
    threes = {
        SHORT[label]: {
            "greedy": _ends(gs, "all_threes") / len(gs),
        }
        for label, gs in options
    }
    five = {SHORT[label]: _five(gs) / len(gs) for label, gs in options}
    top = max([0.1, *five.values(), *(v["greedy"] for v in threes.values())])
    (out / "sixdice-balance-threes.svg").write_text(
        bar_chart(
            {k: {"6+ dice": v["greedy"], "5+ dice": five[k]} for k, v in threes.items()},
            "All threes, 4 players, greedy play",
            "share of games",
            round(top + 0.05, 1),
        ),
        encoding="utf-8",
    )
    write_report(cells, options, out, time.perf_counter() - t0, args.scale)
    print(f"wrote {out / 'sixdice-balance.md'} and 3 charts", file=sys.stderr)


if __name__ == "__main__":
    main()
