"""Every write to tables, seats and games goes through these functions.

The one that matters most is :func:`apply_action`: it checks the sender, the
rules and the expected ``seq``, appends the event and saves the snapshot in one
transaction, and broadcasts to the table only after the commit.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, models, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from sixdice.gamekit.engine import HOST, SYSTEM, Actor, GameEngine, GameError, OptionsError, get_engine
from sixdice.gamekit.notation import render_parts
from sixdice.gamekit.options import table_options
from sixdice.gamekit.replay import final_state

from . import broadcast, i18n, signals
from . import names as lookalikes
from .models import Event, Game, Seat, Table, TableChange

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read aloud and type
CODE_LENGTH = 5
NAME_MAX = 24
MAX_SYSTEM_STEPS = 500  # a game needs a handful of server steps in a row; more means a broken engine
STALE_MESSAGE = gettext_lazy("Someone else moved first; here is the table as it is now.")


class ServiceError(Exception):
    """A refusal with a code for the client and a message for a person."""

    def __init__(self, code: str, message: str | Promise, **extra: Any) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = str(message)  # a lazy message is worded in the language active now
        self.extra = extra


@dataclass(frozen=True)
class Credentials:
    """What a browser holds for one table: its seat secret and/or the host secret."""

    seat_secret: str | None = None
    host_secret: str | None = None


@dataclass
class Applied:
    """What :func:`apply_action` wrote: the game after it and the new events."""

    game: Game
    events: list[Event] = field(default_factory=list)
    bots: bool = False  # the table has seats the app plays (its bots may have a move to make)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _matches(secret: str | None, digest: str) -> bool:
    return bool(secret) and bool(digest) and hmac.compare_digest(hash_secret(secret or ""), digest)


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalnum())


_SEEDED_STREAMS: dict[str, random.Random] = {}


def _system_rng(*key: object) -> random.Random:
    """Dice the app rolls come from the OS; every value is recorded in the event.

    Under the test-only setting ``SIXDICE_DICE_SEED`` they come from a
    ``random.Random`` seeded with that seed and ``key`` (say the game's number
    and ``seq``), so the same point of a game always gets the same dice,
    whichever tables were played before it.  Without a key, one stream per seed.
    """
    seed = settings.SIXDICE_DICE_SEED
    if seed is None:
        return random.SystemRandom()
    if not key:
        return _SEEDED_STREAMS.setdefault(seed, random.Random(seed))
    return random.Random(":".join(map(str, (seed, *key))))


# ---------------------------------------------------------------- tables and seats


def _changed(
    table: Table, kind: str, *, actor: str = HOST, payload: Mapping[str, Any] | None = None,
    revoked: Sequence[int] = (),
) -> int:
    """Record a change to the table: bump its version and log it, in the caller's transaction.

    After the commit, everyone at the table gets one table frame computed
    once (``broadcast.table_changed``).  Returns the new version.
    """
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    version: int = Table.objects.filter(pk=table.pk).values_list("version", flat=True).get()
    TableChange.objects.create(table_id=table.pk, version=version, kind=kind, actor=actor, payload=dict(payload or {}))
    table.version = version
    broadcast.table_changed(table.code, table.pk, revoked=revoked)
    return version


def create_table(
    *,
    game: str,
    options: Mapping[str, Any],
    capacity: int,
    code: str | None = None,
    status: Table.Status = Table.Status.LOBBY,
) -> tuple[Table, str]:
    """Open a table for ``game``; returns it with the host secret (kept only in the host's session).

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
    host_secret = new_secret()
    for attempt in range(20):
        try:
            with transaction.atomic():
                table = Table.objects.create(
                    code=code if code and attempt == 0 else _new_code(),
                    game=engine.slug,
                    options=cleaned,
                    capacity=capacity,
                    status=status,
                    host_secret_hash=hash_secret(host_secret),
                )
            return table, host_secret
        except IntegrityError:  # the code is taken; draw another
            continue
    raise ServiceError("busy", gettext("Could not find a free table code; please try again."))


def join_key(table: Table) -> str:
    """The key in the join link and QR code: whoever opens it may take a seat without the PIN.

    Derived from the table's secret host hash, so it needs no column and cannot be guessed from the code.
    """
    return salted_hmac("sixdice.join-key", f"{table.pk}:{table.host_secret_hash}").hexdigest()[:20]


def join_pin(table: Table) -> str:
    """The 4-digit join PIN shown on the host's screen: with the table code, it lets a phone take a seat."""
    digest = salted_hmac("sixdice.join-pin", f"{table.pk}:{table.host_secret_hash}").hexdigest()
    return f"{int(digest, 16) % 10_000:04d}"


def is_host(table: Table, credentials: Credentials) -> bool:
    return _matches(credentials.host_secret, table.host_secret_hash)


def seat_for(table: Table, credentials: Credentials) -> Seat | None:
    if not credentials.seat_secret:
        return None
    digest = hash_secret(credentials.seat_secret)
    return table.seats.filter(secret_hash=digest).first()


def clean_name(name: str) -> str:
    cleaned = " ".join((name or "").split())
    if not cleaned:
        raise ServiceError("bad_name", gettext("Please type a name."))
    if len(cleaned) > NAME_MAX:
        raise ServiceError("bad_name", gettext("A name has at most %(n)s characters.") % {"n": NAME_MAX})
    if any(not ch.isprintable() for ch in cleaned) or lookalikes.has_invisible(cleaned):
        raise ServiceError("bad_name", gettext("A name cannot hold control characters."))
    return cleaned


@transaction.atomic
def join_table(*, table: Table, name: str, is_bot: bool = False, strength: str = "") -> tuple[Seat, str]:
    """Give a new player a seat; returns the seat and the secret that binds it to the browser."""
    table = Table.objects.get(pk=table.pk)
    if table.status != Table.Status.LOBBY:
        raise ServiceError("seats_closed", gettext("The game has started: seats are closed, but you can watch."))
    cleaned = clean_name(name)
    seats = list(table.seats.all())
    if len(seats) >= table.capacity:
        raise ServiceError("table_full", gettext("All %(n)s seats are taken.") % {"n": table.capacity})
    if any(seat.name.casefold() == cleaned.casefold() for seat in seats):
        raise ServiceError("name_taken", gettext("Someone at this table is already called %(name)s.") % {"name": cleaned})
    if (lookalike := lookalikes.confusable_with(cleaned, [seat.name for seat in seats])) is not None:
        raise ServiceError("name_taken", gettext("%(name)s looks too much like %(other)s, who is already at this table.")
                           % {"name": cleaned, "other": lookalike})
    secret = new_secret()
    seat = Seat.objects.create(
        table=table,
        position=len(seats),
        name=cleaned,
        secret_hash="" if is_bot else hash_secret(secret),
        is_bot=is_bot,
        bot_strength=_strength(table, strength) if is_bot else "",
    )
    _changed(table, TableChange.Kind.JOIN, actor=str(seat.position), payload={"position": seat.position, "bot": is_bot})
    return seat, secret


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
    _changed(table, TableChange.Kind.HANDOVER, payload={"position": position}, revoked=[position])
    return token


@transaction.atomic
def claim_seat(*, table: Table, token: str) -> tuple[Seat, str]:
    """Bind the seat of a hand-over link to this browser; the link is then used up."""
    digest = hash_secret(token or "")
    seat = table.seats.select_for_update().filter(claim_token_hash=digest).first()
    if seat is None or not token:
        raise ServiceError("bad_link", gettext("This seat link is not valid any more. Ask the host for a new one."))
    secret = new_secret()
    seat.secret_hash = hash_secret(secret)
    seat.claim_token_hash = ""
    seat.save(update_fields=["secret_hash", "claim_token_hash"])
    _changed(table, TableChange.Kind.CLAIM, actor=str(seat.position), payload={"position": seat.position})
    return seat, secret


def _seat_at(table: Table, position: int) -> Seat:
    seat = table.seats.filter(position=position).first()
    if seat is None:
        raise ServiceError("bad_seat", gettext("There is no seat %(n)s at this table.") % {"n": position + 1})
    return seat


def _strength(table: Table, strength: Any) -> str:
    """A bot strength the table's game offers ("" for the game's default); else a clear refusal."""
    if strength in (None, ""):
        return ""
    offered = get_engine(table.game).bot_strengths
    if not isinstance(strength, str) or strength not in offered:
        raise ServiceError(
            "bad_field",
            gettext("Unknown bot strength %(strength)s; this game offers %(offered)s.")
            % {"strength": repr(strength), "offered": ", ".join(offered) or "-"},
        )
    return strength


@transaction.atomic
def set_bot(*, table: Table, position: int, is_bot: bool = True, strength: str = "") -> Seat:
    """Let the app play a seat (a player left), or take it back from the app."""
    seat = _seat_at(table, position)
    seat.is_bot = is_bot
    seat.bot_strength = _strength(table, strength) if is_bot else ""
    if is_bot:  # the phone's secret is kept aside: giving the seat back returns it to that phone
        seat.parked_secret_hash = seat.secret_hash or seat.parked_secret_hash
        seat.secret_hash = ""
    elif seat.parked_secret_hash:
        seat.secret_hash, seat.parked_secret_hash = seat.parked_secret_hash, ""
    seat.save(update_fields=["is_bot", "secret_hash", "parked_secret_hash", "bot_strength"])
    kind = TableChange.Kind.BOT_ON if is_bot else TableChange.Kind.BOT_OFF
    _changed(table, kind, payload={"position": position}, revoked=[position] if is_bot else [])
    return seat


@transaction.atomic
def close_table(*, table: Table) -> Table:
    """End the series: nothing more is played at this table; it can still be watched.

    A game still being played is kept as it stands, marked abandoned.
    """
    Game.objects.filter(table=table, status=Game.Status.PLAYING).update(
        status=Game.Status.ABANDONED, end_reason="closed", finished_at=timezone.now()
    )
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED, paused=False)
    _changed(table, TableChange.Kind.CLOSE)
    table.refresh_from_db()
    return table


