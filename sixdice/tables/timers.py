"""Turn timers with stand-ins (issue 14): a time per action, and the app acting when it runs out.

A table's host may give each action a time (off, 30 s, 60 s or 2 min; the
:class:`~sixdice.tables.models.TurnTimer` row).  While a game is played, the
seats whose action the game waits for (``engine.actors``) each get that time.
When it runs out, the app plays that action for the seat: the game's bot
(``engine.bot_action``, its default strength), or the engine's default
(``engine.default_choice``) where the game has no bot for it.  The event is
the seat's, marked ``stand_in = "timeout"``.  After
:data:`MISSES_BEFORE_AWAY` such actions in a row, the seat passes to the app
(a bot seat, table change ``away``) until its phone says "I'm back"
(:func:`come_back`, table change ``back``) or the host gives it back.

**The deadline is not stored.**  It is the moment the count started plus the
time: the count starts at the game's last event (or its start) and again at
each change to the table (a pause and its resume, a seat given back...).
Every server process works it out alike from the database, so each may run a
driver (:class:`TableTimer`) for the table; the stand-in is applied with the
game's ``seq`` it was chosen at, so exactly one process's is applied, and a
move committed before it wins.  Nothing is timed in the lobby, at a paused or
closed table, in a finished game, while the host paused the timer, for a bot
seat, or for a roll of real dice (the app cannot roll those).

See ``docs/protocol.md`` ("Turn timers").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from sixdice.gamekit.engine import SYSTEM, GameEngine, GameError, get_engine

from . import broadcast, services
from .drivers import Drivers
from .models import Event, Game, Seat, Table, TableChange, TurnTimer
from .services import Credentials, ServiceError

log = logging.getLogger(__name__)

CHOICES = (0, 30, 60, 120)
"""The times a host may choose, in seconds (0: no timer)."""
MISSES_BEFORE_AWAY = 3
"""Stand-ins in a row for one seat after which the app plays the seat until "I'm back"."""
STAND_IN = "timeout"
IDLE_RECHECK = 60.0  # seconds: a driver with nothing to time looks again at least this often
K = TableChange.Kind
_SEAT_KINDS = (K.JOIN, K.CLAIM, K.HANDOVER, K.BOT_ON, K.BOT_OFF, K.AWAY, K.BACK)


def now() -> datetime:
    """The time; tests replace it to run a clock of their own."""
    return timezone.now()


def clean_seconds(raw: Any) -> int:
    """A host's choice from the new-table form (``""``/``"0"``/``"off"``, ``"30"``, ``"60"``, ``"120"``)."""
    if raw in (None, "", "off"):
        return 0
    try:
        value = int(raw)
    except (TypeError, ValueError):
        value = -1
    if value not in CHOICES:
        raise ServiceError("bad_options", gettext("The turn timer is off, 30 seconds, 60 seconds or 2 minutes."))
    return value


LABELS = {30: gettext_lazy("30 seconds"), 60: gettext_lazy("60 seconds"), 120: gettext_lazy("2 minutes")}


def label(table: Table) -> str:
    """The table's time per action in words ("" without a timer), for the join page."""
    seconds = TurnTimer.objects.filter(table_id=table.pk).values_list("seconds", flat=True).first()
    return str(LABELS.get(seconds or 0, "")) if seconds else ""


def configure(table: Table, seconds: int) -> None:
    """Give a new table its timer (no row at all when it is off)."""
    if seconds:
        TurnTimer.objects.update_or_create(table=table, defaults={"seconds": clean_seconds(seconds)})


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
    rng = random.Random(0) if probe else services._system_rng("timeout", game.number, game.seq, seat)
    action: Mapping[str, Any] | None = None
    try:
        if strengths:
            action = engine.bot_action(state, seat, rng, strength=strengths[0] if probe else None)
        if action is None:
            action = engine.default_choice(state)
    except GameError:
        return None
    if action is None:
        return None
    if action.get("type") == "roll" and (game.options or {}).get("dice") == "physical":
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


# ---------------------------------------------------------------- writes


