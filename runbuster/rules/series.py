"""A table's series of rounds: rotation of Player 1 and a running tally (B3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def next_first(prev_first: int, players: int) -> int:
    """Player 1 of the next round: the seat after the previous Player 1."""
    return (prev_first + 1) % players


@dataclass(frozen=True)
class RoundResult:
    """How a round ended: the drop-out order (1st, 2nd, ...) and the loser."""

    finished: tuple[int, ...]
    loser: int

    @property
    def places(self) -> tuple[int, ...]:
        """Every seat from 1st place to the loser."""
        return self.finished + (self.loser,)


@dataclass(frozen=True)
class Tally:
    """Places and losses per seat over a table's rounds; immutable.

    ``places[s][k]`` counts how often seat ``s`` took place ``k + 1`` (the last
    place being the loss), ``losses[s]`` how often it lost, ``first`` is
    Player 1 of the next round.
    """

    players: int
    first: int = 0
    rounds: int = 0
    places: tuple[tuple[int, ...], ...] = field(default=())
    losses: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.places:
            object.__setattr__(self, "places", tuple((0,) * self.players for _ in range(self.players)))
        if not self.losses:
            object.__setattr__(self, "losses", (0,) * self.players)

    def record(self, result: RoundResult | Mapping[str, Any] | Sequence[int]) -> Tally:
        """The tally after one more round; Player 1 moves to the next seat.

        ``result`` is a :class:`RoundResult`, a mapping with ``finished`` and
        ``loser`` (a round state's ``to_dict()`` works), or the full list of
        places ending with the loser.
        """
        if isinstance(result, RoundResult):
            order = result.places
        elif isinstance(result, Mapping):
            order = tuple(int(s) for s in result["finished"]) + (int(result["loser"]),)
        else:
            order = tuple(int(s) for s in result)
        if sorted(order) != list(range(self.players)):
            raise ValueError(f"A round result must place every seat once: {list(order)}.")
        places = [list(row) for row in self.places]
        for k, seat in enumerate(order):
            places[seat][k] += 1
        losses = list(self.losses)
        losses[order[-1]] += 1
        return Tally(
            players=self.players,
            first=next_first(self.first, self.players),
            rounds=self.rounds + 1,
            places=tuple(tuple(r) for r in places),
            losses=tuple(losses),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "first": self.first,
            "rounds": self.rounds,
            "places": [list(r) for r in self.places],
            "losses": list(self.losses),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tally:
        return cls(
            players=int(data["players"]),
            first=int(data.get("first", 0)),
            rounds=int(data.get("rounds", 0)),
            places=tuple(tuple(int(x) for x in r) for r in data.get("places", ())),
            losses=tuple(int(x) for x in data.get("losses", ())),
        )
