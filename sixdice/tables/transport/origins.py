"""Refuse WebSockets opened by pages of another site, or addressed to a host name we do not serve."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def host_allowed(host: str | None) -> bool:
    """The ``Host`` header names one of ``ALLOWED_HOSTS``, as Django checks it for pages.

    With ``DEBUG`` and an empty ``ALLOWED_HOSTS``, Django allows the local
    names; so does this.
    """
    if not host:
        return False
    domain, _port = split_domain_port(host)
    allowed = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    return bool(domain) and validate_host(domain, allowed)


def origin_allowed(origin: str | None, host: str | None, scheme: str = "ws") -> bool:
    """Same origin as the page's host and scheme, or one listed in SIXDICE_EXTRA_ORIGINS.

    The socket's scheme (``ws``/``wss``) must match the page's
    (``http``/``https``): an ``http://`` page may not open a socket served
    over TLS for an ``https://`` site, nor the other way round.  A client
    that sends no Origin at all is not a browser (browsers always send one
    on a WebSocket), so scripts and test clients may connect.
    """
    if origin is None:
        return True
    if origin in settings.SIXDICE_EXTRA_ORIGINS:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        return False
    expected = "https" if scheme in {"wss", "https"} else "http"
    if parts.scheme != expected:
        return False
    return host is not None and parts.netloc.lower() == host.lower()


def socket_scheme(scope: dict[str, Any]) -> str:
    """``wss`` or ``ws``: how the browser reached this socket.

    daphne puts no ``scheme`` in a WebSocket's scope (not even with
    ``--proxy-headers``), so behind a TLS proxy the proxy's header says it
    (``SECURE_PROXY_SSL_HEADER``, set by ``SIXDICE_HTTPS=1``), as it does for
    pages.  With ``SIXDICE_HTTPS`` every page is served over HTTPS, so a
    socket without either is taken as ``wss`` (daphne serving TLS itself).
    """
    if scheme := scope.get("scheme"):
        return str(scheme)
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, value = proxy_header
        forwarded = _header(scope, name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1"))
        if forwarded is not None:
            return "wss" if forwarded.split(",")[0].strip() == value else "ws"
    return "wss" if getattr(settings, "SIXDICE_HTTPS", False) else "ws"


class SameOriginValidator:
    """ASGI middleware: deny the WebSocket handshake for a host not in ALLOWED_HOSTS or from a foreign Origin."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            host = _header(scope, b"host")
            if not host_allowed(host) or not origin_allowed(
                _header(scope, b"origin"), host, socket_scheme(scope)
            ):
                denier = WebsocketDenier()
                return await denier(scope, receive, send)
        return await self.application(scope, receive, send)


def socket_origin_url(scope: dict[str, Any], path: str) -> str:
    """``path`` on the origin the WebSocket was opened on (its ``Host`` header and scheme)."""
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1") or "localhost"
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return f"{scheme}://{host}{path}"
