"""The table sockets' session middleware: the session is in the scope, ``send`` is the server's own."""

from __future__ import annotations

from typing import Any

import pytest

from sixdice.tables.transport.socket_sessions import SocketSessionMiddlewareStack


async def _send(message: dict[str, Any]) -> None:
    return None


async def _receive() -> dict[str, Any]:
    return {"type": "websocket.connect"}


@pytest.mark.django_db
@pytest.mark.asyncio
@pytest.mark.parametrize(("kind", "raw"), [("websocket", True), ("http", False)])
async def test_websockets_get_the_servers_send_http_the_saving_one(kind, raw):
    seen: dict[str, Any] = {}

    async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["send"] = send
        seen["session"] = scope["session"]

    app = SocketSessionMiddlewareStack(inner)
    scope = {"type": kind, "headers": [(b"cookie", b"sessionid=abcdefgh12345678abcdefgh12345678")], "path": "/"}
    await app(scope, _receive, _send)
    assert (seen["send"] is _send) is raw
    assert seen["session"].session_key == "abcdefgh12345678abcdefgh12345678"
