"""The games list as a spreadsheet: one row per game, a column per seat."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sixdice.gamekit.engine import REGISTRY
from sixdice.tables.models import Game

from .. import csvsafe
from ..local_time import spoken
from ..steps import actor_name, count_turns

CSV_COLUMNS = ["table", "game", "number", "status", "date", "finished_at", "end_reason", "events", "turns", "winners",
               "winner_seats"]
"""Then one ``player_<n>`` column per seat (as many as the largest game allows), see :func:`games_csv`."""


def _seat_columns() -> int:
    return max((engine.max_players for engine in REGISTRY.values()), default=0)


def games_csv(games: Iterable[Game]) -> str:
    """One row per game, a column per seat; ``events`` and ``turns`` are the two measures of length.

    ``date`` (the start) and ``finished_at`` are on the club's clock (``TIME_ZONE``) in the active language's
    format, each with its zone: "4 décembre 2026 17:18 (Europe/Kyiv)".
    ``winners`` holds the winners' names ("; " between two), ``winner_seats``
    their seat numbers (1-based, space-separated: names may contain any
    character).  Cells are made safe for spreadsheets
    (:mod:`sixdice.review.csvsafe`).
    """
    seats = _seat_columns()
    header = [*CSV_COLUMNS, *(f"player_{n + 1}" for n in range(seats))]

    def rows() -> Iterable[list[Any]]:
        for game in games:
            events = list(game.events.order_by("seq").values_list("actor", "action"))
            players = list(game.players)[:seats]
            yield [
                game.table.code,
                game.engine,
                game.number,
                game.status,
                spoken(game.started_at),
                spoken(game.finished_at),
                game.end_reason,
                len(events),
                count_turns(REGISTRY[game.engine], events) if game.engine in REGISTRY else "",
                "; ".join(actor_name(str(int(w)), game.players) for w in game.winners),
                " ".join(str(int(w) + 1) for w in game.winners),
                *players,
                *([""] * (seats - len(players))),
            ]

    return csvsafe.write_csv(header, rows())


# ---------------------------------------------------------------- import
