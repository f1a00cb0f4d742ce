"""Matches between bot strengths: ``python -m sixdice.lab.arena``.

    python -m sixdice.lab.arena --players 2 --policies greedy,random --games 2000 --seed 1 [--jobs 2]

Each game seats the policies in turn (``greedy, random, greedy, random`` with
4 players) and rotates them by one seat per game, so that over every block of
``players`` games each policy sits in each seat equally often; the games of a
block share their dice seed (common random numbers: the same first rolls meet
every seating).  The first player is then whoever R1 picks.

A game gives each seat its share of the win: 1 for a win alone, ``1/k`` for a
win shared by ``k``, 0 otherwise.  A policy's win rate is the sum of its
seats' shares over the games; the 95% interval is Wilson's score interval on
that rate over the games (a shared win counts as its share).  The fair rate
of a policy holding ``j`` of ``n`` seats is ``j / n``.

Games are played in ``--jobs`` processes (default 1; the machine is shared).
Everything is seeded: the same command prints the same figures.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from sixdice.rules.bots import STRENGTHS, STRONG_BUDGET, Bot, play
from sixdice.rules.game import State, final_scores, new_game
from sixdice.rules.variants import AS_WRITTEN, Variants

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``successes / n``."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def seating(policies: Sequence[str], players: int, game: int) -> list[str]:
    """The policy of every seat in game number ``game``: the policies in turn, rotated by ``game``."""
    base = [policies[i % len(policies)] for i in range(players)]
    r = game % players
    return base[-r:] + base[:-r] if r else base


@dataclass
class GameResult:
    """What the arena and the study keep of one game."""

    seats: list[str]
    winners: tuple[int, ...]
    end_reason: str
    turns: int
    first: int | None
    bank_by_turn: list[int] = field(default_factory=list)  # the bank at the start of every turn
    r2: int = 0  # flips skipped (R2)
    r8_draw: int = 0  # draws skipped (R8)
    r8_pair: int = 0  # no-groups pairs skipped (R8)
    threes5_turn: int | None = None  # first turn at which some hand held 5+ dice all +3 or all -3
    values: list[int] = field(default_factory=list)
    total: int = 0  # the bank size at the start
    rounds: int = 12
    bank_by_round: list[int] = field(default_factory=list)  # the bank at the start of every round
    bank_empty_round: int | None = None  # the first round (1..) during which the bank was empty
    leaders_third: tuple[int, ...] = ()  # the leading seats (by what the round limit counts) after a third of the rounds
    lead_changes_second_half: int = 0  # changes of the leading seat(s), turn by turn, in the second half
    scores: list[int] = field(default_factory=list)  # what each seat counts at the round limit, no compensation
    scores_third: list[int] = field(default_factory=list)  # the same after a third of the rounds


def play_game(
    seats: Sequence[str],
    seed: int,
    *,
    rounds: int = 12,
    bank: int | None = None,
    budget: int = STRONG_BUDGET,
    variants: Variants = AS_WRITTEN,
) -> GameResult:
    """One seeded game with the given policy per seat."""
    n = len(seats)
    dice = random.Random(f"dice-{seed}")
    bots = {s: Bot(seats[s], seed=f"bot-{seed}-{s}", budget=budget, time_cap=None) for s in range(n)}
    res = GameResult(list(seats), (), "", 0, None, rounds=rounds)
    last_turn = [-1]
    last_round = [0]
    third = max(1, rounds // 3)
    leaders: list[tuple[int, ...]] = [()]
    seen: list[tuple[object, ...]] = [(None,) * n]  # the hands at the last look for five threes

    def watch(st: State) -> None:
        for step in st.skipped:
            kind = step.split(":")[0]
            if kind == "flip":
                res.r2 += 1
            elif kind == "draw":
                res.r8_draw += 1
            elif kind == "pair":
                res.r8_pair += 1
        if st.round > 0 and st.turns != last_turn[0] and not st.over:
            last_turn[0] = st.turns
            res.bank_by_turn.append(st.bank)
            if st.round != last_round[0]:
                last_round[0] = st.round
                res.bank_by_round.append(st.bank)
                if st.round == third + 1:
                    res.leaders_third = _leaders(st)
                    res.scores_third = raw_scores(st)
            if 2 * st.turns >= rounds * n:
                lead = _leaders(st)
                if leaders[0] and lead != leaders[0]:
                    res.lead_changes_second_half += 1
                leaders[0] = lead
        if res.bank_empty_round is None and 1 <= st.round < st.rounds and st.bank == 0 and not st.over:
            res.bank_empty_round = st.round
        hands = st.hands
        if res.threes5_turn is None and hands is not seen[0]:
            # only the hands changed since the last look can hold five threes now
            before = seen[0]
            for i, h in enumerate(hands):
                if h is not before[i]:
                    c = h.counts()
                    size = c[0] + c[1] + c[2] + c[3] + c[4] + c[5]
                    if size >= 5 and (c[5] == size or c[0] == size):  # five threes or more, one colour
                        res.threes5_turn = st.turns
                        break
            seen[0] = hands

    st = new_game(n, rounds=rounds, bank=bank, variants=variants)
    res.total = st.total
    st = play(st, {s: bots[s].act for s in range(n)}, dice, watch)
    assert st.end_reason is not None
    res.winners = st.winners
    res.end_reason = st.end_reason
    res.turns = st.turns
    res.first = st.first
    res.values = st.values()
    res.scores = raw_scores(st)
    return res


def raw_scores(st: State) -> list[int]:
    """What each hand counts at the round limit before any compensation: its absolute value, or with
    ``last_turn_score`` the value it had at the end of its owner's last turn."""
    vals = st.values()
    if st.variants.last_turn_score and st.scored:
        vals = [x if x is not None else vals[s] for s, x in enumerate(st.scored)]
    return [abs(x) for x in vals]


