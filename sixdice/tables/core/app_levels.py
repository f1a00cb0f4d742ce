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


