"""The exact shape of each action a game accepts: checked before anything else looks at it.

A game declares, per action ``type``, the fields that action may carry and
what each holds (:class:`Field`).  :func:`clean_action` checks an incoming
action against that declaration and builds a new dict from the declared
fields only: an unknown field, a value of the wrong kind, a number out of
range or a list too long is refused with :class:`BadAction` (code
``bad_field``), so what the tables store and broadcast is always the
validated action, never the frame as it came.

:func:`check_json` bounds any JSON value (depth, size, finite numbers, valid
Unicode) for games that declare no schema.  Pure Python: no Django, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import GameError
from .notation import gettext_noop

INT_LIMIT = 10_000
"""Every whole number in an action lies in ``-INT_LIMIT..INT_LIMIT``."""
LIST_LIMIT = 512
"""No list in an action holds more items."""
JSON_DEPTH = 8
"""Deepest nesting :func:`check_json` lets through (objects and lists)."""
JSON_ITEMS = 2_000
"""Most values (all levels together) :func:`check_json` lets through."""
STRING_LIMIT = 200
"""Longest string (in characters) :func:`check_json` lets through."""


class BadAction(GameError):
    """The action does not have the shape its type declares."""

    code = "bad_field"


@dataclass(frozen=True)
class Field:
    """One field of an action.

    ``kind``: ``"int"`` (a whole number), ``"ints"`` (a list of whole
    numbers) or ``"int_lists"`` (a list of lists of whole numbers).
    ``required``: the action must carry it.  ``nullable``: ``null`` is
    accepted (and kept).  ``low``/``high`` bound every number in it.
    """

    kind: str
    required: bool = True
    nullable: bool = False
    low: int = -INT_LIMIT
    high: int = INT_LIMIT


Schema = Mapping[str, Mapping[str, Field]]
"""Action type -> field name -> :class:`Field` (``"type"`` itself is implied)."""


def _bad(message: str, **params: Any) -> BadAction:
    return BadAction(message, params=params)


def _int(value: Any, name: str, spec: Field) -> int:
    if type(value) is not int:
        raise _bad(gettext_noop("Field %(name)s of the action must be a whole number."), name=repr(name))
    if not spec.low <= value <= spec.high:
        raise _bad(
            gettext_noop("Field %(name)s of the action must lie between %(low)s and %(high)s."),
            name=repr(name), low=spec.low, high=spec.high,
        )
    return value


def _ints(value: Any, name: str, spec: Field) -> list[int]:
    if not isinstance(value, list):
        raise _bad(gettext_noop("Field %(name)s of the action must be a list of whole numbers."), name=repr(name))
    if len(value) > LIST_LIMIT:
        raise _bad(gettext_noop("Field %(name)s of the action is too long."), name=repr(name))
    return [_int(v, name, spec) for v in value]


def _value(value: Any, name: str, spec: Field) -> Any:
    if value is None and spec.nullable:
        return None
    if spec.kind == "int":
        return _int(value, name, spec)
    if spec.kind == "ints":
        return _ints(value, name, spec)
    if spec.kind == "int_lists":
        if not isinstance(value, list):
            raise _bad(gettext_noop("Field %(name)s of the action must be a list of lists of whole numbers."), name=repr(name))
        if len(value) > LIST_LIMIT:
            raise _bad(gettext_noop("Field %(name)s of the action is too long."), name=repr(name))
        return [_ints(v, name, spec) for v in value]
    raise ValueError(f"unknown field kind {spec.kind!r}")  # a bug in the game's declaration


def clean_action(action: Any, schema: Schema) -> dict[str, Any]:
    """The action rebuilt from its declared fields only; :class:`BadAction` for anything else."""
    if not isinstance(action, Mapping):
        raise _bad(gettext_noop('An action is a JSON object with a "type".'))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in schema:
        shown = repr(kind)[:40] if isinstance(kind, str) else "?"
        raise _bad(
            gettext_noop("Unknown action type %(kind)s: use %(types)s."), kind=shown, types=", ".join(sorted(schema))
        )
    fields = schema[kind]
    extra = [key for key in action if key != "type" and key not in fields]
    if extra:
        shown = repr(extra[0])[:40] if isinstance(extra[0], str) else "?"
        raise _bad(gettext_noop("An action %(kind)s has no field %(name)s."), kind=repr(kind), name=shown)
    out: dict[str, Any] = {"type": kind}
    for name, spec in fields.items():
        if name not in action:
            if spec.required:
                raise _bad(gettext_noop("An action %(kind)s needs the field %(name)s."), kind=repr(kind), name=repr(name))
            continue
        out[name] = _value(action[name], name, spec)
    return out


def check_json(value: Any) -> Any:
    """``value`` when it is small, shallow JSON with finite numbers and valid Unicode; else :class:`BadAction`."""
    count = 0

    def walk(v: Any, depth: int) -> None:
        nonlocal count
        count += 1
        if count > JSON_ITEMS or depth > JSON_DEPTH:
            raise _bad(gettext_noop("The action is too large or too deeply nested."))
        if v is None or isinstance(v, bool):
            return
        if isinstance(v, int):
            if abs(v) > 2**53:
                raise _bad(gettext_noop("A number in the action is too large."))
            return
        if isinstance(v, float):
            if not math.isfinite(v):
                raise _bad(gettext_noop("A number in the action is not finite."))
            return
        if isinstance(v, str):
            _text(v)
            return
        if isinstance(v, list):
            for item in v:
                walk(item, depth + 1)
            return
        if isinstance(v, Mapping):
            for key, item in v.items():
                if not isinstance(key, str):
                    raise _bad(gettext_noop("The action is not JSON."))
                _text(key)
                walk(item, depth + 1)
            return
        raise _bad(gettext_noop("The action is not JSON."))

    walk(value, 0)
    return value


def _text(s: str) -> None:
    if len(s) > STRING_LIMIT:
        raise _bad(gettext_noop("A text in the action is too long."))
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise _bad(gettext_noop("A text in the action is not valid Unicode.")) from None
