"""The record of the hints shown (issue 18): which seat was shown which suggestion, and what it played.

When a table has hints on (the games' ``hints`` option), the phone of the
seat to move shows the engine's hint (:meth:`~sixdice.gamekit.engine.GameEngine.hint`).
When that seat then sends its move (the tables' ``seat_moved`` signal), the same hint (the engines cache it: the
phone's view asked for it a moment before) is kept as a :class:`HintShown`
beside the game, keyed by the move's ``seq``.  It is not a game event: it
takes no ``seq``, and the replay never applies it.  A bot's moves and the
host's (resolving a seat's choice) get no record: no player's phone showed them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from sixdice.gamekit.engine import GameEngine, suggested_action
from sixdice.gamekit.errors import GameError
from sixdice.tables.core.i18n import render_notation
from sixdice.tables.models import Game

from .models import HintShown

log = logging.getLogger(__name__)

MAX_HINT_CHARS = 4000  # a hint is a small JSON object; an import refuses anything larger


def record_hint(engine: GameEngine, game: Game, before: Mapping[str, Any], seat: int, *, seq: int) -> HintShown | None:
    """Keep the hint ``seat`` was shown in ``before`` (if the table shows hints and there was one), for move ``seq``."""
    if not engine.shows_hints(game.options):
        return None
    try:
        hint = engine.hint(before, seat)
    except GameError:
        return None
    if not hint:
        return None
    return HintShown.objects.create(game=game, seq=seq, seat=seat, hint=dict(hint))


def seat_moved_receiver(sender: Any, *, engine: GameEngine, game: Game, before: Mapping[str, Any], seat: int,
                        seq: int, **_: Any) -> None:
    """The tables' ``seat_moved`` signal: keep the hint the seat's phone showed before this move.

    The record is written after the move's transaction commits, so a search
    that is not cached in this process never holds the move's transaction
    open.  A failure here never costs the move: it is logged.
    """
    if not engine.shows_hints(game.options):
        return  # no hints at this table: nothing to keep, no query

    def record() -> None:
        try:
            with transaction.atomic():
                record_hint(engine, game, before, seat, seq=seq)
        except Exception:
            log.exception("game %s: the hint shown before move %s was not recorded", game.pk, seq)

    transaction.on_commit(record)


@dataclass(frozen=True)
class HintLine:
    seq: int
    seat: int
    suggested: str  # the suggested move in the active language ("" when the hint suggested none)
    followed: bool | None  # the move played was the suggestion (None: nothing was suggested)
    hint: Mapping[str, Any]

    def text(self) -> str:
        """"hint shown: … (followed)" in the active language, for the replay and the admin."""
        if not self.suggested:
            return gettext("hint shown (chances only)")
        if self.followed:
            return gettext("hint shown: %(move)s (followed)") % {"move": self.suggested}
        return gettext("hint shown: %(move)s (not followed)") % {"move": self.suggested}

    def caption(self) -> str:
        """The hint beside the move in a replay caption: the move is said once (a followed hint does not repeat it)."""
        if self.suggested and self.followed:
            return gettext("the hint shown was followed")
        return self.text()


def hint_lines(engine: GameEngine, game: Game, states: Sequence[Mapping[str, Any]], language: str | None = None
               ) -> dict[int, HintLine]:
    """Each recorded hint of ``game`` by the seq of the move that followed it.

    ``states[k]`` is the state after event ``k`` (``states[0]`` the initial
    state), as the replay steps have them.
    """
    lines = {}
    for shown in HintShown.objects.filter(game=game).order_by("seq"):
        if not 0 < shown.seq < len(states):
            continue
        before, after = states[shown.seq - 1], states[shown.seq]
        action = suggested_action(shown.hint) if isinstance(shown.hint, Mapping) else None
        suggested, followed = "", None
        if action is not None:
            try:
                suggested = render_notation(engine.describe_parts(before, action, names=list(game.players)), language)
                followed = engine.apply(before, dict(action), actor=shown.seat) == after
            except GameError:
                suggested, followed = "", None
        lines[shown.seq] = HintLine(shown.seq, shown.seat, suggested, followed, shown.hint)
    return lines


def export_hints(game: Game) -> list[dict[str, Any]]:
    return [{"seq": h.seq, "seat": h.seat, "hint": h.hint} for h in HintShown.objects.filter(game=game).order_by("seq")]
