"""The app plays the bot seats: a driver per table, alive while a bot has a move to make.

A table's driver plays its bots' moves one at a time, a human pace apart
(``SIXDICE_BOT_DELAY``), and ends when no bot is to act: a person's turn, the
game over, the table paused or closed, or no bot seat left.  Whatever may give
a bot a move starts it again (:func:`kick`): after_commit wakes it after every committed
write at a table with bots, whoever made it (a move, a host command, an admin
action), and a connection opening or its heartbeat at a table with bots.

Several server processes: each may run a driver for the same table.  Every
bot move is applied with the game's ``seq`` it was chosen at, so exactly one
process's move is applied; the others get ``stale``, quietly look again, and
stop when no bot is to act.  No process is in charge, so none can leave the
table stuck by dying: the next action, command or heartbeat in any process
starts a driver there.
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.replay import STAND_IN_AWAY, STAND_IN_BOT
from sixdice.tables.core.clock import get_clock
from sixdice.tables.core.driver_registry import Drivers
from sixdice.tables.core.errors import ServiceError, Stale
from sixdice.tables.core.keys import Credentials
from sixdice.tables.core.rng import system_rng
from sixdice.tables.models import Game, Seat
from sixdice.tables.reads.table_frame import current_game
from sixdice.tables.writes import after_commit
from sixdice.tables.writes.checked_path import apply_action, load_table

log = logging.getLogger(__name__)

MAX_DATABASE_RETRIES = 5  # a database hiccup in a row (a lock, a dropped connection) before giving up until the next kick


def step(code: str) -> bool:
    """Play one move for a bot seat whose turn it is; True when it moved (or another process did).

    Every bot seat that may act is asked in turn: one with no move now (the
    game has no bot for this step, such as a roll typed at the table) does
    not keep the next one from moving.
    """
    table = load_table(code)
    rows = Seat.objects.filter(table_id=table.pk, is_bot=True).values_list("position", "bot_strength", "parked_secret_hash")
    bots = {position: strength for position, strength, _parked in rows}
    away = {position for position, _strength, parked in rows if parked}  # a person's seat the app plays for now
    if not bots or table.paused:
        return False
    game = current_game(table)
    if game is None or game.status != Game.Status.PLAYING:
        return False
    engine = get_engine(game.engine)
    for seat in sorted(engine.actors(game.state) & set(bots)):
        rng = system_rng("bot", game.number, game.seq, seat)
        action = engine.bot_action(game.state, seat, rng, strength=bots[seat] or None)
        if action is None:  # the game has no bot, or not for this step (a physical roll: the host types it)
            continue
        try:
            apply_action(
                table_code=code, credentials=Credentials(), action=action, expected_seq=game.seq, bot_seat=seat,
                stand_in=STAND_IN_AWAY if seat in away else STAND_IN_BOT,  # the app's move, never the player's own
            )
        except Stale:
            log.debug("table %s: another process moved first for bot seat %s", code, seat)
        return True  # moved, or someone else did: look again after the pause
    return False


class TableBots:
    """Drives one table's bot seats in this process until no bot is to act."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.task: asyncio.Task[None] | None = None
        self.kicked = False  # kicked while looking at the table: it may have read it before that move

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def nudge(self) -> None:
        self.kicked = True

    async def run(self) -> None:
        failures = 0
        while True:
            await get_clock().bot_pause(settings.SIXDICE_BOT_DELAY)  # a test server's bots wait on its test clock
            self.kicked = False
            try:
                moved = await after_commit.write(step, self.code)
            except ServiceError as exc:  # paused, over, closed: the next kick looks again
                log.info("bots at table %s stopped: %s", self.code, exc.message)
                if self.kicked:
                    continue
                return
            except (OperationalError, InterfaceError):  # a lock, a dropped connection: passing troubles
                failures += 1
                if failures >= MAX_DATABASE_RETRIES:
                    log.exception("bots at table %s stopped after %s database errors", self.code, failures)
                    return
                log.warning("bots at table %s: database error, trying again", self.code, exc_info=True)
                continue
            except Exception:  # a bug in an engine's bot: stop this driver, keep the server
                log.exception("bots at table %s stopped on an unexpected error", self.code)
                return
            failures = 0
            if not moved and not self.kicked:  # a kick during the step: look once more
                return


_drivers = Drivers(TableBots)
_running = _drivers.by_loop  # the drivers running in this process, per event loop


def kick(code: str) -> None:
    """Start the table's bot driver in this process unless it is running already."""
    _drivers.kick(code)


after_commit.register_waker(after_commit.BOTS, kick)