def _leaders(st: State) -> tuple[int, ...]:
    vals = final_scores(st)
    top = max(vals)
    return tuple(s for s, v in enumerate(vals) if v == top)


Job = tuple[tuple[str, ...], int, int, int | None, int] | tuple[tuple[str, ...], int, int, int | None, int, Variants]
"""One game to play: seats, seed, rounds, bank (None: 12 per player), budget[, variants]."""


def _play_one(args: Job) -> GameResult:
    seats, seed, rounds, bank, budget = args[:5]
    variants = args[5] if len(args) > 5 else AS_WRITTEN
    return play_game(seats, seed, rounds=rounds, bank=bank, budget=budget, variants=variants)


def run_games(jobs_list: Sequence[Job], jobs: int = 1, progress: bool = False) -> list[GameResult]:
    """Play the games (in ``jobs`` processes), in the order given (with the balancing table, if built)."""
    from sixdice.lab import outcomes

    outcomes.install()  # before the fork: the processes share it
    if jobs <= 1:
        it = map(_play_one, jobs_list)
        if progress:
            from tqdm import tqdm

            return list(tqdm(it, total=len(jobs_list), unit="game", file=sys.stderr))
        return list(it)
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        pit = pool.imap(_play_one, jobs_list, chunksize=4)
        if progress:
            from tqdm import tqdm

            return list(tqdm(pit, total=len(jobs_list), unit="game", file=sys.stderr))
        return list(pit)


def _play_chunk(item: tuple[int, Sequence[Job]]) -> tuple[int, list[GameResult]]:
    start, chunk = item
    return start, [_play_one(j) for j in chunk]


def run_chunks(
    chunks: Sequence[tuple[int, Sequence[Job]]], jobs: int = 1, progress: bool = False
) -> Iterator[tuple[int, list[GameResult]]]:
    """Play chunks of games (``(start, games)``) in ``jobs`` processes; yield each chunk as it finishes
    (with several processes, not necessarily in order)."""
    from sixdice.lab import outcomes

    outcomes.install()  # before the fork: the processes share it
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=sum(len(c) for _, c in chunks), unit="game", file=sys.stderr)
    if jobs <= 1 or len(chunks) <= 1:
        for item in chunks:
            out = _play_chunk(item)
            if bar is not None:
                bar.update(len(out[1]))
            yield out
    else:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(min(jobs, len(chunks))) as pool:
            for out in pool.imap_unordered(_play_chunk, chunks):
                if bar is not None:
                    bar.update(len(out[1]))
                yield out
    if bar is not None:
        bar.close()