@dataclass(frozen=True)
class Fired:
    """What a timer did when it ran out: the seat it played for, and whether the seat passed to the app."""

    seat: int
    seq: int  # the seq of the stand-in's event
    misses: int
    away: bool
    bots: bool  # the table has bot seats (their driver may have a move now)


def fire(code: str, *, game_id: int, seq: int, at: datetime | None = None) -> Fired | None:
    """Play the stand-in for the seat whose time ran out, if it still did; ``None`` when nothing was due.

    Applied with ``seq``: a move committed meanwhile (or another process's
    stand-in) wins, and this one is dropped.
    """
    at = at or now()
    with transaction.atomic():
        table = services.load_table(code, allow_closed=True)  # a closed table: its clock is stopped
        TurnTimer.objects.select_for_update().filter(table_id=table.pk).first()  # one writer at a time per timer
        c = clock(table.pk, at=at)
        if c is None or c.game != game_id or c.seq != seq or not c.seats or c.deadline is None or c.deadline > at:
            return None
        game = Game.objects.get(pk=game_id)
        seat = c.seats[0]
        action = stand_in_action(get_engine(game.engine), game, seat)
        if action is None:
            return None
        try:
            with transaction.atomic():
                applied = services.apply_action(
                    table_code=code, credentials=Credentials(), action=action, expected_seq=seq,
                    bot_seat=seat, stand_in=STAND_IN,
                )
        except ServiceError as exc:
            if exc.code in {"stale", "paused", "game_over", "table_closed"}:
                log.debug("table %s: no stand-in at seq %s (%s): a move or another process came first", code, seq, exc.code)
                return None  # someone moved first (or the table stopped): the move wins
            raise
        count = misses(game_id, [seat]).get(seat, 0)
        away = count >= MISSES_BEFORE_AWAY and applied.game.status == Game.Status.PLAYING
        if away:
            _go_away(table, seat, count)
        return Fired(seat=seat, seq=applied.events[0].seq, misses=count, away=away, bots=applied.bots or away)


def _go_away(table: Table, position: int, count: int) -> None:
    """The seat passes to the app; its phone's secret is kept aside for "I'm back" (as "Let the app play" does)."""
    seat = Seat.objects.select_for_update().get(table_id=table.pk, position=position)
    seat.is_bot = True
    seat.bot_strength = ""
    seat.parked_secret_hash = seat.secret_hash or seat.parked_secret_hash
    seat.secret_hash = ""
    seat.save(update_fields=["is_bot", "bot_strength", "parked_secret_hash", "secret_hash"])
    services._changed(table, K.AWAY, actor=SYSTEM, payload={"position": position, "misses": count}, revoked=[position])


def parked_seat(table_id: int, credentials: Credentials) -> int | None:
    """The seat this browser held before the app took it over (its secret kept aside), if any."""
    if not credentials.seat_secret:
        return None
    digest = services.hash_secret(credentials.seat_secret)
    position: int | None = (
        Seat.objects.filter(table_id=table_id, parked_secret_hash=digest).values_list("position", flat=True).first()
    )
    return position


@transaction.atomic
def come_back(*, table_code: str, credentials: Credentials) -> int:
    """ "I'm back": the seat the app took over after too many timeouts returns to this phone."""
    table = services.load_table(table_code)
    position = parked_seat(table.pk, credentials)
    if position is None or position not in away_seats(table.pk):
        raise ServiceError("not_away", gettext("The app is not playing a seat of yours because time ran out."))
    seat = Seat.objects.select_for_update().get(table_id=table.pk, position=position)
    seat.is_bot = False
    seat.bot_strength = ""
    seat.secret_hash, seat.parked_secret_hash = seat.parked_secret_hash, ""
    seat.save(update_fields=["is_bot", "bot_strength", "secret_hash", "parked_secret_hash"])
    services._changed(table, K.BACK, actor=str(position), payload={"position": position})
    return position


