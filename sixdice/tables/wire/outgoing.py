"""The wire format of the live connection: events, updates and the channel message of a move.

The frames are in ``docs/protocol.md``.  A move's ``table.events`` message
is serialized once by its writer; each process that receives it prepares the
``update`` text once per seat view and language (:class:`PreparedUpdate`).
"""

from __future__ import annotations

import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from sixdice.gamekit import notation
from sixdice.gamekit.engine import GameEngine, get_engine
from sixdice.gamekit.replay import STAND_IN_TIMEOUT
from sixdice.tables.core import i18n
from sixdice.tables.models import Event
from sixdice.tables.wire import offers

log = logging.getLogger(__name__)


def dumps(payload: dict[str, Any]) -> str:
    """A frame's text: compact JSON, UTF-8 as it is (no escapes for non-ASCII).

    A string no check caught that has no UTF-8 form is sent escaped as JSON
    allows (``\\ud800``), so the frame still encodes; logged, as a value
    that should have been refused.
    """
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        log.warning("a %s frame held text with no UTF-8 form; sent escaped", payload.get("type"))
        return json.dumps(payload, separators=(",", ":"))
    return text

def event_payload(event: Event) -> dict[str, Any]:
    payload = {
        "seq": event.seq,
        "actor": event.actor,
        "action": event.action,
        "text": event.text,
        "notation": event.notation,  # each connection renders the line in its own language
        "at": event.created_at.isoformat() if event.created_at else None,
    }
    if event.stand_in == STAND_IN_TIMEOUT:  # the app played it for a seat whose time ran out (policies/turn_timers.py)
        payload["stand_in"] = event.stand_in
    decided = decided_by(event.actor, event.stand_in, event.notation)
    if decided is not None:
        payload["decided"] = decided
    return payload


def decided_by(actor: str, stand_in: str, parts: Any) -> dict[str, Any] | None:
    """Who decided a seat's move when the seat did not: ``{"seat", "by": "host"|"app", "why"}``, else ``None``.

    ``why``: ``host`` (the host answered the seat's choice), ``default`` (the
    rules' own choice, e.g. automatic balancing), ``timeout`` (the seat's time
    ran out), ``away`` (the app plays the seat of a person who is away) or
    ``bot`` (a seat the app plays from the start).  Read from the line's mark
    (``sixdice.gamekit.replay.decided_for``) and the event's ``stand_in``.
    """
    mark = notation.mover(parts if isinstance(parts, list) else None)
    if mark is not None and mark.get("by") in ("host", "app"):
        return {"seat": mark["seat"], "by": mark["by"], "why": mark.get("why", mark["by"])}
    if stand_in and actor.isdigit():  # a bot's own seat, or a stand-in whose line has no mark (an old game)
        return {"seat": int(actor), "by": "app", "why": stand_in}
    return None


def seat_view(engine: GameEngine, state: Mapping[str, Any], seat: int | None, *, host: bool = False) -> dict[str, Any]:
    """The view a connection is sent: its seat's; a host who holds a seat too also gets what the host is offered.

    The host answers for another seat (a grouping, a typed roll): the phone of
    a seated host shows the same choices as the host console of a host
    without a seat (``own(None)``), and its own seat's as any player's.
    """
    shared, own = engine.view_parts(state)
    if host and seat is not None:
        return {**shared, **own(None), **own(seat)}
    return {**shared, **own(seat)}


