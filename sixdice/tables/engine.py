"""The one small interface through which a game plugs into the live tables.

A game's pure rules package (``sixdice.rules``, ``runbuster.rules``) knows
nothing of Django.  Each game app provides one adapter object that satisfies
:class:`GameEngine` and registers it in :data:`REGISTRY`.  The table services
only ever talk to that adapter, with plain JSON-able data:

* ``state``  -- the JSON dict of the game state (what the snapshot stores);
* ``action`` -- a JSON dict with at least ``"type"``; every rolled die value
  is part of the action, so the event log replays exactly;
* ``actor``  -- who sends the action: a seat number (0-based), ``HOST`` or
  ``SYSTEM`` (the server itself: app-rolled dice, automatic defaults, bots).

Randomness never enters ``apply``.  When the game waits for dice that the
app rolls, :meth:`GameEngine.system_action` returns a complete action (with
the values drawn from the ``rng`` it is given) and the service applies it
like any other action and records it as an event.

Two optional methods, used when an adapter has them:

* ``complete_action(state, action, options, rng, *, actor) -> action`` fills
  in what a player's tap leaves to the app, such as the values of app-rolled
  dice when a player taps the cup (Run Buster), before the action is applied
  and recorded.  ``actor`` is :data:`SYSTEM` for a bot's move.
* ``bot_action(state, seat, rng) -> action`` plays a turn for a bot seat.
* ``plays_series(options) -> bool``: ``False`` when the host chose to play a
  single game, so the table closes when it ends (default: a series, with
  rematches until the host closes the table).
* ``describe_parts(state_before, action, *, names) -> list[dict]`` is
  :meth:`GameEngine.describe` as structured parts, so that each phone shows
  the move log in its own language.  Each part is
  ``{"msg": <English format string>, "args": {...}}``; the messages are
  marked with a local no-op ``gettext_noop`` (extracted by ``makemessages``,
  no Django needed); names and die values are arguments and are never
  translated; an argument may itself be a part.  The parts of one line are
  joined with ``" · "``, and rendered without translation they give exactly
  the ``describe`` text.  The services store them on the event
  (``Event.notation``).

Refusals: a :class:`GameError` may be raised with an English format string
and ``params`` (``NotAllowed("It is %(name)s's turn.", params={"name": "Ana"})``);
``str(error)`` is the English text, and the tables translate ``error.msgid``
(marked with ``gettext_noop`` like the notation) in each reader's language.
An argument in ``params`` may itself be a notation part (translated too).
The rules packages raise :class:`sixdice.tables.notation.Refusal`, which has
the same ``msgid`` and ``params``; the adapters pass them on.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from . import notation

HOST = "host"
SYSTEM = "system"

Actor = int | str
"""A seat number (0-based), :data:`HOST` or :data:`SYSTEM`."""

JSON = dict[str, Any]


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


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, for standings, the admin and statistics."""

    winners: tuple[int, ...]
    end_reason: str
    places: tuple[int, ...] = field(default=())  # drop-out order, where the game has one
    loser: int | None = None


@runtime_checkable
class GameEngine(Protocol):
    """What a game provides to the shared table machinery."""

    slug: str  # "sixdice", "runbuster": stored on every table and game
    label: str  # shown to players
    min_players: int
    max_players: int

    def clean_options(self, raw: Mapping[str, Any], *, players: int) -> JSON:
        """Validate and complete a table's options; raise :class:`OptionsError`."""
        ...

    def start(self, *, players: Sequence[str], options: Mapping[str, Any], first: int = 0) -> JSON:
        """The initial state (no dice rolled yet: rolls come as actions).

        ``first`` is the seat that begins where the game lets the table choose
        (Run Buster's Player 1); a game that decides by itself ignores it.
        """
        ...

    def actors(self, state: Mapping[str, Any]) -> frozenset[int]:
        """The seats that may send an action now (whose turn, whose choice)."""
        ...

    def apply(self, state: Mapping[str, Any], action: Mapping[str, Any], *, actor: Actor) -> JSON:
        """Apply ``action`` sent by ``actor``; return the new state.

        Pure and deterministic; never mutates ``state``.  Raises
        :class:`NotAllowed` when the actor may not send this action and
        :class:`IllegalMove` (or another :class:`GameError`) when the action
        is not legal.
        """
        ...

    def system_action(
        self, state: Mapping[str, Any], options: Mapping[str, Any], rng: random.Random
    ) -> JSON | None:
        """The action the server takes by itself now, or ``None``.

        App-rolled dice (with their values drawn from ``rng``) and automatic
        defaults (e.g. automatic balancing) are system actions.
        """
        ...

    def view(self, state: Mapping[str, Any], seat: int | None) -> JSON:
        """What a seat's phone (``seat=None``: host or spectator) is sent.

        The state plus whatever the phone needs to draw itself, such as the
        legal actions of that seat.
        """
        ...

    def describe(self, state_before: Mapping[str, Any], action: Mapping[str, Any], *, names: Sequence[str]) -> str:
        """The action in the game's notation, for logs, the admin and replays."""
        ...

    def outcome(self, state: Mapping[str, Any]) -> Outcome | None:
        """``None`` while the game goes on; how it ended once it is over."""
        ...


REGISTRY: dict[str, GameEngine] = {}


def register(engine: GameEngine) -> GameEngine:
    """Make a game available to tables; registering a slug again replaces it."""
    REGISTRY[engine.slug] = engine
    return engine


def get_engine(slug: str) -> GameEngine:
    try:
        return REGISTRY[slug]
    except KeyError:
        raise OptionsError(f"Unknown game {slug!r}.", code="unknown_game") from None
