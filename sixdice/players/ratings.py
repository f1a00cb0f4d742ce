"""OpenSkill (Plackett-Luce) ratings: one pure function rates one game.

Only profiles are rated.  Guests and bots are left out of the match: the
profiles are ranked among themselves in the order the game gave them (a
profile that finished behind a guest is still ahead of a profile that
finished behind it), and a game with fewer than two profiles rates nobody.
The live update (:func:`sixdice.players.services.record_result`), the
rebuild and the season tables all call :func:`rate_match`, so they give the
same numbers for the same games in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate_match(before: Mapping[int, Skill], ranks: Mapping[int, int]) -> dict[int, Skill]:
    """New skills of the profiles (keys) in one game, from their ranks (1 = best, ties equal)."""
    ids: Sequence[int] = sorted(ranks)
    if len(ids) < 2:
        return {pid: before[pid] for pid in ids}
    teams = [[MODEL.create_rating([before[pid].mu, before[pid].sigma])] for pid in ids]
    rated = MODEL.rate(teams, ranks=[float(ranks[pid]) for pid in ids])
    return {pid: Skill(team[0].mu, team[0].sigma) for pid, team in zip(ids, rated, strict=True)}
