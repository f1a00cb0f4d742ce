"""The host's commands (``docs/protocol.md``, "Host commands"): one entry point for the socket and the tests.

A command arrives parsed (:func:`sixdice.tables.wire.incoming.host_command`:
a typed value, every field checked) and runs from :data:`COMMANDS`, keyed by
the protocol's names: one call to a service or a policy.  Every command that
changes a game (``undo``, ``correct``) carries the ``seq`` the host's screen
showed and goes through the checked path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

from sixdice.tables.core.errors import NotHost, ServiceError
from sixdice.tables.core.keys import Credentials, is_host
from sixdice.tables.models import Table
from sixdice.tables.policies import ending, turn_timers, undo
from sixdice.tables.reads import selectors
from sixdice.tables.wire import incoming
from sixdice.tables.writes import services
from sixdice.tables.writes.checked_path import load_table

Reply = dict[str, Any] | None
Run = Callable[[Table, Credentials, Any], Reply]  # the command's typed value (incoming.HostCommand) as its third argument


def _handover(table: Table, credentials: Credentials, command: incoming.Handover) -> Reply:
    token = services.hand_over_seat(table=table, position=command.position)
    return {"type": "handover", "position": command.position, "url": reverse("tables:claim", args=[table.code, token])}


def _undo(table: Table, credentials: Credentials, command: incoming.Undo) -> Reply:
    undo.undo(table_code=table.code, credentials=credentials, expected_seq=command.expected_seq, to=command.to)
    return None


def _correct(table: Table, credentials: Credentials, command: incoming.Correct) -> Reply:
    undo.correct(table_code=table.code, credentials=credentials, expected_seq=command.expected_seq, seq=command.seq,
                 values=command.values)
    return None


def _end(table: Table, credentials: Credentials, command: incoming.EndNow) -> Reply:
    """The hands as they stand decide (the game's ``end_action``)."""
    ending.end_now(table_code=table.code, credentials=credentials, expected_seq=command.expected_seq)
    return None


def _bot(table: Table, credentials: Credentials, command: incoming.SetBot) -> Reply:
    services.set_bot(table=table, position=command.position, is_bot=command.on, strength=command.strength)
    return None


def _done(call: Callable[[Table, Any], object]) -> Run:
    """A command whose service answers nothing: the host gets a plain ``ack``."""

    def run(table: Table, credentials: Credentials, command: Any) -> Reply:
        call(table, command)
        return None

    return run


COMMANDS: dict[str, Run] = {
    "start": _done(lambda table, _: services.start_game(table=table)),
    "rematch": _done(lambda table, _: services.start_game(table=table)),
    "pause": _done(lambda table, _: services.set_paused(table=table, paused=True)),
    "resume": _done(lambda table, _: services.set_paused(table=table, paused=False)),
    "handover": _handover,
    "bot": _bot,
    "add_bot": _done(lambda table, command: services.add_bot(table=table, strength=command.strength)),
    "close": _done(lambda table, _: services.close_table(table=table)),
    "undo": _undo,
    "correct": _correct,
    "end": _end,
    "timer": _done(lambda table, command: turn_timers.set_paused(table=table, paused=command.paused)),
    # the hint of an away seat the host answers for (hints are otherwise private)
    "hint": lambda table, _credentials, command: selectors.host_hint(table, command.position),
}
"""Each host command, by its protocol name (the keys of :data:`sixdice.tables.wire.incoming.HOST_COMMANDS`)."""


def run(*, table_code: str, credentials: Credentials, command: incoming.HostCommand | ServiceError) -> Reply:
    """Run one parsed host command (or raise its refusal, once the sender is known to be the host); its reply frame."""
    table = load_table(table_code)
    if not is_host(table, credentials):  # first: a spectator's frame is refused before it is looked at
        raise NotHost(gettext("Only the host can do that."))
    if isinstance(command, ServiceError):
        raise command
    return COMMANDS[command.name](table, credentials, command)


def host_command(*, table_code: str, credentials: Credentials, command: Any, fields: Mapping[str, Any]) -> Reply:
    """Parse and run one host command given as it is sent (``command`` and the frame's fields): the tests' entry."""
    return run(table_code=table_code, credentials=credentials, command=incoming.host_command(command, fields))
