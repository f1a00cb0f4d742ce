"""Turn timers with stand-ins (issue 14): a time per action, and the app acting when it runs out.

A table's host may give each action a time (off, 30 s, 60 s or 2 min; the
:class:`~sixdice.tables.models.TurnTimer` row).  While a game is played, the
seats whose action the game waits for (``engine.actors``) each get that time.
When it runs out, the app plays that action for the seat: the game's bot
(``engine.bot_action``, its default strength), or the engine's default
(``engine.bot_action`` with ``strength=DEFAULT``) where the game has no bot for it.  The event is
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
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from channels.layers import get_channel_layer
from django.db import InterfaceError, OperationalError, transaction
from django.utils.translation import gettext

from sixdice.gamekit.engine import SYSTEM, get_engine
from sixdice.tables.core.clock import get_clock
from sixdice.tables.core.driver_registry import Drivers
from sixdice.tables.core.errors import (
    BadField,
    GameOver,
    NotAway,
    NoTimer,
    Paused,
    ServiceError,
    Stale,
    TableClosed,
)
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Game, Seat, Table, TableChange, TurnTimer
from sixdice.tables.reads.timer_clock import (
    IDLE_RECHECK,
    MISSES_BEFORE_AWAY,
    STAND_IN,
    clean_seconds,
    clock,
    clock_by_code,
    misses,
    now,
    parked_seat,
    stand_in_action,
)
from sixdice.tables.writes import after_commit, ledger
from sixdice.tables.writes.checked_path import apply_action, load_table

log = logging.getLogger(__name__)
K = TableChange.Kind


def configure(table: Table, seconds: int) -> None:
    """Give a new table its timer (no row at all when it is off)."""
    if seconds:
        TurnTimer.objects.update_or_create(table=table, defaults={"seconds": clean_seconds(seconds)})



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
        table = load_table(code, allow_closed=True)  # a closed table: its clock is stopped
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
                applied = apply_action(
                    table_code=code, credentials=Credentials(), action=action, expected_seq=seq,
                    bot_seat=seat, stand_in=STAND_IN,
                )
        except (Stale, Paused, GameOver, TableClosed) as exc:
            log.debug("table %s: no stand-in at seq %s (%s): a move or another process came first", code, seq, exc.code)
            return None  # someone moved first (or the table stopped): the move wins
        count = misses(game_id, [seat]).get(seat, 0)
        away = count >= MISSES_BEFORE_AWAY and applied.game.status == Game.Status.PLAYING
        if away:
            _go_away(table, seat, count)
        return Fired(seat=seat, seq=applied.events[0].seq, misses=count, away=away, bots=applied.bots or away)


def _go_away(table: Table, position: int, count: int) -> None:
    """The seat passes to the app; its phone's secret is kept aside for "I'm back" (as "Let the app play" does)."""
    seat = Seat.objects.select_for_update().get(table_id=table.pk, position=position)
    ledger.park(seat)
    seat.bot_strength = ""
    seat.save(update_fields=ledger.SEAT_HOLDER_FIELDS)
    ledger.record_change(table, K.AWAY, actor=SYSTEM, payload={"position": position, "misses": count}, revoked=[position])


@transaction.atomic
def come_back(*, table_code: str, credentials: Credentials) -> int:
    """ "I'm back": the seat the app took over from this phone returns to it, without the host.

    Whether the app took it after too many timeouts or because the host let
    the app play it (a player who left): the phone whose secret was kept
    aside holds the seat again.
    """
    table = load_table(table_code)
    position = parked_seat(table.pk, credentials)
    if position is None:
        raise NotAway(gettext("The app is not playing a seat of yours."))
    seat = Seat.objects.select_for_update().get(table_id=table.pk, position=position)
    ledger.unpark(seat)
    seat.save(update_fields=ledger.SEAT_HOLDER_FIELDS)
    ledger.record_change(table, K.BACK, actor=str(position), payload={"position": position})
    return position


@transaction.atomic
def set_paused(*, table: Table, fields: Mapping[str, Any]) -> None:
    """The host command ``timer``: ``paused`` true stops the countdown (the game goes on), false starts it again."""
    paused = fields.get("paused")
    if not isinstance(paused, bool):
        raise BadField(gettext("Field %(name)s must be true or false.") % {"name": "'paused'"})
    timer = TurnTimer.objects.select_for_update().filter(table_id=table.pk).first()
    if timer is None or not timer.seconds:
        raise NoTimer(gettext("This table has no turn timer."))
    if timer.paused == paused:
        return
    timer.paused = paused
    timer.save(update_fields=["paused"])
    ledger.record_change(table, K.TIMER_PAUSE if paused else K.TIMER_RESUME)


# ---------------------------------------------------------------- the driver


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
            first = await after_commit.database_sync_to_async(clock_by_code)(self.code)
        except Exception:
            log.exception("timer at table %s: could not read the table", self.code)
            return
        if first is None or not first.running:
            return
        layer = get_channel_layer()
        group = after_commit.group_name(self.code)
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
                    c = await after_commit.database_sync_to_async(clock_by_code)(self.code)
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
                    await after_commit.write(fire, self.code, game_id=c.game, seq=c.seq)  # its outbox wakes the bots
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
        await get_clock().sleep(seconds, self.wake)  # a test server's test clock wakes it when advanced


_drivers = Drivers(TableTimer)


def kick(code: str) -> None:
    """Start the table's timer driver in this process unless it runs already (then make it look again)."""
    _drivers.kick(code)


after_commit.register_waker(after_commit.TIMER, kick)
