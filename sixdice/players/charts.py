"""The rating-over-time chart, drawn on the server as an SVG that scales to a phone."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def rating_chart(points: Sequence[tuple[datetime, float]], *, title: str, colour: str = "#2f6fdf") -> SafeString:
    """A line through the rating after each rated game (x: game order, y: mu − 3σ)."""
    width, height, left, right, top, bottom = 320, 160, 36, 8, 10, 22
    if not points:
        return mark_safe("")
    values = [v for _t, v in points]
    low, high = min(values + [0.0]), max(values + [0.0])
    if high - low < 1:
        high = low + 1
    span_x = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return left + (width - left - right) * i / span_x

    def y(v: float) -> float:
        return top + (height - top - bottom) * (high - v) / (high - low)

    def label(v: float) -> str:
        text = f"{v:.0f}"
        return "0" if text == "-0" else text

    path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    first, last = points[0][0], points[-1][0]
    parts = [
        f'<svg class="chart rating-chart" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>',
        f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" stroke="#9aa0a6" stroke-dasharray="3 3"/>',
        f'<text x="{left - 4}" y="{y(high) + 4:.1f}" text-anchor="end" font-size="11">{label(high)}</text>',
        f'<text x="{left - 4}" y="{y(low):.1f}" text-anchor="end" font-size="11">{label(low)}</text>',
        f'<polyline fill="none" stroke="{escape(colour)}" stroke-width="2" points="{path}"/>',
    ]
    if len(points) == 1:
        parts.append(f'<circle cx="{x(0):.1f}" cy="{y(values[0]):.1f}" r="3" fill="{escape(colour)}"/>')
    parts.append(
        f'<text x="{left}" y="{height - 6}" font-size="11">{escape(date_format(first, "SHORT_DATE_FORMAT"))}</text>'
        f'<text x="{width - right}" y="{height - 6}" text-anchor="end" font-size="11">'
        f'{escape(date_format(last, "SHORT_DATE_FORMAT"))}</text>'
    )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped
