"""Check a document before anything is written, upgrading an older version first; refuse it in one line.

An import rebuilds the initial state with the engine, replays every event
through the engine and checks that the replay reaches the recorded final
state and outcome; a document that fails any check is refused with
:class:`ImportRefused`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.utils.dateparse import parse_datetime

from sixdice.gamekit.engine import HOST, REGISTRY, SYSTEM, GameEngine, Outcome, get_engine
from sixdice.gamekit.errors import GameError
from sixdice.gamekit.notation import render_parts
from sixdice.gamekit.options import table_options as shared_options
from sixdice.gamekit.options import takes_back
from sixdice.gamekit.replay import describe, describe_parts, is_undo, replay, undone_first
from sixdice.tables.core import errors, keys
from sixdice.tables.models import Game
from sixdice.tables.writes import services

from .. import limits
from ..hints import MAX_HINT_CHARS
from ..steps import actor_name
from .export import FORMAT, VERSION, Document, normal, signature_of


class ImportRefused(ValueError):
    """A document that cannot be imported; the message is one line for a person."""


class NotSigned(ImportRefused):
    """A game this install did not sign, refused because taking unsigned games was not asked for.

    The message names the command's way to take it (``--unsigned``); a page names its own control instead,
    with :attr:`label` (which game of the file: "the game", "game 2").
    """

    def __init__(self, label: str) -> None:
        self.label = label
        super().__init__(
            f"{label} is not signed by this install (it comes from another install or an older export, or its "
            f"signature was removed), so who sent each move and the bot flags cannot be checked; import it "
            f"with --unsigned to take it as it is (it is then marked not verified).")



def need(cond: bool, message: str) -> None:
    if not cond:
        raise ImportRefused(message)


def _obj(value: Any, where: str) -> Mapping[str, Any]:
    need(isinstance(value, Mapping), f"{where} must be a JSON object.")
    return value


def _int(value: Any, where: str, *, minimum: int = 0) -> int:
    need(isinstance(value, int) and not isinstance(value, bool) and value >= minimum,
          f"{where} must be a whole number of at least {minimum}.")
    return value


def _str(value: Any, where: str) -> str:
    need(isinstance(value, str), f"{where} must be a string.")
    return value


def _time(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) else None
    need(parsed is not None and parsed.tzinfo is not None, f"{where} must be an ISO 8601 time with a time zone.")
    return parsed


def load(text: str | bytes) -> list[Document]:
    """Parse a file: one document or a list of them."""
    need(len(text) <= limits.MAX_FILE_BYTES,
          f"The file is larger than {limits.MAX_FILE_BYTES:,} bytes, the most accepted.")
    try:
        data = json.loads(text, parse_constant=_not_json)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ImportRefused(f"The file is not valid JSON ({exc}).") from None
    except RecursionError:
        raise ImportRefused("The file is not valid JSON (nested too deeply).") from None
    docs = data if isinstance(data, list) else [data]
    need(bool(docs), "The file holds an empty list: no game to import.")
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


def _v4_to_v5(doc: Document, label: str) -> Document:
    """Version 4 to 5: the table says who hosted (``table.host_name``, ``table.host_seat``).

    A file of an earlier version did not keep it: the host is not recorded (an empty name, no seat), as at a table where
    the host gave no name.
    """
    t = doc.get("table")
    if isinstance(t, Mapping):
        doc["table"] = {**t, "host_name": t.get("host_name", ""), "host_seat": t.get("host_seat")}
    return doc


UPGRADES: dict[int, Callable[[Document, str], Document]] = {
    1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5,
}
"""Version N -> N + 1, for every N below :data:`VERSION`.  Each step takes the document as that
version wrote it (untrusted: it may be malformed) and leaves the checking to :func:`check`."""


def upgrade(doc: Mapping[str, Any], label: str = "the game") -> Document:
    """A copy of ``doc`` in the shape of :data:`VERSION`, upgraded one version at a time.

    A version this app does not know (newer, or not a version at all) is refused with
    :class:`ImportRefused`; the document given is never changed.
    """
    version = doc.get("version")
    need(isinstance(version, int) and not isinstance(version, bool),
          f'{label}: "version" must be a whole number (this app reads versions 1 to {VERSION}), not {version!r}.')
    assert isinstance(version, int)
    need(version <= VERSION, f'{label}: it is version {version} of the format, newer than this app reads '
          f'(versions 1 to {VERSION}); import it with a newer version of the app.')
    need(version >= 1, f'{label}: unsupported "version" {version!r} (this app reads versions 1 to {VERSION}).')
    out: Document = copy.deepcopy(dict(doc))
    while version < VERSION:
        out = UPGRADES[version](out, label)
        version += 1
        out["version"] = version
    return out


def check(doc: Any, label: str) -> dict[str, Any]:
    """Validate one document and replay it; returns what :func:`sixdice.review.exchange.importing.write` needs.

    One checker per part of the document, in the order a person reads it; the
    first refusal is the one reported.
    """
    original, doc = _check_header(doc, label)
    head = _check_game(doc, label)
    engine = head["engine"]
    names, bots = _check_players(doc["players"], label)
    n = len(names)
    need(engine.min_players <= n <= engine.max_players,
          f"{label}: {engine.label} takes {engine.min_players} to {engine.max_players} players, not {n}.")
    need(head["first"] < n, f'{label}: "game.first" is not a seat of this game.')
    host_name, host_seat = _check_host(doc["table"], names, label)
    cleaned, initial = _check_options(doc, head, names, label)
    events = _check_events(doc["events"], n, head["started_at"], upgraded=original.get("version") != VERSION,
                           label=label)
    state = _replay_events(engine, initial, events, cleaned, names, label)
    need(head["g"].get("seq", len(events)) == len(events), f'{label}: "game.seq" is not the number of events.')
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
        "host_name": host_name, "host_seat": host_seat,
    }


def _check_header(doc: Any, label: str) -> tuple[Mapping[str, Any], Document]:
    """The document as it came (its signature is checked on it) and upgraded to :data:`VERSION`, every part there."""
    doc = _obj(doc, label)
    try:
        limits.check_sizes(doc, label)
    except limits.TooLarge as exc:
        raise ImportRefused(str(exc)) from None
    need(doc.get("format") == FORMAT, f'{label}: "format" must be "{FORMAT}".')
    upgraded = upgrade(doc, label)
    for key in ("game", "table", "players", "initial_state", "events", "final_state"):
        need(key in upgraded, f'{label}: "{key}" is missing.')
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
    need(status in (Game.Status.FINISHED, Game.Status.ABANDONED), f'{label}: only finished or abandoned games '
          f'can be imported ("game.status" is {status!r}).')
    head["started_at"] = _time(g.get("started_at"), f'{label}: "game.started_at"')
    head["finished_at"] = _time(g.get("finished_at"), f'{label}: "game.finished_at"')
    head["table_options"] = dict(_obj(t.get("options", {}), f'{label}: "table.options"'))
    code = head["code"] = t.get("code")
    need(code is None or isinstance(code, str), f'{label}: "table.code" must be a string.')
    need(code is None or _is_table_code(code),
          f'{label}: "table.code" must be {keys.CODE_LENGTH} characters of {keys.CODE_ALPHABET} '
          f"(as the join form reads a code), not {str(code)[:20]!r}.")
    return head


def _check_host(table: Mapping[str, Any], names: Sequence[str], label: str) -> tuple[str, int | None]:
    """Who hosted: the name typed on the new-table form ("" when none, else a valid name) and the seat the host
    took on the host's own phone (a seat of this game, or none)."""
    host_name = _str(table.get("host_name", ""), f'{label}: "table.host_name"')
    if host_name:
        try:
            valid = services.clean_name(host_name) == host_name
        except errors.ServiceError:
            valid = False
        need(valid, f'{label}: "table.host_name" is not a valid name.')
    seat = table.get("host_seat")
    need(seat is None or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names)),
         f'{label}: "table.host_seat" must be a seat of this game or null, not {seat!r}.')
    return host_name, seat


def _check_players(raw_players: Any, label: str) -> tuple[list[str], list[bool]]:
    """The seats in order: each name as the join form takes it (:func:`_seat_name`), each bot flag."""
    need(isinstance(raw_players, list), f'{label}: "players" must be a list.')
    names: list[str] = []
    bots: list[bool] = []
    for position, p in enumerate(raw_players):
        p = _obj(p, f'{label}: player {position + 1}')
        need(p.get("seat") == position, f'{label}: player {position + 1} must have "seat": {position}.')
        names.append(_seat_name(p.get("name"), names, position, label))
        bot = p.get("bot", False)
        need(isinstance(bot, bool), f'{label}: "bot" of player {position + 1} must be true or false.')
        bots.append(bot)
    return names, bots


def _seat_name(name: Any, names: Sequence[str], position: int, label: str) -> str:
    """A player's name, by the join form's rule (:func:`services.clean_name`, :func:`services.name_clash`)."""
    name = _str(name, f'{label}: the name of player {position + 1}')
    try:
        valid = services.clean_name(name) == name
    except errors.ServiceError:
        valid = False
    need(valid, f'{label}: the name of player {position + 1} is not a valid name.')
    clash = services.name_clash(name, names)
    need(clash is None or clash[0] != services.SAME_NAME, f'{label}: two players are called {name!r}.')
    need(clash is None, f'{label}: the name of player {position + 1} looks like another player\'s.')
    return name


