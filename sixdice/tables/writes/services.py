"""Writes to tables and seats: open a table, take and hand over seats, pause, close, start a game.

Each runs in one transaction and records its change in the ledger
(:func:`sixdice.tables.writes.ledger.record_change`), which bumps the table's
version; what runs after the commit is after_commit's.  Writes to a game in
play go through the checked path (:mod:`~sixdice.tables.writes.checked_path`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.errors import OptionsError
from sixdice.gamekit.options import coaches, table_options
from sixdice.tables.core import lookalike_names as lookalikes
from sixdice.tables.core.errors import (
    BadField,
    BadLink,
    BadName,
    BadSeat,
    Busy,
    GameRunning,
    NameTaken,
    NotEnoughPlayers,
    SeatsClosed,
    TableClosed,
    TableFull,
)
from sixdice.tables.core.keys import (
    Credentials,
    hash_secret,
    new_code,
    new_secret,
)
from sixdice.tables.core.rng import system_rng
from sixdice.tables.models import Game, Seat, Table, TableChange, TurnTimer
from sixdice.tables.reads.table_frame import current_game
from sixdice.tables.writes import ledger
from sixdice.tables.writes.ledger import Applied

NAME_MAX = 24


def seat_for(table: Table, credentials: Credentials) -> Seat | None:
    if not credentials.seat_secret:
        return None
    digest = hash_secret(credentials.seat_secret)
    return table.seats.filter(secret_hash=digest).first()


def clean_name(name: str) -> str:
    cleaned = " ".join((name or "").split())
    if not cleaned:
        raise BadName(gettext("Please type a name."))
    if len(cleaned) > NAME_MAX:
        raise BadName(gettext("A name has at most %(n)s characters.") % {"n": NAME_MAX})
    if any(not ch.isprintable() for ch in cleaned) or lookalikes.has_invisible(cleaned):
        raise BadName(gettext("A name cannot hold control characters."))
    return cleaned


SAME_NAME, LOOKALIKE = "same", "lookalike"


def name_clash(name: str, names: Iterable[str]) -> tuple[str, str] | None:
    """The name at the table that ``name`` clashes with, and how: :data:`SAME_NAME` (in any case) or :data:`LOOKALIKE`.

    The other half of the seat-name rule (:func:`clean_name` is the first): the
    join form and an imported game's players keep names apart by it.
    """
    names = list(names)
    same = next((other for other in names if other.casefold() == name.casefold()), None)
    if same is not None:
        return SAME_NAME, same
    lookalike = lookalikes.confusable_with(name, names)
    return None if lookalike is None else (LOOKALIKE, lookalike)


def create_table(
    *,
    game: str,
    options: Mapping[str, Any],
    capacity: int,
    code: str | None = None,
    status: Table.Status = Table.Status.LOBBY,
    host_name: str = "",
) -> tuple[Table, str]:
    """Open a table for ``game``; returns it with the host secret (kept only in the host's session).

    ``host_name``: who hosts, as typed on the new-table form (optional; the review desk shows it).

    An imported game's table (:mod:`sixdice.review.exchange`) asks for its
    old ``code`` (used when free, else a new one is drawn) and another
    ``status``; its host secret is thrown away.
    """
    engine = get_engine(game)
    if not engine.min_players <= capacity <= engine.max_players:
        raise OptionsError(
            gettext("%(game)s takes %(low)s to %(high)s players.")
            % {"game": engine.label, "low": engine.min_players, "high": engine.max_players}
        )
    cleaned = {**engine.clean_options(options, players=capacity), **table_options(options)}
    host = clean_name(host_name) if (host_name or "").strip() else ""
    host_secret = new_secret()
    for attempt in range(20):
        try:
            with transaction.atomic():
                table = Table.objects.create(
                    code=code if code and attempt == 0 else new_code(),
                    game=engine.slug,
                    options=cleaned,
                    capacity=capacity,
                    status=status,
                    host_secret_hash=hash_secret(host_secret),
                    host_name=host,
                )
            return table, host_secret
        except IntegrityError:  # the code is taken; draw another
            continue
    raise Busy(gettext("Could not find a free table code; please try again."))


@transaction.atomic
def join_table(
    *, table: Table, name: str, is_bot: bool = False, strength: str = "", between_games: bool = False,
) -> tuple[Seat, str]:
    """Give a new player a seat; returns the seat and the secret that binds it to the browser.

    Seats are taken in the lobby; ``between_games`` (the host taking a seat of
    their own) also after a game has ended, for the next one.
    """
    table = Table.objects.get(pk=table.pk)
    open_now = {Table.Status.LOBBY, Table.Status.FINISHED} if between_games else {Table.Status.LOBBY}
    if table.status not in open_now:
        raise SeatsClosed(gettext("The game has started: seats are closed, but you can watch."))
    cleaned = clean_name(name)
    seats = list(table.seats.all())
    if len(seats) >= table.capacity:
        raise TableFull(gettext("All %(n)s seats are taken.") % {"n": table.capacity})
    clash = name_clash(cleaned, [seat.name for seat in seats])
    if clash is not None and clash[0] == SAME_NAME:
        raise NameTaken(gettext("Someone at this table is already called %(name)s.") % {"name": cleaned})
    if clash is not None:
        raise NameTaken(gettext("%(name)s looks too much like %(other)s, who is already at this table.")
                           % {"name": cleaned, "other": clash[1]})
    secret = new_secret()
    seat = Seat.objects.create(
        table=table,
        position=len(seats),
        name=cleaned,
        secret_hash="" if is_bot else hash_secret(secret),
        is_bot=is_bot,
        bot_strength=_strength(table, strength) if is_bot else "",
    )
    ledger.record_change(table, TableChange.Kind.JOIN, actor=str(seat.position), payload={"position": seat.position, "bot": is_bot})
    return seat, secret


def bot_name(taken: Iterable[str]) -> str:
    """The name of a new seat the app plays: the first "Bot n" that no name in ``taken`` is (in any case)."""
    used = {name.casefold() for name in taken}
    return next(name for n in itertools.count(1) if (name := f"Bot {n}").casefold() not in used)


@transaction.atomic
def add_bot(*, table: Table, strength: Any = "") -> Seat:
    """A seat the app plays, named :func:`bot_name` (the host's "add a bot", the new-table form, play against the app)."""
    taken = Seat.objects.filter(table_id=table.pk).values_list("name", flat=True)
    seat, _secret = join_table(table=table, name=bot_name(taken), is_bot=True, strength=strength)
    return seat


@transaction.atomic
def hand_over_seat(*, table: Table, position: int) -> str:
    """Revoke the phone that holds a seat and issue a one-use link for another phone.

    Returns the claim token for the new link.  The old phone loses the seat at
    once, and an earlier hand-over link stops working.
    """
    seat = _seat_at(table, position)
    token = new_secret()
    seat.secret_hash = seat.parked_secret_hash = ""
    seat.claim_token_hash = hash_secret(token)
    seat.is_bot = False
    seat.save(update_fields=["secret_hash", "parked_secret_hash", "claim_token_hash", "is_bot"])
    ledger.record_change(table, TableChange.Kind.HANDOVER, payload={"position": position}, revoked=[position])
    return token


@transaction.atomic
def claim_seat(*, table: Table, token: str) -> tuple[Seat, str]:
    """Bind the seat of a hand-over link to this browser; the link is then used up."""
    digest = hash_secret(token or "")
    seat = table.seats.select_for_update().filter(claim_token_hash=digest).first()
    if seat is None or not token:
        raise BadLink(gettext("This seat link is not valid any more. Ask the host for a new one."))
    secret = new_secret()
    seat.secret_hash = hash_secret(secret)
    seat.claim_token_hash = ""
    seat.save(update_fields=["secret_hash", "claim_token_hash"])
    ledger.record_change(table, TableChange.Kind.CLAIM, actor=str(seat.position), payload={"position": seat.position})
    return seat, secret


def _seat_at(table: Table, position: int) -> Seat:
    seat = table.seats.filter(position=position).first()
    if seat is None:
        raise BadSeat(gettext("There is no seat %(n)s at this table.") % {"n": position + 1})
    return seat


def _strength(table: Table, strength: Any) -> str:
    """A bot strength the table's game offers ("" for the game's default); else a clear refusal."""
    if strength in (None, ""):
        return ""
    offered = get_engine(table.game).bot_strengths
    if not isinstance(strength, str) or strength not in offered:
        raise BadField(
            gettext("Unknown bot strength %(strength)s; this game offers %(offered)s.")
            % {"strength": repr(strength), "offered": ", ".join(offered) or "-"},
        )
    return strength


@transaction.atomic
def set_bot(*, table: Table, position: int, is_bot: bool = True, strength: str = "") -> Seat:
    """Let the app play a seat (a player left), or take it back from the app."""
    seat = _seat_at(table, position)
    if is_bot:
        ledger.park(seat)
        seat.bot_strength = _strength(table, strength)
    else:
        ledger.unpark(seat)
    seat.save(update_fields=ledger.SEAT_HOLDER_FIELDS)
    kind = TableChange.Kind.BOT_ON if is_bot else TableChange.Kind.BOT_OFF
    ledger.record_change(table, kind, payload={"position": position}, revoked=[position] if is_bot else [])
    return seat


@transaction.atomic
def close_table(*, table: Table) -> Table:
    """End the series: nothing more is played at this table; it can still be watched.

    A game still being played is kept as it stands, marked abandoned; a move
    read before the close and saved after it is refused ``stale`` (:func:`.ledger.save`).
    """
    ledger.abandon(table)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED, paused=False)
    ledger.record_change(table, TableChange.Kind.CLOSE)
    table.refresh_from_db()
    return table


@transaction.atomic
def set_paused(*, table: Table, paused: bool) -> Table:
    Table.objects.filter(pk=table.pk).update(paused=paused)
    ledger.record_change(table, TableChange.Kind.PAUSE if paused else TableChange.Kind.RESUME)
    table.refresh_from_db()
    return table


@transaction.atomic
def start_game(*, table: Table, rng: random.Random | None = None) -> Applied:
    """Start the first game (closing the seats) or a rematch with the same seats."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.status == Table.Status.CLOSED:
        raise TableClosed(gettext("This table is closed."))
    engine = get_engine(table.game)
    seats = list(table.seats.order_by("position"))
    previous = current_game(table)
    if previous is not None and previous.status == Game.Status.PLAYING:
        raise GameRunning(gettext("A game is still being played at this table."))
    if len(seats) < engine.min_players:
        raise NotEnoughPlayers(
            gettext("%(game)s needs at least %(low)s players; %(n)s joined so far.")
            % {"game": engine.label, "low": engine.min_players, "n": len(seats)},
        )
    rng = rng or system_rng("start", 1 if previous is None else previous.number + 1)
    names = [seat.name for seat in seats]
    options = {**engine.clean_options(table.options, players=len(seats)), **table_options(table.options)}
    if previous is None and coaches(options):  # the table's first game coaches new players
        options = {**engine.coach_options(options), **table_options(table.options)}
    first = rng.randrange(len(seats)) if previous is None else (previous.first + 1) % len(seats)
    state = engine.start(players=names, options=options, first=first)
    game = Game(
        table=table,
        number=1 if previous is None else previous.number + 1,
        engine=engine.slug,
        options=options,
        players=names,
        first=first,
        initial_state=state,
        state=state,
    )
    # The table frame goes out first: it carries the new game, so the update after it is no surprise.
    kind = TableChange.Kind.START if previous is None else TableChange.Kind.REMATCH
    ledger.open_game(table, game, kind=kind, table_status=Table.Status.PLAYING)
    has_timer = TurnTimer.objects.filter(table_id=table.pk, seconds__gt=0).exists()
    applied = Applied(game=game, bots=any(seat.is_bot for seat in seats), timer=has_timer)
    ledger.run_system_actions(engine, game, state, applied, rng)
    ledger.save(game, applied, expected_seq=0, table=table)
    return applied


