"""A game's or a table's options in words, for the admin ("Dice: real dice, typed in", not ``dice physical``).

The game's own options are labelled by its presentation (``option_labels``,
the words of its new-table form, so they read the same in every language);
the options every table has (the kit's dice, take-backs, coaching) here.  An
option nobody labels (a game added later) is shown by its key with spaces,
never hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_noop

from sixdice.gamekit.engine import GameEngine
from sixdice.gamekit.options import APP, COACH, DICE, PHYSICAL, TAKE_BACK

TABLE_OPTION_LABELS: dict[str, str] = {
    DICE: gettext_noop("Dice"),
    TAKE_BACK: gettext_noop("Each player may take back a move"),
    COACH: gettext_noop("Coach the first game, for people new to it"),
}
DICE_WORDS = {APP: gettext_noop("The app rolls them"), PHYSICAL: gettext_noop("Real dice, typed in")}


def option_label(key: str, engine: GameEngine | None = None) -> str:
    """The option's label in the reader's language: the game's own, else the tables', else its key."""
    label = (engine.presentation.option_labels if engine is not None else {}).get(key) or TABLE_OPTION_LABELS.get(key)
    return gettext(label) if label else key.replace("_", " ").capitalize()


def option_value(key: str, value: Any) -> str:
    if value is True:
        return gettext("yes")
    if value is False:
        return gettext("no")
    if value in (None, "", []):
        return gettext("none")
    if key == DICE and value in DICE_WORDS:
        return gettext(DICE_WORDS[value])
    if isinstance(value, list | dict):
        return ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)
    return str(value)


def option_rows(options: Mapping[str, Any] | None, engine: GameEngine | None = None) -> list[tuple[str, str]]:
    """(label, value) in words for every option, in the order stored; ``engine``: the table's game (``None``
    for a game no longer installed: its options are shown by their keys)."""
    return [(option_label(key, engine), option_value(key, value)) for key, value in (options or {}).items()]
