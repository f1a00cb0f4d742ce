"""Export a game as one JSON document, and import such a document again.

The format is described in ``docs/export-format.md``.  An import rebuilds
the initial state with the engine, replays every event through the engine
and checks that the replay reaches the recorded final state and outcome; a
document that fails any check is refused with :class:`ImportRefused` and
nothing is written.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.dateparse import parse_datetime

from sixdice.gamekit.engine import HOST, REGISTRY, SYSTEM, GameEngine, Outcome, get_engine
from sixdice.gamekit.errors import GameError
from sixdice.gamekit.notation import render_parts
from sixdice.gamekit.options import table_options as shared_options
from sixdice.gamekit.options import takes_back
from sixdice.gamekit.pins import pinned_values
from sixdice.gamekit.replay import describe, describe_parts, is_undo, replay, undone_first
from sixdice.tables.core import errors, keys
from sixdice.tables.models import Event, Game, Seat, Table, TableChange
from sixdice.tables.writes import ledger, services

from . import csvsafe, limits
from .hints import MAX_HINT_CHARS, export_hints
from .models import HintShown, ImportMark, note_of, save_note
from .steps import actor_name, count_turns

FORMAT = "sixdice-game"
CODE_MAX = Table._meta.get_field("code").max_length or 8
VERSION = 4
"""The version this app writes.  It goes up whenever the document or a game's options change shape
(or the wording of an event's ``text``); :data:`UPGRADES` then gets the step from the version before."""

Document = dict[str, Any]


class ImportRefused(ValueError):
    """A document that cannot be imported; the message is one line for a person."""


# ---------------------------------------------------------------- export


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _normal(value: Any) -> Any:
    """The value as JSON gives it back (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def export_game(game: Game) -> Document:
    """The whole game as one JSON-able, signed document (a copy: changing it leaves ``game`` alone)."""
    table = game.table
    bots = {seat.position: seat.is_bot for seat in table.seats.all()}
    events = list(game.events.order_by("seq"))
    return sign({
        "format": FORMAT,
        "version": VERSION,
        "game": {
            "engine": game.engine,
            "number": game.number,
            "options": game.options,
            "first": game.first,
            "status": game.status,
            "seq": game.seq,
            "winners": game.winners,
            "end_reason": game.end_reason,
            "places": game.places,
            "loser": game.loser,
            "started_at": _iso(game.started_at),
            "finished_at": _iso(game.finished_at),
        },
        "table": {"code": table.code, "options": table.options},
        "players": [
            {"seat": position, "name": name, "bot": bool(bots.get(position, False))}
            for position, name in enumerate(game.players)
        ],
        "initial_state": game.initial_state,
        "events": [
            {"seq": e.seq, "actor": e.actor, "action": e.action, "text": e.text, "at": _iso(e.created_at),
             **({"stand_in": e.stand_in} if e.stand_in else {})}  # the app played it: the seat's time ran out
            for e in events
        ],
        "final_state": game.state,
        "review": _review(game),
        "hints": export_hints(game),  # issue 18: the suggestions the seats' phones showed (not game events)
    })


# ---------------------------------------------------------------- signature

SIGNATURE_METHOD = "hmac-sha256"
_SALT = "sixdice.review.exchange.signature"
UNSIGNED, VERIFIED, CHANGED = "unsigned", "verified", "changed"


def _secrets() -> list[str]:
    return [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]


def _key_id(secret: str) -> str:
    """Names the key without revealing it: which install (and which of its keys) signed a file."""
    return salted_hmac(_SALT + ".key-id", "key", secret=secret, algorithm="sha256").hexdigest()[:16]


def _signed_bytes(doc: Mapping[str, Any]) -> bytes:
    """What the signature covers: the whole document except the signature itself and the staff's ``review`` note."""
    body = {key: value for key, value in doc.items() if key not in ("signature", "review")}
    return json.dumps(_normal(body), sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def _mac(doc: Mapping[str, Any], secret: str) -> str:
    return salted_hmac(_SALT, _signed_bytes(doc), secret=secret, algorithm="sha256").hexdigest()


def sign(doc: Mapping[str, Any]) -> Document:
    """A copy of ``doc`` signed with this install's key (``SECRET_KEY``), see ``docs/export-format.md``.

    Who sent each move and the seats' bot flags cannot be told from the rules
    (a physical roll may be typed by the roller or by the host, and the app may
    play any seat), so the signature is what shows a file is as it was exported.
    """
    body = copy.deepcopy({key: value for key, value in doc.items() if key != "signature"})
    secret = settings.SECRET_KEY
    body["signature"] = {"method": SIGNATURE_METHOD, "key": _key_id(secret), "value": _mac(body, secret)}
    return body


def signature_of(doc: Mapping[str, Any]) -> str:
    """:data:`VERIFIED` (signed by this install, unchanged), :data:`CHANGED` (signed here, then edited) or
    :data:`UNSIGNED` (no signature, or another install's: nothing to check it with)."""
    signature = doc.get("signature")
    if not isinstance(signature, Mapping) or signature.get("method") != SIGNATURE_METHOD:
        return UNSIGNED
    value = signature.get("value")
    for secret in _secrets():
        if signature.get("key") == _key_id(secret):
            ok = isinstance(value, str) and constant_time_compare(value, _mac(doc, secret))
            return VERIFIED if ok else CHANGED
    return UNSIGNED


def _review(game: Game) -> dict[str, Any]:
    note = note_of(game)
    return {"note": note.note if note else "", "disputed": bool(note and note.disputed)}


def dumps(document: Document | list[Document]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def export_filename(game: Game) -> str:
    return f"{game.engine}-{game.table.code}-game{game.number}.json"


CSV_COLUMNS = ["table", "game", "number", "status", "date", "finished_at", "end_reason", "events", "turns", "winners",
               "winner_seats"]
"""Then one ``player_<n>`` column per seat (as many as the largest game allows), see :func:`games_csv`."""


def _seat_columns() -> int:
    return max((engine.max_players for engine in REGISTRY.values()), default=0)


def games_csv(games: Iterable[Game]) -> str:
    """One row per game, a column per seat; ``events`` and ``turns`` are the two measures of length.

    ``winners`` holds the winners' names ("; " between two), ``winner_seats``
    their seat numbers (1-based, space-separated: names may contain any
    character).  Cells are made safe for spreadsheets
    (:mod:`sixdice.review.csvsafe`).
    """
    seats = _seat_columns()
    header = [*CSV_COLUMNS, *(f"player_{n + 1}" for n in range(seats))]

    def rows() -> Iterable[list[Any]]:
        for game in games:
            events = list(game.events.order_by("seq").values_list("actor", "action"))
            players = list(game.players)[:seats]
            yield [
                game.table.code,
                game.engine,
                game.number,
                game.status,
                _iso(game.started_at),
                _iso(game.finished_at) or "",
                game.end_reason,
                len(events),
                count_turns(REGISTRY[game.engine], events) if game.engine in REGISTRY else "",
                "; ".join(actor_name(str(int(w)), game.players) for w in game.winners),
                " ".join(str(int(w) + 1) for w in game.winners),
                *players,
                *([""] * (seats - len(players))),
            ]

    return csvsafe.write_csv(header, rows())


# ---------------------------------------------------------------- import


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise ImportRefused(message)


def _obj(value: Any, where: str) -> Mapping[str, Any]:
    _need(isinstance(value, Mapping), f"{where} must be a JSON object.")
    return value


def _int(value: Any, where: str, *, minimum: int = 0) -> int:
    _need(isinstance(value, int) and not isinstance(value, bool) and value >= minimum,
          f"{where} must be a whole number of at least {minimum}.")
    return value


def _str(value: Any, where: str) -> str:
    _need(isinstance(value, str), f"{where} must be a string.")
    return value


def _time(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) else None
    _need(parsed is not None and parsed.tzinfo is not None, f"{where} must be an ISO 8601 time with a time zone.")
    return parsed


def load(text: str | bytes) -> list[Document]:
    """Parse a file: one document or a list of them."""
    _need(len(text) <= limits.MAX_FILE_BYTES,
          f"The file is larger than {limits.MAX_FILE_BYTES:,} bytes, the most accepted.")
    try:
        data = json.loads(text, parse_constant=_not_json)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ImportRefused(f"The file is not valid JSON ({exc}).") from None
    except RecursionError:
        raise ImportRefused("The file is not valid JSON (nested too deeply).") from None
    docs = data if isinstance(data, list) else [data]
    _need(bool(docs), "The file holds an empty list: no game to import.")
    try:
        limits.check_count(docs)
    except limits.TooLarge as exc:
        raise ImportRefused(str(exc)) from None
    return docs


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# ---------------------------------------------------------------- older versions


def _v1_to_v2(doc: Document, label: str) -> Document:
    """Version 1 (every export up to the first version history) to 2.

    Games' options gained keys within version 1 (a file lacks those added after it
    was exported) and Run Buster dropped one; each game's adapter upgrades its
    options and states (``GameEngine.upgrade_options`` / ``upgrade_state``), with the
    value in force before an option existed.  An event's ``text`` was the wording of
    the engine of the day: it is dropped and import writes today's notation.
    """
    g = doc.get("game")
    slug = g.get("engine") if isinstance(g, Mapping) else None
    engine = REGISTRY.get(slug) if isinstance(slug, str) else None
    if engine is None or not isinstance(g, Mapping):  # the checks name what is wrong
        return doc
    try:
        if isinstance(g.get("options"), Mapping):
            doc["game"] = {**g, "options": engine.upgrade_options(g["options"], version=1)}
        t = doc.get("table")
        if isinstance(t, Mapping) and isinstance(t.get("options"), Mapping):
            doc["table"] = {**t, "options": engine.upgrade_options(t["options"], version=1)}
        for key in ("initial_state", "final_state"):
            if isinstance(doc.get(key), Mapping):
                doc[key] = engine.upgrade_state(doc[key], version=1)
    except Exception as exc:  # an odd value must never become a traceback: the checks then refuse the file
        raise ImportRefused(f"{label}: the file cannot be read as version 1 ({exc.__class__.__name__}).") from None
    events = doc.get("events")
    if isinstance(events, list):
        doc["events"] = [{k: v for k, v in e.items() if k != "text"} if isinstance(e, Mapping) else e for e in events]
    return doc


def _v2_to_v3(doc: Document, label: str) -> Document:
    """Version 2 to 3: the log speaks in plain words (no ruling codes, no event numbers, whose dice moved).

    Nothing changed shape; an event's ``text`` is the old wording, so it is dropped and import writes
    today's notation, as from version 1.
    """
    events = doc.get("events")
    if isinstance(events, list):
        doc["events"] = [{k: v for k, v in e.items() if k != "text"} if isinstance(e, Mapping) else e for e in events]
    return doc


def _v3_to_v4(doc: Document, label: str) -> Document:
    """Version 3 to 4: a Six-Dice game's options may say ``"faces": "ordinary"`` (real dice read by their pips).

    Nothing of a version 3 file changes: without the key a game was played with the game's own dice (or
    the app's), which is what a missing ``faces`` means.
    """
    return doc


UPGRADES: dict[int, Callable[[Document, str], Document]] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}
"""Version N -> N + 1, for every N below :data:`VERSION`.  Each step takes the document as that
version wrote it (untrusted: it may be malformed) and leaves the checking to :func:`_check`."""


def upgrade(doc: Mapping[str, Any], label: str = "the game") -> Document:
    """A copy of ``doc`` in the shape of :data:`VERSION`, upgraded one version at a time.

    A version this app does not know (newer, or not a version at all) is refused with
    :class:`ImportRefused`; the document given is never changed.
    """
    version = doc.get("version")
    _need(isinstance(version, int) and not isinstance(version, bool),
          f'{label}: "version" must be a whole number (this app reads versions 1 to {VERSION}), not {version!r}.')
    assert isinstance(version, int)
    _need(version <= VERSION, f'{label}: it is version {version} of the format, newer than this app reads '
          f'(versions 1 to {VERSION}); import it with a newer version of the app.')
    _need(version >= 1, f'{label}: unsupported "version" {version!r} (this app reads versions 1 to {VERSION}).')
    out: Document = copy.deepcopy(dict(doc))
    while version < VERSION:
        out = UPGRADES[version](out, label)
        version += 1
        out["version"] = version
    return out


def _check(doc: Any, label: str) -> dict[str, Any]:
    """Validate one document and replay it; returns what :func:`_write` needs.

    One checker per part of the document, in the order a person reads it; the
    first refusal is the one reported.
    """
    original, doc = _check_header(doc, label)
    head = _check_game(doc, label)
    engine = head["engine"]
    names, bots = _check_players(doc["players"], label)
    n = len(names)
    _need(engine.min_players <= n <= engine.max_players,
          f"{label}: {engine.label} takes {engine.min_players} to {engine.max_players} players, not {n}.")
    _need(head["first"] < n, f'{label}: "game.first" is not a seat of this game.')
    cleaned, initial = _check_options(doc, head, names, label)
    events = _check_events(doc["events"], n, head["started_at"], upgraded=original.get("version") != VERSION,
                           label=label)
    state = _replay_events(engine, initial, events, cleaned, names, label)
    _need(head["g"].get("seq", len(events)) == len(events), f'{label}: "game.seq" is not the number of events.')
    outcome = _check_result(engine, state, doc, head, label)
    note, disputed = _check_review(doc, label)
    hints = _hints(doc.get("hints", []), events, label)
    fingerprint = limits.content_hash(engine.slug, cleaned, names, head["first"],
                                      ((e["actor"], e["action"]) for e in events))
    return {
        "signature": signature_of(original),
        "hash": fingerprint, "engine": engine.slug, "number": head["number"], "options": cleaned,
        "first": head["first"], "names": names, "bots": bots, "initial": initial, "state": state, "outcome": outcome,
        "events": events, "started_at": head["started_at"], "finished_at": head["finished_at"],
        "table_options": head["table_options"], "code": head["code"], "status": head["status"], "note": note,
        "disputed": disputed, "end_reason": head["g"].get("end_reason") or "", "hints": hints,
    }


def _check_header(doc: Any, label: str) -> tuple[Mapping[str, Any], Document]:
    """The document as it came (its signature is checked on it) and upgraded to :data:`VERSION`, every part there."""
    doc = _obj(doc, label)
    try:
        limits.check_sizes(doc, label)
    except limits.TooLarge as exc:
        raise ImportRefused(str(exc)) from None
    _need(doc.get("format") == FORMAT, f'{label}: "format" must be "{FORMAT}".')
    upgraded = upgrade(doc, label)
    for key in ("game", "table", "players", "initial_state", "events", "final_state"):
        _need(key in upgraded, f'{label}: "{key}" is missing.')
    return doc, upgraded


def _check_game(doc: Document, label: str) -> dict[str, Any]:
    """``game`` and ``table``: the engine, number, options, first seat, status, times and the table's code."""
    g = _obj(doc["game"], f'{label}: "game"')
    t = _obj(doc["table"], f'{label}: "table"')
    try:
        engine = get_engine(_str(g.get("engine"), f'{label}: "game.engine"'))
    except GameError:
        raise ImportRefused(f'{label}: unknown game engine {g.get("engine")!r}.') from None
    head: dict[str, Any] = {"g": g, "engine": engine}
    head["number"] = _int(g.get("number"), f'{label}: "game.number"', minimum=1)
    head["options"] = _obj(g.get("options"), f'{label}: "game.options"')
    head["first"] = _int(g.get("first"), f'{label}: "game.first"')
    status = head["status"] = g.get("status")
    _need(status in (Game.Status.FINISHED, Game.Status.ABANDONED), f'{label}: only finished or abandoned games '
          f'can be imported ("game.status" is {status!r}).')
    head["started_at"] = _time(g.get("started_at"), f'{label}: "game.started_at"')
    head["finished_at"] = _time(g.get("finished_at"), f'{label}: "game.finished_at"')
    head["table_options"] = dict(_obj(t.get("options", {}), f'{label}: "table.options"'))
    code = head["code"] = t.get("code")
    _need(code is None or isinstance(code, str), f'{label}: "table.code" must be a string.')
    _need(code is None or _is_table_code(code),
          f'{label}: "table.code" must be {keys.CODE_LENGTH} characters of {keys.CODE_ALPHABET} '
          f"(as the join form reads a code), not {str(code)[:20]!r}.")
    return head


def _check_players(raw_players: Any, label: str) -> tuple[list[str], list[bool]]:
    """The seats in order: each name as the join form takes it (:func:`_seat_name`), each bot flag."""
    _need(isinstance(raw_players, list), f'{label}: "players" must be a list.')
    names: list[str] = []
    bots: list[bool] = []
    for position, p in enumerate(raw_players):
        p = _obj(p, f'{label}: player {position + 1}')
        _need(p.get("seat") == position, f'{label}: player {position + 1} must have "seat": {position}.')
        names.append(_seat_name(p.get("name"), names, position, label))
        bot = p.get("bot", False)
        _need(isinstance(bot, bool), f'{label}: "bot" of player {position + 1} must be true or false.')
        bots.append(bot)
    return names, bots


def _seat_name(name: Any, names: Sequence[str], position: int, label: str) -> str:
    """A player's name, by the join form's rule (:func:`services.clean_name`, :func:`services.name_clash`)."""
    name = _str(name, f'{label}: the name of player {position + 1}')
    try:
        valid = services.clean_name(name) == name
    except errors.ServiceError:
        valid = False
    _need(valid, f'{label}: the name of player {position + 1} is not a valid name.')
    clash = services.name_clash(name, names)
    _need(clash is None or clash[0] != services.SAME_NAME, f'{label}: two players are called {name!r}.')
    _need(clash is None, f'{label}: the name of player {position + 1} looks like another player\'s.')
    return name


def _check_options(doc: Document, head: Mapping[str, Any], names: list[str], label: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options as the engine stores them, the table's options, and the initial state the engine starts with."""
    engine, options, n = head["engine"], head["options"], len(names)
    try:
        cleaned = {**engine.clean_options(dict(options), players=n), **shared_options(options)}
    except GameError as exc:
        raise ImportRefused(f"{label}: the options are not valid ({exc}).") from None
    _need(_normal(cleaned) == _normal(options), f"{label}: the options are not as the engine would store them.")
    try:
        engine.clean_options(dict(head["table_options"]), players=n)
    except GameError as exc:
        raise ImportRefused(f"{label}: the table options are not valid ({exc}).") from None
    try:
        initial = engine.start(players=names, options=cleaned, first=head["first"])
    except GameError as exc:
        raise ImportRefused(f"{label}: the engine cannot start this game ({exc}).") from None
    _need(_normal(initial) == _normal(doc["initial_state"]),
          f'{label}: "initial_state" is not the state the engine starts this game with.')
    return cleaned, initial


def _check_events(raw_events: Any, n: int, started_at: datetime | None, *, upgraded: bool,
                  label: str) -> list[dict[str, Any]]:
    """Each event well formed (its seq, actor, action, text, time and stand-in), before any is replayed."""
    _need(isinstance(raw_events, list), f'{label}: "events" must be a list.')
    events: list[dict[str, Any]] = []
    for index, e in enumerate(raw_events, start=1):
        where = f"{label}: event {index}"
        e = _obj(e, where)
        _need(e.get("seq") == index and not isinstance(e.get("seq"), bool), f'{where} must have "seq": {index}.')
        actor = _str(e.get("actor"), f'{where}: "actor"')
        _need(actor in (HOST, SYSTEM) or (actor.isdigit() and str(int(actor)) == actor and int(actor) < n),
              f'{where}: "actor" must be a seat number of this game, "host" or "system", not {actor!r}.')
        action = _obj(e.get("action"), f'{where}: "action"')
        _need(isinstance(action.get("type"), str), f'{where}: the action has no "type".')
        # None: an older version's text, dropped by its upgrade; the engine writes it.
        text = _str(e.get("text", ""), f'{where}: "text"') if "text" in e or not upgraded else None
        at = _time(e.get("at"), f'{where}: "at"')
        earlier = next((x["at"] for x in reversed(events) if x["at"] is not None), started_at)
        _need(at is None or earlier is None or at >= earlier, f'{where}: "at" is earlier than the event before it (or the game\'s start).')
        stand_in = e.get("stand_in", "")
        _need(stand_in in ("", "timeout", "away", "bot") and (not stand_in or actor.isdigit()),
              f'{where}: "stand_in" is "timeout", "away" or "bot" (for a seat\'s action) or absent, not {stand_in!r}.')
        events.append({"seq": index, "actor": actor, "action": dict(action), "text": text, "at": at, "stand_in": stand_in})
    return events


def _replay_events(engine: GameEngine, initial: dict[str, Any], events: list[dict[str, Any]], cleaned: Mapping[str, Any],
                   names: list[str], label: str) -> dict[str, Any]:
    """Replay the events through the one replay: each actor possible, each text today's; the state reached."""
    state: dict[str, Any] = initial
    done = 0
    try:
        for step in replay(engine, initial, ((e["actor"], e["action"]) for e in events), take_back=takes_back(cleaned)):
            e = events[done]
            # A seat's undo (its take-back) is checked by the replay itself: its own last action only.
            taken_back = is_undo(e["action"]) and e["actor"] not in (HOST, SYSTEM)
            why = None if taken_back else limits.check_actor(engine, step.before, cleaned, e["actor"])
            _need(why is None, f'{label}: event {done + 1}: "actor" {e["actor"]!r} is not possible: {why}.')
            _describe(engine, step.before, e, events[:done], names, label)
            state = step.after
            done += 1
    except ImportRefused:
        raise
    except GameError as exc:
        who = actor_name(events[done]["actor"], names)
        raise ImportRefused(f"{label}: event {done + 1} ({who}) is refused by the rules: {exc}") from None
    except Exception as exc:  # a malformed action must never become a traceback
        raise ImportRefused(f"{label}: event {done + 1} is malformed ({exc.__class__.__name__}: {exc}).") from None
    return state


def _describe(engine: GameEngine, before: Mapping[str, Any], e: dict[str, Any], earlier: list[dict[str, Any]],
              names: list[str], label: str) -> None:
    """The event's notation and text as today's engine words them; a text given must be that one."""
    undone = undone_first([(x["actor"], x["action"]) for x in earlier], e["action"].get("to")) \
        if is_undo(e["action"]) else None
    sender = {"actor": e["actor"], "stand_in": e["stand_in"]}  # the line says who decided a seat's move
    e["notation"] = describe_parts(engine, before, e["action"], names=names, undone=undone, **sender)  # undos too
    expected_text = render_parts(e["notation"])[:500]
    if e["text"] is None:  # an older version's wording, dropped by its upgrade
        e["text"] = expected_text
    # A file from before the lines said who decided holds the seat's plain line: the same move.
    plain = describe(engine, before, e["action"], names=names, undone=undone)[:500]
    _need(e["text"] in (expected_text, plain),
          f'{label}: event {e["seq"]}: "text" does not match the action (expected {expected_text!r}).')


def _check_result(engine: GameEngine, state: dict[str, Any], doc: Document, head: Mapping[str, Any],
                  label: str) -> Outcome | None:
    """The replay reaches the recorded final state and result (an abandoned game: none); the outcome."""
    _need(_normal(state) == _normal(doc["final_state"]),
          f'{label}: replaying the events does not reach the recorded "final_state".')
    g = head["g"]
    outcome = engine.outcome(state)
    recorded = (g.get("winners"), g.get("end_reason"), g.get("places", []), g.get("loser"))
    if head["status"] == Game.Status.ABANDONED:  # stopped mid-game (its table was closed): no outcome to check
        _need(outcome is None, f'{label}: the replayed game is over, so it was not abandoned.')
        _need((recorded[0], recorded[2], recorded[3]) == ([], [], None) and isinstance(recorded[1], str),
              f"{label}: an abandoned game has no winners, places or loser.")
    else:
        _need(outcome is not None, f"{label}: the replayed game is not over.")
        assert outcome is not None
        replayed = (list(outcome.winners), outcome.end_reason, list(outcome.places), outcome.loser)
        _need(recorded == replayed,
              f"{label}: the recorded winners, end reason or places are not those of the replay.")
    return outcome


def _check_review(doc: Document, label: str) -> tuple[str, bool]:
    """The staff's note and whether the game is disputed (not covered by the signature)."""
    review = _obj(doc.get("review", {}), f'{label}: "review"')
    note = _str(review.get("note", ""), f'{label}: "review.note"')
    disputed = review.get("disputed", False)
    _need(isinstance(disputed, bool), f'{label}: "review.disputed" must be true or false.')
    return note, disputed


def _hints(raw: Any, events: Sequence[Mapping[str, Any]], label: str) -> list[dict[str, Any]]:
    """The hints shown (issue 18), checked: each before a move its own seat sent, at most one per move."""
    _need(isinstance(raw, list), f'{label}: "hints" must be a list.')
    out: list[dict[str, Any]] = []
    for i, h in enumerate(raw, start=1):
        where = f"{label}: hint {i}"
        h = _obj(h, where)
        seq, seat, hint = h.get("seq"), h.get("seat"), h.get("hint")
        _need(isinstance(seq, int) and not isinstance(seq, bool) and 0 < seq <= len(events),
              f'{where}: "seq" must be the number of one of the game\'s events.')
        assert isinstance(seq, int)
        _need(isinstance(seat, int) and not isinstance(seat, bool) and events[seq - 1]["actor"] == str(seat),
              f'{where}: "seat" must be the seat that made move {seq}.')
        _need(isinstance(hint, dict) and len(json.dumps(hint)) <= MAX_HINT_CHARS,
              f'{where}: "hint" must be an object of at most {MAX_HINT_CHARS} characters.')
        _need(all(x["seq"] != seq for x in out), f"{where}: a second hint for move {seq}.")
        out.append({"seq": seq, "seat": seat, "hint": hint})
    return out


def _write(c: dict[str, Any]) -> Game:
    """Write one checked game through the ledger, as a table that was played here: its seats joined and
    the game started (at its start), its events, then its end (a finished game's, or the table's close)."""
    abandoned = c["status"] == Game.Status.ABANDONED
    # The table is opened by the same service as a new table (its old code when free), then filled in.
    table, _host_secret = services.create_table(
        game=c["engine"], options=c["table_options"], capacity=len(c["names"]), code=c["code"],
        status=Table.Status.CLOSED if abandoned else Table.Status.FINISHED,
    )
    events, outcome = c["events"], c["outcome"]
    times = [e["at"] for e in events if e["at"] is not None]
    result: dict[str, Any] = (
        {"winners": list(outcome.winners), "end_reason": outcome.end_reason, "places": list(outcome.places),
         "loser": outcome.loser}
        if outcome is not None else {"end_reason": c["end_reason"]}
    )
    game = ledger.open_game(table, Game(
        table=table, number=c["number"], engine=c["engine"], options=c["options"], players=c["names"],
        first=c["first"], initial_state=c["initial"], state=c["state"], seq=len(events),
        pinned=pinned_values([(e["actor"], e["action"]) for e in events], get_engine(c["engine"]), c["options"]),
        status=c["status"], finished_at=c["finished_at"], **result,
    ), kind=TableChange.Kind.START, actor=SYSTEM, payload={"imported": True},
        seats=[Seat(table=table, position=i, name=name, is_bot=bot)
               for i, (name, bot) in enumerate(zip(c["names"], c["bots"], strict=True))],
        at=c["started_at"] or (times[0] if times else None))
    ledger.append([
        Event(game=game, seq=e["seq"], actor=e["actor"], action=e["action"], text=e["text"],
              notation=e.get("notation") or [], stand_in=e.get("stand_in", ""), created_at=e["at"]) for e in events
    ])
    save_note(game, note=c["note"], disputed=c["disputed"])
    HintShown.objects.bulk_create(HintShown(game=game, **h) for h in c.get("hints", []))
    ImportMark.objects.create(game=game, source=c.get("source", "")[:200], content_hash=c["hash"],
                              verified=c["signature"] == VERIFIED)
    end = ledger.Change(TableChange.Kind.CLOSE, HOST, {"game": game.number, "imported": True}) if abandoned else \
        ledger.Change(TableChange.Kind.GAME_END, SYSTEM, {"game": game.number, "winners": game.winners, "imported": True})
    ledger.record_changes(table, [replace(end, at=c["finished_at"] or (times[-1] if times else None))])
    game.refresh_from_db()
    return game


def _is_table_code(code: str) -> bool:
    return (len(code) == keys.CODE_LENGTH and keys.normalise_code(code) == code
            and all(ch in keys.CODE_ALPHABET for ch in code))


def _already_here(c: dict[str, Any]) -> bool:
    """Whether this game is in the database: imported before, or played here (same fingerprint)."""
    if ImportMark.objects.filter(content_hash=c["hash"]).exists():
        return True
    candidates = Game.objects.filter(engine=c["engine"], seq=len(c["events"]), first=c["first"], import_mark=None)
    for game_id, players, options in candidates.values_list("pk", "players", "options"):
        if players != c["names"]:
            continue
        logged = list(Event.objects.filter(game_id=game_id).order_by("seq").values_list("actor", "action"))
        # A game played here by an older version keeps its options in their old shape: compare both ways.
        for shape in (options, _cleaned(c["engine"], options, len(players))):
            if shape is not None and limits.content_hash(c["engine"], shape, players, c["first"], logged) == c["hash"]:
                return True
    return False


def _cleaned(slug: str, options: Any, players: int) -> dict[str, Any] | None:
    """Stored options as the engine cleans them today (an older game's lack a newer option), or ``None``."""
    engine = REGISTRY.get(slug)
    if engine is None or not isinstance(options, Mapping):
        return None
    try:
        return {**engine.clean_options(dict(options), players=players), **shared_options(options)}
    except GameError:
        return None


def import_documents(docs: Sequence[Any], *, source: str = "", unsigned: bool = False) -> list[Game]:
    """Check every document, then write them all in one transaction (or nothing).

    A game already in the database (imported before, or played here), or
    twice in the file, is refused.  Last, the signature: a document this
    install signed must be unchanged; one it did not sign (another install's,
    or an older export) is refused unless ``unsigned``, and is then marked
    not verified.  Every imported game gets an
    :class:`~sixdice.review.models.ImportMark` naming ``source``.
    """
    try:
        limits.check_count(docs)
    except limits.TooLarge as exc:
        raise ImportRefused(str(exc)) from None
    checked = [_check(doc, f"game {i + 1}" if len(docs) > 1 else "the game") for i, doc in enumerate(docs)]
    seen: set[str] = set()
    for i, c in enumerate(checked):
        label = f"game {i + 1}" if len(docs) > 1 else "the game"
        _need(c["hash"] not in seen, f"{label} appears twice in the file.")
        seen.add(c["hash"])
        _need(not _already_here(c), f"{label} is already here (the same game was imported or played before).")
        _need(c["signature"] != CHANGED,
              f"{label} was changed after it was exported (its signature does not match): who sent a move, a "
              f'seat\'s "bot" flag, a time or a name cannot be edited; export the game again.')
        _need(c["signature"] == VERIFIED or unsigned,
              f"{label} is not signed by this install (it comes from another install or an older export, or its "
              f"signature was removed), so who sent each move and the bot flags cannot be checked; import it "
              f"with --unsigned to take it as it is (it is then marked not verified).")
        c["source"] = source
    with transaction.atomic():
        return [_write(c) for c in checked]


def import_text(text: str | bytes, *, source: str = "", unsigned: bool = False) -> list[Game]:
    return import_documents(load(text), source=source, unsigned=unsigned)
