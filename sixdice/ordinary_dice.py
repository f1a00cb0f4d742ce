"""Ordinary dice read as Six-Dice dice, and how many dice a table needs.

A table with real dice may play with **ordinary dice** (1 to 6 pips): the
table option ``faces: "ordinary"``.  1, 2 and 3 pips are +1, +2 and +3; the
opposite faces 6, 5 and 4 are −1, −2 and −3.  Opposite faces of an ordinary
die add up to 7, so turning a die over negates its value, as a Six-Dice flip
from +v to −v asks.

The rules and the game's log know only the signed values: the phone that
types a roll sends them, so a game with ordinary dice replays exactly as one
with the game's own dice (or the app's).  Only the pictures change, and the
option travels in the state (``faces``) so that every board and replay can
draw pips.  No Django here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sixdice.gamekit.errors import OptionsError
from sixdice.gamekit.notation import gettext_noop

if TYPE_CHECKING:
    from sixdice.rules.game import State

FACES_KEY = "faces"  # the option, and the key in the state dict that carries it to the boards
ORDINARY = "ordinary"
SIXDICE = "sixdice"  # the game's own dice: blue +1..+3, red −1..−3 (the default, never stored)


def pips_of(value: int) -> int:
    """The pips of the ordinary die that reads ``value``: +1..+3 are 1..3, −1..−3 are 6..4."""
    if value not in (-3, -2, -1, 1, 2, 3):
        raise ValueError(f"a Six-Dice face is ±1..3, not {value!r}")
    return value if value > 0 else 7 + value


def value_of(pips: int) -> int:
    """The Six-Dice value of an ordinary die showing ``pips`` (1..6)."""
    if pips not in range(1, 7):
        raise ValueError(f"an ordinary die shows 1 to 6 pips, not {pips!r}")
    return pips if pips <= 3 else pips - 7


def glyph(pips: int) -> str:
    """The die face character of ``pips`` (⚀ … ⚅)."""
    return chr(0x2680 + pips - 1)


def clean_faces(raw: Mapping[str, Any], dice: str) -> dict[str, str]:
    """``{"faces": "ordinary"}`` for a real-dice table that plays with ordinary dice, else ``{}``.

    ``faces`` may be missing, empty, ``"sixdice"`` or ``"ordinary"``; ordinary
    dice are typed in, so they need ``dice: "physical"``.  The game's own dice
    are the default and are not stored (an older game's options stay as they were).
    """
    faces = raw.get(FACES_KEY)
    if faces is None or (isinstance(faces, str) and not faces.strip()):
        return {}
    if not isinstance(faces, str) or faces.strip().lower() not in (SIXDICE, ORDINARY):
        raise OptionsError(
            gettext_noop('The dice must be "sixdice" (the game\'s own dice) or "ordinary" (dice with 1 to 6 pips), '
                         "not %(value)s."),
            params={"value": repr(faces)},
        )
    if faces.strip().lower() == SIXDICE:
        return {}
    if dice != "physical":
        raise OptionsError(gettext_noop("Ordinary dice are real dice: choose real dice, typed in, to play with them."))
    return {FACES_KEY: ORDINARY}


def dice_needed(bank: int, players: int, start_dice: int, refill_per_player: int) -> dict[str, int]:
    """How many real dice a table uses, from its cleaned options.

    Every die is in the bank or in a hand, so a game starts with ``bank`` dice
    in all: ``start_dice`` in each hand and the rest in the bank.  With the
    bank refill, new dice join at the start of a round until the bank holds
    ``refill_per_player`` per player: ``refill`` is the most that can join at once.
    """
    hands = start_dice * players
    return {"players": players, "total": bank, "hands": hands, "per_hand": start_dice, "bank": bank - hands,
            "refill": refill_per_player * players}


TURN_OVER_KEY = "turn_over"  # in the state dict: the dice the last flip turned, while its turn goes on


def turn_over(before: State, after: State, action: Mapping[str, Any], previous: Any) -> list[list[int]] | None:
    """The real dice a flip asks the players to turn: ``[[seat, from, to], ...]``, the mover's die first.

    At an ordinary-dice table the phones say it in pips ("turn your ⚁ (+2) to ⚄ (−2)").  Kept in the state
    from the flip until its turn is over (the mover's draw and the balancing belong to it); ``None`` after.
    """
    if action.get("type") == "flip" and before.pending is not None and before.pending.kind == "flip":
        mover, victim = before.pending.seat, int(action["victim"])
        return [[mover, before.hands[mover].dice()[int(action["own"])], int(action["own_to"])],
                [victim, before.hands[victim].dice()[int(action["other"])], int(action["other_to"])]]
    if (isinstance(previous, list) and previous and after.current == previous[0][0]
            and not (after.pending is not None and after.pending.kind == "flip")):
        return previous
    return None
