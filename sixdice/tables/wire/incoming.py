"""Frames from a client, parsed and checked once, here, into one typed value each (``docs/protocol.md``).

:func:`parse` turns a WebSocket frame into one of the :data:`Frame` types
(:class:`ActionFrame`, :class:`HostFrame`, ...), every field checked and of
its type; whoever handles it after (the consumer, the host commands, the
checked path) reads typed fields and checks none again.  :data:`FRAMES` and
:data:`HOST_COMMANDS` are the protocol's tables, keyed by its names: the
consumer (``live/consumers.py``) and the host commands (``live/host_commands.py``)
dispatch from tables with the same keys, and ``tests/tables/test_protocol_tables.py``
checks all of them against ``docs/protocol.md``.

A frame refused as it came raises :class:`BadFrame`: the refusal, and the
``id`` it echoes as ``ref`` once that was found usable.  A host command's own
fields are parsed with the frame too, but their refusal waits in the
:class:`HostFrame` until the host commands have checked that the sender is
the host (``not_host`` first: a spectator learns nothing from the fields).

JSON can spell strings that have no UTF-8 form: ``"\\ud800"`` parses to a
string holding a lone surrogate.  A WebSocket text frame must be UTF-8, and
the server (daphne) encodes it when it sends it; a reply echoing such a value
raised there, and the socket died with 1011.  So a client value that is
echoed or stored is checked (:func:`valid_ref`, :func:`clean_action_id`),
every message quoting a client value quotes its ``repr`` (which escapes
surrogates), and :func:`sixdice.tables.wire.outgoing.dumps` makes sure of the
rest.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from django.conf import settings
from django.utils.translation import gettext as _

from sixdice.tables.core.errors import BadField, BadJson, ServiceError, TooLarge, UnknownType

REF_MAX = 64
"""Characters of a frame's ``id`` at most (of a number, its digits)."""
ACTION_ID_MAX = 64
"""Characters of an action's ``action_id`` at most."""

Ref = str | int | None
"""A frame's ``id``, echoed as ``ref`` in every direct reply."""


class BadFrame(Exception):
    """A frame refused as it came: ``refusal`` for the client, with ``ref`` (``None`` until the ``id`` was checked)."""

    def __init__(self, refusal: ServiceError, ref: Ref = None) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal
        self.ref = ref


# ---------------------------------------------------------------- one field


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


def optional_int(msg: Mapping[str, Any], name: str) -> int | None:
    return None if msg.get(name) is None else int_field(msg, name)


def bool_field(msg: Mapping[str, Any], name: str, default: bool | None = False) -> bool:
    """The field ``name``, true or false; ``default`` when it is absent (``None``: it must be sent)."""
    value = msg.get(name, default)
    if not isinstance(value, bool):
        raise BadField(_("Field %(name)s must be true or false.") % {"name": repr(name)})
    return value


def text_field(msg: Mapping[str, Any], name: str) -> str:
    """An optional string field (a bot ``strength``): ``""`` when it is absent or null."""
    value = msg.get(name)
    if value is None:
        return ""
    if not isinstance(value, str) or not encodable(value):
        raise BadField(_("Field %(name)s must be a string.") % {"name": repr(name)})
    return value


def clean_action_id(value: Any) -> str | None:
    """An action's ``action_id``: absent, or a non-empty string of at most 64 characters (UTF-8 text: it is stored)."""
    if value is None:
        return None
    if not isinstance(value, str) or not value or len(value) > ACTION_ID_MAX or not encodable(value):
        raise BadField(
            _("Field %(name)s must be a string of 1 to %(n)s characters.") % {"name": "'action_id'", "n": ACTION_ID_MAX},
        )
    return value


def where_it_was(query: dict[str, list[str]]) -> tuple[int | None, int | None]:
    """A reconnecting client's ``?game=&since=``: the game and seq it last saw (both, or neither)."""
    try:
        return int(query["game"][0]), int(query["since"][0])
    except (KeyError, ValueError):
        return None, None


# ---------------------------------------------------------------- host commands, typed


@dataclass(frozen=True, slots=True)
class Plain:
    """A host command with no fields of its own."""

    name: Literal["start", "rematch", "pause", "resume", "close"]


@dataclass(frozen=True, slots=True)
class Handover:
    position: int
    name: Literal["handover"] = "handover"


@dataclass(frozen=True, slots=True)
class SetBot:
    position: int
    on: bool
    strength: str  # "" = the game's default; checked against the game's offer by the service
    name: Literal["bot"] = "bot"


@dataclass(frozen=True, slots=True)
class AddBot:
    strength: str
    name: Literal["add_bot"] = "add_bot"


@dataclass(frozen=True, slots=True)
class Undo:
    expected_seq: int
    to: int | None
    name: Literal["undo"] = "undo"


@dataclass(frozen=True, slots=True)
class Correct:
    expected_seq: int
    seq: int
    values: list[int]
    name: Literal["correct"] = "correct"


@dataclass(frozen=True, slots=True)
class EndNow:
    expected_seq: int
    name: Literal["end"] = "end"


@dataclass(frozen=True, slots=True)
class TimerPause:
    paused: bool
    name: Literal["timer"] = "timer"


@dataclass(frozen=True, slots=True)
class Hint:
    position: int
    name: Literal["hint"] = "hint"


HostCommand = Plain | Handover | SetBot | AddBot | Undo | Correct | EndNow | TimerPause | Hint


