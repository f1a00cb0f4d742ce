"""The one replay: the states a game passes through, from its initial state and its events.

Every caller that replays a log (the table services, the replay viewer, the
import check) walks :func:`replay`, so they all agree on what a log means.

An ``undo`` event (``{"type": "undo", "to": k}``, issue 14) means "the state
is the state after event ``k``": it is applied here, by recomputing, not by
the engines; the events after ``k`` stay in the log, undone (nothing is ever
deleted).  ``k`` must be on the current line of play (not itself undone).

The host's correction of a typed-in random step (real dice) starts with an
undo that names it, ``{"type": "undo", "to": k, "corrects": r}`` (``r`` the
first event in play after ``k``).  A player's *take-back* is an undo sent by a seat, ``{"type": "undo", "to":
k, "seat": s}``: it takes back that seat's own last action, only while
nobody else has acted since (:func:`take_back_point`); the replay refuses any other undo by a seat, and
any at all when the table forbade take-backs (``take_back=False``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .engine import DEFAULT, HOST, SYSTEM, Actor, GameEngine, parse_actor
from .errors import GameError
from .notation import Part, gettext_noop, mover, part, personal, render_parts

UNDO = "undo"


@dataclass(frozen=True)
class Replayed:
    """One event replayed: the state before it, the event, and the state after it."""

    index: int  # 1 for the first event
    actor: Actor
    action: Mapping[str, Any]
    before: dict[str, Any]
    after: dict[str, Any]
    line: tuple[int, ...] = ()  # the events in play after this one (undone ones left out), by index


def is_undo(action: Mapping[str, Any]) -> bool:
    return action.get("type") == UNDO


def _who(actor: Actor | str) -> Actor:
    return parse_actor(actor) if isinstance(actor, str) else actor


def take_back_point(
    events: Sequence[tuple[Actor | str, Mapping[str, Any]]], seat: int, *, engine: GameEngine
) -> int | None:
    """Where ``seat``'s take-back would go back to after ``events`` (the event before its last action), or ``None``.

    A seat may take back its own last action while nobody else has acted
    since (a seat, the host, or an undo): only server steps may follow it
    (the app's draw, automatic balancing), and they are taken back with it;
    the values the app drew are dealt again when the move is made again
    (:mod:`sixdice.gamekit.pins`).  The action itself must not be a random
    step (one of the ``engine``'s :attr:`~GameEngine.random_actions`: its
    values are information; the host corrects a mistyped one) nor an undo
    (a take-back is not taken back: the player makes the move again).
    """
    random_steps = engine.random_actions
    for index in range(len(events), 0, -1):
        who, action = _who(events[index - 1][0]), events[index - 1][1]
        if who == SYSTEM:
            continue  # a server step (a draw too: dealt again): taken back with the action before it
        if who != seat or is_undo(action) or action.get("type") in random_steps:
            return None
        line = _line(events[:index])
        at = line.index(index)  # the last event that is not a server step is always in play
        return line[at - 1] if at else 0
    return None


def _line(events: Iterable[tuple[Actor | str, Mapping[str, Any]]]) -> list[int]:
    """The indexes of the events in play after ``events`` (undone ones and undos left out)."""
    line: list[int] = []
    for index, (_actor, action) in enumerate(events, start=1):
        if is_undo(action):
            to = action.get("to")
            while line and isinstance(to, int) and line[-1] > to:
                line.pop()
        else:
            line.append(index)
    return line


def describe_parts(
    engine: GameEngine, before: Mapping[str, Any], action: Mapping[str, Any], *, names: Any,
    undone: tuple[Actor | str, Mapping[str, Any]] | None = None, actor: Actor | str | None = None,
    stand_in: str = "",
) -> list[Part]:
    """The log line of any event: the engine's, or the undo's own, in plain words.

    ``undone``: the first event an undo takes back (its actor and action),
    when the caller knows it; the line then names the move ("The host undid
    Ana's move", in the game's word for it).  ``actor`` and ``stand_in``: who sent the event, when the
    caller knows it; a move someone else decided for a seat then says so
    (:func:`decided_for`).  No event number is ever shown to players.
    """
    if is_undo(action):
        return _undo_parts(engine, action, names, undone)
    parts = engine.describe_parts(before, action, names=names)
    if actor is None:
        return parts
    return decided_for(engine, parts, action, actor=_who(actor), stand_in=stand_in, names=names)


STAND_IN_TIMEOUT, STAND_IN_AWAY, STAND_IN_BOT = "timeout", "away", "bot"
"""``Event.stand_in``: the app played the seat's move because its time ran out, because the app plays the
seat of a person who is away (the host's "Let the app play", or three time-outs in a row), or because the
seat is the app's own (a bot added to the table)."""


def decided_for(engine: GameEngine, parts: list[Part], action: Mapping[str, Any], *, actor: Actor,
                stand_in: str = "", names: Any = ()) -> list[Part]:
    """``parts`` with the move's line saying who decided it, when that is not the seat whose move it is.

    "The host chose for Ivo: keeps …" (the host answered the seat's choice),
    "The app chose for Ivo (automatic balancing): …" (the rules' default,
    worded by the presentation's :attr:`~Presentation.default_reason`), "The app
    played for Ivo (time ran out): …", "The app played for Ivo (away): …".
    The seat's own phone gets the same news in the second person (the part's
    ``yours``), except for automatic balancing: the table chose it, and it
    comes every turn (the line says it).  The line is the engine's move marked with
    :func:`~sixdice.gamekit.notation.moved_by`; a move without the mark, a
    seat's own move, the app's dice and the host typing in dice are left as
    they are.  A bot's own seat is not announced: every move of it is the app's.
    """
    found = next((i for i, p in enumerate(parts) if mover([p]) is not None), None)
    if found is None:
        return parts
    line = parts[found]
    mark = line["mover"]
    seat, choice = mark["seat"], bool(mark.get("choice"))
    if stand_in == STAND_IN_TIMEOUT:
        by, why = "app", STAND_IN_TIMEOUT
        msg = gettext_noop("The app played for %(name)s (time ran out): %(move)s")
        mine = gettext_noop("The app played for you (time ran out): %(move)s")
    elif stand_in == STAND_IN_AWAY:
        by, why = "app", STAND_IN_AWAY
        msg = gettext_noop("The app played for %(name)s (away): %(move)s")
        mine = gettext_noop("The app played for you while you were away: %(move)s")
    elif actor == HOST and choice:
        by, why = HOST, HOST
        msg = gettext_noop("The host chose for %(name)s: %(move)s")
        mine = gettext_noop("The host chose for you: %(move)s")
    elif actor == SYSTEM and choice and engine.system_reason(action) == DEFAULT:
        by, why = "app", DEFAULT
        msg = gettext_noop("The app chose for %(name)s (%(reason)s): %(move)s")
        mine = ""  # the table chose it (automatic balancing): every turn, so no note on the seat's phone, only the line
    else:
        return parts
    move = {"msg": mark["bare"], "args": dict(line.get("args") or {})}
    name = str(names[seat]) if 0 <= seat < len(names) else str(seat + 1)
    args: dict[str, Any] = {"name": name, "move": move}
    if "%(reason)s" in msg:
        args["reason"] = part(engine.presentation.default_reason)
    said = {**part(msg, **args), "mover": {**mark, "by": by, "why": why}}
    if mine:
        said = personal(said, seat, mine, **{k: v for k, v in args.items() if k != "name"})
    if line.get("rule"):
        said["rule"] = line["rule"]
    if line.get("yours"):  # news for other seats in the same line stays theirs
        said["yours"] = {**line["yours"], **said.get("yours", {})}
    return [*parts[:found], said, *parts[found + 1:]]


def _seat_name(names: Any, seat: Any) -> str | None:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return str(names[seat])
    return None


def _undo_parts(engine: GameEngine, action: Mapping[str, Any], names: Any,
                undone: tuple[Actor | str, Mapping[str, Any]] | None) -> list[Part]:
    move = engine.presentation.move_name(undone[1]) if undone is not None else None
    mover = _seat_name(names, _who(undone[0])) if undone is not None else None
    name = _seat_name(names, action.get("seat"))
    if name is not None:  # a take-back
        if move is not None:
            return [part(gettext_noop("%(name)s took back their %(move)s"), name=name, move=move)]
        return [part(gettext_noop("%(name)s took back their last move"), name=name)]
    roll = action.get("corrects")
    if isinstance(roll, int) and not isinstance(roll, bool):  # the host's correction of a typed roll
        if mover is not None:
            return [part(gettext_noop("The host corrects %(name)s's roll"), name=mover)]
        return [part(gettext_noop("The host corrects a typed roll"))]
    if move is not None and mover is not None:
        return [part(gettext_noop("The host undid %(name)s's %(move)s"), name=mover, move=move)]
    if move is not None and undone is not None and _who(undone[0]) == HOST:
        return [part(gettext_noop("The host undid their own %(move)s"), move=move)]
    if move is not None:
        return [part(gettext_noop("The host undid the app's %(move)s"), move=move)]
    return [part(gettext_noop("The host undid the last move"))]


def undone_first(
    events: Sequence[tuple[Actor | str, Mapping[str, Any]]], to: Any,
) -> tuple[Actor | str, Mapping[str, Any]] | None:
    """The first event in play after event ``to`` in ``events`` (what an undo back to ``to`` takes back)."""
    if isinstance(to, bool) or not isinstance(to, int):
        return None
    for index in _line(events):
        if index > to:
            return events[index - 1]
    return None


def describe(
    engine: GameEngine, before: Mapping[str, Any], action: Mapping[str, Any], *, names: Any,
    undone: tuple[Actor | str, Mapping[str, Any]] | None = None,
) -> str:
    return render_parts(describe_parts(engine, before, action, names=names, undone=undone))


def replay(
    engine: GameEngine,
    initial: dict[str, Any],
    events: Iterable[tuple[Actor | str, Mapping[str, Any]]],
    *,
    take_back: bool = True,
) -> Iterator[Replayed]:
    """Apply each ``(actor, action)`` in turn to ``initial``; yields every step.

    ``actor`` may be stored text (``"0"``, ``"host"``).  A refused action
    raises the engine's :class:`~sixdice.gamekit.engine.GameError` at that
    step; the steps before it have been yielded.  ``take_back``: whether the
    table lets players take back their last action (an undo by a seat).
    """
    state = initial
    states: dict[int, dict[str, Any]] = {0: initial}
    line: list[int] = []
    seen: list[tuple[Actor, Mapping[str, Any]]] = []
    for index, (actor, action) in enumerate(events, start=1):
        who = _who(actor)
        if is_undo(action):
            to = action.get("to")
            if isinstance(to, bool) or not isinstance(to, int) or not (to == 0 or to in line):
                raise GameError(f"An undo must go back to an event still in play, not {to!r}.", code="illegal")
            if isinstance(who, int):
                if not take_back:
                    raise GameError("This table does not let players take back a move.", code="illegal")
                if action.get("seat") != who or take_back_point(seen, who, engine=engine) != to:
                    raise GameError(
                        "A player may take back only their own last action, while nobody else has acted "
                        "and nothing has been drawn at random since.", code="illegal")
            elif "seat" in action:
                raise GameError("Only a player's own take-back names a seat.", code="illegal")
            if "corrects" in action and (who != HOST or action.get("corrects") != next(
                    (i for i in line if i > to), None)):
                raise GameError("A correction goes back to just before the roll it corrects, by the host.",
                                code="illegal")
            after = states[to]
            while line and line[-1] > to:
                line.pop()
        else:
            after = engine.apply(state, dict(action), actor=who)
            line.append(index)
        states[index] = after
        seen.append((who, action))
        yield Replayed(index, who, action, state, after, tuple(line))
        state = after


def undone(events: Iterable[tuple[Actor | str, Mapping[str, Any]]], *, start: int = 1) -> set[int]:
    """The indexes of the events an undo took back (to strike them through); no engine needed."""
    return set(undone_by(events, start=start))


def undone_by(events: Iterable[tuple[Actor | str, Mapping[str, Any]]], *, start: int = 1) -> dict[int, int]:
    """Each event an undo took back, with the index of that undo (who undid it, and when).

    ``start``: the index of the first of ``events`` (the last events of a
    log, numbered by their seqs: an undo never takes back an event after it,
    so the events shown are judged right).
    """
    line: list[int] = []
    gone: dict[int, int] = {}
    for index, (_actor, action) in enumerate(events, start=start):
        if is_undo(action):
            to = action.get("to")
            while line and isinstance(to, int) and line[-1] > to:
                gone[line.pop()] = index
        else:
            line.append(index)
    return gone


def final_state(
    engine: GameEngine, initial: dict[str, Any], events: Iterable[tuple[Actor | str, Mapping[str, Any]]]
) -> dict[str, Any]:
    """The state the whole log reaches (``initial`` for an empty log)."""
    state = initial
    for step in replay(engine, initial, events):
        state = step.after
    return state
