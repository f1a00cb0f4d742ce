"""The hand-over link as a QR code too, drawn like the join QR (issue 14)."""

from __future__ import annotations

from typing import Any

import segno


def absolute_url(scope: dict[str, Any], path: str) -> str:
    """``path`` on the origin the WebSocket was opened on (its ``Host`` header and scheme)."""
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1") or "localhost"
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return f"{scheme}://{host}{path}"


def qr_svg(url: str) -> str:
    """An inline SVG of ``url``, for the host to show to the new phone."""
    svg: str = segno.make(url, error="m").svg_inline(scale=4, dark="#1b1b1f")
    return svg
