"""What the page may offer, told by the server: the page copies no rule of the games or of undo.

Pure functions over what the frames already hold (no query, no import beyond the kit): the engine's
declarations for the table (which actions carry random values, whether they
are typed in, the bot strengths), the events the take-back would take back
(:func:`sixdice.gamekit.replay.take_back_point`, the rule the service
checks), and which events of the log an undo struck out
(:func:`sixdice.gamekit.replay.undone_by`).  ``docs/protocol.md`` describes
the fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sixdice.gamekit import notation
from sixdice.gamekit.engine import GameEngine
from sixdice.gamekit.options import takes_back
from sixdice.gamekit.replay import is_undo, take_back_point, undone
from sixdice.tables.core.app_levels import level_strengths

__all__ = ["corrections_offer", "game_part", "table_part", "in_turn", "take_back_offer", "undo_offer", "undone_seqs",
           "update_part", "whose"]

Payload = Mapping[str, Any]
"""An event as the frames carry it (``outgoing.event_payload``): ``seq``, ``actor``, ``action``, ``stand_in``."""


def table_part(engine: GameEngine, options: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's declarations the page reads instead of naming a game's actions or options.

    ``random_actions``: the action types that carry values drawn at random;
    ``typed_in``: whether at this table those values are typed in (real
    dice) rather than drawn by the app; ``take_back``: whether the table
    lets players take back their last move; ``bot_strengths``: the
    strengths the host may choose, weakest first: one per level of the
    new-table form (Easy, Medium, Hard: one set of names everywhere), each
    with its ``label`` key (``level_<level>``, translated by the game's page)
    and ``default`` for the one the app plays when none is chosen (Hard, the strongest).
    """
    levels = level_strengths(engine)
    return {
        "random_actions": sorted(engine.random_actions),
        "typed_in": bool(engine.random_actions) and not engine.app_draws(options or {}),
        "take_back": takes_back(options or {}),
        "bot_strengths": [
            {"value": s, "label": f"level_{level}", "default": i == len(levels) - 1}
            for i, (level, s) in enumerate(levels)
        ],
    }


def undone_seqs(log: Sequence[Payload]) -> list[int]:
    """The seqs of the events of ``log`` an undo in it took back (struck through on the page).

    ``log`` may be the last events of a game only (consecutive seqs).
    """
    if not log:
        return []
    return sorted(undone([(e["actor"], e["action"]) for e in log], start=log[0]["seq"]))


def _decides(engine: GameEngine, event: Payload) -> bool:
    """Whether ``event`` bears on a take-back: anything but a server step.

    A server step, the app's draw too, is taken back with the move before it
    (its values are pinned and dealt again: :mod:`sixdice.gamekit.pins`).
    """
    return event["actor"] != "system"


def _by_app(event: Payload) -> bool:
    """The app made this move for the seat (a bot, a time-out stand-in, the seat of a person who is away)."""
    decided = event.get("decided")
    return isinstance(decided, Mapping) and decided.get("by") == "app"


def take_back_offer(engine: GameEngine, log: Sequence[Payload]) -> dict[str, Any] | None:
    """The take-back the last events allow, ``{"seat": s, "seq": n, "kind": k}`` (``n`` the move it takes back), or ``None``.

    The rule is the service's (:func:`~sixdice.gamekit.replay.take_back_point`);
    it looks back only to the last event that is not a server step, so the
    last events of a log are enough.  ``kind``: the presentation's ``move_kind``.  A move the app played
    for the seat (its time ran out, the app plays it while its player is away, a bot) is not the seat's own.
    """
    last = next((e for e in reversed(log) if _decides(engine, e)), None)
    if last is None or not str(last["actor"]).isdigit() or last.get("stand_in") or _by_app(last):
        return None
    seat = int(last["actor"])
    if take_back_point([(e["actor"], e["action"]) for e in log], seat, engine=engine) is None:
        return None
    return {"seat": seat, "seq": last["seq"], "kind": engine.presentation.move_kind(last["action"])}


def whose(event: Payload) -> int | None:
    """The seat whose move ``event`` is: the seat the host or the app decided it for, or the seat that sent it."""
    mark = notation.mover(event.get("notation") if isinstance(event.get("notation"), list) else None)
    if mark is not None:
        return int(mark["seat"])
    actor = str(event["actor"])
    return int(actor) if actor.isdigit() else None


def _offer(engine: GameEngine, event: Payload) -> dict[str, Any]:
    return {"seq": event["seq"], "actor": event["actor"], "seat": whose(event), "kind": engine.presentation.move_kind(event["action"])}


