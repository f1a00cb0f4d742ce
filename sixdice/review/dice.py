"""Hands drawn as dice, from what the game's adapter says about them.

The adapter gives a :class:`~sixdice.gamekit.engine.BoardPicture` of a state
(hands as groups and loose dice, a score, a mark, a few facts) and a
:class:`~sixdice.gamekit.engine.DieFace` per die value; this module turns
them into HTML for the admin and into JSON for the replay page's generic
drawing.  Nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from sixdice.gamekit.engine import REGISTRY, GameEngine
from sixdice.gamekit.errors import GameError
from sixdice.gamekit.notation import signed

DIE_STYLE = (
    "display:inline-flex;align-items:center;justify-content:center;min-width:2em;height:2em;"
    "margin:1px;padding:0 3px;border:2px solid currentColor;border-radius:6px;font-weight:700;background:#fff"
)
GROUP_STYLE = "display:inline-flex;border:1px dotted #888;border-radius:8px;margin:1px 4px 1px 0;padding:1px"
TONE_COLOURS = {"pos": "#1558b0", "neg": "#b3261e", "pip": "#1b1b1f"}


def die(engine: GameEngine, value: int) -> SafeString:
    face = engine.presentation.die_face(value)
    colour = TONE_COLOURS.get(face.tone, TONE_COLOURS["pip"])
    return format_html('<span class="die" style="{};color:{}" title="{}">{}</span>', DIE_STYLE, colour, value, face.text)


def dice(engine: GameEngine, values: Sequence[int]) -> SafeString:
    return mark_safe("".join(die(engine, v) for v in values))  # noqa: S308 - each die is escaped


def hands_html(slug: str, state: Mapping[str, Any], players: Sequence[str]) -> SafeString:
    """Every seat's hand in ``state`` as rows of dice, or a dash for a game without hands to draw."""
    engine = REGISTRY.get(slug)
    if engine is None or not isinstance(state, Mapping):
        return mark_safe("—")
    try:
        hands = engine.presentation.picture(state).hands
    except GameError:  # a damaged state: the admin still opens
        return mark_safe("—")
    if not hands:
        return mark_safe("—")
    rows = []
    for seat, hand in enumerate(hands):
        name = players[seat] if seat < len(players) else f"Seat {seat + 1}"
        groups = format_html_join("", '<span style="{}">{}</span>', ((GROUP_STYLE, dice(engine, g)) for g in hand.groups))
        drawn = format_html("{}{}", groups, dice(engine, hand.loose))
        label = format_html("{}", name)
        if hand.score is not None:
            label = format_html("{} ({})", name, signed(hand.score))
        if hand.mark:
            label = format_html("{} {}", label, hand.mark)
        rows.append(format_html(
            '<tr class="hand" data-seat="{}"><th style="text-align:left;padding-right:8px">{}</th>'
            '<td style="display:flex;flex-wrap:wrap;align-items:center">{}</td></tr>', seat, label, drawn or "—"))
    return format_html('<table class="hands">{}</table>', mark_safe("".join(rows)))  # noqa: S308


def picture_data(engine: GameEngine, state: Mapping[str, Any]) -> dict[str, Any]:
    """The state's picture as JSON for the replay page: every die with its face text and tone."""
    pic = engine.presentation.picture(state)

    def faces(values: Sequence[int]) -> list[dict[str, Any]]:
        out = []
        for v in values:
            face = engine.presentation.die_face(v)
            out.append({"v": v, "text": face.text, "tone": face.tone})
        return out

    return {
        "facts": [[gettext(label), value] for label, value in pic.facts],  # each label in the reader's language
        "hands": [
            {"groups": [faces(g) for g in h.groups], "loose": faces(h.loose), "score": h.score, "mark": h.mark}
            for h in pic.hands
        ],
    }
