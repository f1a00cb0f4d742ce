"""Fit the strong bot's 2-player leaf: ``python -m sixdice.lab.leaffit``.

    python -m sixdice.lab.leaffit [--games 1500] [--seeds 1 2] [--strong]

Plays ``--games`` seeded 2-player greedy-vs-greedy games (default rules) for
each of ``--seeds`` (3,000 games with the defaults), records every
turn start (the mover's hand, the other hand, the turns left) and who won, and
fits one logistic regression per number of turns left ``R`` (1..24) of the
mover's win share on ``(1, margin, margin * same, same, swing)`` (see
:func:`sixdice.rules.bots.mover_win_chance`), by Newton's method with a small
ridge.  Prints the table to paste as :data:`sixdice.rules.bots.LEAF_2P`, each
row with its log-loss on the last quarter of the games when fitted on the
first three quarters.  Pure Python, seeded: the same command prints the same
table.

``--strong`` fits the leaf on the strong bot's own games instead: the strong
bot against greedy, seats alternating game by game, and only the strong seat's
turn starts (the positions where its search reads the leaf, with what its own
play then made of them).  A better-fitting table, but not a stronger bot: see
``docs/sixdice-balance.md``, *A leaf learned from its own games*.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence

from sixdice.rules.bots import Bot, _value, flip_swing, play
from sixdice.rules.dice import Counts, counts_of
from sixdice.rules.game import State, new_game

Row = tuple[list[float], float]  # features, the mover's win share


def features(mover: Counts, other: Counts) -> list[float]:
    """The leaf's features for the seat about to move (count vectors of both hands)."""
    vm, vo = _value(mover), _value(other)
    margin = abs(vm) - abs(vo)
    same = 1.0 if vm * vo > 0 else 0.0
    return [1.0, float(margin), margin * same, same, float(flip_swing(mover, other))]


def _starts(st: State, starts: list[tuple[int, int, list[float]]]) -> None:
    p = st.pending
    if p is not None and p.kind == "flip" and st.round >= 1 and (not starts or starts[-1][0] != st.turns):
        hands = [counts_of(h.dice()) for h in st.hands]
        starts.append((st.turns, p.seat, features(hands[p.seat], hands[1 - p.seat])))


def collect(games: int, seeds: Sequence[int], strong: bool = False) -> dict[int, list[Row]]:
    """Turn starts of ``games`` seeded greedy-vs-greedy games per seed, by turns left; ``strong``:
    the strong bot's turn starts in games against greedy (the strong bot in seat 0 in even games,
    seat 1 in odd ones; R1 picks who moves first)."""
    by: dict[int, list[Row]] = {}
    for seed in seeds:
        for g in range(games):
            seats = ("strong", "greedy") if g % 2 == 0 else ("greedy", "strong")
            bots = {
                s: Bot(seats[s] if strong else "greedy", seed=f"c{seed}-{g}-{s}", time_cap=None) for s in range(2)
            }
            starts: list[tuple[int, int, list[float]]] = []
            end = play(
                new_game(2),
                {s: bots[s].act for s in range(2)},
                random.Random(f"cd{seed}-{g}"),
                lambda st, starts=starts: _starts(st, starts),  # type: ignore[misc]
            )
            for turns, mover, x in starts:
                if strong and seats[mover] != "strong":
                    continue
                share = 1.0 / len(end.winners) if mover in end.winners else 0.0
                by.setdefault(2 * end.rounds - turns, []).append((x, share))
    return by


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [a[i][:] + [b[i]] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def _p(w: Sequence[float], x: Sequence[float]) -> float:
    z = max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x, strict=True))))
    return 1.0 / (1.0 + math.exp(-z))


def fit(rows: Sequence[Row], ridge: float = 1e-3, steps: int = 25) -> list[float]:
    """Logistic regression by Newton's method (the target may be a share: 1/2 for a shared win)."""
    d = len(rows[0][0])
    w = [0.0] * d
    for _ in range(steps):
        g = [ridge * wi for wi in w]
        h = [[ridge if i == j else 0.0 for j in range(d)] for i in range(d)]
        for x, y in rows:
            p = _p(w, x)
            for i in range(d):
                g[i] += (p - y) * x[i]
                for j in range(d):
                    h[i][j] += p * (1 - p) * x[i] * x[j]
        w = [a - b for a, b in zip(w, _solve(h, g), strict=True)]
    return w


def log_loss(w: Sequence[float], rows: Sequence[Row]) -> float:
    total = 0.0
    for x, y in rows:
        p = min(max(_p(w, x), 1e-6), 1 - 1e-6)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sixdice.lab.leaffit", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500, help="games per seed")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--strong", action="store_true", help="fit on the strong bot's turn starts against greedy")
    args = parser.parse_args(argv)
    by = collect(args.games, args.seeds, args.strong)
    print("LEAF_2P: tuple[tuple[float, float, float, float, float], ...] = (")
    for left in sorted(by):
        rows = by[left]
        cut = len(rows) * 3 // 4
        held = log_loss(fit(rows[:cut]), rows[cut:])
        w = fit(rows)
        print("    (" + ", ".join(f"{v:.3f}" for v in w) + f"),  # R={left}, held-out log-loss {held:.3f}")
    print(")")


if __name__ == "__main__":
    main()
