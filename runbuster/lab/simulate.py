"""Simulate many rounds between bot policies.

    python -m runbuster.lab.simulate --games 100000 --players 2 --policy optimal,greedy --seed 1

Policies are given per seat (the list repeats when shorter than the table).
Player 1 is seat 0 in every round unless ``--rotate`` moves it round by
round as at a real table.  Prints, per seat and per policy, the rate of first
places and of losses, the average round length in turns (rolls) and the
average number of busts per round.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass, field

from runbuster.rules.bots import POLICIES, bot_action
from runbuster.rules.game import apply as apply_action
from runbuster.rules.game import new_game


@dataclass
class Stats:
    players: int
    policies: list[str]
    games: int = 0
    turns: int = 0
    busts: int = 0
    wins: Counter = field(default_factory=Counter)  # first places per seat
    losses: Counter = field(default_factory=Counter)


def run(games: int, players: int, policies: list[str], seed: int | None, rotate: bool = False, progress=None) -> Stats:
    rng = random.Random(seed)
    stats = Stats(players=players, policies=policies)
    first = 0
    for _ in range(games):
        state = new_game(players, first=first)
        while not state.over:
            before = state
            state = apply_action(state, bot_action(state, rng, policies[state.current]))
            if before.phase == "roll":
                stats.busts += len(state.busted)
        stats.games += 1
        stats.turns += state.turns
        stats.wins[state.finished[0]] += 1
        stats.losses[state.loser] += 1
        if rotate:
            first = (first + 1) % players
        if progress is not None:
            progress.update(1)
    return stats


def report(stats: Stats) -> str:
    n = max(stats.games, 1)
    lines = [f"{stats.games} rounds, {stats.players} players"]
    lines.append(f"{'seat':>4}  {'policy':<10} {'1st place':>10} {'lost':>8}")
    by_policy: dict[str, list[int]] = {}
    for seat in range(stats.players):
        pol = stats.policies[seat]
        lines.append(f"{seat:>4}  {pol:<10} {stats.wins[seat] / n:>10.4f} {stats.losses[seat] / n:>8.4f}")
        agg = by_policy.setdefault(pol, [0, 0, 0])
        agg[0] += stats.wins[seat]
        agg[1] += stats.losses[seat]
        agg[2] += 1
    if len(by_policy) > 1:
        lines.append("per policy (per seat on average):")
        for pol, (w, lost, seats) in by_policy.items():
            lines.append(f"      {pol:<10} {w / n / seats:>10.4f} {lost / n / seats:>8.4f}")
    lines.append(f"average length: {stats.turns / n:.2f} turns; busts per round: {stats.busts / n:.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--policy", default="optimal", help=f"comma-separated, per seat: {', '.join(POLICIES)}")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--rotate", action="store_true", help="move Player 1 to the next seat every round")
    args = parser.parse_args(argv)
    names = [p.strip() for p in args.policy.split(",") if p.strip()]
    bad = [p for p in names if p not in POLICIES]
    if bad or not names:
        parser.error(f"unknown policy {bad}; choose from {', '.join(POLICIES)}")
    if not 2 <= args.players <= 8:
        parser.error("2 to 8 players")
    policies = [names[k % len(names)] for k in range(args.players)]
    from tqdm import tqdm

    with tqdm(total=args.games, unit="round") as bar:
        stats = run(args.games, args.players, policies, args.seed, args.rotate, progress=bar)
    print(report(stats))


if __name__ == "__main__":
    main()
