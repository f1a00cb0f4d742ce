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

from sixdice.gamekit.engine import GameEngine
from sixdice.gamekit.options import takes_back
from sixdice.gamekit.replay import is_undo, take_back_point, undone

__all__ = ["game_part", "table_part", "in_turn", "take_back_offer", "undo_offer", "undone_seqs", "update_part"]

Payload = Mapping[str, Any]
"""An event as the frames carry it (``selectors.event_payload``): ``seq``, ``actor``, ``action``, ``stand_in``."""


def table_part(engine: GameEngine, options: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's declarations the page reads instead of naming a game's actions or options.

    ``random_actions``: the action types that carry values drawn at random;
    ``typed_in``: whether at this table those values are typed in (real
    dice) rather than drawn by the app; ``take_back``: whether the table
    lets players take back their last move; ``bot_strengths``: the
    strengths the host may choose, weakest first, each with its
    ``label`` key (``strength_<value>``, translated by the game's page) and
    ``default`` for the one the app plays when none is chosen (the strongest).
    """
    strengths = list(engine.bot_strengths)
    return {
        "random_actions": sorted(engine.random_actions),
        "typed_in": bool(engine.random_actions) and not engine.app_draws(options or {}),
        "take_back": takes_back(options or {}),
        "bot_strengths": [
            {"value": s, "label": f"strength_{s}", "default": i == len(strengths) - 1} for i, s in enumerate(strengths)
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


def take_back_offer(engine: GameEngine, log: Sequence[Payload]) -> dict[str, Any] | None:
    """The take-back the last events allow, ``{"seat": s, "seq": n, "kind": k}`` (``n`` the move it takes back), or ``None``.

    The rule is the service's (:func:`~sixdice.gamekit.replay.take_back_point`);
    it looks back only to the last event that is not a server step, so the
    last events of a log are enough.  ``kind``: the presentation's ``move_kind``.  A move the app played
    for the seat when its time ran out is not the seat's own.
    """
    last = next((e for e in reversed(log) if _decides(engine, e)), None)
    if last is None or not str(last["actor"]).isdigit() or last.get("stand_in"):
        return None
    seat = int(last["actor"])
    if take_back_point([(e["actor"], e["action"]) for e in log], seat, engine=engine) is None:
        return None
    return {"seat": seat, "seq": last["seq"], "kind": engine.presentation.move_kind(last["action"])}


def _offer(engine: GameEngine, event: Payload) -> dict[str, Any]:
    return {"seq": event["seq"], "actor": event["actor"], "kind": engine.presentation.move_kind(event["action"])}


def undo_offer(engine: GameEngine, log: Sequence[Payload], *, status: str, gone: Sequence[int] = ()) -> dict[str, Any] | None:
    """The move the host's undo would take back now, ``{"seq", "actor", "kind"}``, or ``None`` when there is none.

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
              state: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """For a frame's ``game``: ``undone`` (seqs struck out among the ``log`` shown), ``take_back``, ``undo``, ``actors``."""
    gone = undone_seqs(log)
    return {"undone": gone, "take_back": take_back_offer(engine, log),
            "undo": undo_offer(engine, log, status=status, gone=gone),
            "actors": in_turn(engine, state, status) if state is not None else []}


def update_part(engine: GameEngine, events: Sequence[Payload], *, status: str = "playing",
                state: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """For an ``update``: ``take_back`` and ``undo`` when its new ``events`` decide them; ``undone_from`` when one is an undo.

    ``actors`` (with ``state``): the seats the game waits for after them.

    New events that are only server steps (the app's draws too) leave the
    take-back as it was (no key); only server steps leave the host's undo
    as it was, unless the game ended (then ``undo`` is ``None``).
    ``undone_from``: the seq of the first undo among them: the page asks for
    the table again (``resync_table``), whose frame lists what is struck out
    and what the host may undo.
    """
    out: dict[str, Any] = {} if state is None else {"actors": in_turn(engine, state, status)}
    if any(_decides(engine, e) for e in events):
        out["take_back"] = take_back_offer(engine, events)
    if status != "playing" or any(e["actor"] != "system" and not is_undo(e["action"]) for e in events):
        out["undo"] = undo_offer(engine, events, status=status)
    undo = next((e["seq"] for e in events if is_undo(e["action"])), None)
    if undo is not None:
        out["undone_from"] = undo
    return out
