"""The table frame: what everyone at a table shares, computed once per table change, and remembered.

The writer of a change computes it once after the commit (:mod:`~sixdice.tables.writes.after_commit`)
and every connection at the table turns it into its own snapshot
(:func:`sixdice.tables.reads.selectors.for_connection`).  Each process remembers the
last frame of each table (:data:`FRAMES`) for the welcome of the next
connection.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.urls import reverse

from sixdice.gamekit.engine import get_engine
from sixdice.tables.models import Event, Game, Seat, Table, TurnTimer
from sixdice.tables.reads import timer_clock
from sixdice.tables.transport import presence
from sixdice.tables.wire import offers
from sixdice.tables.wire.outgoing import event_payload


def table_info(table: Table, seats: Sequence[Seat] | None = None) -> dict[str, Any]:
    engine = get_engine(table.game)
    if seats is None:
        seats = list(table.seats.order_by("position"))
    return {
        "code": table.code,
        "game": table.game,
        "label": engine.label,
        "status": table.status,
        "paused": table.paused,
        "version": table.version,
        "capacity": table.capacity,
        "min_players": engine.min_players,
        "options": table.options,
        **offers.table_part(engine, table.options),  # the game's declarations for the page
        "join_url": reverse("tables:table", args=[table.code]),
        "seats": [
            {"position": seat.position, "name": seat.name, "bot": seat.is_bot, "strength": seat.bot_strength, "vacant": not (seat.secret_hash or seat.is_bot),
             "returnable": bool(seat.is_bot and seat.parked_secret_hash)}
            for seat in seats
        ],
    }


def current_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def recent_events(game: Game, limit: int = 40) -> list[Event]:
    """The game's last ``limit`` events up to ``game.seq``: the row as read, not what another process
    committed since (a frame whose log ran ahead of its seq made a client take one move twice)."""
    return list(reversed(game.events.filter(seq__lte=game.seq).order_by("-seq")[:limit]))


def standings(table: Table, seats: Sequence[Seat] | None = None) -> list[dict[str, Any]]:
    """Per seat over every finished game at the table: wins, times last, and places."""
    if seats is None:
        seats = list(table.seats.order_by("position"))
    rows: dict[int, dict[str, Any]] = {
        s.position: {"position": s.position, "name": s.name, "wins": 0, "lost": 0, "places": [0] * len(seats)}
        for s in seats
    }
    finished = Game.objects.filter(table_id=table.pk, status=Game.Status.FINISHED)
    for winners, places, loser in finished.values_list("winners", "places", "loser"):
        for seat in winners or []:
            if seat in rows:
                rows[seat]["wins"] += 1
        for place, seat in enumerate(places or []):
            if seat in rows and place < len(seats):
                rows[seat]["places"][place] += 1
        if loser in rows:
            rows[loser]["lost"] += 1
    return [rows[s.position] for s in seats]


def table_frame(table_id: int, *, log_size: int = 40, code: str | None = None) -> dict[str, Any]:
    """What everyone at the table shares, in at most six queries: computed once per table change.

    ``game`` carries the engine and the full ``state``: each connection
    derives its own seat's ``view`` from it (:func:`for_connection`).
    ``code``: the table's code, to note the frame as current until the
    next write this process commits there (:meth:`FrameCache.current`).
    """
    changes = None if code is None else FRAMES.changes(code)  # before the table is read
    table = Table.objects.select_related("turn_timer").get(pk=table_id)
    seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
    game = current_game(table)
    cached = build_frame(table, game, presence.current(table_id), log_size=log_size, reuse=FRAMES.get(table_id), seats=seats)
    if changes is not None and not _timed(table):
        FRAMES.note_current(table_id, Current(cached, changes, table, game))
    return with_timer(cached.frame, table, game, seats)


def _timed(table: Table) -> bool:
    """Whether the table has a turn timer (``table`` loaded with its ``turn_timer``)."""
    try:
        table.turn_timer  # noqa: B018  # the reverse one-to-one raises when there is none
    except TurnTimer.DoesNotExist:
        return False
    return True


@dataclass
class Current:
    """A table frame read when the table's count of writes was ``changes``, with the rows it was built from."""

    cached: CachedFrame
    changes: int
    table: Table
    game: Game | None


