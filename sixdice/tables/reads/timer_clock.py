"""The turn timer's clock, read from the database: who is timed now, until when, and who is away.

**The deadline is not stored.**  It is the moment the count started plus the
time: the count starts at the game's last event (or its start) and again at
each change to the table (a pause and its resume, a seat given back...).
Every server process works it out alike from the database.  The writes and
the driver that acts when the time runs out are in :mod:`~sixdice.tables.policies.turn_timers`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy

from sixdice.gamekit.engine import DEFAULT, GameEngine, get_engine
from sixdice.gamekit.errors import GameError
from sixdice.tables.core.clock import get_clock
from sixdice.tables.core.errors import BadOptions
from sixdice.tables.core.keys import Credentials, hash_secret
from sixdice.tables.core.rng import system_rng
from sixdice.tables.models import Event, Game, Seat, Table, TableChange, TurnTimer

CHOICES = (0, 30, 60, 120)
"""The times a host may choose, in seconds (0: no timer)."""
MISSES_BEFORE_AWAY = 3
"""Stand-ins in a row for one seat after which the app plays the seat until "I'm back"."""
STAND_IN = "timeout"
IDLE_RECHECK = 60.0  # seconds: a driver with nothing to time looks again at least this often
K = TableChange.Kind
_SEAT_KINDS = (K.JOIN, K.CLAIM, K.HANDOVER, K.BOT_ON, K.BOT_OFF, K.AWAY, K.BACK)


def now() -> datetime:
    """The time of the turn timers: the real time, or a test server's test clock (core/clock.py)."""
    return get_clock().now()


def clean_seconds(raw: Any) -> int:
    """A host's choice from the new-table form (``""``/``"0"``/``"off"``, ``"30"``, ``"60"``, ``"120"``)."""
    if raw in (None, "", "off"):
        return 0
    try:
        value = int(raw)
    except (TypeError, ValueError):
        value = -1
    if value not in CHOICES:
        raise BadOptions(gettext("The turn timer is off, 30 seconds, 60 seconds or 2 minutes."))
    return value


LABELS = {30: gettext_lazy("30 seconds"), 60: gettext_lazy("60 seconds"), 120: gettext_lazy("2 minutes")}


def label(table: Table) -> str:
    """The table's time per action in words ("" without a timer), for the join page."""
    seconds = TurnTimer.objects.filter(table_id=table.pk).values_list("seconds", flat=True).first()
    return str(LABELS.get(seconds or 0, "")) if seconds else ""


# ---------------------------------------------------------------- the clock


@dataclass(frozen=True)
class Clock:
    """Where a table's timer is now."""

    seconds: int  # the time per action
    paused: bool  # the host paused the timer
    game: int | None  # the game and seq being timed
    seq: int
    seats: tuple[int, ...]  # the seats whose action is timed now (empty: no countdown)
    deadline: datetime | None  # when their time runs out (None: nothing is timed now)
    running: bool  # a game is being played at an open table (else the driver stops)
    misses: Mapping[int, int]  # stand-ins in a row per seat (seats with none left out)
    away: tuple[int, ...]  # seats the app plays after too many stand-ins, until "I'm back"

    def as_json(self, at: datetime) -> dict[str, Any]:
        left = None if self.deadline is None else max(0, int((self.deadline - at).total_seconds() * 1000))
        return {
            "seconds": self.seconds, "paused": self.paused, "game": self.game, "seq": self.seq,
            "seats": list(self.seats), "left_ms": left, "misses": {str(k): v for k, v in self.misses.items()},
            "away": list(self.away), "limit": MISSES_BEFORE_AWAY,
        }


def _speedup() -> float:
    return float(getattr(settings, "SIXDICE_TIMER_SPEEDUP", 1) or 1)


def stand_in_action(engine: GameEngine, game: Game, seat: int, *, probe: bool = False) -> dict[str, Any] | None:
    """The action the app plays for ``seat`` when its time runs out, or ``None`` when it has none.

    The game's bot (its default strength; with ``probe`` the weakest, only to
    learn whether there is one), else the engine's default choice.  A roll
    of real dice is never played for a seat.
    """
    state = game.state
    strengths = engine.bot_strengths
    rng = random.Random(0) if probe else system_rng("timeout", game.number, game.seq, seat)
    action: Mapping[str, Any] | None = None
    try:
        if strengths:
            action = engine.bot_action(state, seat, rng, strength=strengths[0] if probe else None)
        if action is None:
            action = engine.bot_action(state, seat, rng, strength=DEFAULT)
    except GameError:
        return None
    if action is None:
        return None
    if engine.typed_in(game.options or {}, action):
        return None  # the dice are on the table: only the player (or the host) can type them in
    return dict(action)