@transaction.atomic
def set_paused(*, table: Table, paused: bool) -> Table:
    Table.objects.filter(pk=table.pk).update(paused=paused)
    _changed(table, TableChange.Kind.PAUSE if paused else TableChange.Kind.RESUME)
    table.refresh_from_db()
    return table


# ---------------------------------------------------------------- host commands

HOST_COMMANDS = frozenset(
    {"start", "rematch", "pause", "resume", "handover", "bot", "add_bot", "close", "undo", "correct", "timer"}
)


def _int_field(fields: Mapping[str, Any], name: str) -> int:
    value = fields.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ServiceError("bad_field", gettext("Field %(name)s must be a whole number.") % {"name": repr(name)})
    return value


def host_command(*, table_code: str, credentials: Credentials, command: Any, fields: Mapping[str, Any]) -> dict[str, Any] | None:
    """Run one host command (``docs/protocol.md``); returns a reply frame for the host, if it has one."""
    table = load_table(table_code)
    if not is_host(table, credentials):  # first: a spectator's frame is refused before it is looked at
        raise ServiceError("not_host", gettext("Only the host can do that."))
    if not isinstance(command, str) or command not in HOST_COMMANDS:  # a list or object is not hashable
        raise ServiceError("bad_field", gettext("Unknown host command %(command)s.") % {"command": repr(command)[:40]})
    if command in {"start", "rematch"}:
        start_game(table=table)
    elif command in {"pause", "resume"}:
        set_paused(table=table, paused=command == "pause")
    elif command == "handover":
        position = _int_field(fields, "position")
        token = hand_over_seat(table=table, position=position)
        return {"type": "handover", "position": position, "url": reverse("tables:claim", args=[table.code, token])}
    elif command == "close":
        close_table(table=table)
    elif command == "add_bot":
        taken = {name.casefold() for name in table.seats.values_list("name", flat=True)}
        number = next(n for n in range(1, 100) if f"bot {n}" not in taken)
        join_table(table=table, name=f"Bot {number}", is_bot=True, strength=fields.get("strength", ""))
    elif command == "undo":  # issue 14: sixdice/tables/undo.py
        from .undo import undo

        undo(table_code=table.code, credentials=credentials, to=fields.get("to"))
    elif command == "correct":  # issue 14: a typed roll's values, corrected
        from .undo import correct

        correct(table_code=table.code, credentials=credentials, seq=fields.get("seq"), values=fields.get("values"))
    elif command == "timer":  # issue 14: the host pauses or resumes the turn timer
        from .timers import set_paused as set_timer_paused

        set_timer_paused(table=table, fields=fields)
    elif command == "bot":
        on = fields.get("on", True)
        if not isinstance(on, bool):
            raise ServiceError("bad_field", gettext("Field %(name)s must be true or false.") % {"name": "'on'"})
        set_bot(table=table, position=_int_field(fields, "position"), is_bot=on, strength=fields.get("strength", ""))
    return None


