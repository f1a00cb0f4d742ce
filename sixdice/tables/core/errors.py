"""Refusals: one exception class per kind, each carrying the code the client is sent.

A service raises the class of its refusal (``Stale(STALE_MESSAGE)``), and a
caller catches it by type (``except Stale``), never by comparing codes.  An
engine's refusal (:class:`~sixdice.gamekit.engine.GameError`, pure Python)
becomes the class of its code at the one place where a game is written
(:func:`from_game_error`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from sixdice.gamekit.errors import GameError
from sixdice.tables.core import i18n

STALE_MESSAGE = gettext_lazy("Someone else moved first; here is the table as it is now.")


class ServiceError(Exception):
    """A refusal: ``code`` for the client, ``message`` for a person (worded in the language active now)."""

    code: ClassVar[str] = "refused"
    with_snapshot: ClassVar[bool] = False  # the client is sent the table as it is now, to redraw it
    _by_code: ClassVar[dict[str, type[ServiceError]]] = {}

    def __init__(self, message: str | Promise, **extra: Any) -> None:
        super().__init__(str(message))
        self.message = str(message)
        self.extra = extra

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        ServiceError._by_code.setdefault(cls.code, cls)

    @staticmethod
    def of(code: str) -> type[ServiceError]:
        """The class of the refusal ``code``; a code no class declares gets a class of its own, made once."""
        known = ServiceError._by_code.get(code)
        if known is None:
            known = type(f"Refused_{code}", (ServiceError,), {"code": code})
        return known


def _kind(name: str, code: str, doc: str, *, snapshot: bool = False) -> type[ServiceError]:
    return type(name, (ServiceError,), {"code": code, "__doc__": doc, "with_snapshot": snapshot, "__module__": __name__})


# Frames and fields
BadJson = _kind("BadJson", "bad_json", "The frame is not a JSON object.")
TooLarge = _kind("TooLarge", "too_large", "The frame is larger than the limit.")
BadField = _kind("BadField", "bad_field", "A field is missing or of the wrong kind.")
UnknownType = _kind("UnknownType", "unknown_type", "A frame of a type the server does not know.")
BadAction = _kind("BadAction", "bad_action", "An action that is not of its game's shape.")
BadOptions = _kind("BadOptions", "bad_options", "Table options the game does not take.")
# Who may do it
NotHost = _kind("NotHost", "not_host", "Only the host may do that.")
Spectator = _kind("Spectator", "spectator", "A spectator tried to play.")
NotAllowed = _kind("NotAllowed", "not_allowed", "Not this sender's turn or choice.", snapshot=True)
# The table and the game
UnknownTable = _kind("UnknownTable", "unknown_table", "No table has this code.")
TableClosed = _kind("TableClosed", "table_closed", "The table is closed.")
NoGame = _kind("NoGame", "no_game", "No game has started at this table.")
GameOver = _kind("GameOver", "game_over", "The game is over.", snapshot=True)
Paused = _kind("Paused", "paused", "The host paused the game.", snapshot=True)
GameRunning = _kind("GameRunning", "game_running", "A game is still being played.")
NotEnoughPlayers = _kind("NotEnoughPlayers", "not_enough_players", "Too few seats to start.")
Illegal = _kind("Illegal", "illegal", "The rules forbid the action.", snapshot=True)
Stale = _kind("Stale", "stale", "The sender acted on an old state: someone else wrote first.", snapshot=True)
# Seats
SeatsClosed = _kind("SeatsClosed", "seats_closed", "The game started: no more seats.")
TableFull = _kind("TableFull", "table_full", "Every seat is taken.")
NameTaken = _kind("NameTaken", "name_taken", "The name, or one too like it, is taken at the table.")
BadName = _kind("BadName", "bad_name", "A name that is empty, too long or has invisible characters.")
BadLink = _kind("BadLink", "bad_link", "A hand-over link that is not valid any more.")
BadSeat = _kind("BadSeat", "bad_seat", "No seat at that position.")
NotAway = _kind("NotAway", "not_away", "The app does not play a seat of this phone's.")
Busy = _kind("Busy", "busy", "The server could not do it now; try again.")
# Undo, corrections, take-back, the timer
CannotUndo = _kind("CannotUndo", "cannot_undo", "Nothing can be undone back to there.")
CannotCorrect = _kind("CannotCorrect", "cannot_correct", "Only a typed-in roll still in play can be corrected.")
TakeBackOff = _kind("TakeBackOff", "take_back_off", "The table does not let players take back a move.")
CannotTakeBack = _kind("CannotTakeBack", "cannot_take_back", "No own last move to take back now.")
NoTimer = _kind("NoTimer", "no_timer", "The table has no turn timer.")


def from_game_error(exc: GameError) -> ServiceError:
    """An engine's refusal as the refusal of its code, worded in the active language."""
    return ServiceError.of(exc.code)(i18n.game_error_message(exc))