def match(
    policies: Sequence[str],
    players: int,
    games: int,
    seed: int = 1,
    *,
    rounds: int = 12,
    bank: int | None = None,
    budget: int = STRONG_BUDGET,
    jobs: int = 1,
    progress: bool = False,
) -> list[GameResult]:
    """``games`` games with the seats rotated; game ``g`` uses dice seed ``seed * 10**6 + g // players``."""
    todo = [
        (tuple(seating(policies, players, g)), seed * 10**6 + g // players, rounds, bank, budget)
        for g in range(games)
    ]
    return run_games(todo, jobs, progress)


@dataclass
class Rate:
    policy: str
    seats: int  # seats per game
    score: float  # sum of win shares
    alone: int  # games won alone by one of its seats
    games: int

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)


def rates(results: Sequence[GameResult]) -> list[Rate]:
    """Each policy's win rate over the games (shares of shared wins counted)."""
    out: dict[str, Rate] = {}
    for r in results:
        for p in dict.fromkeys(r.seats):
            if p not in out:
                out[p] = Rate(p, r.seats.count(p), 0.0, 0, 0)
            out[p].games += 1
        k = len(r.winners)
        for w in r.winners:
            out[r.seats[w]].score += 1.0 / k
        if k == 1:
            out[r.seats[r.winners[0]]].alone += 1
    return list(out.values())


def seat_counts(results: Sequence[GameResult]) -> dict[str, list[int]]:
    """How often each policy sat in each seat."""
    n = len(results[0].seats) if results else 0
    out: dict[str, list[int]] = {}
    for r in results:
        for s, p in enumerate(r.seats):
            out.setdefault(p, [0] * n)[s] += 1
    return out


def report(results: Sequence[GameResult], players: int) -> str:
    lines = [f"{len(results)} games, {players} players"]
    shared = sum(1 for r in results if len(r.winners) > 1)
    for rt in rates(results):
        lo, hi = rt.interval()
        fair = rt.seats / players
        lines.append(
            f"  {rt.policy:<7} ({rt.seats} seat{'s' if rt.seats > 1 else ''}) wins {100 * rt.rate:5.1f}%"
            f"  95% CI [{100 * lo:.1f}%, {100 * hi:.1f}%]  (alone {rt.alone}; fair share {100 * fair:.0f}%)"
        )
    lines.append(f"  shared wins: {shared} ({100 * shared / max(1, len(results)):.1f}%)")
    ends: dict[str, int] = {}
    for r in results:
        ends[r.end_reason] = ends.get(r.end_reason, 0) + 1
    lines.append("  ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())))
    lines.append(
        "  seats: " + "; ".join(f"{p} {c}" for p, c in seat_counts(results).items())
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sixdice.lab.arena", description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], help="player counts (default: 2 4)")
    parser.add_argument(
        "--policies",
        action="append",
        help="comma-separated strengths seated in turn, e.g. greedy,random (repeatable; "
        "default: greedy,random and strong,greedy)",
    )
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--bank", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=STRONG_BUDGET, help="options the strong bot searches per decision")
    parser.add_argument("--jobs", type=int, default=1, help="processes (the machine may be shared)")
    args = parser.parse_args(argv)
    matchups = args.policies or ["greedy,random", "strong,greedy"]
    for m in matchups:
        pols = m.split(",")
        for p in pols:
            if p not in STRENGTHS:
                parser.error(f"unknown strength {p!r}; expected {', '.join(STRENGTHS)}")
        for n in args.players:
            if not 2 <= n <= 8:
                parser.error("players: 2 to 8")
            print(f"== {' vs '.join(pols)}")
            res = match(
                pols, n, args.games, args.seed, rounds=args.rounds, bank=args.bank, budget=args.budget,
                jobs=args.jobs, progress=True,
            )
            print(report(res, n), flush=True)


if __name__ == "__main__":
    main()
