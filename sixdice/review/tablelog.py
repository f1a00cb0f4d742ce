"""What happened at the table while a game was played: pauses, the app taking seats over, closing.

The table log (``TableChange``, one row per change, see ``docs/protocol.md``)
is kept beside the game's own event log.  For review, each change during a
game is placed after the move it followed (``step``: the number of the
game's events recorded before it), and says who made it.

It also tells which seats the app played at each move: a seat that joined
as a bot, or that the host handed to the app ("Let the app play"), is a bot
until the host takes it back.  Games without a table log (imported ones)
fall back on the seats as they are now (``Seat.is_bot``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop

from sixdice.tables.models import Event, Game, TableChange

K = TableChange.Kind
#: The changes shown beside a game's moves, in words (what a reviewer needs: who stopped the game, and when).
SHOWN: dict[str, str] = {
    K.PAUSE: gettext_noop("The host paused the game."),
    K.RESUME: gettext_noop("The host resumed the game."),
    K.BOT_ON: gettext_noop("The app plays for %(name)s from here."),
    K.BOT_OFF: gettext_noop("%(name)s plays again (the app stopped playing the seat)."),
    K.HANDOVER: gettext_noop("The host handed %(name)s's seat to another phone."),
    K.CLAIM: gettext_noop("%(name)s's seat was taken over on another phone."),
    K.CLOSE: gettext_noop("The host closed the table."),
    K.TIMER_PAUSE: gettext_noop("The host paused the turn timer."),
    K.TIMER_RESUME: gettext_noop("The host resumed the turn timer."),
    K.AWAY: gettext_noop("Time ran out three times in a row for %(name)s: the app plays the seat."),
    K.BACK: gettext_noop("%(name)s is back (I'm back) and plays again."),
}


@dataclass(frozen=True)
class Change:
    step: int  # after this many of the game's moves
    kind: str
    text: str  # in the active language
    at: Any  # datetime


def _window(game: Game) -> list[TableChange]:
    """The table's changes from this game's start to its end (its GAME_END, the table's CLOSE or the next game)."""
    changes = list(TableChange.objects.filter(table_id=game.table_id).order_by("version"))
    start = next((i for i, c in enumerate(changes) if c.kind in (K.START, K.REMATCH)
                  and (c.payload or {}).get("game") == game.number), None)
    if start is None:
        return []
    out = []
    for change in changes[start + 1:]:
        if change.kind in (K.START, K.REMATCH):
            break
        out.append(change)
        if change.kind in (K.GAME_END, K.CLOSE):
            break
    return out


def _position(change: TableChange) -> int | None:
    pos = (change.payload or {}).get("position")
    return pos if isinstance(pos, int) and not isinstance(pos, bool) else None


def table_log(game: Game, events: Sequence[Event] | None = None) -> list[Change]:
    """The table changes during ``game`` that a reviewer sees, each placed after the move it followed."""
    events = list(events if events is not None else game.events.order_by("seq"))
    out = []
    for change in _window(game):
        if change.kind not in SHOWN:
            continue
        step = sum(1 for e in events if e.created_at <= change.created_at)
        pos = _position(change)
        name = game.players[pos] if pos is not None and pos < len(game.players) else "?"
        out.append(Change(step, change.kind, gettext(SHOWN[change.kind]) % {"name": name}, change.created_at))
    return out


def bots_by_event(game: Game, events: Sequence[Event]) -> list[list[bool]]:
    """For each event of ``game``: which seats the app played when it was recorded."""
    n = len(game.players)
    changes = list(TableChange.objects.filter(table_id=game.table_id).order_by("version"))
    if not changes:  # no table log (an imported game): the seats as they are now
        now = {seat.position: seat.is_bot for seat in game.table.seats.all()}
        return [[bool(now.get(p, False)) for p in range(n)] for _ in events]
    bot = [False] * n
    out: list[list[bool]] = []
    i = 0
    for event in events:
        while i < len(changes) and changes[i].created_at <= event.created_at:
            change, pos = changes[i], _position(changes[i])
            if pos is not None and pos < n:
                if change.kind == K.JOIN:
                    bot[pos] = bool((change.payload or {}).get("bot", False))
                elif change.kind in (K.BOT_ON, K.AWAY):
                    bot[pos] = True
                elif change.kind in (K.BOT_OFF, K.CLAIM, K.HANDOVER, K.BACK):
                    bot[pos] = False
            i += 1
        out.append(list(bot))
    return out
