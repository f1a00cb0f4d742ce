"""Hands drawn as dice in HTML, for the admin and other server-rendered pages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

DIE_STYLE = (
    "display:inline-flex;align-items:center;justify-content:center;min-width:2em;height:2em;"
    "margin:1px;padding:0 3px;border:2px solid currentColor;border-radius:6px;font-weight:700;background:#fff"
)
GROUP_STYLE = "display:inline-flex;border:1px dotted #888;border-radius:8px;margin:1px 4px 1px 0;padding:1px"


def die(value: Any, kind: str) -> SafeString:
    """One die: Six-Dice faces are signed (blue +, red −), Run Buster's are pips 1..6."""
    if kind == "sixdice" and isinstance(value, int):
        colour, text = ("#1558b0", f"+{value}") if value > 0 else ("#b3261e", f"−{abs(value)}")
        return format_html('<span class="die" style="{};color:{}" title="{}">{}</span>', DIE_STYLE, colour, value, text)
    return format_html('<span class="die" style="{};color:#1b1b1f" title="{}">{}</span>', DIE_STYLE, value, value)


def dice(values: Sequence[Any], kind: str) -> SafeString:
    return mark_safe("".join(die(v, kind) for v in values))  # noqa: S308 - each die is escaped


def hands_html(engine: str, state: Mapping[str, Any], players: Sequence[str]) -> SafeString:
    """Every seat's hand in ``state`` as rows of dice, or a dash for a game without hands."""
    hands = state.get("hands") if isinstance(state, Mapping) else None
    if not isinstance(hands, list):
        return mark_safe("—")
    rows = []
    for seat, hand in enumerate(hands):
        name = players[seat] if seat < len(players) else f"Seat {seat + 1}"
        if engine == "sixdice" and isinstance(hand, Mapping):
            groups = format_html_join("", '<span style="{}">{}</span>',
                                      ((GROUP_STYLE, dice(g, "sixdice")) for g in hand.get("groups", [])))
            drawn = format_html("{}{}", groups, dice(hand.get("loose", []), "sixdice"))
            values = state.get("values")
            total = sum(sum(g) for g in hand.get("groups", [])) + sum(hand.get("loose", []))
            label = format_html("{} ({})", name, values[seat] if isinstance(values, list) else total)
        elif isinstance(hand, list):
            drawn = dice(hand, "pips")
            label = format_html("{}", name)
        else:
            continue
        rows.append(format_html(
            '<tr class="hand" data-seat="{}"><th style="text-align:left;padding-right:8px">{}</th>'
            '<td style="display:flex;flex-wrap:wrap;align-items:center">{}</td></tr>', seat, label, drawn or "—"))
    return format_html('<table class="hands">{}</table>', mark_safe("".join(rows)))  # noqa: S308