def _check_options(doc: Document, head: Mapping[str, Any], names: list[str], label: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options as the engine stores them, the table's options, and the initial state the engine starts with."""
    engine, options, n = head["engine"], head["options"], len(names)
    try:
        cleaned = {**engine.clean_options(dict(options), players=n), **shared_options(options)}
    except GameError as exc:
        raise ImportRefused(f"{label}: the options are not valid ({exc}).") from None
    need(normal(cleaned) == normal(options), f"{label}: the options are not as the engine would store them.")
    try:
        engine.clean_options(dict(head["table_options"]), players=n)
    except GameError as exc:
        raise ImportRefused(f"{label}: the table options are not valid ({exc}).") from None
    try:
        initial = engine.start(players=names, options=cleaned, first=head["first"])
    except GameError as exc:
        raise ImportRefused(f"{label}: the engine cannot start this game ({exc}).") from None
    need(normal(initial) == normal(doc["initial_state"]),
          f'{label}: "initial_state" is not the state the engine starts this game with.')
    return cleaned, initial


def _check_events(raw_events: Any, n: int, started_at: datetime | None, *, upgraded: bool,
                  label: str) -> list[dict[str, Any]]:
    """Each event well formed (its seq, actor, action, text, time and stand-in), before any is replayed."""
    need(isinstance(raw_events, list), f'{label}: "events" must be a list.')
    events: list[dict[str, Any]] = []
    for index, e in enumerate(raw_events, start=1):
        where = f"{label}: event {index}"
        e = _obj(e, where)
        need(e.get("seq") == index and not isinstance(e.get("seq"), bool), f'{where} must have "seq": {index}.')
        actor = _str(e.get("actor"), f'{where}: "actor"')
        need(actor in (HOST, SYSTEM) or (actor.isdigit() and str(int(actor)) == actor and int(actor) < n),
              f'{where}: "actor" must be a seat number of this game, "host" or "system", not {actor!r}.')
        action = _obj(e.get("action"), f'{where}: "action"')
        need(isinstance(action.get("type"), str), f'{where}: the action has no "type".')
        # None: an older version's text, dropped by its upgrade; the engine writes it.
        text = _str(e.get("text", ""), f'{where}: "text"') if "text" in e or not upgraded else None
        at = _time(e.get("at"), f'{where}: "at"')
        earlier = next((x["at"] for x in reversed(events) if x["at"] is not None), started_at)
        need(at is None or earlier is None or at >= earlier, f'{where}: "at" is earlier than the event before it (or the game\'s start).')
        stand_in = e.get("stand_in", "")
        need(stand_in in ("", "timeout", "away", "bot") and (not stand_in or actor.isdigit()),
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
            need(why is None, f'{label}: event {done + 1}: "actor" {e["actor"]!r} is not possible: {why}.')
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
    need(e["text"] in (expected_text, plain),
          f'{label}: event {e["seq"]}: "text" does not match the action (expected {expected_text!r}).')


def _check_result(engine: GameEngine, state: dict[str, Any], doc: Document, head: Mapping[str, Any],
                  label: str) -> Outcome | None:
    """The replay reaches the recorded final state and result (an abandoned game: none); the outcome."""
    need(normal(state) == normal(doc["final_state"]),
          f'{label}: replaying the events does not reach the recorded "final_state".')
    g = head["g"]
    outcome = engine.outcome(state)
    recorded = (g.get("winners"), g.get("end_reason"), g.get("places", []), g.get("loser"))
    if head["status"] == Game.Status.ABANDONED:  # stopped mid-game (its table was closed): no outcome to check
        need(outcome is None, f'{label}: the replayed game is over, so it was not abandoned.')
        need((recorded[0], recorded[2], recorded[3]) == ([], [], None) and isinstance(recorded[1], str),
              f"{label}: an abandoned game has no winners, places or loser.")
    else:
        need(outcome is not None, f"{label}: the replayed game is not over.")
        assert outcome is not None
        replayed = (list(outcome.winners), outcome.end_reason, list(outcome.places), outcome.loser)
        need(recorded == replayed,
              f"{label}: the recorded winners, end reason or places are not those of the replay.")
    return outcome


def _check_review(doc: Document, label: str) -> tuple[str, bool]:
    """The staff's note and whether the game is disputed (not covered by the signature)."""
    review = _obj(doc.get("review", {}), f'{label}: "review"')
    note = _str(review.get("note", ""), f'{label}: "review.note"')
    disputed = review.get("disputed", False)
    need(isinstance(disputed, bool), f'{label}: "review.disputed" must be true or false.')
    return note, disputed


def _hints(raw: Any, events: Sequence[Mapping[str, Any]], label: str) -> list[dict[str, Any]]:
    """The hints shown (issue 18), checked: each before a move its own seat sent, at most one per move."""
    need(isinstance(raw, list), f'{label}: "hints" must be a list.')
    out: list[dict[str, Any]] = []
    for i, h in enumerate(raw, start=1):
        where = f"{label}: hint {i}"
        h = _obj(h, where)
        seq, seat, hint = h.get("seq"), h.get("seat"), h.get("hint")
        need(isinstance(seq, int) and not isinstance(seq, bool) and 0 < seq <= len(events),
              f'{where}: "seq" must be the number of one of the game\'s events.')
        assert isinstance(seq, int)
        need(isinstance(seat, int) and not isinstance(seat, bool) and events[seq - 1]["actor"] == str(seat),
              f'{where}: "seat" must be the seat that made move {seq}.')
        need(isinstance(hint, dict) and len(json.dumps(hint)) <= MAX_HINT_CHARS,
              f'{where}: "hint" must be an object of at most {MAX_HINT_CHARS} characters.')
        need(all(x["seq"] != seq for x in out), f"{where}: a second hint for move {seq}.")
        out.append({"seq": seq, "seat": seat, "hint": hint})
    return out
def _is_table_code(code: str) -> bool:
    return (len(code) == keys.CODE_LENGTH and keys.normalise_code(code) == code
            and all(ch in keys.CODE_ALPHABET for ch in code))

