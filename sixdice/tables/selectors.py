"""Reads for pages and the live connection: what each role at a table is shown.

A table frame (:func:`table_frame`) is what everyone at a table shares; it is
computed once per table change and each connection turns it into its own
``snapshot`` with :func:`for_connection` (its role and its seat's view), with
no further query.
"""

from __future__ import annotations

import json
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.urls import reverse

from sixdice.gamekit.engine import get_engine

from . import i18n, presence
from .models import Event, Game, Seat, Table


def event_payload(event: Event) -> dict[str, Any]:
    payload = {
        "seq": event.seq,
        "actor": event.actor,
        "action": event.action,
        "text": event.text,
        "notation": event.notation,  # each connection renders the line in its own language
        "at": event.created_at.isoformat() if event.created_at else None,
    }
    if event.stand_in:  # the app played it for a seat whose time ran out (sixdice/tables/timers.py)
        payload["stand_in"] = event.stand_in
    return payload


def table_info(table: Table, seats: Sequence[Seat] | None = None) -> dict[str, Any]:
    engine = get_engine(table.game)
    if seats is None:
        seats = list(table.seats.order_by("position"))
    return {
        "code": table.code,
        "game": table.game,
        "label": engine.label,
        "status": table.status,
        "paused": table.paused,
        "version": table.version,
        "capacity": table.capacity,
        "min_players": engine.min_players,
        "options": table.options,
        "join_url": reverse("tables:table", args=[table.code]),
        "seats": [
            {"position": seat.position, "name": seat.name, "bot": seat.is_bot, "strength": seat.bot_strength, "vacant": not (seat.secret_hash or seat.is_bot)}
            for seat in seats
        ],
    }


def current_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def recent_events(game: Game, limit: int = 40) -> list[Event]:
    return list(reversed(game.events.order_by("-seq")[:limit]))


def events_since(game: Game, since: int) -> list[Event] | None:
    """Events after ``since``; ``None`` when the client is too far behind (send a snapshot)."""
    if since < 0 or since > game.seq:
        return None
    if game.seq - since > settings.SIXDICE_RESYNC_MAX_EVENTS:
        return None
    return list(game.events.filter(seq__gt=since).order_by("seq"))


def standings(table: Table, seats: Sequence[Seat] | None = None) -> list[dict[str, Any]]:
    """Per seat over every finished game at the table: wins, times last, and places."""
    if seats is None:
        seats = list(table.seats.order_by("position"))
    rows: dict[int, dict[str, Any]] = {
        s.position: {"position": s.position, "name": s.name, "wins": 0, "lost": 0, "places": [0] * len(seats)}
        for s in seats
    }
    finished = Game.objects.filter(table_id=table.pk, status=Game.Status.FINISHED)
    for winners, places, loser in finished.values_list("winners", "places", "loser"):
        for seat in winners or []:
            if seat in rows:
                rows[seat]["wins"] += 1
        for place, seat in enumerate(places or []):
            if seat in rows and place < len(seats):
                rows[seat]["places"][place] += 1
        if loser in rows:
            rows[loser]["lost"] += 1
    return [rows[s.position] for s in seats]


# ------------------------------------------------------------------ frames for the live connection


def table_frame(table_id: int, *, log_size: int = 40) -> dict[str, Any]:
    """What everyone at the table shares, in six queries: computed once per table change.

    ``game`` carries the engine and the full ``state``: each connection
    derives its own seat's ``view`` from it (:func:`for_connection`).
    """
    from . import timers  # the turn timer (issue 14); it reads through this module's neighbours

    table = Table.objects.select_related("turn_timer").get(pk=table_id)
    seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
    game = current_game(table)
    log = [] if game is None else recent_events(game, log_size)
    shared: dict[str, Any] | None = None if game is None else {
        "id": game.pk,
        "number": game.number,
        "seq": game.seq,
        "status": game.status,
        "players": game.players,
        "started_at": game.started_at.isoformat(),
        "log": [event_payload(e) for e in log],
        "engine": game.engine,
        "state": game.state,
    }
    return {
        "table": table_info(table, seats),
        "presence": presence.current(table_id),
        "standings": standings(table, seats),
        "game": shared,
        "timer": timers.frame_part(table, game, seats, log[-1].created_at if log else None),
    }


