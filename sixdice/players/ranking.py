"""Final ranks of a finished game, seat by seat (1 = won; equal numbers are ties).

* A game whose outcome has a finishing order (Run Buster's drop-out order,
  ``Outcome.places``) ranks by that order.
* Six-Dice ranks the winners first (together: a shared win is a tie), then
  the others by the absolute value of their final hand, equal values tied
  (rules R10 and R9).
* An adapter may give its own ranks with a ``ranks(state) -> list[int]`` hook;
  any other game ranks its winners first and everyone else tied behind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sixdice.gamekit.engine import REGISTRY


def dense_ranks(keys: Sequence[Any]) -> list[int]:
    """Rank 1 for the smallest key, equal keys share a rank: ``[3, 1, 3] -> [2, 1, 2]``."""
    order = {key: i + 1 for i, key in enumerate(sorted(set(keys)))}
    return [order[key] for key in keys]


def _sixdice_values(state: Mapping[str, Any]) -> list[int]:
    from sixdice.rules import State

    return State.from_dict(dict(state)).values()


def final_ranks(*, engine: str, state: Mapping[str, Any], players: int, winners: Sequence[int],
                places: Sequence[int]) -> list[int]:
    adapter = REGISTRY.get(engine)
    hook = getattr(adapter, "ranks", None)
    if hook is not None:
        return list(hook(state))
    won = set(winners)
    if places:
        where = {seat: i for i, seat in enumerate(places)}
        return dense_ranks([where.get(seat, len(places)) for seat in range(players)])
    if engine == "sixdice":
        values = _sixdice_values(state)
        return dense_ranks([(seat not in won, -abs(values[seat])) for seat in range(players)])
    return dense_ranks([seat not in won for seat in range(players)])
