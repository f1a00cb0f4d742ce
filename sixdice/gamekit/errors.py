"""The refusals every engine gives (and the action schema raises): below both, so neither imports the other."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import notation


class GameError(ValueError):
    """Base of every refusal an engine gives; ``code`` goes to the client."""

    code = "illegal"

    def __init__(self, message: str, *, code: str | None = None, params: Mapping[str, Any] | None = None) -> None:
        # ``message`` is English; with ``params`` it is a format string (``"It is %(name)s's turn."``),
        # kept as ``msgid`` so that the tables can show it in each reader's language.
        self.msgid = message
        self.params = dict(params or {})
        super().__init__(notation.english(message, self.params))
        if code is not None:
            self.code = code


class OptionsError(GameError):
    """The options a host chose for a new table are not acceptable."""

    code = "bad_options"


class NotAllowed(GameError):
    """The sender may not act now (not their turn, not their choice, not the host)."""

    code = "not_allowed"


class IllegalMove(GameError):
    """The action is not legal in the current state of the game."""

    code = "illegal"