def with_timer(
    frame: dict[str, Any], table: Table, game: Game | None, seats: Sequence[Seat], *, timed: bool = True,
) -> dict[str, Any]:
    """The frame with its turn ``timer`` (issue 14) and the game's ``time_limit`` as of now: never remembered,
    their time left changes by the second.

    ``table`` with its ``turn_timer`` loaded (or known to be absent); ``timed=False``: the table has no
    turn timer (nothing to compute for it).
    """
    timer = None
    if timed:
        log = (frame["game"] or {}).get("log") or []
        last_at = datetime.fromisoformat(log[-1]["at"]) if log and log[-1].get("at") else None
        timer = timer_clock.frame_part(table, game, seats, last_at)
    return {**frame, "timer": timer, "time_limit": timer_clock.time_limit_part(table, game)}


def build_frame(
    table: Table, game: Game | None, here: dict[str, Any], *, log_size: int = 40, reuse: CachedFrame | None = None,
    seats: list[Seat] | None = None,
) -> CachedFrame:
    """The table frame from the table row, its current game and who is here: 3 queries at most, and remembered.

    ``reuse``: an older frame of this table; its table part (seats, standings)
    is taken when the table's version is the same, its game part when the game
    and its seq are, each without a query.
    """
    frame: dict[str, Any] = {"table": None, "presence": here, "standings": None, "game": None}
    logs: dict[str, list[dict[str, Any]]] = {}
    if reuse is not None and reuse.key[:2] == (table.code, table.version):
        frame["table"] = {**reuse.frame["table"], "status": table.status, "paused": table.paused}
        frame["standings"] = reuse.frame["standings"]
    else:
        if seats is None:
            seats = list(Seat.objects.filter(table_id=table.pk).order_by("position"))
        # Only a finished game counts in the standings: none exists while the first game is being played.
        no_results = game is None or (game.number == 1 and game.status == Game.Status.PLAYING)
        frame["table"] = table_info(table, seats)
        frame["standings"] = [_no_standing(s, len(seats)) for s in seats] if no_results else standings(table, seats)
    if game is not None:
        game_key = (game.pk, game.seq, game.status, game.started_at.isoformat())
        if reuse is not None and reuse.key[2:] == game_key and reuse.frame["game"] is not None:
            frame["game"] = reuse.frame["game"]
            logs = reuse.logs
        else:
            frame["game"] = {
                "id": game.pk,
                "number": game.number,
                "seq": game.seq,
                "status": game.status,
                "players": game.players,
                "started_at": game.started_at.isoformat(),
                # A game at seq 0 has no events yet: no query.
                "log": [event_payload(e) for e in recent_events(game, log_size)] if game.seq else [],
                "engine": game.engine,
                "state": game.state,
            }
            frame["game"].update(offers.game_part(get_engine(game.engine), frame["game"]["log"], status=game.status,
                                                  state=game.state, options=table.options))
            links = end_links(game, code=table.code)
            if links is not None:  # the end screen: the replay, the standings, "Send to BG Stats"
                frame["game"]["links"] = links
    return FRAMES.put(table.pk, frame, logs)


GameLinks = Callable[[Game, str], Mapping[str, str]]
END_LINKS: list[GameLinks] = []
"""What else a finished game's end screen links to, each given the game and its table's code: the
review app adds the replay and "Send to BG Stats" (its ``apps.py``; the tables never import it)."""

STANDINGS_PANEL = "standings-card"
"""The id of the table page's standings panel: a link to ``#standings-card`` opens it (``static/js/table_page.js``)."""


