"""Reads for pages and the live connection: what each role at a table is shown."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from sixdice.gamekit.engine import get_engine

from .models import Connection, Event, Game, Table


def connected_positions(table: Table) -> list[int]:
    since = timezone.now() - timedelta(seconds=settings.SIXDICE_PRESENCE_TIMEOUT)
    rows = (
        Connection.objects.filter(table=table, last_seen__gte=since, seat_position__isnull=False)
        .values_list("seat_position", flat=True)
        .distinct()
    )
    return sorted({p for p in rows if p is not None})


def presence(table: Table) -> dict[str, Any]:
    since = timezone.now() - timedelta(seconds=settings.SIXDICE_PRESENCE_TIMEOUT)
    live = Connection.objects.filter(table=table, last_seen__gte=since)
    return {
        "connected": connected_positions(table),
        "host": live.filter(is_host=True).exists(),
        "watching": live.filter(seat_position__isnull=True, is_host=False).count(),
    }


def table_info(table: Table) -> dict[str, Any]:
    engine = get_engine(table.game)
    return {
        "code": table.code,
        "game": table.game,
        "label": engine.label,
        "status": table.status,
        "paused": table.paused,
        "capacity": table.capacity,
        "min_players": engine.min_players,
        "options": table.options,
        "join_url": reverse("tables:table", args=[table.code]),
        "seats": [
            {"position": seat.position, "name": seat.name, "bot": seat.is_bot, "vacant": not (seat.secret_hash or seat.is_bot)}
            for seat in table.seats.order_by("position")
        ],
    }


def current_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def recent_events(game: Game, limit: int = 40) -> list[Event]:
    return list(reversed(game.events.order_by("-seq")[:limit]))


def events_since(game: Game, since: int) -> list[Event] | None:
    """Events after ``since``; ``None`` when the client is too far behind (send a snapshot)."""
    if since < 0 or since > game.seq:
        return None
    if game.seq - since > settings.SIXDICE_RESYNC_MAX_EVENTS:
        return None
    return list(game.events.filter(seq__gt=since).order_by("seq"))


def standings(table: Table) -> list[dict[str, Any]]:
    """Per seat over every finished game at the table: wins, times last, and places."""
    seats = list(table.seats.order_by("position"))
    rows: dict[int, dict[str, Any]] = {
        s.position: {"position": s.position, "name": s.name, "wins": 0, "lost": 0, "places": [0] * len(seats)}
        for s in seats
    }
    finished = table.games.filter(status=Game.Status.FINISHED)
    for winners, places, loser in finished.values_list("winners", "places", "loser"):
        for seat in winners or []:
            if seat in rows:
                rows[seat]["wins"] += 1
        for place, seat in enumerate(places or []):
            if seat in rows and place < len(seats):
                rows[seat]["places"][place] += 1
        if loser in rows:
            rows[loser]["lost"] += 1
    return [rows[s.position] for s in seats]
