"""Connect to a table's WebSocket in-process, as a browser holding some secrets would."""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from sixdice.asgi import application


def make_session(code: str, **held: str) -> str:
    """A saved session holding ``held`` (``seat=``/``host=`` secrets) for table ``code``; its key."""
    store = SessionStore()
    store["tables"] = {code: held}
    store.create()
    return store.session_key


async def connect(
    code: str,
    *,
    origin: str | None = "http://testserver",
    lang: str | None = None,
    accept: str | None = None,
    query: str = "",
    **held: str,
) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    """Open the table's socket with a session cookie (and a language); returns it and the welcome."""
    key = await sync_to_async(make_session)(code, **held)
    cookie = f"sessionid={key}" + (f"; django_language={lang}" if lang else "")
    headers = [(b"host", b"testserver"), (b"cookie", cookie.encode())]
    if origin:
        headers.append((b"origin", origin.encode()))
    if accept:
        headers.append((b"accept-language", accept.encode()))
    comm = WebsocketCommunicator(application, f"/ws/t/{code}/{query}", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    welcome = await comm.receive_json_from()
    return comm, welcome


async def receive_until(comm: WebsocketCommunicator, kind: str, timeout: float = 3) -> dict[str, Any]:
    """The next frame of type ``kind``, skipping others."""
    while True:
        msg = await comm.receive_json_from(timeout=timeout)
        if msg["type"] == kind:
            return msg
