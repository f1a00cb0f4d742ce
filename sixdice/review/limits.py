"""Bounds on imported files and the checks that keep imported games honest (issue 15).

* :func:`read_bounded` reads at most :data:`MAX_FILE_BYTES` (plus one byte to
  notice more) from a file or stream: a larger file is refused before it is
  parsed, whatever its content.
* :func:`check_sizes` bounds every field of a parsed document: the number of
  documents and events, the length of every text, the size of the options.
* :func:`content_hash` is the fingerprint of a game's play (engine, options,
  players, first player, and every event's actor and action, but not the
  times, the bot flags, the notes, nor whether a seat or the host typed a
  roll in): the same game imported twice, or a game played here imported
  back, is refused.
* :func:`check_actor` checks each event's sender against the engine, as the
  live table does: a seat acts only when it is one of the engine's actors
  then; the server (``system``) acts exactly when the engine takes an action
  by itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from sixdice.gamekit.engine import HOST, SYSTEM, GameEngine, get_engine, parse_actor
from sixdice.gamekit.errors import GameError

MAX_FILE_BYTES = 8 * 1024 * 1024
"""Largest file ``import_game`` reads (8 MiB: about 400 long games)."""
MAX_DOCUMENTS = 500
MAX_EVENTS = 5_000
"""Events in one game (the longest seeded games have under 1,000)."""
MAX_TEXT = 500
"""An event's ``text`` (the services store at most 500 characters)."""
MAX_NOTE = 10_000
MAX_OPTIONS_BYTES = 2_048
"""Options of a game or table as compact JSON."""
MAX_STATE_BYTES = 256 * 1024
"""``initial_state`` / ``final_state`` as compact JSON."""
MAX_ACTION_BYTES = 4_096
MAX_DEPTH = 32


class TooLarge(ValueError):
    """The file or one of its fields is larger than this app accepts."""


def read_bounded(source: str | Path | IO[bytes], limit: int | None = None) -> bytes:
    """The bytes of ``source`` (a path or a binary stream), refusing more than ``limit`` before reading them all."""
    limit = MAX_FILE_BYTES if limit is None else limit
    if isinstance(source, str | Path):
        size = os.stat(source).st_size
        if size > limit:
            raise TooLarge(f"The file is {size:,} bytes; at most {limit:,} are accepted.")
        with open(source, "rb") as fh:
            return read_bounded(fh, limit)
    data = source.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(f"The file is larger than {limit:,} bytes, the most accepted.")
    return data


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass"))


def _depth(value: Any, depth: int = 0) -> int:
    if depth > MAX_DEPTH:
        return depth
    if isinstance(value, Mapping):
        return max((_depth(v, depth + 1) for v in value.values()), default=depth + 1)
    if isinstance(value, list):
        return max((_depth(v, depth + 1) for v in value), default=depth + 1)
    return depth


def check_sizes(doc: Mapping[str, Any], label: str) -> None:
    """Refuse a document with a field past its bound (before anything replays it)."""
    if _depth(doc) > MAX_DEPTH:
        raise TooLarge(f"{label}: nested more than {MAX_DEPTH} levels deep.")
    game: Mapping[str, Any] = doc["game"] if isinstance(doc.get("game"), Mapping) else {}
    table: Mapping[str, Any] = doc["table"] if isinstance(doc.get("table"), Mapping) else {}
    for where, value in (('"game.options"', game.get("options")), ('"table.options"', table.get("options"))):
        if value is not None and _size(value) > MAX_OPTIONS_BYTES:
            raise TooLarge(f"{label}: {where} is larger than {MAX_OPTIONS_BYTES:,} bytes.")
    for key in ("initial_state", "final_state"):
        if key in doc and _size(doc[key]) > MAX_STATE_BYTES:
            raise TooLarge(f'{label}: "{key}" is larger than {MAX_STATE_BYTES:,} bytes.')
    events = doc.get("events")
    if isinstance(events, list):
        if len(events) > MAX_EVENTS:
            raise TooLarge(f"{label}: {len(events):,} events; at most {MAX_EVENTS:,} are accepted.")
        for index, event in enumerate(events, start=1):
            if not isinstance(event, Mapping):
                continue
            text = event.get("text")
            if isinstance(text, str) and len(text) > MAX_TEXT:
                raise TooLarge(f'{label}: event {index}: "text" is longer than {MAX_TEXT} characters.')
            if "action" in event and _size(event["action"]) > MAX_ACTION_BYTES:
                raise TooLarge(f'{label}: event {index}: "action" is larger than {MAX_ACTION_BYTES:,} bytes.')
    review = doc.get("review")
    if isinstance(review, Mapping) and isinstance(review.get("note"), str) and len(review["note"]) > MAX_NOTE:
        raise TooLarge(f'{label}: "review.note" is longer than {MAX_NOTE:,} characters.')
    players = doc.get("players")
    if isinstance(players, list) and len(players) > 64:
        raise TooLarge(f"{label}: too many players.")


def check_count(docs: Sequence[Any]) -> None:
    if len(docs) > MAX_DOCUMENTS:
        raise TooLarge(f"The file holds {len(docs):,} games; at most {MAX_DOCUMENTS:,} are accepted at once.")


def content_hash(engine: str, options: Mapping[str, Any], players: Sequence[str], first: int,
                 events: Iterable[tuple[str, Mapping[str, Any]]]) -> str:
    """The fingerprint of a game's play; equal for the same game however its file was edited around it."""
    try:
        game: GameEngine | None = get_engine(engine)
    except GameError:
        game = None  # an unknown game: every sender counts as it is
    canonical = {
        "engine": engine, "options": options, "players": list(players), "first": first,
        "events": [[_sender(game, actor, action), action] for actor, action in events],
    }
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _sender(engine: GameEngine | None, actor: Any, action: Any) -> str:
    """The sender as the fingerprint counts it: a random step sent by a seat or by the host is one "typed" step.

    At a physical-dice table the roller or the host may type the dice in (the
    engine accepts both), so who typed them is not part of the play: a file
    that says the host typed a roll the roller typed is the same game.  The
    random steps are the engine's :attr:`~sixdice.gamekit.engine.GameEngine.random_actions`.
    """
    if engine is not None and isinstance(action, Mapping) and engine.is_random(action) and str(actor) != SYSTEM:
        return "typed"
    return str(actor)


def check_actor(engine: GameEngine, before: Mapping[str, Any], options: Mapping[str, Any], actor: str) -> str | None:
    """Why ``actor`` could not have sent the next event in ``before``, or ``None`` when it could have.

    As the live table: a seat moves only when the engine counts it among the
    actors; the server moves exactly when the engine takes a system action.
    The host's own actions are checked by the engine when it replays them.
    """
    system_would = engine.system_action(before, options, random.Random(0)) is not None
    if actor == SYSTEM:
        return None if system_would else "the server takes no action at this point of the game"
    if system_would:
        return "the server acts at this point of the game, not a player or the host"
    if actor == HOST:
        return None
    seat = parse_actor(actor)
    if isinstance(seat, int) and seat not in engine.actors(before):
        return f"seat {seat + 1} may not act at this point of the game"
    return None
