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
from django.utils import timezone

from sixdice.tables.models import Connection, Game, Table

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
    """Keep the connection present; say where the table is: its ``version``, current game and ``seq``.

    Plain SQL, as :func:`arrive`: every connection sends a heartbeat every 25 s.
    """
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_TABLE} SET last_seen = %s WHERE channel_name = %s AND last_seen < %s",
            [connection.ops.adapt_datetimefield_value(now), channel_name,
             connection.ops.adapt_datetimefield_value(now - timedelta(seconds=REFRESH_AFTER))],
        )
        cursor.execute(_WHERE_SQL, [table_id])
        version, game_id, seq = cursor.fetchone()
    return {"game": game_id, "seq": seq or 0, "version": version}


_WHERE_SQL = (
    f"SELECT t.version, g.id, g.seq FROM {Table._meta.db_table} t LEFT JOIN {Game._meta.db_table} g"
    f" ON g.id = (SELECT g2.id FROM {Game._meta.db_table} g2 WHERE g2.table_id = t.id ORDER BY g2.number DESC LIMIT 1)"
    " WHERE t.id = %s"
)


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
