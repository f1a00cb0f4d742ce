"""Play many games with random legal actions or the defaults, and print statistics.

    python -m sixdice.lab.simulate --games 10000 --players 4 --rounds 12 --seed 1 [--policy random|default]

``random``: every flip, grouping and keep choice is drawn uniformly from the
legal ones.  ``default``: flips are random, balancing takes the defaults.
Dice are rolled with one ``random.Random(seed)``.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sixdice.rules.game import State, apply, default_action, legal_actions, new_game, random_flip, roll_action


def choose(state: State, rng: random.Random, policy: str = "random") -> dict[str, Any]:
    """The next action of a simulated table."""
    action = roll_action(state, rng)
    if action is not None:
        return action
    assert state.pending is not None
    if state.pending.kind == "flip":
        flip = random_flip(state, rng)
        assert flip is not None
        return flip
    if policy == "default":
        action = default_action(state)
        assert action is not None
        return action
    return rng.choice(legal_actions(state))


@dataclass
class GameStats:
    turns: int
    end_reason: str
    winners: tuple[int, ...]
    first: int | None
    bank_at_turns: list[int] = field(default_factory=list)
    final_bank: int = 0


def play_game(
    players: int, rounds: int, rng: random.Random, policy: str = "random", bank: int | None = None
) -> GameStats:
    state = new_game(players, rounds=rounds, bank=bank)
    banks: list[int] = []
    while not state.over:
        if state.pending is not None and state.pending.kind == "flip":
            banks.append(state.bank)
        state = apply(state, choose(state, rng, policy))
    assert state.end_reason is not None
    return GameStats(state.turns, state.end_reason, state.winners, state.first, banks, state.bank)


def summarise(stats: list[GameStats], players: int) -> str:
    n = len(stats)
    reasons = Counter(s.end_reason for s in stats)
    shared = sum(1 for s in stats if len(s.winners) > 1)
    first_wins = sum(1 for s in stats if s.first in s.winners)
    first_alone = sum(1 for s in stats if s.winners == (s.first,))
    turn_banks = [b for s in stats for b in s.bank_at_turns]
    lines = [
        f"games: {n}, players: {players}",
        f"average game length: {sum(s.turns for s in stats) / n:.2f} turns",
        "how games ended:",
    ]
    for reason in ("all_threes", "rounds", "time"):
        if reasons[reason]:
            lines.append(f"  {reason:<11} {reasons[reason]:>7}  ({100 * reasons[reason] / n:.2f}%)")
    lines.append(f"  shared wins {shared:>7}  ({100 * shared / n:.2f}%)")
    lines.append(
        f"first player wins: {100 * first_wins / n:.2f}% (alone {100 * first_alone / n:.2f}%; "
        f"fair share {100 / players:.2f}%)"
    )
    if turn_banks:
        lines.append(
            f"average bank level at the start of a turn: {sum(turn_banks) / len(turn_banks):.2f} dice"
        )
    lines.append(f"average bank level at the end: {sum(s.final_bank for s in stats) / n:.2f} dice")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    from tqdm import tqdm

    parser = argparse.ArgumentParser(
        prog="python -m sixdice.lab.simulate", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--bank", type=int, default=None, help="dice in play (default 12 per player)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", choices=("random", "default"), default="random")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    stats = [
        play_game(args.players, args.rounds, rng, args.policy, args.bank)
        for _ in tqdm(range(args.games), unit="game")
    ]
    print(summarise(stats, args.players))


if __name__ == "__main__":
    main()
