"""Recorded games: a study cell's games kept in seeded chunks, so that studies add up across runs.

A *cell* is one set of rules, a number of players, a play strength (every
seat the same) and a seed; game ``g`` of a cell is the seeded game
``seed * 10**6 + g`` (:func:`sixdice.lab.rulestudy.games_of`), so any range of
games can be played apart from the others and gives the same games.

The games are kept in ``sixdice/lab/records/<cell>/`` as JSON lines, one
game a line, in chunks of :data:`CHUNK` games (``000000-000049.jsonl``); the
folder's ``cell.json`` names the rules in full.  A study asks for ``games``
games: the chunks recorded so far are read, the missing chunks are played
(in ``jobs`` processes) and written one by one as they finish, so a study
stopped at any point goes on from there the next time.  Only whole chunks
are written (a run of a few games for a test writes nothing).

The folder's name carries a short hash of the rules, the bank, the rounds and
the strong bot's version: rules that change (a preset, a new bot) start a new
folder instead of mixing games.

A line keeps what the figures and the re-scoring need: the first player
``f``, the winners ``w`` and how the game ended ``e`` (``rounds``,
``all_threes``), the turns ``t``, each seat's score at the round limit before
any compensation ``s`` (its absolute value, or the value at the end of its
owner's last turn with that rule), the same after a third of the rounds
``s4``, the leaders then ``l4``, the lead changes in the second half ``lc``,
the bank at the start of every round ``br``, the first round with an empty
bank ``be``, the bank size ``tot``, and the final hand values ``v``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sixdice.lab.arena import GameResult, Job, run_chunks
from sixdice.rules.bots import STRONG_BUDGET, STRONG_VERSION
from sixdice.rules.variants import Variants

ROOT = Path(__file__).resolve().parent / "records"
CHUNK = {"random": 100, "greedy": 50, "strong": 10}
"""Games per chunk by play strength (a strong game costs about a hundred greedy ones)."""


def _play_key(play: str) -> str:
    return f"strong-v{STRONG_VERSION}" if play == "strong" else play


def cell_name(label: str, players: int, play: str, seed: int, variants: Variants, bank_per_player: int,
              rounds: int = 12) -> str:
    """The folder of a cell: readable, with a hash of everything that decides its games."""
    rules = {"variants": variants.to_dict(), "bank_per_player": bank_per_player, "rounds": rounds,
             "play": _play_key(play), "budget": STRONG_BUDGET if play == "strong" else None}
    digest = hashlib.sha256(json.dumps(rules, sort_keys=True).encode()).hexdigest()[:8]
    slug = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "rules"
    return f"{slug}-{players}p-{play}-s{seed}-{digest}"


def to_line(g: int, r: GameResult) -> dict[str, Any]:
    return {
        "g": g, "f": r.first, "w": list(r.winners), "e": r.end_reason, "t": r.turns, "s": r.scores,
        "s4": r.scores_third, "l4": list(r.leaders_third), "lc": r.lead_changes_second_half,
        "br": r.bank_by_round, "be": r.bank_empty_round, "tot": r.total, "v": r.values,
        "r2": r.r2, "r8": [r.r8_draw, r.r8_pair], "t5": r.threes5_turn,
    }


def from_line(d: dict[str, Any], play: str, players: int) -> GameResult:
    r = GameResult([play] * players, tuple(d["w"]), d["e"], d["t"], d["f"])
    r.scores = list(d["s"])
    r.scores_third = list(d.get("s4") or [])
    r.leaders_third = tuple(d.get("l4") or ())
    r.lead_changes_second_half = d.get("lc", 0)
    r.bank_by_round = list(d.get("br") or [])
    r.bank_empty_round = d.get("be")
    r.total = d.get("tot", 0)
    r.values = list(d.get("v") or [])
    r.r2 = d.get("r2", 0)
    r.r8_draw, r.r8_pair = d.get("r8", [0, 0])
    r.threes5_turn = d.get("t5")
    return r


def load(folder: Path, play: str, players: int) -> dict[int, GameResult]:
    """Every game recorded in ``folder``, by its number."""
    out: dict[int, GameResult] = {}
    if not folder.is_dir():
        return out
    for f in sorted(folder.glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                out[d["g"]] = from_line(d, play, players)
    return out


def _write_meta(folder: Path, label: str, players: int, play: str, seed: int, variants: Variants,
                bank_per_player: int, rounds: int) -> None:
    """The folder's ``cell.json``: the rules of its games in full (written with the first chunk)."""
    meta = folder / "cell.json"
    if meta.exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    meta.write_text(json.dumps({"label": label, "players": players, "play": _play_key(play), "seed": seed,
                                "variants": variants.to_dict(), "bank_per_player": bank_per_player,
                                "rounds": rounds}, indent=1) + "\n", encoding="utf-8")


def write_chunk(folder: Path, start: int, results: Sequence[GameResult]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{start:06d}-{start + len(results) - 1:06d}.jsonl"
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(to_line(start + i, r), separators=(",", ":")) + "\n"
                           for i, r in enumerate(results)), encoding="utf-8")
    tmp.replace(path)  # a chunk is whole or absent, even when the run is stopped mid-write
    return path


def _ranges(missing: Iterable[int], chunk: int) -> list[tuple[int, int]]:
    """The chunk-aligned ranges [a, b) that hold the missing games."""
    starts = sorted({g - g % chunk for g in missing})
    return [(a, a + chunk) for a in starts]


def games(
    label: str, play: str, players: int, count: int, seed: int, variants: Variants, bank_per_player: int,
    jobs: int = 1, root: Path | None = ROOT, rounds: int = 12, progress: bool = False,
) -> list[GameResult]:
    """Games ``0 .. count - 1`` of a cell: the recorded ones read, the others played (and recorded,
    whole chunks only, when ``root`` is not ``None``)."""
    folder = root / cell_name(label, players, play, seed, variants, bank_per_player, rounds) if root else None
    have = load(folder, play, players) if folder else {}
    missing = [g for g in range(count) if g not in have]
    if missing:
        chunk = CHUNK.get(play, 50)
        bank = bank_per_player * players
        todo: list[tuple[int, list[Job]]] = []
        for a, b in _ranges(missing, chunk):
            todo.append((a, [((play,) * players, seed * 10**6 + g, rounds, bank, STRONG_BUDGET, variants)
                             for g in range(a, min(b, count))]))  # a partial chunk at the end: played, not written
        for a, results in run_chunks(todo, jobs, progress):
            for i, r in enumerate(results):
                have[a + i] = r
            if folder and len(results) == chunk:
                _write_meta(folder, label, players, play, seed, variants, bank_per_player, rounds)
                write_chunk(folder, a, results)
    return [have[g] for g in range(count)]


def recorded(label: str, play: str, players: int, seed: int, variants: Variants, bank_per_player: int,
             root: Path = ROOT, rounds: int = 12) -> list[GameResult]:
    """Every game recorded so far for a cell, in order (no game played)."""
    have = load(root / cell_name(label, players, play, seed, variants, bank_per_player, rounds), play, players)
    return [have[g] for g in sorted(have)]
