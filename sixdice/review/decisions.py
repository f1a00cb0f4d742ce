"""Who decided each move of a game, and what the engine would have chosen.

Every event of a log was sent by someone: a player's phone (a seat), the
app playing a seat (a bot), the host, or the app itself.  The app acts for
three reasons: it rolls the dice at an "app rolls" table, it applies the
engine's default when balancing is automatic, and it ends a game whose time
is up.  It also stands in for a seat whose turn timer ran out (the event's
``stand_in``): that is the "timeout" kind too, with the seat.  :func:`decisions` tells them apart, for the admin and the replay.

For a choice the engine has a default for (Six-Dice's grouping and the two
groups a hand keeps: the adapter's :meth:`~sixdice.gamekit.engine.GameEngine.bot_action` with
``strength=DEFAULT``), the default is
shown beside the choice, and a choice that differs from it is marked.  Two
choices are the same when they lead to the same state, so a grouping listed
in another order is not a different choice.

Bots: the event log stores the seat, not whether the app played it; the
table log says so (a seat that joined as a bot, or that the host let the
app play, until the host takes it back: :mod:`sixdice.review.tablelog`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.translation import gettext, gettext_noop

from sixdice.gamekit import engine as kit
from sixdice.gamekit.engine import GameEngine
from sixdice.gamekit.errors import GameError
from sixdice.tables.core.i18n import render_notation

SEAT, BOT, HOST_KIND, APP_ROLL, APP_DEFAULT, TIMEOUT, APP = "seat", "bot", "host", "draw", "default", "timeout", "app"

#: What each kind of actor is called (the admin filter and the replay legend use the same words).
KIND_LABELS = {
    SEAT: gettext_noop("Player"),
    BOT: gettext_noop("Bot"),
    HOST_KIND: gettext_noop("Host"),
    APP_ROLL: gettext_noop("App (dice roll)"),
    APP_DEFAULT: gettext_noop("App (the engine's default)"),
    TIMEOUT: gettext_noop("Time limit"),
    APP: gettext_noop("App"),
}


@dataclass(frozen=True)
class Decision:
    seq: int
    kind: str  # one of the KIND_LABELS keys
    seat: int | None  # the seat that acted, when a seat (or a bot) did
    default: dict[str, Any] | None  # the engine's default for a choice, else None
    default_text: str  # the default in the notation of the active language ("" when none)
    differs: bool  # the choice was not the engine's default

    def label(self, players: Sequence[str]) -> str:
        """Who decided, in the active language: "Ana", "Ana (bot)", "Host", "App (dice roll)", …"""
        name = players[self.seat] if self.seat is not None and self.seat < len(players) else ""
        if self.kind == SEAT:
            return name
        if self.kind == BOT:
            return gettext("%(name)s (bot)") % {"name": name}
        if self.kind == TIMEOUT and name:  # the app stood in for the seat: its turn timer ran out
            return gettext("%(name)s (time ran out: the app played)") % {"name": name}
        return gettext(KIND_LABELS[self.kind])

    def as_json(self, players: Sequence[str]) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "who": self.label(players),
                "default": self.default_text or None, "differs": self.differs}


class Moment(Protocol):
    """One step of a replay as this module reads it (:class:`sixdice.review.steps.Step` is one)."""

    @property
    def seq(self) -> int: ...
    @property
    def state(self) -> dict[str, Any]: ...
    @property
    def actor(self) -> str | None: ...
    @property
    def action(self) -> Mapping[str, Any]: ...
    @property
    def stand_in(self) -> str: ...


#: The kind of an app's action, by the reason the engine gives (:meth:`GameEngine.system_reason`).
SYSTEM_KINDS = {kit.DRAW: APP_ROLL, kit.DEFAULT: APP_DEFAULT, kit.TIMEOUT: TIMEOUT}


def actor_kind(engine: GameEngine, actor: str, action: Mapping[str, Any],
               bots: Sequence[bool]) -> tuple[str, int | None]:
    """The kind of ``actor`` (as stored: a seat number, "host" or "system") for this action, and its seat.

    For the app, the engine says why it acted (drew dice, applied its default, ended the game on time).
    """
    if actor.isdigit():
        seat = int(actor)
        return (BOT if seat < len(bots) and bots[seat] else SEAT), seat
    if actor == "host":
        return HOST_KIND, None
    reason = engine.system_reason(action) if isinstance(action, Mapping) else kit.DEFAULT
    return SYSTEM_KINDS.get(reason, APP_DEFAULT), None


def _default(engine: GameEngine, before: Mapping[str, Any]) -> dict[str, Any] | None:
    """The rules' own default for the decision the game waits for (``bot_action`` with ``strength=DEFAULT``)."""
    try:
        seats = engine.actors(before)
        action = engine.bot_action(before, min(seats), random.Random(0), strength=kit.DEFAULT) if seats else None
    except GameError:  # a review page must never break on an odd (damaged) state
        return None
    return dict(action) if isinstance(action, Mapping) else None


def _same(engine: GameEngine, before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any],
          actor: Any) -> bool:
    try:
        return engine.apply(before, dict(action), actor=actor) == after
    except GameError:
        return False


def decisions(engine: GameEngine, steps: Sequence[Moment], bots: Sequence[bool] | Sequence[Sequence[bool]],
              players: Sequence[str], language: str | None = None) -> list[Decision]:
    """One :class:`Decision` per event, that is per step after the first (``steps[1:]``).

    ``bots`` says which seats the app played: one list per event (see
    :func:`sixdice.review.tablelog.bots_by_event`), or one list for the whole game.
    """
    per_event = bool(bots) and not isinstance(bots[0], bool)
    out = []
    for index, (before, step) in enumerate(zip(steps, steps[1:], strict=False)):
        action = step.action
        actor = step.actor or ""
        now: Sequence[bool] = bots[index] if per_event else bots  # type: ignore[assignment]
        kind, seat = actor_kind(engine, actor, action, now)
        if step.stand_in == "timeout" and seat is not None:  # a turn timer ran out (sixdice/tables/policies/turn_timers.py)
            kind = TIMEOUT
        default = _default(engine, before.state)
        default_text, differs = "", False
        if default is not None:
            who: Any = int(actor) if actor.isdigit() else actor
            differs = not _same(engine, before.state, step.state, default, who)
            parts = engine.describe_parts(before.state, default, names=list(players))
            default_text = render_notation(parts, language) or engine.describe(before.state, default,
                                                                               names=list(players))
        out.append(Decision(step.seq, kind, seat, default, default_text, differs))
    return out


def bots_of(game: Any) -> list[bool]:
    """Per seat of ``game``: whether the table's seat is a bot (the app plays it)."""
    bots = {seat.position: seat.is_bot for seat in game.table.seats.all()}
    return [bool(bots.get(position, False)) for position in range(len(game.players))]


def who_began(engine: Any, steps: Sequence[Moment], table_first: int,
              language: str | None = None) -> tuple[int, str]:
    """The seat that began and why (in ``language``), from the states of the replay.

    The engine's ``first_player`` hook decides; a game without it began with
    the table's pick (``Game.first``).
    """
    for step in steps:
        found = engine.first_player(step.state)
        if found is not None:
            return found.seat, render_notation([found.reason], language)
    return table_first, gettext("The table's pick")
