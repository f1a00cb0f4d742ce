"""The house rules measured: one cell (rules x players x play) of the balance study.

Used by ``python -m sixdice.lab.study`` (``--preset``, ``--variants``,
``--json`` and the report).  A cell is a number of seeded games with every
seat of one strength under one set of rules; :func:`measure` returns its
figures as a JSON-able dict:

``seat_share``
    the win share of each seat in turn order (the first player first), a
    shared win split between its winners; sums to 1.
``leader_after_third_wins``
    the share of games won by the player leading after a third of the rounds
    (leading by what the round limit counts; tied leaders share the credit);
    the fair figure is ``1 / players``.
``lead_changes_second_half``
    the mean number of changes of the leading player(s), turn by turn, in the
    second half of the game.
``bank_by_round``
    the mean bank at the start of each round, as a share of the starting bank.
``bank_empty_before_last_round``
    the share of games in which the bank was empty at some moment before the
    last round began.
``all_threes`` / ``ends``
    the share of games ended by all threes; every end reason's share.

Each share comes with its 95% Wilson interval (``*_ci``).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sixdice.lab import records
from sixdice.lab.arena import GameResult, run_games, wilson
from sixdice.rules.bots import STRONG_BUDGET
from sixdice.rules.variants import AS_WRITTEN, NAMES, PRESETS, Variants, preset


def parse_variants(text: str) -> Variants:
    """``"last_turn_score,refill=3,compensation=0:1.5"`` -> Variants; a bare name is ``True``."""
    kw: dict[str, Any] = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        name, _, value = item.partition("=")
        if name not in NAMES:
            raise ValueError(f"unknown variant {name!r}; expected one of {', '.join(NAMES)}")
        if name == "compensation":  # by place in the turn order, colons between: compensation=0:1.5
            kw[name] = tuple(float(x) for x in value.split(":")) if value else ()
            continue
        kw[name] = int(value) if value else True
    return Variants(**kw)


def rules_of(
    name: str | None, variants: str | None, bank_per_player: int | None, players: int
) -> tuple[str, Variants, int]:
    """The label, variants and bank per player of the rules asked for."""
    if name:
        key = name.replace("-", "_")
        if key not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; expected as-written or recommended")
        v, b = preset(key, players)
        label = name
    else:
        v, b = AS_WRITTEN, 12
        label = "as-written"
    if variants:
        v = parse_variants(variants)
        label = variants
    if bank_per_player is not None:
        b = bank_per_player
        label += f", bank {b}/player"
    return label, v, b


def games_of(
    play: str, players: int, games: int, seed: int, variants: Variants, bank_per_player: int, jobs: int = 1,
    rounds: int = 12,
) -> list[GameResult]:
    """``games`` games with every seat of strength ``play``; game ``g`` uses seed ``seed * 10**6 + g``."""
    bank = bank_per_player * players
    todo = [((play,) * players, seed * 10**6 + g, rounds, bank, STRONG_BUDGET, variants) for g in range(games)]
    return run_games(todo, jobs)


def _share(k: float, n: int) -> tuple[float, list[float]]:
    lo, hi = wilson(k, n)
    return (k / n if n else 0.0), [round(lo, 4), round(hi, 4)]


def measure(results: Sequence[GameResult], players: int) -> dict[str, Any]:
    """The figures of one cell (see the module docstring)."""
    n = players
    k = len(results)
    ordered = [g for g in results if g.first is not None]
    seat = [0.0] * n
    for g in ordered:
        assert g.first is not None
        for w in g.winners:
            seat[(w - g.first) % n] += 1 / len(g.winners)
    m = len(ordered)
    seat_share = [x / m if m else 0.0 for x in seat]
    leader = 0.0
    for g in results:
        if g.leaders_third:
            for s in g.leaders_third:
                if s in g.winners:
                    leader += 1 / len(g.winners) / len(g.leaders_third)
    empty = sum(1 for g in results if g.bank_empty_round is not None)
    threes = sum(1 for g in results if g.end_reason == "all_threes")
    rounds = max((len(g.bank_by_round) for g in results), default=0)
    bank_by_round = []
    for r in range(rounds):
        xs = [g.bank_by_round[r] / g.total for g in results if r < len(g.bank_by_round) and g.total]
        bank_by_round.append(round(statistics.mean(xs), 4) if xs else None)
    ends: dict[str, float] = {}
    for g in results:
        ends[g.end_reason] = ends.get(g.end_reason, 0) + 1 / k
    sh, sh_ci = _share(leader, k)
    be, be_ci = _share(empty, k)
    th, th_ci = _share(threes, k)
    return {
        "seat_share": [round(x, 4) for x in seat_share],
        "seat_share_ci": [[round(a, 4), round(b, 4)] for a, b in (wilson(x, m) for x in seat)],
        "fair_share": round(1 / n, 4),
        "leader_after_third_wins": round(sh, 4),
        "leader_after_third_wins_ci": sh_ci,
        "lead_changes_second_half": round(statistics.mean(g.lead_changes_second_half for g in results), 3) if k else 0.0,
        "bank_by_round": bank_by_round,
        "bank_empty_before_last_round": round(be, 4),
        "bank_empty_before_last_round_ci": be_ci,
        "all_threes": round(th, 4),
        "all_threes_ci": th_ci,
        "ends": {key: round(v, 4) for key, v in sorted(ends.items())},
        "turns": round(statistics.mean(g.turns for g in results), 2) if k else 0.0,
        "shared_wins": round(sum(1 for g in results if len(g.winners) > 1) / k, 4) if k else 0.0,
    }


THREES_TARGET = 0.20
"""The share of games all threes should end (the issue's target)."""


def targets(cell: dict[str, Any]) -> dict[str, bool]:
    """The issue's targets for one cell: seats within 5 points of fair, the bank empty before the last
    round in at most 10% of games, all threes at least 20%, the early leader at most 1.5 x fair."""
    fair = cell["fair_share"]
    return {
        "seats": all(abs(x - fair) <= 0.05 for x in cell["seat_share"]),
        "bank": cell["bank_empty_before_last_round"] <= 0.10,
        "threes": cell["all_threes"] >= THREES_TARGET,
        "leader": cell["leader_after_third_wins"] <= 1.5 * fair,
    }


def cell(
    play: str, players: int, games: int, seed: int, variants: Variants, bank_per_player: int, jobs: int = 1,
    *, label: str | None = None, root: Path | None = None, progress: bool = False,
) -> dict[str, Any]:
    """Play and measure one cell; the dict also names the rules.

    With ``root`` (a records folder, :mod:`sixdice.lab.records`) the games recorded there are read
    and the missing ones played and recorded in chunks; ``label`` names the cell's folder."""
    if root is not None:
        results = records.games(label or "rules", play, players, games, seed, variants, bank_per_player, jobs,
                                root, progress=progress)
    else:
        results = games_of(play, players, games, seed, variants, bank_per_player, jobs)
    out: dict[str, Any] = {"players": players, "play": play, "games": games}
    out["variants"] = variants.to_dict()
    out["bank_per_player"] = bank_per_player
    out.update(measure(results, players))
    out["targets"] = targets(out)
    return out
