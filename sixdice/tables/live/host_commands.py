"""The host's commands (``docs/protocol.md``, "Host commands"): one entry point for the socket and the tests.

Each command is one call to a service or a policy below; every command that
changes a game (``undo``, ``correct``) carries the ``seq`` the host's screen
showed and goes through the checked path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

from sixdice.tables.core.errors import BadField, NotHost
from sixdice.tables.core.keys import Credentials, is_host
from sixdice.tables.policies import ending, turn_timers, undo
from sixdice.tables.reads import selectors
from sixdice.tables.wire import incoming
from sixdice.tables.writes import services
from sixdice.tables.writes.checked_path import load_table

HOST_COMMANDS = frozenset(
    {"start", "rematch", "pause", "resume", "handover", "bot", "add_bot", "close", "undo", "correct", "timer", "hint",
     "end"}
)


def host_command(*, table_code: str, credentials: Credentials, command: Any, fields: Mapping[str, Any]) -> dict[str, Any] | None:
    """Run one host command; returns a reply frame for the host, if it has one."""
    table = load_table(table_code)
    if not is_host(table, credentials):  # first: a spectator's frame is refused before it is looked at
        raise NotHost(gettext("Only the host can do that."))
    if not isinstance(command, str) or command not in HOST_COMMANDS:  # a list or object is not hashable
        raise BadField(gettext("Unknown host command %(command)s.") % {"command": repr(command)[:40]})
    if command in {"start", "rematch"}:
        services.start_game(table=table)
    elif command in {"pause", "resume"}:
        services.set_paused(table=table, paused=command == "pause")
    elif command == "handover":
        position = incoming.int_field(fields, "position")
        token = services.hand_over_seat(table=table, position=position)
        return {"type": "handover", "position": position, "url": reverse("tables:claim", args=[table.code, token])}
    elif command == "close":
        services.close_table(table=table)
    elif command == "add_bot":
        services.add_bot(table=table, strength=fields.get("strength", ""))
    elif command == "undo":
        undo.undo(table_code=table.code, credentials=credentials, expected_seq=fields.get("expected_seq"),
                  to=fields.get("to"))
    elif command == "correct":
        undo.correct(table_code=table.code, credentials=credentials, expected_seq=fields.get("expected_seq"),
                     seq=fields.get("seq"), values=fields.get("values"))
    elif command == "end":  # the hands as they stand decide (the game's end_action)
        ending.end_now(table_code=table.code, credentials=credentials, expected_seq=fields.get("expected_seq"))
    elif command == "hint":  # the hint of an away seat the host answers for (hints are otherwise private)
        return selectors.host_hint(table, incoming.int_field(fields, "position"))
    elif command == "timer":
        turn_timers.set_paused(table=table, fields=fields)
    elif command == "bot":
        on = fields.get("on", True)
        if not isinstance(on, bool):
            raise BadField(gettext("Field %(name)s must be true or false.") % {"name": "'on'"})
        services.set_bot(table=table, position=incoming.int_field(fields, "position"), is_bot=on,
                         strength=fields.get("strength", ""))
    return None
