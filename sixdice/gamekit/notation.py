"""Log lines as structured parts, shared by both engines and the live tables.

Pure Python (no Django): the rules engines build their notation with it and
the tables render it in each reader's language.  A part is
``{"msg": <English format string>, "args": {...}}``; names and die values are
arguments and are never translated, and an argument may itself be a part.
The parts of one line are joined with :data:`SEPARATOR`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

Part = dict[str, Any]
SEPARATOR = " · "

log = logging.getLogger(__name__)


def gettext_noop(message: str) -> str:
    """Marks an English format string for translation (``makemessages`` extracts it)."""
    return message


def part(msg: str, **args: Any) -> Part:
    """One part of a log line: an English format string and its arguments."""
    return {"msg": msg, "args": args}


def ruled(p: Part, rule: str) -> Part:
    """``p`` carrying the anchor of the rule it applies (a section of the game's rules page, e.g. ``"draw"``)."""
    return {**p, "rule": rule}


def personal(p: Part, seat: int, msg: str, **args: Any) -> Part:
    """``p`` with the same news worded for ``seat``'s own phone (``"Your hand was regrouped…"``)."""
    yours = dict(p.get("yours") or {})
    yours[str(seat)] = {"msg": msg, "args": args}
    return {**p, "yours": yours}


def personal_parts(parts: Iterable[Mapping[str, Any]] | None) -> dict[str, list[Part]]:
    """For each seat (as text) that a line speaks to, the parts worded for that seat's own phone."""
    out: dict[str, list[Part]] = {}
    for p in parts or ():
        yours = p.get("yours") if isinstance(p, Mapping) else None
        if isinstance(yours, Mapping):
            for seat, q in yours.items():
                if isinstance(q, Mapping) and "msg" in q:
                    out.setdefault(str(seat), []).append(dict(q))
    return out


def first_rule(parts: Iterable[Mapping[str, Any]] | None) -> str:
    """The anchor of the first rule a line's parts apply, or ``""`` (the line links to it)."""
    for p in parts or ():
        if isinstance(p, Mapping) and isinstance(p.get("rule"), str) and p["rule"]:
            return str(p["rule"])
    return ""


def render_parts(parts: Iterable[Mapping[str, Any]], translate: Callable[[str], str] | None = None) -> str:
    """The parts as one line; ``translate`` (e.g. ``gettext``) is applied to every message.

    A translation whose placeholders do not fit the arguments falls back to
    the English message, so a slip in a catalogue never breaks a log.
    """
    tr = translate or _same
    return SEPARATOR.join(_render_one(p, tr) for p in parts)


def _same(message: str) -> str:
    return message


# Module functions, not closures of render_parts: two closures calling each other form a reference cycle,
# which left thousands of objects a second for the garbage collector on a busy server (docs/performance.md).
def _render_one(p: Mapping[str, Any], tr: Callable[[str], str]) -> str:
    args = {key: _render_arg(value, tr) for key, value in (p.get("args") or {}).items()}
    english = str(p["msg"])
    message = tr(english)
    if not args:
        return message
    try:
        return message % args
    except (KeyError, ValueError, TypeError):
        log.warning("translation of %r does not fit its arguments", english)
        return english % args


def _render_arg(value: Any, tr: Callable[[str], str]) -> str:
    if isinstance(value, Mapping) and "msg" in value:
        return _render_one(value, tr)
    if isinstance(value, list):
        return ", ".join(_render_arg(v, tr) for v in value)
    return str(value)


def english(msg: str, params: Mapping[str, Any] | None = None) -> str:
    """A message with its arguments, untranslated (an argument may be a part)."""
    if not params:
        return msg
    return render_parts([{"msg": msg, "args": dict(params)}])


class Refusal(ValueError):
    """A refusal of the rules, ready to be translated: an English format string and its arguments.

    ``msgid`` is the format string (marked with :func:`gettext_noop`),
    ``params`` its arguments (names, dice, numbers: never translated; an
    argument may be a :func:`part`, which is); ``str()`` is the English
    sentence.  The engines pass ``msgid`` and ``params`` on to the
    ``GameError`` they raise, and the tables render it in each reader's
    language.
    """

    def __init__(self, msgid: str, params: Mapping[str, Any] | None = None) -> None:
        self.msgid = msgid
        self.params = dict(params or {})
        super().__init__(english(msgid, self.params))