def end_links(game: Game, *, code: str) -> dict[str, str] | None:
    """The links of a finished game's end screen (the table frame's ``game.links``); ``None`` before its end.

    The table's standings, then whatever :data:`END_LINKS` add; no query of their own.
    """
    if game.status != Game.Status.FINISHED:
        return None
    links = {"standings": reverse("tables:table", args=[code]) + "#" + STANDINGS_PANEL}
    for more in END_LINKS:
        links.update(more(game, code))
    return links


def _no_standing(seat: Seat, n: int) -> dict[str, Any]:
    return {"position": seat.position, "name": seat.name, "wins": 0, "lost": 0, "places": [0] * n}


FrameKey = tuple[str, int, int | None, int, str | None, str | None]


def frame_key(frame: dict[str, Any]) -> FrameKey:
    """What identifies a table frame: the table's code and version, its current game and that game's seq.

    Every change to the table bumps its version, every event the game's seq,
    and events are only ever appended (an undo is an event too), so two frames
    with one key hold the same thing, whichever process computed them (a
    game abandoned when the host closes the table changes its status, not its
    seq: the status is in the key too).  (The
    code and the game's start time guard against a database whose ids start
    again, as between tests.)
    """
    game = frame["game"]
    if game is None:
        return (frame["table"]["code"], frame["table"]["version"], None, 0, None, None)
    return (frame["table"]["code"], frame["table"]["version"], game["id"], game["seq"], game["status"], game["started_at"])


@dataclass
class CachedFrame:
    key: FrameKey
    frame: dict[str, Any]
    logs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # the game's log per language


class FrameCache:
    """The last table frame this process computed for each table, for the welcome of the next connection.

    A connect compares the key it reads from the database (in the one query
    that identifies it) with the cached frame's: equal keys, no query for the
    frame; else the parts still current are reused (:func:`build_frame`).  Bounded (least recently used out); shared by the database
    threads, hence the lock.
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._frames: OrderedDict[int, CachedFrame] = OrderedDict()
        self._changes: dict[str, int] = {}  # per table code: the writes this process saw committed (``changed``)
        self._current: dict[int, Current] = {}  # per table: its frame while nothing is written (``note_current``)
        self._lock = threading.Lock()

    def changed(self, code: str) -> None:
        """A write to table ``code`` committed in this process (``after_commit``): what was read of it before is old."""
        with self._lock:
            self._changes[code] = self._changes.get(code, 0) + 1

    def note_current(self, table_id: int, current: Current) -> None:
        """``current`` is the table's frame for as long as no write to the table commits (:meth:`current`)."""
        with self._lock:
            self._current[table_id] = current

    def current(self, code: str, table_id: int) -> Current | None:
        """The table's frame as noted by :meth:`note_current`, if no write committed since; else ``None``.

        For a table without a turn timer (its clock is read from the
        database), and with the same caveat as :meth:`changes`: one process.
        """
        current = self._current.get(table_id)
        if current is None or current.changes != self.changes(code) or current.table.code != code:
            return None
        return current

    def changes(self, code: str) -> int:
        """How many writes to table ``code`` this process saw committed: read it *before* reading the table, and
        an equal count later means nothing was written since.

        Only this process's own writes are counted: a reader that relies on
        it must know every write goes through this process (one process, the
        in-memory channel layer).  Never reset (a count that started again
        could meet an old one).
        """
        return self._changes.get(code, 0)

    def get(self, table_id: int) -> CachedFrame | None:
        with self._lock:
            cached = self._frames.get(table_id)
            if cached is not None:
                self._frames.move_to_end(table_id)
            return cached

    def put(self, table_id: int, frame: dict[str, Any], logs: dict[str, list[dict[str, Any]]] | None = None) -> CachedFrame:
        cached = CachedFrame(frame_key(frame), frame, {} if logs is None else logs)
        with self._lock:
            self._frames[table_id] = cached
            self._frames.move_to_end(table_id)
            while len(self._frames) > self.size:
                gone, _frame = self._frames.popitem(last=False)
                self._current.pop(gone, None)
        return cached

    def clear(self) -> None:
        with self._lock:
            self._frames.clear()
            self._current.clear()


FRAMES = FrameCache()