def misses(game_id: int, seats: Sequence[int]) -> dict[int, int]:
    """For each seat: how many of its last actions in a row the app played because its time ran out."""
    out: dict[int, int] = {}
    open_seats = {str(s) for s in seats}
    rows = Event.objects.filter(game_id=game_id, actor__in=open_seats).order_by("-seq").values_list("actor", "stand_in")
    for actor, stand_in in rows[:200]:
        if actor not in open_seats:
            continue
        if stand_in == STAND_IN:
            out[int(actor)] = out.get(int(actor), 0) + 1
        else:
            open_seats.discard(actor)
            if not open_seats:
                break
    return out


def away_seats(table_id: int) -> tuple[int, ...]:
    """Seats the app plays because their time ran out too often (their last seat change is ``away``)."""
    last: dict[int, str] = {}
    for kind, payload in TableChange.objects.filter(table_id=table_id, kind__in=_SEAT_KINDS).order_by(
        "version"
    ).values_list("kind", "payload"):
        position = (payload or {}).get("position")
        if isinstance(position, int) and not isinstance(position, bool):
            last[position] = kind
    return tuple(sorted(p for p, kind in last.items() if kind == K.AWAY))


def compute(
    table: Table, timer: TurnTimer | None, game: Game | None, seats: Sequence[Seat], *,
    last_event_at: datetime | None, at: datetime | None = None,
) -> Clock | None:
    """The clock of a table from rows already loaded (``None``: the table has no timer)."""
    if timer is None or not timer.seconds:
        return None
    at = at or now()
    running = (
        table.status == Table.Status.PLAYING and game is not None and game.status == Game.Status.PLAYING
    )
    timed: tuple[int, ...] = ()
    deadline = None
    counted: dict[int, int] = {}
    away: tuple[int, ...] = ()
    if running and game is not None:
        bots = {s.position for s in seats if s.is_bot}
        engine = get_engine(game.engine)
        humans = [s.position for s in seats if not s.is_bot]
        counted = {k: v for k, v in misses(game.pk, humans).items() if v} if humans else {}
        away = away_seats(table.pk) if bots else ()
        if not table.paused and not timer.paused:
            timed = tuple(
                s for s in sorted(engine.actors(game.state))
                if s not in bots and stand_in_action(engine, game, s, probe=True) is not None
            )
        if timed:
            change_at = (
                TableChange.objects.filter(table_id=table.pk).order_by("-version").values_list("created_at", flat=True).first()
            )
            since = max(t for t in (game.started_at, last_event_at, change_at) if t is not None)
            deadline = since + timedelta(seconds=timer.seconds / _speedup())
    return Clock(
        seconds=timer.seconds, paused=timer.paused, game=game.pk if game else None, seq=game.seq if game else 0,
        seats=timed, deadline=deadline, running=running, misses=counted, away=away,
    )


def clock(table_id: int, *, at: datetime | None = None) -> Clock | None:
    """The clock of a table, read from the database."""
    timer = TurnTimer.objects.filter(table_id=table_id).first()
    if timer is None or not timer.seconds:
        return None
    table = Table.objects.get(pk=table_id)
    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
    last = None
    if game is not None:
        last = Event.objects.filter(game=game).order_by("-seq").values_list("created_at", flat=True).first()
    return compute(table, timer, game, seats, last_event_at=last, at=at)


def frame_part(table: Table, game: Game | None, seats: Sequence[Seat], last_event_at: datetime | None) -> dict[str, Any] | None:
    """The ``timer`` of a table frame (``None``: no timer); ``table`` loaded with ``select_related("turn_timer")``."""
    try:
        timer = table.turn_timer
    except TurnTimer.DoesNotExist:
        return None
    at = now()
    c = compute(table, timer, game, seats, last_event_at=last_event_at, at=at)
    return None if c is None else c.as_json(at)


def time_limit_part(table: Table, game: Game | None, *, at: datetime | None = None) -> dict[str, Any] | None:
    """The game's time limit in a table frame (``time_limit``): ``{"minutes", "left_ms"}``, or ``None``.

    The table's option ``time_limit_minutes`` counted from the game's start, while the game is played.
    Sent as the time left, worked out here as the turn timer's is (every server process alike, from the
    database): the page counts it down from when it arrived, whatever the phone's own clock says.  At 0
    the time is up and the host may end the game.
    """
    minutes = (table.options or {}).get("time_limit_minutes")
    if not isinstance(minutes, int) or isinstance(minutes, bool) or minutes <= 0:
        return None
    if game is None or game.status != Game.Status.PLAYING:
        return None
    deadline = game.started_at + timedelta(minutes=minutes)
    left = max(0, int((deadline - (at or now())).total_seconds() * 1000))
    return {"minutes": minutes, "left_ms": left}


def parked_seat(table_id: int, credentials: Credentials) -> int | None:
    """The seat this browser held before the app took it over (its secret kept aside), if any."""
    if not credentials.seat_secret:
        return None
    digest = hash_secret(credentials.seat_secret)
    position: int | None = (
        Seat.objects.filter(table_id=table_id, parked_secret_hash=digest).values_list("position", flat=True).first()
    )
    return position


def clock_by_code(code: str) -> Clock | None:
    table = Table.objects.filter(code=code).values_list("pk", flat=True).first()
    return None if table is None else clock(table)
