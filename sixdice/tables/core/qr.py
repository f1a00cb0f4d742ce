"""QR codes of the app's links (join, hand-over, LAN address, a profile's carry link), drawn once here.

The SVG has a ``viewBox`` and no fixed size, so the page's CSS scales the whole code,
its quiet zone (the white margin a phone's camera needs) included.
"""

from __future__ import annotations

import segno


def qr_svg(url: str, *, scale: int = 4) -> str:
    """An inline SVG of ``url``, dark modules on a white quiet zone, scaled by its ``viewBox``."""
    svg: str = segno.make(url, error="m").svg_inline(scale=scale, dark="#1b1b1f", light="#fff", omitsize=True)
    return svg
