"""The host's undo and the players' take-back, kept in the log (issue 14).

An undo appends one event ``{"type": "undo", "to": k}`` by the host: the
game's state becomes the state after event ``k``, recomputed by the one
replay (:mod:`sixdice.gamekit.replay`); nothing is deleted.  The policy
is that no value anyone has seen is rolled again: the last move can be undone
together with the app's dice drawn after it, whose values are then dealt
again in the same order (:mod:`sixdice.gamekit.pins`); no undo goes back
across app dice drawn before the last move.  Typed-in (physical) rolls,
choices and automatic balancing can be undone.  A player may take back their
own last action (:func:`take_back`) while nobody else has acted since, when
the table allows it.  ``docs/undo.md`` has the cases per game.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from sixdice.gamekit.engine import HOST, SYSTEM, get_engine, parse_actor
from sixdice.gamekit.errors import GameError
from sixdice.gamekit.notation import mover
from sixdice.gamekit.options import takes_back
from sixdice.gamekit.pins import pinned_values
from sixdice.gamekit.replay import UNDO, replay, take_back_point, undone_first
from sixdice.tables.core.errors import (
    CannotCorrect,
    CannotTakeBack,
    CannotUndo,
    TakeBackOff,
    from_game_error,
)
from sixdice.tables.core.keys import Credentials
from sixdice.tables.core.rng import system_rng
from sixdice.tables.models import Event, Game
from sixdice.tables.policies.undo_notice import Move, notice
from sixdice.tables.writes.checked_path import Turn, Write, checked_write
from sixdice.tables.writes.ledger import Applied

CANNOT_UNDO = gettext_noop("Nothing can be undone back to there: no undo past dice the app rolled, or past the start.")


def undo_targets(game: Game, events: list[Event]) -> tuple[list[int], dict[int, dict[str, Any]], int | None]:
    """The seqs the game may go back to (latest first), the state after each event, and the default target.

    The default goes back to before the last move someone made (a seat or the
    host), together with the server steps that followed it.  The app's dice
    drawn after that move may be undone with it: their values are pinned and
    dealt again (:mod:`sixdice.gamekit.pins`); dice drawn before it may not.
    """
    engine = get_engine(game.engine)
    line: tuple[int, ...] = ()
    states: dict[int, dict[str, Any]] = {0: game.initial_state}
    for step in replay(engine, game.initial_state, ((e.actor, e.action) for e in events)):
        states[step.index] = step.after
        line = step.line
    by_seq = {e.seq: e for e in events}
    moves = [seq for seq in line if by_seq[seq].actor != "system"]
    last_move = moves[-1] if moves else 0
    floor = 0
    for seq in line:  # the last random draw before the last move: no undo before it (after it: pinned, dealt again)
        if seq < last_move and engine.draws_at_random(game.options, by_seq[seq].action):
            floor = seq
    candidates = [0, *line]
    # A point the game can rest at: the next event is someone's move, not a server step (nothing would run it).
    targets = [candidates[i] for i in range(len(candidates) - 2, -1, -1)
               if candidates[i] >= floor and by_seq[candidates[i + 1]].actor != "system"]
    default = None
    for k in targets:
        taken_back = candidates[candidates.index(k) + 1]  # the first event this undo takes back
        if by_seq[taken_back].actor != "system":
            default = k
            break
    return targets, states, default


def repin(turn: Turn) -> None:
    """After an undo: the dice it took back wait, in order, to be dealt again (``Game.pinned``)."""
    game = turn.game
    log = [(e.actor, e.action) for e in turn.events()] + [(e.actor, e.action) for e in turn.applied.events]
    game.pinned = pinned_values(log, turn.engine, game.options)
    turn.applied.repinned = True


@transaction.atomic
def undo(*, table_code: str, credentials: Credentials, expected_seq: int, to: int | None = None) -> Applied:
    """The host takes the game back to after event ``to`` (default: before the last move), as an event.

    ``expected_seq`` is the game's ``seq`` the host's screen showed: a move
    that landed since is never undone unseen (refused ``stale``).
    """

    def compose(turn: Turn) -> None:
        game = turn.game
        events = turn.events()
        targets, states, default = undo_targets(game, events)
        target = default if to is None else to
        if target is None or target not in targets:
            raise CannotUndo(gettext(CANNOT_UNDO))
        turn.add(HOST, {"type": UNDO, "to": target}, game.state, undone=_first_undone(events, target))
        game.state = states[target]
        repin(turn)
        tell(turn, events, target)

    return checked_write(table_code=table_code, credentials=credentials, expected_seq=expected_seq, compose=compose,
                         as_host=True, while_paused=True)


@transaction.atomic
def correct(*, table_code: str, credentials: Credentials, expected_seq: int, seq: int, values: list[int]) -> Applied:
    """The host corrects the values of a typed-in roll, even after later moves.

    Appended, in one transaction: an ``undo`` back to just before the roll,
    the roll with the corrected values (by ``host``), then each later move
    still in play made again by the same seat while the rules allow it (the
    first one they refuse, and all after it, stay undone).  Server steps that
    follow (automatic balancing) are worked out again.  ``expected_seq``: the
    game's ``seq`` the host's screen showed.
    """

    def compose(turn: Turn) -> None:
        game, engine = turn.game, turn.engine
        events = turn.events()
        targets, states, _default = undo_targets(game, events)
        line = list(replay_line(engine, game, events))
        by_seq = {e.seq: e for e in events}
        roll = by_seq.get(seq)
        if roll is None or seq not in line or not engine.typed_in(game.options, roll.action):
            raise CannotCorrect(gettext("Only a roll typed in (real dice) that is still in play can be corrected."))
        before = ([0, *line])[[0, *line].index(seq) - 1]
        if before not in targets:
            raise CannotUndo(gettext(CANNOT_UNDO))
        turn.add(HOST, {"type": UNDO, "to": before, "corrects": seq}, game.state, undone=(roll.actor, roll.action))
        state = states[before]
        fixed = {**roll.action, "values": values}
        try:
            new_state = engine.apply(state, fixed, actor=HOST)
        except GameError as exc:
            raise from_game_error(exc) from None
        turn.add(HOST, fixed, state)
        rng = system_rng("correct", game.number, game.seq)
        turn.run_system(new_state, rng)
        for later in line[line.index(seq) + 1 :]:
            event = by_seq[later]
            if event.actor == "system":
                continue  # server steps are worked out again after each move
            who = parse_actor(event.actor)
            try:
                new_state = engine.apply(game.state, dict(event.action), actor=who)
            except GameError:
                break  # no longer legal after the correction: this move and the rest stay undone
            turn.add(who, dict(event.action), game.state)
            turn.run_system(new_state, rng)
        repin(turn)
        tell(turn, events, before, corrected=(roll, values))

    return checked_write(table_code=table_code, credentials=credentials, expected_seq=expected_seq, compose=compose,
                         as_host=True, while_paused=True)


def _move(event: Event) -> Move:
    """An event as a move of the notice: whose it is (the seat the host or the app decided it for)."""
    mark = mover(event.notation if isinstance(event.notation, list) else None)
    seat = int(mark["seat"]) if mark is not None else int(event.actor) if event.actor.isdigit() else None
    return Move(event.seq, seat, event.action)


def tell(turn: Turn, events: list[Event], to: int, *, corrected: tuple[Event, list[int]] | None = None) -> None:
    """Give the undo's event (the first one ``turn`` appended) the notice of what it changed, for every phone.

    ``events``: the log before the undo; ``to``: the event it went back to;
    ``corrected``: a correction's roll and its new values (its later moves
    made again are the non-server events appended after the corrected roll).
    """
    engine, game = turn.engine, turn.game
    by_seq = {e.seq: e for e in events}
    undone = [_move(by_seq[seq]) for seq in replay_line(engine, game, events) if seq > to and by_seq[seq].actor != SYSTEM]
    fixed = None
    remade: list[Move] = []
    if corrected is not None:
        roll, values = corrected
        fixed = (_move(roll), values)
        undone = [m for m in undone if m.seq != roll.seq]
        remade = undone[: sum(1 for e in turn.applied.events[2:] if e.actor != SYSTEM)]
    sentences, again = notice(
        engine, players=game.players, options=game.options, before=turn.applied.before, after=game.state,
        taken_back=undone[len(remade):], made_again=remade, corrected=fixed,
    )
    head = turn.applied.events[0]
    parts = list(head.notation)
    parts[0] = {**parts[0], "notice": sentences, "again": again}  # i18n.localize_events renders it per language
    head.notation = parts


def _first_undone(events: list[Event], to: int) -> tuple[str, dict[str, Any]] | None:
    """The first event in play after ``to``: the move an undo back to ``to`` takes back (its line names it)."""
    found = undone_first([(e.actor, e.action) for e in events], to)
    return (str(found[0]), dict(found[1])) if found is not None else None


def replay_line(engine: Any, game: Game, events: list[Event]) -> tuple[int, ...]:
    """The seqs of the events in play now (undone ones left out)."""
    line: tuple[int, ...] = ()
    for step in replay(engine, game.initial_state, ((e.actor, e.action) for e in events)):
        line = step.line
    return line


@transaction.atomic
def take_back(*, table_code: str, credentials: Credentials, expected_seq: int) -> Applied:
    """A player takes back their own last action, as an undo event by their seat.

    Allowed while nobody else has acted and no die has been rolled since
    (:func:`sixdice.gamekit.replay.take_back_point`), and only when the
    table's ``takeback`` option is on (the default).  ``expected_seq`` is the
    game's ``seq`` the phone saw when the player tapped.
    """

    def shape(turn: Turn) -> None:
        if not takes_back(turn.game.options):
            raise TakeBackOff(gettext("This table does not let players take back a move."))

    def compose(turn: Turn) -> None:
        game, engine = turn.game, turn.engine
        position = turn.actor
        assert isinstance(position, int)
        events = turn.events()
        to = take_back_point([(e.actor, e.action) for e in events], position, engine=engine)
        own = next((e for e in reversed(events) if e.actor == str(position)), None)
        if to is not None and own is not None and own.stand_in:
            to = None  # the app played it when the seat's time ran out: not the player's own move
        if to is None:
            raise CannotTakeBack(
                gettext("You can take back only your own last move, while nobody else has played "
                        "and no die has been rolled since."),
            )
        state = game.initial_state
        for step in replay(engine, game.initial_state, ((e.actor, e.action) for e in events[:to])):
            state = step.after
        turn.add(position, {"type": UNDO, "to": to, "seat": position}, game.state, undone=_first_undone(events, to))
        game.state = state
        repin(turn)
        tell(turn, events, to)

    return checked_write(
        table_code=table_code, credentials=credentials, expected_seq=expected_seq, compose=Write(compose, shape),
        seat_only=gettext("Only a player can take back their own move."),
    )