@transaction.atomic
def set_paused(*, table: Table, fields: Mapping[str, Any]) -> None:
    """The host command ``timer``: ``paused`` true stops the countdown (the game goes on), false starts it again."""
    paused = fields.get("paused")
    if not isinstance(paused, bool):
        raise ServiceError("bad_field", gettext("Field %(name)s must be true or false.") % {"name": "'paused'"})
    timer = TurnTimer.objects.select_for_update().filter(table_id=table.pk).first()
    if timer is None or not timer.seconds:
        raise ServiceError("no_timer", gettext("This table has no turn timer."))
    if timer.paused == paused:
        return
    timer.paused = paused
    timer.save(update_fields=["paused"])
    services._changed(table, K.TIMER_PAUSE if paused else K.TIMER_RESUME)


# ---------------------------------------------------------------- the driver


def _clock_by_code(code: str) -> Clock | None:
    table = Table.objects.filter(code=code).values_list("pk", flat=True).first()
    return None if table is None else clock(table)


class TableTimer:
    """Times one table in this process: announces each countdown, plays the stand-in when it runs out.

    It listens to the table's broadcasts (a move, a table change: from any
    process) and looks again at each; it ends when the table has no timer or
    no game is being played there.
    """

    def __init__(self, code: str) -> None:
        self.code = code
        self.task: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def nudge(self) -> None:
        self.wake.set()

    async def _listen(self, layer: Any, channel: str) -> None:
        while True:
            message = await layer.receive(channel)
            if message.get("type") in {"table.events", "table.frame"}:
                self.wake.set()

    async def run(self) -> None:
        try:  # most kicks come from tables without a timer: look before listening to the table
            first = await broadcast.database_sync_to_async(_clock_by_code)(self.code)
        except Exception:
            log.exception("timer at table %s: could not read the table", self.code)
            return
        if first is None or not first.running:
            return
        layer = get_channel_layer()
        group = broadcast.group_name(self.code)
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        listener = asyncio.get_running_loop().create_task(self._listen(layer, channel))
        announced: tuple[Any, ...] | None = None
        failures = 0
        try:
            while True:
                self.wake.clear()
                try:
                    # Join again each time, as connections do at each ping: a channel layer that
                    # restarted (Redis) forgot the group (the deadline still comes: we look again then).
                    try:
                        await layer.group_add(group, channel)
                    except Exception:  # the layer is down for a moment: the deadline still comes
                        log.warning("timer at table %s: could not join the table's group", self.code, exc_info=True)
                    c = await broadcast.database_sync_to_async(_clock_by_code)(self.code)
                    if c is None or not c.running:
                        return
                    key = (c.game, c.seq, c.seats, c.paused, c.deadline)
                    if key != announced:
                        announced = key
                        await layer.group_send(group, {"type": "table.timer", "timer": c.as_json(now())})
                    if c.deadline is None:
                        await self._sleep(IDLE_RECHECK)
                        continue
                    left = (c.deadline - now()).total_seconds()
                    if left > 0:
                        await self._sleep(left)
                        continue
                    fired = await broadcast.write(fire, self.code, game_id=c.game, seq=c.seq)
                    if fired is not None and fired.bots:
                        from . import bots

                        bots.kick(self.code)
                    failures = 0
                except (OperationalError, InterfaceError):  # a lock, a dropped connection: try again shortly
                    failures += 1
                    if failures >= 5:
                        log.exception("timer at table %s stopped after %s database errors", self.code, failures)
                        return
                    await asyncio.sleep(0.2 * failures)
                except ServiceError as exc:  # the table closed meanwhile, say
                    log.info("timer at table %s stopped: %s", self.code, exc.message)
                    return
        except Exception:  # a bug must stop this driver, not the server; the next kick starts another
            log.exception("timer at table %s stopped on an unexpected error", self.code)
        finally:
            listener.cancel()
            try:
                await layer.group_discard(group, channel)
            except Exception:  # the layer is going away with the loop
                log.debug("timer at table %s: could not leave the group", self.code)

    async def _sleep(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), timeout=max(0.0, seconds))


_drivers = Drivers(TableTimer)


def kick(code: str) -> None:
    """Start the table's timer driver in this process unless it runs already (then make it look again)."""
    _drivers.kick(code)
