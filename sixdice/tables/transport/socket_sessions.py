"""Django sessions for the table sockets, without Channels' send wrapper."""

from __future__ import annotations

from typing import Any

from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' ``SessionMiddleware``, handing WebSockets the server's own ``send``.

    Channels wraps ``send`` to save a modified session when an HTTP response
    starts; a WebSocket never sends one, and the table sockets only read the
    session.  The wrapper still looked at the (lazy) session on every frame
    sent, a few per cent of a move's CPU (docs/performance.md, "Frames").
    """

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send if scope["type"] == "websocket" else wrapper.send)


def SocketSessionMiddlewareStack(inner: Any) -> CookieMiddleware:  # noqa: N802 - named as Channels' SessionMiddlewareStack
    return CookieMiddleware(SocketSessionMiddleware(inner))