def corrections_offer(engine: GameEngine, log: Sequence[Payload], *, options: Mapping[str, Any] | None,
                      status: str = "playing", gone: Sequence[int] = ()) -> list[dict[str, Any]]:
    """The typed-in rolls the host may correct now, latest first: ``{"seq", "seat", "kind", "values"}``.

    The service's rule (:func:`sixdice.tables.policies.undo.correct`): a
    random step typed in at this table (real dice), still in play (not in
    ``gone``), while the game is played.  ``seat``: whose roll it is (the host
    may have typed it in for the seat); ``kind``: the game's word for the
    roll (Six-Dice: ``start``, ``draw``, ``pair``; else ``roll``); ``values``:
    what was typed in, the values a correction replaces.  Read from the
    events the frame carries (its last events).
    """
    if status != "playing" or options is None:
        return []
    struck = set(gone)
    out = []
    for event in reversed(log):
        action = event["action"]
        if event["seq"] in struck or not engine.typed_in(options, action):
            continue
        mark = notation.mover(event.get("notation") if isinstance(event.get("notation"), list) else None)
        out.append({"seq": event["seq"], "seat": whose(event), "kind": str(mark["kind"]) if mark else "roll",
                    "values": engine.drawn_values(action)})
    return out


def undo_offer(engine: GameEngine, log: Sequence[Payload], *, status: str, gone: Sequence[int] = ()) -> dict[str, Any] | None:
    """The move the host's undo would take back now, ``{"seq", "actor", "seat", "kind"}``, or ``None`` when there is none.

    ``seat``: whose move it is, which the button names ("Undo Jo's kept
    groups", also when the host answered Jo's choice: ``actor`` is then
    ``"host"``); ``None`` for a move that is no seat's (the host ending the game).

    The service's default (:func:`sixdice.tables.policies.undo.undo_targets`) goes back
    to before the last move still in play that someone made (a seat or the
    host), with the server steps after it (the app's dice among them are
    pinned and dealt again): that move is the last event of ``log`` not made
    by the server, not an undo, and not struck out (``gone``).  A finished
    game is not undone.  Read from the events the frame already carries (no
    replay): a game whose last move lies before its last ``log`` events is
    offered nothing.
    """
    if status != "playing":
        return None
    struck = set(gone)
    last = next((e for e in reversed(log) if e["actor"] != "system" and not is_undo(e["action"])
                 and e["seq"] not in struck), None)
    return None if last is None else _offer(engine, last)


def in_turn(engine: GameEngine, state: Mapping[str, Any], status: str) -> list[int]:
    """The seats whose move the game waits for (the engine's ``actors``): the host's page tells when one is away."""
    return sorted(engine.actors(state)) if status == "playing" else []


def game_part(engine: GameEngine, log: Sequence[Payload], *, status: str = "playing",
              state: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """For a frame's ``game``: ``undone`` (seqs struck out among the ``log`` shown), ``take_back``, ``undo``, ``actors``,
    ``can_end`` and ``corrections`` (with the table's ``options``)."""
    gone = undone_seqs(log)
    return {"undone": gone, "take_back": take_back_offer(engine, log),
            "undo": undo_offer(engine, log, status=status, gone=gone),
            "actors": in_turn(engine, state, status) if state is not None else [],
            "can_end": can_end(engine, state, status) if state is not None else False,
            "corrections": corrections_offer(engine, log, options=options, status=status, gone=gone)}


def can_end(engine: GameEngine, state: Mapping[str, Any], status: str) -> bool:
    """``can_end``: the host may end the game now, the hands as they stand deciding (the engine's
    :meth:`~sixdice.gamekit.engine.GameEngine.end_action`; the host's "End the game now")."""
    return status == "playing" and engine.end_action(state) is not None


def update_part(engine: GameEngine, events: Sequence[Payload], *, status: str = "playing",
                state: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """For an ``update``: ``take_back`` and ``undo`` when its new ``events`` decide them; ``undone_from`` when one is an undo.

    ``actors`` and ``can_end`` (with ``state``): the seats the game waits for after them, and whether the host
    may end the game now.
    ``corrections`` (with the table's ``options``): the typed-in rolls among
    the new events, latest first, which the page puts before those it holds
    (absent when there are none; after an undo the table frame the page asks
    for has the whole list).

    New events that are only server steps (the app's draws too) leave the
    take-back as it was (no key); only server steps leave the host's undo
    as it was, unless the game ended (then ``undo`` is ``None``).
    ``undone_from``: the seq of the first undo among them: the page asks for
    the table again (``resync_table``), whose frame lists what is struck out
    and what the host may undo.
    """
    out: dict[str, Any] = {} if state is None else {"actors": in_turn(engine, state, status),
                                                     "can_end": can_end(engine, state, status)}
    if any(_decides(engine, e) for e in events):
        out["take_back"] = take_back_offer(engine, events)
    if status != "playing" or any(e["actor"] != "system" and not is_undo(e["action"]) for e in events):
        out["undo"] = undo_offer(engine, events, status=status)
    undo = next((e["seq"] for e in events if is_undo(e["action"])), None)
    if undo is not None:
        out["undone_from"] = undo
    rolls = corrections_offer(engine, events, options=options, status=status)
    if rolls and undo is None:
        out["corrections"] = rolls
    return out
