"""Final ranks of a finished game, seat by seat (1 = won; equal numbers are ties).

Which order a game ranks its players in is the game's own knowledge: each
adapter's :meth:`~sixdice.gamekit.engine.GameEngine.final_ranks` hook gives
it (Six-Dice: winners first, then by |hand value|; Run Buster: the drop-out
order; the kit's default: the finishing order where the outcome has one, else
the winners first and everyone else tied).  This module only asks for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sixdice.gamekit.engine import get_engine

__all__ = ["final_ranks"]


def final_ranks(*, engine: str, state: Mapping[str, Any], players: int) -> list[int]:
    """The ranks of the ``players`` seats in the finished game ``state`` of the game ``engine``.

    Raises :class:`ValueError` when the state is not a finished game's or the
    adapter gives a rank per seat for another number of seats.
    """
    ranks = get_engine(engine).final_ranks(state, players=players)
    if ranks is None:
        raise ValueError(f"a {engine} game that is not over has no final ranks")
    if len(ranks) != players:
        raise ValueError(f"{engine} gave {len(ranks)} ranks for {players} seats")
    return list(ranks)
