"""Client values that go back into replies, and the text of the frames a table socket sends.

JSON can spell strings that have no UTF-8 form: ``"\\ud800"`` parses to a
string holding a lone surrogate.  A WebSocket text frame must be UTF-8, and
the server (daphne) encodes it when it sends it; a reply echoing such a value
raised there, and the socket died with 1011.  So a client value that is
echoed is checked (:func:`valid_ref`; ``dedupe.clean_action_id`` for the
``action_id`` kept in the database), every message quoting a client value
quotes its ``repr`` (which escapes surrogates), and :func:`dumps` makes sure
of the rest.
"""

from __future__ import annotations

import json
import logging
from typing import Any

log = logging.getLogger(__name__)

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


def dumps(payload: dict[str, Any]) -> str:
    """A frame's text: compact JSON, UTF-8 as it is (no escapes for non-ASCII).

    A string no check caught that has no UTF-8 form is sent escaped as JSON
    allows (``\\ud800``), so the frame still encodes; logged, as a value
    that should have been refused.
    """
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    if encodable(text):
        return text
    log.warning("a %s frame held text with no UTF-8 form; sent escaped", payload.get("type"))
    return json.dumps(payload, separators=(",", ":"))
