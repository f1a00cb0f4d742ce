"""Frames from a client, parsed and checked before anything else looks at them (``docs/protocol.md``).

JSON can spell strings that have no UTF-8 form: ``"\\ud800"`` parses to a
string holding a lone surrogate.  A WebSocket text frame must be UTF-8, and
the server (daphne) encodes it when it sends it; a reply echoing such a value
raised there, and the socket died with 1011.  So a client value that is
echoed is checked (:func:`valid_ref`; ``dedupe.clean_action_id`` for the
``action_id`` kept in the database), every message quoting a client value
quotes its ``repr`` (which escapes surrogates), and
:func:`sixdice.tables.wire.outgoing.dumps` makes sure of the rest.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from sixdice.tables.core.errors import BadField, BadJson, TooLarge

REF_MAX = 64
"""Characters of a frame's ``id`` at most (of a number, its digits)."""


def encodable(text: str) -> bool:
    """Whether ``text`` has a UTF-8 form (holds no lone surrogate)."""
    if text.isascii():  # the usual case, and a check that costs nothing
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def valid_ref(ref: Any) -> bool:
    """Whether a frame's ``id`` may be echoed as ``ref``: a string of UTF-8 text or a whole number, 64 characters at most."""
    if isinstance(ref, bool) or not isinstance(ref, str | int):
        return False
    if isinstance(ref, int):
        return len(str(ref)) <= REF_MAX
    return len(ref) <= REF_MAX and encodable(ref)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    """The frame as a JSON object with a string ``type`` and a usable ``id``; else the refusal."""
    raw = text_data if text_data is not None else bytes_data
    if raw is None:
        raise BadJson(_("Empty frame."))
    if len(raw.encode() if isinstance(raw, str) else raw) > settings.SIXDICE_WS_MAX_FRAME:
        raise TooLarge(_("Frame is larger than 64 KiB."))
    if bytes_data is not None:
        raise BadJson(_("Send text frames holding JSON."))
    try:
        msg = json.loads(raw, parse_constant=_no_constant)  # NaN, Infinity: not JSON
    except (ValueError, RecursionError):
        raise BadJson(_("That frame is not valid JSON.")) from None
    if not isinstance(msg, dict):
        raise BadJson(_("A frame must be a JSON object."))
    if not isinstance(msg.get("type"), str):
        raise BadField(_("Field %(name)s is missing or not a string.") % {"name": "'type'"})
    ref = msg.get("id")
    if ref is not None and not valid_ref(ref):  # echoed as ref: a short string of UTF-8 text or a number
        raise BadField(_("Field %(name)s must be a string or a number.") % {"name": "'id'"})
    return msg


def whole_number(value: Any, name: str) -> int:
    """``value``, sent as field ``name``, if it is a whole number (JSON's ``true`` is not); else :class:`BadField`.

    The one check of a whole number from a client: a frame's field, a host
    command's, the ``seq`` a sender saw, an undo's ``to``.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadField(_("Field %(name)s must be a whole number.") % {"name": repr(name)})
    return value


def int_field(msg: Mapping[str, Any], name: str) -> int:
    """The frame's (or a command's) field ``name``, a whole number (:func:`whole_number`)."""
    return whole_number(msg.get(name), name)


def bool_field(msg: Mapping[str, Any], name: str, default: bool = False) -> bool:
    value = msg.get(name, default)
    if not isinstance(value, bool):
        raise BadField(_("Field %(name)s must be true or false.") % {"name": repr(name)})
    return value


def optional_int(msg: Mapping[str, Any], name: str) -> int | None:
    return None if msg.get(name) is None else int_field(msg, name)


def where_it_was(query: dict[str, list[str]]) -> tuple[int | None, int | None]:
    """A reconnecting client's ``?game=&since=``: the game and seq it last saw (both, or neither)."""
    try:
        return int(query["game"][0]), int(query["since"][0])
    except (KeyError, ValueError):
        return None, None
