"""The protocol document and the dispatch tables name the same frames and host commands, both ways.

``docs/protocol.md`` lists the frames a client sends ("Client → server") and
the host's commands ("Host commands").  A frame is parsed once, in
``wire/incoming.py`` (:data:`incoming.FRAMES`, :data:`incoming.HOST_COMMANDS`),
and dispatched from tables keyed by the same names: the consumer's
:data:`ROUTES` and the host commands' :data:`COMMANDS`.  A frame or a command
added, renamed or removed in one place without the others fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sixdice.tables.live.consumers import ROUTES
from sixdice.tables.live.host_commands import COMMANDS
from sixdice.tables.wire import incoming

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _first_cells(text: str) -> list[str]:
    """The first cell of each body row of the Markdown table(s) in ``text`` (header and rule rows left out)."""
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith("|")]
    rule = re.compile(r"\|[\s:|-]+\|")
    return [line.strip("|").split("|")[0].strip() for i, line in enumerate(lines)
            if not rule.fullmatch(line) and not (i + 1 < len(lines) and rule.fullmatch(lines[i + 1]))]


def _names(cell: str) -> list[str]:
    """The backticked names of a row's first cell: `pause` / `resume` -> pause, resume."""
    names = re.findall(r"`([a-z_]+)`", cell)
    assert names and re.fullmatch(r"`[a-z_]+`( / `[a-z_]+`)*", cell), f"a row must name its frame(s) in backticks, not {cell!r}"
    return names


def _documented() -> tuple[list[str], list[str]]:
    text = PROTOCOL.read_text(encoding="utf-8")
    block = re.search(r"^### Client → server\n(.*?)^### ", text, re.M | re.S)
    assert block, "docs/protocol.md has no 'Client → server' section"
    frames, _, commands = block.group(1).partition("\nHost commands:\n")
    assert commands, "the 'Client → server' section has no 'Host commands:' table"
    return ([n for cell in _first_cells(frames) for n in _names(cell)],
            [n for cell in _first_cells(commands) for n in _names(cell)])


def test_the_client_frames_are_the_same_in_the_document_the_parser_and_the_consumer():
    documented, _commands = _documented()
    assert len(documented) == len(set(documented)), "a frame documented twice"
    assert sorted(documented) == sorted(incoming.FRAMES), "docs/protocol.md and incoming.FRAMES differ"
    assert sorted(ROUTES) == sorted(incoming.FRAMES), "the consumer's ROUTES and incoming.FRAMES differ"


def test_the_host_commands_are_the_same_in_the_document_the_parser_and_the_host_commands():
    _frames, documented = _documented()
    assert len(documented) == len(set(documented)), "a host command documented twice"
    assert sorted(documented) == sorted(incoming.HOST_COMMANDS), "docs/protocol.md and incoming.HOST_COMMANDS differ"
    assert sorted(COMMANDS) == sorted(incoming.HOST_COMMANDS), "host_commands.COMMANDS and incoming.HOST_COMMANDS differ"


@pytest.mark.parametrize("kind", sorted(incoming.FRAMES))
def test_each_frame_parses_to_the_typed_value_its_route_expects(kind):
    """A minimal well-formed frame of each type parses to a value whose ``TYPE`` is its protocol name."""
    fields = {"action": {"seq": 0, "action": {"type": "roll"}}, "resync": {"since": 0}, "take_back": {"seq": 0},
              "host": {"command": "start"}}.get(kind, {})
    frame = incoming.parse(json.dumps({"type": kind, "id": "r", **fields}), None)
    assert kind == frame.TYPE and frame.ref == "r"


@pytest.mark.parametrize("name", sorted(incoming.HOST_COMMANDS))
def test_each_host_command_parses_to_a_value_named_as_its_key(name):
    fields = {"position": 0, "expected_seq": 0, "seq": 1, "values": [1], "paused": True}
    command = incoming.host_command(name, fields)
    assert not isinstance(command, Exception) and command.name == name


def test_a_refused_frame_carries_its_ref_and_a_bad_host_command_waits_for_the_host_check():
    with pytest.raises(incoming.BadFrame) as bad:
        incoming.parse('{"type": "action", "id": 9, "seq": "1", "action": {"type": "roll"}}', None)
    assert (bad.value.refusal.code, bad.value.ref) == ("bad_field", 9)
    with pytest.raises(incoming.BadFrame) as bad:
        incoming.parse('{"type": "dance", "id": "x"}', None)
    assert (bad.value.refusal.code, bad.value.ref) == ("unknown_type", "x")
    frame = incoming.parse('{"type": "host", "command": "handover", "position": "1"}', None)
    assert isinstance(frame, incoming.HostFrame) and getattr(frame.command, "code", None) == "bad_field"
