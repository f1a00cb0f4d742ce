"""How well the app plays, in three plain levels mapped onto a game's own bot strengths."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from sixdice.gamekit.engine import GameEngine

LEVELS = (("easy", gettext_lazy("Easy: the app plays any move the rules allow")),
          ("medium", gettext_lazy("Medium: the app looks one move ahead")),
          ("hard", gettext_lazy("Hard: the app plays its best")))


def strength_for(engine: GameEngine, level: str) -> str:
    """The engine's bot strength for a level (weakest, middle, strongest of :attr:`bot_strengths`)."""
    strengths = engine.bot_strengths
    if not strengths:
        return ""
    if level == "hard":
        return strengths[-1]
    if level == "medium":
        return strengths[min(1, len(strengths) - 1)]
    return strengths[0]




def level_strengths(engine: GameEngine) -> list[tuple[str, str]]:
    """``(level, strength)`` for each level the engine can play, weakest first, each strength once.

    The lobby offers these, named as the new-table form names them (one set of
    names everywhere); an engine with no bots has none.
    """
    out: list[tuple[str, str]] = []
    for level, _label in LEVELS:
        strength = strength_for(engine, level)
        if strength and strength not in {s for _l, s in out}:
            out.append((level, strength))
    return out