# ---------------------------------------------------------------- games


def current_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def game_in_play(table: Table, game: Game | None, *, while_paused: bool = False) -> Game:
    """``game``, the table's current game, if a move may be made in it now; else the refusal.

    Refused: no game yet, a finished game, and (unless ``while_paused``, as for
    the host's undo and corrections) a table the host has paused.
    """
    if game is None:
        raise ServiceError("no_game", gettext("The game has not started yet."))
    if game.status != Game.Status.PLAYING:
        raise ServiceError("game_over", gettext("This game is over."))
    if table.paused and not while_paused:
        raise ServiceError("paused", gettext("The host has paused the game."))
    return game


@transaction.atomic
def start_game(*, table: Table, rng: random.Random | None = None) -> Applied:
    """Start the first game (closing the seats) or a rematch with the same seats."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.status == Table.Status.CLOSED:
        raise ServiceError("table_closed", gettext("This table is closed."))
    engine = get_engine(table.game)
    seats = list(table.seats.order_by("position"))
    previous = current_game(table)
    if previous is not None and previous.status == Game.Status.PLAYING:
        raise ServiceError("game_running", gettext("A game is still being played at this table."))
    if len(seats) < engine.min_players:
        raise ServiceError(
            "not_enough_players",
            gettext("%(game)s needs at least %(low)s players; %(n)s joined so far.")
            % {"game": engine.label, "low": engine.min_players, "n": len(seats)},
        )
    rng = rng or _system_rng("start", 1 if previous is None else previous.number + 1)
    names = [seat.name for seat in seats]
    options = {**engine.clean_options(table.options, players=len(seats)), **table_options(table.options)}
    first = rng.randrange(len(seats)) if previous is None else (previous.first + 1) % len(seats)
    state = engine.start(players=names, options=options, first=first)
    game = Game.objects.create(
        table=table,
        number=1 if previous is None else previous.number + 1,
        engine=engine.slug,
        options=options,
        players=names,
        first=first,
        initial_state=state,
        state=state,
    )
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING, paused=False)
    # The table frame goes out first: it carries the new game, so the update after it is no surprise.
    kind = TableChange.Kind.START if previous is None else TableChange.Kind.REMATCH
    _changed(table, kind, payload={"game": game.number})
    applied = Applied(game=game, bots=any(seat.is_bot for seat in seats))
    _run_system_actions(engine, game, state, applied, rng)
    _save(game, applied, expected_seq=0, table=table)
    return applied


def _resolve_actor(table: Table, credentials: Credentials, *, as_host: bool, seat: int | None) -> Actor:
    """Who sends the action: the host, or the seat this browser holds (``seat``, already looked up)."""
    if as_host:
        if not is_host(table, credentials):
            raise ServiceError("not_host", gettext("Only the host can do that."))
        return HOST
    if seat is None:
        if is_host(table, credentials):
            raise ServiceError("not_allowed", gettext("You are the host here, not a player: act as host instead."))
        raise ServiceError("spectator", gettext("You are watching this table; spectators cannot play."))
    return seat


def load_table(code: str, *, allow_closed: bool = False) -> Table:
    """The table with this code; a closed one only when ``allow_closed`` (to watch it)."""
    table = Table.objects.filter(code=normalise_code(code)).first()
    if table is None:
        raise ServiceError("unknown_table", gettext("There is no table %(code)s.") % {"code": repr(code)})
    if table.status == Table.Status.CLOSED and not allow_closed:
        raise ServiceError("table_closed", gettext("This table is closed."))
    return table


# The game columns a move needs; the others stay deferred (loaded only if something reads them).
_GAME_NEEDED = {"id", "table", "number", "engine", "options", "players", "first", "seq", "status", "state"}
_GAME_FIELDS = [f for f in Game._meta.concrete_fields if f.name in _GAME_NEEDED]  # in the model's order (from_db)

_ACTION_SQL = """
SELECT {columns}, t.code, t.status, t.paused, t.version, t.host_secret_hash,
       (SELECT s.position FROM {seat} s WHERE s.table_id = t.id AND s.secret_hash = %s AND s.secret_hash <> ''),
       EXISTS (SELECT 1 FROM {seat} b WHERE b.table_id = t.id AND b.is_bot)
