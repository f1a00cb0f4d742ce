"""Counting the SQL statements a table's socket costs: every statement any thread runs (the consumer's work runs in
a database thread, not the test's), and a socket opened with an existing session."""

from __future__ import annotations

from typing import Any


class Statements:
    """Every SQL statement any thread runs, from when it is made."""

    def __init__(self, monkeypatch: Any) -> None:
        from django.db.backends.utils import CursorWrapper

        self.sql: list[str] = []
        original = CursorWrapper._execute_with_wrappers

        def counted(cursor, sql, params, many, executor):
            self.sql.append(sql)
            return original(cursor, sql, params, many, executor)

        monkeypatch.setattr(CursorWrapper, "_execute_with_wrappers", counted)

    async def open(self, code: str, key: str | None, *, query: str = "") -> tuple[Any, dict, int]:
        """Open the table's socket with an existing session: the socket, its welcome, and how many statements had
        run before it was opened."""
        from channels.testing import WebsocketCommunicator

        from sixdice.asgi import application

        headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
        if key:
            headers.append((b"cookie", f"sessionid={key}".encode()))
        before = len(self.sql)
        comm = WebsocketCommunicator(application, f"/ws/t/{code}/{query}", headers=headers)
        connected, _ = await comm.connect()
        assert connected
        welcome = await comm.receive_json_from()
        assert welcome["type"] == "welcome", welcome
        return comm, welcome, before
