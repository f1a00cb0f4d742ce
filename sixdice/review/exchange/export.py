"""A game as one JSON document, signed with this install's key (``docs/export-format.md``)."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

from sixdice.tables.models import Game

from ..hints import export_hints
from ..models import note_of

FORMAT = "sixdice-game"
VERSION = 5
"""The version this app writes.  It goes up whenever the document or a game's options change shape
(or the wording of an event's ``text``); ``checks.UPGRADES`` then gets the step from the version before."""

Document = dict[str, Any]


def iso(value: datetime | None) -> str | None:
    """A time as the document writes it: ISO 8601 with its zone, or ``None``."""
    return value.isoformat() if value is not None else None


def normal(value: Any) -> Any:
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
            "started_at": iso(game.started_at),
            "finished_at": iso(game.finished_at),
        },
        "table": {"code": table.code, "options": table.options, "host_name": table.host_name,
                  "host_seat": table.host_seat},  # who hosted (version 4): the review desk's "Host"
        "players": [
            {"seat": position, "name": name, "bot": bool(bots.get(position, False))}
            for position, name in enumerate(game.players)
        ],
        "initial_state": game.initial_state,
        "events": [
            {"seq": e.seq, "actor": e.actor, "action": e.action, "text": e.text, "at": iso(e.created_at),
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
    return json.dumps(normal(body), sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


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

