"""The game kit: what a game needs to plug into the tables, with no Django and no app imports.

* :mod:`.engine`   -- the :class:`GameEngine` base class (every hook, with its
  default), the errors, :data:`HOST`/:data:`SYSTEM`, :class:`Outcome` and the
  registry (:func:`register`, :func:`get_engine`);
* :mod:`.notation` -- log lines as translatable parts, and :class:`Refusal`;
* :mod:`.options`  -- small parsers for table options;
* :mod:`.replay`   -- the one replay of an event log.
"""

from .engine import (
    DEFAULT,
    DRAW,
    HOST,
    JSON,
    REGISTRY,
    SYSTEM,
    TIMEOUT,
    Actor,
    BoardPicture,
    DieFace,
    FirstPlayer,
    GameEngine,
    HandPicture,
    Outcome,
    competition_ranks,
    get_engine,
    parse_actor,
    register,
)
from .errors import GameError, IllegalMove, NotAllowed, OptionsError
from .notation import SEPARATOR, Part, Refusal, english, gettext_noop, part, render_parts
from .replay import Replayed, final_state, replay

__all__ = [
    "DEFAULT", "DRAW", "HOST", "JSON", "REGISTRY", "SEPARATOR", "SYSTEM", "TIMEOUT", "Actor", "BoardPicture",
    "DieFace", "FirstPlayer", "GameEngine",
    "GameError", "HandPicture", "IllegalMove", "NotAllowed", "OptionsError", "Outcome", "Part", "Refusal",
    "Replayed", "competition_ranks", "english", "final_state", "get_engine", "gettext_noop", "parse_actor", "part", "register",
    "render_parts", "replay",
]
