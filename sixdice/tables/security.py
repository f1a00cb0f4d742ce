"""Refuse WebSockets opened by pages of another site."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def origin_allowed(origin: str | None, host: str | None) -> bool:
    """Same origin as the page's host, or one listed in SIXDICE_EXTRA_ORIGINS.

    A client that sends no Origin at all is not a browser (browsers always
    send one on a WebSocket), so scripts and test clients may connect.
    """
    if origin is None:
        return True
    if origin in settings.SIXDICE_EXTRA_ORIGINS:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        return False
    return host is not None and parts.netloc.lower() == host.lower()


class SameOriginValidator:
    """ASGI middleware: deny the WebSocket handshake from a foreign Origin."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(
            _header(scope, b"origin"), _header(scope, b"host")
        ):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
