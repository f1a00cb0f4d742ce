"""``{{ table|house_rules }}``, ``{{ game|house_rules }}``: the house rules a table or game plays.

The result is the game's :meth:`~sixdice.gamekit.engine.GameEngine.rules_in_force`
(Six-Dice: ``preset``, ``variants``, ``bank``), or ``None`` for a game without
house rules.  The game's own templates word it
(``templates/sixdice/_rules_in_force.html``), so it is translated.
"""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def house_rules(obj: Any) -> dict[str, Any] | None:
    """The rules in force of a Table (its options, its capacity) or a Game (its options, its players)."""
    from sixdice.gamekit.engine import REGISTRY

    slug = getattr(obj, "engine", None) or getattr(obj, "game", None)
    engine = REGISTRY.get(slug) if isinstance(slug, str) else None
    options = getattr(obj, "options", None) or {}
    players = getattr(obj, "players", None)
    n = len(players) if isinstance(players, list | tuple) and players else getattr(obj, "capacity", 0) or 0
    if engine is None or not n:
        return None
    return engine.rules_in_force(options, players=n) or None


@register.simple_tag
def preset_figures(name: str) -> dict[str, str]:
    """The measured figures of a preset, as the new-table form says them (see ``PRESET_FIGURES``).

    Besides the study's own keys, ``low`` and ``high``: the seats' shares of
    wins at either end ("16%", "40%"), which the form words plainly.
    """
    from sixdice.rules.variants import PRESET_FIGURES

    figures = dict(PRESET_FIGURES.get(name, {}))
    low, _dash, high = figures.get("seats", "").partition("\u2013")
    if high:
        figures["low"] = low if low.endswith("%") else low + "%"
        figures["high"] = high
    return figures
