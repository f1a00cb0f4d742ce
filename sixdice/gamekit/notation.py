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


class Plural(str):
    """A message with a plural form (:func:`ngettext`): the English form for its count, with both forms kept.

    A :class:`Refusal` (or a ``GameError``) whose ``msgid`` is one is shown in
    each reader's language with the form its count asks for (Ukrainian has
    three), never as "group(s)".
    """

    singular: str
    plural: str
    number: int

    def __new__(cls, singular: str, plural: str, number: int) -> Plural:
        made = super().__new__(cls, _english_plural(singular, plural, number))
        made.singular, made.plural, made.number = singular, plural, number
        return made


def ngettext(singular: str, plural: str, count: int) -> Plural:
    """The kit's pure ``ngettext``: the English form for ``count`` now, both forms kept for translation.

    ``makemessages`` extracts the pair as it does Django's ``ngettext``; the
    tables render it with the catalogue's plural forms (:func:`render_parts`).
    """
    return Plural(singular, plural, count)


def plural_part(msg: Plural, **args: Any) -> Part:
    """A part whose message has a plural form (:func:`ngettext`), rendered for its count in each language."""
    return {"msg": msg.singular, "plural": msg.plural, "count": msg.number, "args": args}


def as_part(msg: str, params: Mapping[str, Any] | None = None) -> Part:
    """A message (maybe a :class:`Plural`) and its arguments as one part."""
    if isinstance(msg, Plural):
        return plural_part(msg, **dict(params or {}))
    return {"msg": msg, "args": dict(params or {})}


def moved_by(p: Part, seat: int, kind: str, bare: str, *, choice: bool = True) -> Part:
    """``p`` is ``seat``'s move; the tables use the mark to say who decided it, and whose move an offer names.

    ``kind``: the game's word for the move (a key its page translates); ``bare``: the same message
    without the mover's name, with ``p``'s arguments, for "The host chose for Ivo: …";
    ``choice``: a decision (not values drawn or typed in), which the host or the app may make for the seat.
    """
    return {**p, "mover": {"seat": seat, "kind": kind, "bare": bare, "choice": choice}}


def mover(parts: Iterable[Mapping[str, Any]] | None) -> Mapping[str, Any] | None:
    """The mark of the first part that is someone's move (:func:`moved_by`), or ``None``."""
    for p in parts or ():
        found = p.get("mover") if isinstance(p, Mapping) else None
        if isinstance(found, Mapping) and isinstance(found.get("seat"), int):
            return found
    return None


def announced(p: Part) -> Part:
    """``p`` is news every phone and the table screen show prominently, once (the log line keeps it too)."""
    return {**p, "announce": True}


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


def render_parts(
    parts: Iterable[Mapping[str, Any]], translate: Callable[[str], str] | None = None,
    ntranslate: Callable[[str, str, int], str] | None = None,
) -> str:
    """The parts as one line; ``translate`` (e.g. ``gettext``) is applied to every message, ``ntranslate``
    (``ngettext``) to a message with a plural form (:func:`plural_part`).

    A translation whose placeholders do not fit the arguments falls back to
    the English message, so a slip in a catalogue never breaks a log.
    """
    tr = translate or _same
    return SEPARATOR.join(_render_one(p, tr, ntranslate) for p in parts)


def _same(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


# Module functions, not closures of render_parts: two closures calling each other form a reference cycle,
# which left thousands of objects a second for the garbage collector on a busy server (docs/performance.md).
def _render_one(p: Mapping[str, Any], tr: Callable[[str], str],
                ntr: Callable[[str, str, int], str] | None = None) -> str:
    args = {key: _render_arg(value, tr, ntr) for key, value in (p.get("args") or {}).items()}
    english = str(p["msg"])
    if "plural" in p:  # a count of things: the form the count asks for, in the reader's language
        count = int(p.get("count") or 0)
        english = _english_plural(english, str(p["plural"]), count)
        message = (ntr or _english_plural)(str(p["msg"]), str(p["plural"]), count)
    else:
        message = tr(english)
    if not args:
        return message
    try:
        return message % args
    except (KeyError, ValueError, TypeError):
        log.warning("translation of %r does not fit its arguments", english)
        return english % args


def _render_arg(value: Any, tr: Callable[[str], str], ntr: Callable[[str, str, int], str] | None = None) -> str:
    if isinstance(value, Mapping) and "msg" in value:
        return _render_one(value, tr, ntr)
    if isinstance(value, list):
        return ", ".join(_render_arg(v, tr, ntr) for v in value)
    return str(value)


MINUS = "\u2212"
"""The minus sign of a signed number (not the hyphen): "−3"."""


def signed(value: int | float) -> str:
    """A number with its sign, as players read a die or a hand's value: ``+4``, ``−3`` (a real minus sign), ``0``."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def english(msg: str, params: Mapping[str, Any] | None = None) -> str:
    """A message with its arguments, untranslated (an argument may be a part; ``msg`` may be a :class:`Plural`)."""
    if not params:
        return str(msg)
    return render_parts([as_part(msg, params)])


class Refusal(ValueError):
    """A refusal of the rules, ready to be translated: an English format string and its arguments.

    ``msgid`` is the format string (marked with :func:`gettext_noop`),
    ``params`` its arguments (names, dice, numbers: never translated; an
    argument may be a :func:`part`, which is); a count of things is a
    :class:`Plural` ``msgid`` (:func:`ngettext`); ``str()`` is the English
    sentence.  The engines pass ``msgid`` and ``params`` on to the
    ``GameError`` they raise, and the tables render it in each reader's
    language.
    """

    def __init__(self, msgid: str, params: Mapping[str, Any] | None = None) -> None:
        self.msgid = msgid
        self.params = dict(params or {})
        super().__init__(english(msgid, self.params))