FROM {table} t JOIN {game} g ON g.table_id = t.id
WHERE t.code = %s ORDER BY g.number DESC LIMIT 1
"""


@functools.cache
def _action_sql() -> str:
    return _ACTION_SQL.format(
        columns=", ".join(f"g.{_column(Game, f.name)}" for f in _GAME_FIELDS),
        seat=Seat._meta.db_table, table=Table._meta.db_table, game=Game._meta.db_table,
    )


def _load_for_action(code: str, credentials: Credentials) -> tuple[Table, Game | None, int | None, bool]:
    """The table, its current game, the sender's seat and whether it has bots, in one query.

    This runs for every move, so it is one plain statement on the cursor,
    reading only the columns a move needs, rather than three ORM queries
    (table and game, then the seat); the game's JSON columns are decoded by
    their own fields, as the ORM would (SQLite and PostgreSQL alike).
    """
    digest = hash_secret(credentials.seat_secret) if credentials.seat_secret else ""
    with connection.cursor() as cursor:
        cursor.execute(_action_sql(), [digest, normalise_code(code)])
        row = cursor.fetchone()
    if row is None:
        return load_table(code), None, None, False
    n = len(_GAME_FIELDS)
    values = []
    for game_field, value in zip(_GAME_FIELDS, row[:n], strict=True):
        if isinstance(game_field, models.JSONField):
            value = game_field.from_db_value(value, None, connection)  # type: ignore[arg-type]  # no expression: a plain column
        values.append(value)
    game = Game.from_db(connection.alias, [f.attname for f in _GAME_FIELDS], values)
    t_code, t_status, t_paused, t_version, t_host_hash, t_seat, t_bots = row[n:]
    table = Table(
        id=game.table_id, code=t_code, status=t_status, paused=bool(t_paused),
        version=t_version, host_secret_hash=t_host_hash,
    )
    if table.status == Table.Status.CLOSED:
        raise ServiceError("table_closed", gettext("This table is closed."))
    game.table = table
    return table, game, t_seat, bool(t_bots)


def apply_action_in_transaction(
    *,
    table_code: str,
    credentials: Credentials,
    action: Mapping[str, Any],
    expected_seq: int,
    as_host: bool = False,
    bot_seat: int | None = None,
    rng: random.Random | None = None,
    stand_in: str = "",
) -> Applied:
    """Apply one action to a table's current game.

    In one transaction: check the sender may act, check the action against
    the rules engine, check ``expected_seq`` is current, then append the
    event(s) and save the snapshot.  Dice the app rolls next (and other
    server steps, such as automatic balancing) follow as system events.
    After commit, everyone at the table is sent the new events.

    ``bot_seat`` plays for a bot seat: only the server's bot driver passes
    it, and the dice of the bot's move are the server's own.  ``stand_in``
    (``"timeout"``, from :mod:`.timers`) marks the event as played by the app
    for a seat whose time ran out.

    This function runs in its caller's transaction (no savepoint of its own:
    a refusal must roll the caller's whole transaction back); call
    :func:`apply_action`, which opens one, unless you are in ``atomic``
    already and roll back on its errors (``dedupe.apply_once``).
    """
    table, game, seat, bots = _load_for_action(table_code, credentials)
    actor: Actor = (
        bot_seat if bot_seat is not None else _resolve_actor(table, credentials, as_host=as_host, seat=seat)
    )
    game = game_in_play(table, game)
    engine = get_engine(game.engine)
    try:  # only the declared fields, checked, go on: never the frame as it came (issue 15)
        action = engine.clean_action(action)
    except GameError as exc:
        raise ServiceError(exc.code, i18n.game_error_message(exc)) from None
    rng = rng or _system_rng("move", game.number, game.seq)
    state = game.state
    try:
        if isinstance(actor, int) and actor not in engine.actors(state):
            # Let the engine word the refusal ("It is Ana's turn."), else a plain one.
            engine.apply(state, dict(action), actor=actor)
            raise GameError(gettext_noop("It is not your turn."), code="not_allowed")
        action = engine.complete_action(
            state, dict(action), game.options, rng, actor=SYSTEM if bot_seat is not None else actor
        )
        new_state = engine.apply(state, dict(action), actor=actor)
    except GameError as exc:
        if expected_seq != game.seq:  # the sender acted on an old state: that is the real reason
            raise ServiceError("stale", STALE_MESSAGE) from None
        raise ServiceError(exc.code, i18n.game_error_message(exc)) from None
    if expected_seq != game.seq:
        raise ServiceError("stale", STALE_MESSAGE)
    applied = Applied(game=game, bots=bots)
    _add_event(engine, game, applied, actor, dict(action), state)
    applied.events[0].stand_in = stand_in
    _run_system_actions(engine, game, new_state, applied, rng)
    _save(game, applied, expected_seq=expected_seq, table=table)
    if bot_seat is None and isinstance(actor, int):  # e.g. the review app keeps the hint this phone showed
        signals.seat_moved.send(Game, engine=engine, game=game, before=state, seat=actor, seq=expected_seq + 1)
    return applied


apply_action = transaction.atomic(apply_action_in_transaction)
"""Apply one action to a table's current game, in a transaction (a savepoint inside another one);
see :func:`apply_action_in_transaction`."""


def _add_event(
    engine: GameEngine, game: Game, applied: Applied, actor: Actor, action: dict[str, Any], before: Mapping[str, Any]
) -> None:
    seq = game.seq + len(applied.events) + 1
    parts = engine.describe_parts(before, action, names=game.players)
    text = render_parts(parts)
    applied.events.append(Event(game=game, seq=seq, actor=str(actor), action=action, text=text[:500], notation=parts))


def _run_system_actions(
    engine: GameEngine, game: Game, state: dict[str, Any], applied: Applied, rng: random.Random
) -> None:
    for _ in range(MAX_SYSTEM_STEPS):
        action = engine.system_action(state, game.options, rng)
        if action is None:
            break
        new_state = engine.apply(state, action, actor=SYSTEM)
        _add_event(engine, game, applied, SYSTEM, action, state)
        state = new_state
    else:  # pragma: no cover - an engine that never stops is a bug in the engine
        raise RuntimeError(f"{engine.slug} kept asking for system actions")
    game.state = state


def _save(game: Game, applied: Applied, *, expected_seq: int, table: Table) -> None:
    """Conditional update of the snapshot plus the unique (game, seq) events: one writer wins."""
    engine = get_engine(game.engine)
    outcome = engine.outcome(game.state)
    new_seq = expected_seq + len(applied.events)
    fields: dict[str, Any] = {"seq": new_seq, "state": game.state}
    if outcome is not None:
        fields.update(
            status=Game.Status.FINISHED,
            winners=list(outcome.winners),
            end_reason=outcome.end_reason,
            places=list(outcome.places),
            loser=outcome.loser,
            finished_at=timezone.now(),
        )
    if outcome is not None:  # the last move of a game: rare, through the ORM
        saved = Game.objects.filter(pk=game.pk, seq=expected_seq).update(**fields)
    else:
        saved = _update_game(game.pk, expected_seq, new_seq, game.state)
    if saved != 1:
        raise ServiceError("stale", STALE_MESSAGE)
    try:
        _insert_events(applied.events)
    except IntegrityError:
        raise ServiceError("stale", STALE_MESSAGE) from None
    for name, value in fields.items():
        setattr(game, name, value)
    if outcome is not None:
        from sixdice.players.services import record_result  # profiles' results and ratings, same transaction

        record_result(game)
        # A table that plays one game only (the host turned the series off) closes with it.
        series = engine.plays_series(game.options)
        status = Table.Status.FINISHED if series else Table.Status.CLOSED
        Table.objects.filter(pk=game.table_id).update(status=status)
    if applied.events:
        broadcast.game_events(table.code, game, applied.events, version=table.version)
    if outcome is not None:  # after the events: the table frame brings standings and the host's Rematch button
        _changed(table, TableChange.Kind.GAME_END, actor=SYSTEM, payload={"game": game.number, "winners": list(outcome.winners)})


def _column(model: type[models.Model], name: str) -> str:
    column = getattr(model._meta.get_field(name), "column", None)
    assert column is not None
    return str(column)


@functools.cache
def _update_sql() -> str:
    qn = connection.ops.quote_name
    return (f"UPDATE {qn(Game._meta.db_table)} SET {qn(_column(Game, 'seq'))} = %s, {qn(_column(Game, 'state'))} = %s "
            f"WHERE {qn(_column(Game, 'id'))} = %s AND {qn(_column(Game, 'seq'))} = %s")


def _update_game(game_id: int, expected_seq: int, new_seq: int, state: dict[str, Any]) -> int:
    """The conditional UPDATE of a move, on the cursor: 1 if ``seq`` was still ``expected_seq``."""
    state_field = Game._meta.get_field("state")
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(), [new_seq, state_field.get_db_prep_save(state, connection), game_id, expected_seq])
        return cursor.rowcount


def _insert_events(events: Sequence[Event]) -> None:
    """One INSERT of the move's events on the cursor; each column's value prepared by its field,
    as ``bulk_create`` would (``created_at`` set now).  The unique (game, seq) makes a second writer fail."""
    if not events:
        return
    fields = _event_fields()
    params = [f.get_db_prep_save(f.pre_save(event, True), connection) for event in events for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(len(events)), params)


@functools.cache
def _event_fields() -> list[models.Field[Any, Any]]:
    return [f for f in Event._meta.concrete_fields if not f.primary_key]


@functools.lru_cache(maxsize=16)
def _insert_sql(rows: int) -> str:
    """The INSERT of ``rows`` events (a move makes one to a few), built once per count."""
    fields = _event_fields()
    qn = connection.ops.quote_name
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return (f"INSERT INTO {qn(Event._meta.db_table)} ({', '.join(qn(_column(Event, f.name)) for f in fields)}) "
            f"VALUES {', '.join([row] * rows)}")


def replay(game: Game, events: Sequence[Event] | None = None) -> dict[str, Any]:
    """The state reached by applying the game's event log to its initial state (see :mod:`sixdice.gamekit.replay`)."""
    logged = events if events is not None else game.events.order_by("seq")
    return final_state(get_engine(game.engine), game.initial_state, ((e.actor, e.action) for e in logged))