def role(seat: int | None, host: bool) -> str:
    return "seat" if seat is not None else "host" if host else "spectator"


def for_connection(frame: dict[str, Any], *, seat: int | None, host: bool) -> dict[str, Any]:
    """The snapshot fields for one connection, from a table frame: its role and its seat's view."""
    game = frame["game"]
    if game is not None:
        shown = {key: value for key, value in game.items() if key not in {"engine", "state"}}
        shown["view"] = get_engine(game["engine"]).view(game["state"], seat)
        game = shown
    return {"role": role(seat, host), "seat": seat, "host": host, **frame, "game": game}


def snapshot(table_id: int, *, seat: int | None, host: bool) -> dict[str, Any]:
    return for_connection(table_frame(table_id), seat=seat, host=host)


def welcome(table_id: int, *, seat: int | None, host: bool, game_id: int | None, since: int | None) -> dict[str, Any]:
    """A full snapshot; a reconnecting client that says where it was also gets the events it missed."""
    frame: dict[str, Any] = {"type": "welcome", **snapshot(table_id, seat=seat, host=host)}
    game = frame["game"]
    if game_id is not None and since is not None and game and game["id"] == game_id and since <= game["seq"]:
        # Up to the snapshot's own seq: an event committed since then comes as an update, and
        # sending it here too would show it twice.
        missed = Event.objects.filter(game_id=game_id, seq__gt=since, seq__lte=game["seq"]).order_by("seq")
        frame["missed"] = [event_payload(e) for e in missed[: settings.SIXDICE_RESYNC_MAX_EVENTS]]
    return frame


def update_frame(
    engine: str, game: int, number: int, seq: int, status: str, events: list[dict[str, Any]],
    state: dict[str, Any], seat: int | None, version: int,
) -> dict[str, Any]:
    """An ``update`` frame: new events, this seat's view of the state after them, the table's version."""
    return {
        "type": "update", "game": game, "number": number, "seq": seq, "status": status,
        "events": events, "view": get_engine(engine).view(state, seat), "version": version,
    }


def events_message(
    *, engine: str, game: int, number: int, seq: int, status: str, events: list[dict[str, Any]],
    state: dict[str, Any], version: int,
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
        )
        self.views: dict[int | None, str] = {}
        self.events: dict[str, str] = {}

    def text(self, seat: int | None, language: str) -> str:
        view = self.views.get(seat)
        if view is None:
            if self._state is None:
                self._state = json.loads(self._state_json)
            view = self.views[seat] = json.dumps(self.engine.view(self._state, seat), separators=(",", ":"))
        events = self.events.get(language)
        if events is None:
            if self._events is None:
                self._events = json.loads(self._events_json)
            localized = i18n.localize_events(self._events, language)
            events = self.events[language] = json.dumps(localized, separators=(",", ":"))
        return f'{self.head},"events":{events},"view":{view}}}'


_PREPARED: OrderedDict[str, PreparedUpdate] = OrderedDict()
_PREPARED_KEEP = 256  # moves whose frames are kept: far more than are in flight at once in one process


def update_text(message: dict[str, Any], seat: int | None, language: str) -> str:
    """The ``update`` frame of a ``table.events`` message for one connection, as JSON text.

    The first connection of this process that receives the move prepares it; the others reuse it.
    """
    key = message["key"]
    prepared = _PREPARED.get(key)
    if prepared is None:
        prepared = _PREPARED[key] = PreparedUpdate(message)
        while len(_PREPARED) > _PREPARED_KEEP:
            _PREPARED.popitem(last=False)
    return prepared.text(seat, language)


def resync(table_id: int, *, seat: int | None, host: bool, game_id: int | None, since: int) -> dict[str, Any]:
    """The events after ``since`` as an ``update`` when that is possible, else a full ``snapshot``."""
    game = Game.objects.filter(table_id=table_id).order_by("-number").select_related("table").first()
    selected = events_since(game, since) if game is not None and game_id == game.pk else None
    if game is None or selected is None:
        return {"type": "snapshot", **snapshot(table_id, seat=seat, host=host)}
    events = [event_payload(e) for e in selected]
    return update_frame(
        game.engine, game.pk, game.number, game.seq, game.status, events, game.state, seat, game.table.version
    )
