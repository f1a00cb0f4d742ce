"""The "Send to BG Stats" link of a finished game.

The BG Stats app (Board Game Stats) documents a link that opens its import
dialog with one play filled in ("Push plays to BG Stats from other apps or
websites", www.bgstatsapp.com/support): ``createPlay.html?data=<url-encoded
JSON>`` with ``sourceName``, ``sourcePlayId``, ``playDate``
(``YYYY-MM-DD HH:MM:SS``), ``durationMin``, ``game`` (``name``,
``sourceGameId``, ``bggId``, ``highestWins``, ``noPoints``) and ``players``
(``name``, ``sourcePlayerId``, ``score``, ``rank``, ``winner``,
``startPlayer``).  See ``docs/reviewing.md``, "Send to BG Stats".

What only a game knows (its points per seat, its BoardGameGeek id) comes from
its presentation's :meth:`~sixdice.gamekit.engine.Presentation.play_record` hook.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from django.urls import reverse
from django.utils import timezone

from sixdice.gamekit.engine import REGISTRY
from sixdice.gamekit.errors import GameError
from sixdice.players.selectors import mask_hidden
from sixdice.tables.models import Game

from .stats import first_player

CREATE_PLAY = "bgstats://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Six-Dice"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


def play_data(game: Game, *, code: str | None = None, names: Sequence[str] | None = None) -> dict[str, Any] | None:
    """The play as BG Stats reads it; ``None`` for a game that is not finished (or whose engine is gone).

    ``names``: the players' names as the page shows them; by default those
    public pages show (a hidden profile is "a player").  ``code``: the table's
    code, when the caller has it (no query).  The date is the game's start in
    this install's time zone.
    """
    engine = REGISTRY.get(game.engine)
    if engine is None or game.status != Game.Status.FINISHED or not isinstance(game.state, dict):
        return None
    players = len(game.players)
    try:
        ranks = engine.final_ranks(game.state, players=players)
        record = engine.presentation.play_record(game.state, players=players)
    except GameError:  # a damaged snapshot: no link rather than an error page
        return None
    start = first_player(game, engine)
    winners = set(game.winners or [])
    code = code or game.table.code
    names = list(names) if names is not None else mask_hidden(game, list(game.players))
    scores = list(record.scores)
    people: list[dict[str, Any]] = []
    for seat, name in enumerate(names):
        player: dict[str, Any] = {
            "name": name,
            "sourcePlayerId": f"{code}-{seat + 1}",
            "winner": seat in winners,
            "startPlayer": seat == start,
        }
        if ranks is not None and seat < len(ranks):
            player["rank"] = ranks[seat]
        if seat < len(scores) and scores[seat] is not None:
            score = scores[seat]
            player["score"] = int(score) if isinstance(score, float) and score.is_integer() else score
        people.append(player)
    about: dict[str, Any] = {"name": str(engine.label), "sourceGameId": engine.slug,
                             "noPoints": all(s is None for s in scores) if scores else True}
    if record.bgg_id is not None:
        about["bggId"] = record.bgg_id
    if record.highest_wins is not None:
        about["highestWins"] = record.highest_wins
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"{code}-{game.number}-{int(game.started_at.timestamp())}",
        "game": about,
        "playDate": timezone.localtime(game.started_at).strftime(DATE_FORMAT),
        "players": people,
    }
    if record.note:
        data["comments"] = record.note  # Six-Dice: the signed hand values, which the scores (absolute) leave out
    if game.finished_at is not None:
        data["durationMin"] = max(1, round((game.finished_at - game.started_at).total_seconds() / 60))
    return data


def link(game: Game, *, code: str | None = None, names: Sequence[str] | None = None) -> str:
    """The "Send to BG Stats" link of a finished game, or ``""`` (arguments as :func:`play_data`)."""
    data = play_data(game, code=code, names=names)
    if data is None:
        return ""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY}?data={quote(text, safe='')}"


def end_links(game: Game, code: str) -> dict[str, str]:
    """The review's links on a finished game's end screen: its replay and "Send to BG Stats".

    Added to the table frame's ``game.links`` (``sixdice.tables.reads.table_frame.END_LINKS``,
    registered in ``apps.py``).  No query: the names are the table's own (the
    players at the table see them anyway).
    """
    return {
        "replay": reverse("review:replay", args=[code, game.number]),
        "bgstats": link(game, code=code, names=game.players),
    }