def update_frame(
    engine: str, game: int, number: int, seq: int, status: str, events: list[dict[str, Any]],
    state: dict[str, Any], seat: int | None, version: int, *, host: bool = False,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An ``update`` frame: new events, this seat's view of the state after them, the table's version.

    ``options``: the game's, when the caller has them (the typed-in rolls the host may correct)."""
    return {
        "type": "update", "game": game, "number": number, "seq": seq, "status": status,
        "events": events, "view": seat_view(get_engine(engine), state, seat, host=host), "version": version,
        **offers.update_part(get_engine(engine), events, status=status, state=state, options=options),
    }


def events_message(
    *, engine: str, game: int, number: int, seq: int, status: str, events: list[dict[str, Any]],
    state: dict[str, Any], version: int, options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The channel message of new events: prepared strings, so the layer copies it cheaply per seat.

    Serialized once, by the writer; every process that receives it parses the
    state once (:class:`PreparedUpdate`), not once per seat.
    """
    return {
        # key: names this message in every process's cache (a game id and seq may recur in tests' databases)
        "type": "table.events", "key": f"{game}:{seq}:{secrets.token_hex(6)}", "engine": engine, "game": game, "number": number,
        "seq": seq, "status": status, "version": version,
        "events": json.dumps(events, separators=(",", ":")), "state": json.dumps(state, separators=(",", ":")),
        "extra": json.dumps(offers.update_part(get_engine(engine), events, status=status, state=state, options=options),
                            separators=(",", ":"))[1:-1],
    }


class PreparedUpdate:
    """The ``update`` frames of one move, in one process: one view per distinct seat, one events list
    per language, each serialized once; a connection gets ready text.

    The frame holds the same fields as :func:`update_frame` (spectators and the host share the view of
    seat ``None``).
    """

    def __init__(self, message: dict[str, Any]) -> None:
        self.engine = get_engine(message["engine"])
        self._state_json: str = message["state"]
        self._events_json: str = message["events"]
        self._state: dict[str, Any] | None = None
        self._events: list[dict[str, Any]] | None = None
        self.head = (
            f'{{"type":"update","game":{int(message["game"])},"number":{int(message["number"])},'
            f'"seq":{int(message["seq"])},"status":{json.dumps(message["status"])},"version":{int(message["version"])}'
        ) + ("," + message["extra"] if message.get("extra") else "")  # take_back, undone_from (offers)
        self.views: dict[tuple[int | None, bool], str] = {}
        self.events: dict[str, str] = {}
        self._shared: str | None = None  # the part of the view every seat shares, as JSON
        self._own: Callable[[int | None], dict[str, Any]] | None = None

    def _view(self, seat: int | None, host: bool = False) -> str:
        """``seat``'s view as JSON: the shared part serialized once per move, the seat's own part joined to it.

        ``host``: a host who holds ``seat`` (:func:`seat_view`).
        """
        if self._own is None:
            self._state = json.loads(self._state_json)
            shared, self._own = self.engine.view_parts(self._state)
            self._shared = json.dumps(shared, separators=(",", ":"))
        assert self._shared is not None
        part = {**self._own(None), **self._own(seat)} if host and seat is not None else self._own(seat)
        own = json.dumps(part, separators=(",", ":"))
        if own == "{}":
            return self._shared
        if self._shared == "{}":
            return own
        return f"{self._shared[:-1]},{own[1:]}"

    def text(self, seat: int | None, language: str, host: bool = False) -> str:
        key = (seat, host and seat is not None)
        view = self.views.get(key)
        if view is None:
            view = self.views[key] = self._view(*key)
        events = self.events.get(language)
        if events is None:
            if self._events is None:
                self._events = json.loads(self._events_json)
            localized = i18n.localize_events(self._events, language)
            events = self.events[language] = json.dumps(localized, separators=(",", ":"))
        return f'{self.head},"events":{events},"view":{view}}}'


_PREPARED: OrderedDict[str, PreparedUpdate] = OrderedDict()
_PREPARED_KEEP = 256  # moves whose frames are kept: far more than are in flight at once in one process


def update_text(message: dict[str, Any], seat: int | None, language: str, host: bool = False) -> str:
    """The ``update`` frame of a ``table.events`` message for one connection, as JSON text.

    The first connection of this process that receives the move prepares it; the others reuse it.
    """
    key = message["key"]
    prepared = _PREPARED.get(key)
    if prepared is None:
        prepared = _PREPARED[key] = PreparedUpdate(message)
        while len(_PREPARED) > _PREPARED_KEEP:
            _PREPARED.popitem(last=False)
    return prepared.text(seat, language, host)
