"""Small parsers for table options, as a form or a JSON client sends them.

Each raises :class:`~sixdice.gamekit.engine.OptionsError` with a message
that names the option (``label``, a notation part, so it is translated).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import OptionsError
from .notation import Part, gettext_noop, part

TRUE_WORDS = frozenset({"1", "true", "on", "yes", "y", "t"})
FALSE_WORDS = frozenset({"", "0", "false", "off", "no", "n", "f"})


def whole_number(raw: Mapping[str, Any], key: str, label: Part) -> int | None:
    """``raw[key]`` as an int; ``None`` when it is missing or blank."""
    v = raw.get(key)
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    if isinstance(v, bool):
        raise OptionsError(gettext_noop("%(label)s must be a whole number."), params={"label": label})
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str):
        s = v.strip()
        if s.lstrip("+-").isdigit():
            return int(s)
    raise OptionsError(gettext_noop("%(label)s must be a whole number, not %(value)s."), params={"label": label, "value": repr(v)})


DICE = "dice"
"""The table option that says who draws the dice: the kit's own, shared by the new-table form of every game."""
APP = "app"
"""``dice: app``: the app rolls (the default)."""
PHYSICAL = "physical"
"""``dice: physical``: real dice, rolled at the table and typed in."""
DICE_MODES = (APP, PHYSICAL)


def dice_mode(raw: Mapping[str, Any]) -> str:
    """``raw["dice"]`` as one of :data:`DICE_MODES` (any case, blank or missing: :data:`APP`)."""
    v = raw.get(DICE)
    if v is None or (isinstance(v, str) and not v.strip()):
        return APP
    if not isinstance(v, str) or v.strip().lower() not in DICE_MODES:
        raise OptionsError(
            gettext_noop('Dice must be "app" (the app rolls) or "physical" (real dice), not %(value)s.'),
            params={"value": repr(v)},
        )
    return v.strip().lower()


def app_rolls(options: Mapping[str, Any]) -> bool:
    """Whether the app rolls the dice at a table with these (cleaned) options: anything but :data:`APP` is typed in."""
    return options.get(DICE, APP) == APP


def on_off(raw: Mapping[str, Any], key: str, label: Part, *, default: bool = False) -> bool:
    """``raw[key]`` as a bool (``on``/``off``, ``true``/``false``, 1/0 ...); ``default`` when missing."""
    v = raw.get(key, default)
    if v is None or isinstance(v, bool):
        return default if v is None else v
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    if isinstance(v, str) and v.strip().lower() in TRUE_WORDS | FALSE_WORDS:
        return v.strip().lower() in TRUE_WORDS
    raise OptionsError(gettext_noop("%(label)s must be on or off, not %(value)s."), params={"label": label, "value": repr(v)})


HINTS = "hints"
"""The option that shows the player whose choice it is the game's advice (the engine's ``hint``); a game that
offers hints cleans it with :func:`on_off` under this name."""


def hints_on(options: Mapping[str, Any]) -> bool:
    """Whether a table with these (cleaned) options shows hints (:data:`HINTS`)."""
    return bool(options.get(HINTS))


COACH = "coach"
"""The table option for new players: its first game coaches (the engine's ``coach_options``, one-line coach notes
on the phones).  Stored only when on; the new-table form turns it on by default."""

TAKE_BACK = "takeback"
"""The table option that lets players take back their own last action (issue 14, ``docs/undo.md``)."""


def table_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The options every game's tables share, cleaned; added to the engine's own options.

    ``takeback``: players may take back their own last action (on by
    default).  Stored only when the host turned it off, so the options of a
    game from before the option (and its export) read as they always did.
    ``coach``: the first game coaches new players (stored only when on).
    """
    allowed = on_off(raw or {}, TAKE_BACK, part(gettext_noop("Take-back")), default=True)
    out: dict[str, Any] = {} if allowed else {TAKE_BACK: False}
    if on_off(raw or {}, COACH, part(gettext_noop("New players")), default=False):
        out[COACH] = True
    return out


def coaches(options: Mapping[str, Any]) -> bool:
    """Whether a table with these (cleaned) options coaches its first game (hints on, a short game, coach notes)."""
    return options.get(COACH) is True


def takes_back(options: Mapping[str, Any]) -> bool:
    """Whether a game with these (cleaned) options lets players take back their last action."""
    return options.get(TAKE_BACK, True) is not False
