"""A game's or a table's options in words, for the admin ("Dice: real dice, typed in", not ``dice physical``).

The labels are the ones the new-table forms and the engines' own messages
use, so they read the same in every language.  An option this list does
not know (a game added later) is shown by its key with spaces, never
hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_noop

OPTION_LABELS: dict[str, str] = {
    "bank": gettext_noop("Dice in the bank"),
    "rounds": gettext_noop("Rounds"),
    "time_limit_minutes": gettext_noop("Time limit in minutes"),
    "dice": gettext_noop("Dice"),
    "auto_balance": gettext_noop("Automatic balancing"),
    "hints": gettext_noop("Hints"),
    "series": gettext_noop("Play a series of rounds (Player 1 moves on each round)"),
    "takeback": gettext_noop("Each player may take back a move"),
    "coach": gettext_noop("Coach the first game, for people new to it"),
    "last_turn_score": gettext_noop("A hand is scored at the end of its owner's last turn"),
    "reverse_last_round": gettext_noop("The last round is played in reverse order"),
    "no_flip_back": gettext_noop("No flip back at the player who just flipped you"),
    "refill": gettext_noop("The bank refills each round to this many dice per player"),
    "threes_dice": gettext_noop("The dice all threes needs"),
    "first_bonus": gettext_noop("Compensation for the first seats: points per player who moves after you"),
    "compensation": gettext_noop(
        "Compensation by place in the turn order: one figure per player, the first player first, such as 0 1.5 2"
    ),
}
DICE_WORDS = {"app": gettext_noop("The app rolls them"), "physical": gettext_noop("Real dice, typed in")}


def option_label(key: str) -> str:
    return gettext(OPTION_LABELS[key]) if key in OPTION_LABELS else key.replace("_", " ").capitalize()


def option_value(key: str, value: Any) -> str:
    if value is True:
        return gettext("yes")
    if value is False:
        return gettext("no")
    if value in (None, "", []):
        return gettext("none")
    if key == "dice" and value in DICE_WORDS:
        return gettext(DICE_WORDS[value])
    if isinstance(value, list | dict):
        return ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)
    return str(value)


def option_rows(options: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """(label, value) in words for every option, in the order stored."""
    return [(option_label(key), option_value(key, value)) for key, value in (options or {}).items()]
