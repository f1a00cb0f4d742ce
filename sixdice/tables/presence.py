"""Who is at a table right now: one row per open WebSocket, kept in the database.

Presence lives in the database so it is right across several server
processes; a process that dies leaves its rows to time out
(``SIXDICE_PRESENCE_TIMEOUT``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from .models import Connection, Game, Table

REFRESH_AFTER = 10  # seconds: a heartbeat rewrites last_seen at most this often


_TABLE = Connection._meta.db_table


def arrive(channel_name: str, *, table_id: int, seat: int | None, host: bool) -> None:
    """A new connection: one INSERT (a channel name is never reused, so there is nothing to update).

    Plain SQL, as :func:`current`: they run at every connect and disconnect.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {_TABLE} (channel_name, table_id, seat_position, is_host, last_seen) VALUES (%s, %s, %s, %s, %s)",
            [channel_name, table_id, seat, host, connection.ops.adapt_datetimefield_value(timezone.now())],
        )


def register(channel_name: str, *, table_id: int, seat: int | None, host: bool) -> None:
    """An open connection whose seat changed (handed over, given back): one UPDATE, an INSERT if its row is gone."""
    values = {"table_id": table_id, "seat_position": seat, "is_host": host, "last_seen": timezone.now()}
    if not Connection.objects.filter(channel_name=channel_name).update(**values):
        Connection.objects.create(channel_name=channel_name, **values)


def unregister(channel_name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {_TABLE} WHERE channel_name = %s", [channel_name])


def heartbeat(channel_name: str, table_id: int) -> dict[str, Any]:
    """Keep the connection present; say where the table is: its ``version``, current game and ``seq``."""
    now = timezone.now()
    Connection.objects.filter(channel_name=channel_name, last_seen__lt=now - timedelta(seconds=REFRESH_AFTER)).update(
        last_seen=now
    )
    latest = Game.objects.filter(table_id=OuterRef("pk")).order_by("-number")
    row = (
        Table.objects.filter(pk=table_id)
        .annotate(game_id=Subquery(latest.values("id")[:1]), game_seq=Subquery(latest.values("seq")[:1]))
        .values("version", "game_id", "game_seq")
        .get()
    )
    return {"game": row["game_id"], "seq": row["game_seq"] or 0, "version": row["version"]}


def current(table_id: int) -> dict[str, Any]:
    """Who is here, in one query: seats with a live connection, the host page, the number watching."""
    since = timezone.now() - timedelta(seconds=settings.SIXDICE_PRESENCE_TIMEOUT)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT seat_position, is_host FROM {_TABLE} WHERE table_id = %s AND last_seen >= %s",
            [table_id, connection.ops.adapt_datetimefield_value(since)],
        )
        rows = cursor.fetchall()
    connected: set[int] = set()
    host = False
    watching = 0
    for seat, is_host in rows:
        host = host or bool(is_host)
        if seat is not None:
            connected.add(seat)
        elif not is_host:  # 0 or 1 on SQLite
            watching += 1
    return {"connected": sorted(connected), "host": host, "watching": watching}


def connected_positions(table_id: int) -> list[int]:
    connected: list[int] = current(table_id)["connected"]
    return connected