def _values(fields: Mapping[str, Any]) -> list[int]:
    values = fields.get("values")
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise BadField(_("Field %(name)s must be a list of whole numbers.") % {"name": "'values'"})
    return values


HOST_COMMANDS: dict[str, Callable[[Mapping[str, Any]], HostCommand]] = {
    "start": lambda f: Plain("start"),
    "rematch": lambda f: Plain("rematch"),
    "pause": lambda f: Plain("pause"),
    "resume": lambda f: Plain("resume"),
    "close": lambda f: Plain("close"),
    "handover": lambda f: Handover(int_field(f, "position")),
    "bot": lambda f: SetBot(int_field(f, "position"), bool_field(f, "on", True), text_field(f, "strength")),
    "add_bot": lambda f: AddBot(text_field(f, "strength")),
    "undo": lambda f: Undo(int_field(f, "expected_seq"), optional_int(f, "to")),
    "correct": lambda f: Correct(int_field(f, "expected_seq"), int_field(f, "seq"), _values(f)),
    "end": lambda f: EndNow(int_field(f, "expected_seq")),
    "timer": lambda f: TimerPause(bool_field(f, "paused", None)),
    "hint": lambda f: Hint(int_field(f, "position")),
}
"""The host's commands (``docs/protocol.md``, "Host commands"), each name with the parser of its fields."""


def host_command(command: Any, fields: Mapping[str, Any]) -> HostCommand | ServiceError:
    """The host command ``command`` with its ``fields``, parsed; else its refusal, returned, not raised.

    The host commands raise it once they know the sender is the host
    (``not_host`` comes first, whatever the fields).
    """
    parser = HOST_COMMANDS.get(command) if isinstance(command, str) else None  # a list or object is not hashable
    try:
        if parser is None:
            raise BadField(_("Unknown host command %(command)s.") % {"command": repr(command)[:40]})
        return parser(fields)
    except ServiceError as refusal:
        return refusal


# ---------------------------------------------------------------- frames, typed


@dataclass(frozen=True, slots=True)
class ActionFrame:
    TYPE: ClassVar[Literal["action"]] = "action"
    ref: Ref
    seq: int  # the game's seq the sender saw
    action: dict[str, Any]  # an object with a string ``type``; its fields are checked by the game's schema
    as_host: bool
    action_id: str | None


@dataclass(frozen=True, slots=True)
class HostFrame:
    TYPE: ClassVar[Literal["host"]] = "host"
    ref: Ref
    command: HostCommand | ServiceError  # the refusal of a bad command, raised once the sender is known to be the host


@dataclass(frozen=True, slots=True)
class TakeBackFrame:
    TYPE: ClassVar[Literal["take_back"]] = "take_back"
    ref: Ref
    seq: int


@dataclass(frozen=True, slots=True)
class BackFrame:
    TYPE: ClassVar[Literal["back"]] = "back"
    ref: Ref


@dataclass(frozen=True, slots=True)
class PingFrame:
    TYPE: ClassVar[Literal["ping"]] = "ping"
    ref: Ref


@dataclass(frozen=True, slots=True)
class ResyncFrame:
    TYPE: ClassVar[Literal["resync"]] = "resync"
    ref: Ref
    since: int
    game: int | None


@dataclass(frozen=True, slots=True)
class ResyncTableFrame:
    TYPE: ClassVar[Literal["resync_table"]] = "resync_table"
    ref: Ref


Frame = ActionFrame | HostFrame | TakeBackFrame | BackFrame | PingFrame | ResyncFrame | ResyncTableFrame


def _action(msg: Mapping[str, Any], ref: Ref) -> ActionFrame:
    action = msg.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadField(_("Field %(name)s must be an object with a %(type)s.") % {"name": "'action'", "type": "'type'"})
    return ActionFrame(ref, int_field(msg, "seq"), action, bool_field(msg, "as_host"), clean_action_id(msg.get("action_id")))


FRAMES: dict[str, Callable[[Mapping[str, Any], Ref], Frame]] = {
    "action": _action,
    "resync": lambda msg, ref: ResyncFrame(ref, int_field(msg, "since"), optional_int(msg, "game")),
    "resync_table": lambda msg, ref: ResyncTableFrame(ref),
    "ping": lambda msg, ref: PingFrame(ref),
    "host": lambda msg, ref: HostFrame(ref, host_command(msg.get("command"), msg)),
    "take_back": lambda msg, ref: TakeBackFrame(ref, int_field(msg, "seq")),
    "back": lambda msg, ref: BackFrame(ref),
}
"""The frames a client sends (``docs/protocol.md``, "Client → server"), each type with its parser."""

WRITES = frozenset({"action", "host", "take_back", "back"})
"""The frames that ask for a write (the others read, or keep the connection alive)."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _envelope(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    """The frame as a JSON object with a string ``type``; else the refusal."""
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


def parse(text_data: str | None, bytes_data: bytes | None) -> Frame:
    """The frame as its typed value, every field checked; else :class:`BadFrame` (the refusal and the ``ref``)."""
    try:
        msg = _envelope(text_data, bytes_data)
    except ServiceError as refusal:
        raise BadFrame(refusal) from None
    ref: Ref = msg.get("id")
    parser = FRAMES.get(msg["type"])
    try:
        if parser is None:
            raise UnknownType(_("Unknown message type %(kind)s.") % {"kind": repr(msg["type"])})
        return parser(msg, ref)
    except ServiceError as refusal:
        raise BadFrame(refusal, ref) from None
