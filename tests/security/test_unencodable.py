"""Every frame the server sends can be encoded as UTF-8, whatever the client sent.

JSON may spell a string holding a lone surrogate (``"\\ud800"``), which has no
UTF-8 form.  daphne encodes each text frame as UTF-8 when it sends it: a reply
echoing such a value raised there, inside the consumer's error handler, and
the socket died with 1011 (a traceback logged for each such frame).  The
in-process communicator does not encode, so these tests encode every frame
as daphne would.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from sixdice.tables.wire import incoming, outgoing
from sixdice.tables.writes import services
from tests.live_client import connect

socket = pytest.mark.django_db(transaction=True)  # the socket tests (asyncio_mode is auto)

LONE = "\\ud800"  # a JSON escape: the parsed string holds a lone (high) surrogate


async def _next(comm: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    """The next frame of type ``kind``; every frame on the way must encode as UTF-8, as daphne sends it."""
    while True:
        output = await comm.receive_output(timeout=3)
        assert output["type"] == "websocket.send", output  # not closed
        text = output["text"]
        text.encode("utf-8")  # raises UnicodeEncodeError, as daphne's send did
        frame: dict[str, Any] = json.loads(text)
        if frame["type"] == kind:
            return frame


async def _still_open(comm: WebsocketCommunicator) -> None:
    await comm.send_json_to({"type": "ping", "id": "after"})
    assert (await _next(comm, "pong"))["ref"] == "after"


@pytest.fixture
def started(tiny_table):
    table, host, secrets = tiny_table
    game = services.start_game(table=table).game
    return table, host, secrets, game


@socket
@pytest.mark.parametrize("raw_id", [LONE, "\\udfff", "a\\udc80b", "\\ud83d", "\\ude00\\ud83d"])
async def test_an_id_holding_a_lone_surrogate_gets_bad_field_and_the_socket_stays(started, caplog, raw_id):
    table, host, secrets, game = started
    comm, _welcome = await connect(table.code, seat=secrets[0])
    caplog.set_level(logging.WARNING)
    await comm.send_to(text_data='{"type":"ping","id":"' + raw_id + '"}')
    error = await _next(comm, "error")
    assert error["code"] == "bad_field" and "'id'" in error["message"]
    assert error["ref"] is None  # the bad value is not echoed
    await _still_open(comm)
    await comm.disconnect()
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


@socket
async def test_a_surrogate_pair_is_a_character_and_is_echoed(started):
    table, host, secrets, game = started
    comm, _welcome = await connect(table.code, seat=secrets[0])
    await comm.send_to(text_data='{"type":"ping","id":"tap-\\ud83d\\ude00"}')  # an emoji, escaped: valid
    assert (await _next(comm, "pong"))["ref"] == "tap-\U0001f600"
    await comm.disconnect()


@socket
@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ('{"type":"' + LONE + '"}', "unknown_type"),
        ('{"type":"action","seq":0,"action":{"type":"' + LONE + '"}}', "bad_field"),
        ('{"type":"action","seq":0,"action":{"type":"add","n":1,"' + LONE + '":1}}', "bad_field"),
        ('{"type":"action","seq":0,"action":{"type":"add","n":1},"action_id":"' + LONE + '"}', "bad_field"),
        ('{"type":"host","command":"' + LONE + '"}', "not_host"),
        ('{"type":"action","seq":"' + LONE + '","action":{"type":"add","n":1}}', "bad_field"),
    ],
)
async def test_no_other_client_value_breaks_a_reply(started, caplog, frame, code):
    """Each place a client's value goes back into a reply (or into the database) with a lone surrogate."""
    table, host, secrets, game = started
    comm, _welcome = await connect(table.code, seat=secrets[game.first])
    caplog.set_level(logging.WARNING)
    await comm.send_to(text_data=frame)
    error = await _next(comm, "error")
    assert error["code"] == code and error["message"]
    await _still_open(comm)
    await comm.disconnect()
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


@socket
async def test_host_commands_with_a_lone_surrogate_get_replies_that_encode(started, caplog):
    table, host, secrets, game = started
    comm, _welcome = await connect(table.code, host=host)
    caplog.set_level(logging.WARNING)
    commands = [
        '"' + LONE + '"',
        '"bot","position":0,"strength":"' + LONE + '"',
        '"undo","to":"' + LONE + '"',
        '"correct","seq":"' + LONE + '","values":["' + LONE + '"]',
        '"handover","position":"' + LONE + '"',
    ]
    codes = []
    for command in commands:
        await comm.send_to(text_data='{"type":"host","id":1,"command":' + command + "}")
        error = await _next(comm, "error")
        assert error["ref"] == 1 and error["message"]
        codes.append(error["code"])
    assert codes[:2] == ["bad_field", "bad_field"] and "server_error" not in codes
    await _still_open(comm)
    await comm.disconnect()
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_encodable():
    assert incoming.encodable("tap-1") and incoming.encodable("Zoë 🎲") and incoming.encodable("")
    assert not incoming.encodable("\ud800") and not incoming.encodable("a\udfffb")


def test_valid_ref():
    for ref in (0, 7, -3, "x", "tap-\U0001f600", "é" * 64):
        assert incoming.valid_ref(ref), ref
    for ref in (True, False, 1.5, [1], {"a": 1}, "x" * 65, 10**65, "\ud800", "ok\udc00"):
        assert not incoming.valid_ref(ref), ref


def test_dumps_is_compact_utf8_and_always_encodes():
    assert outgoing.dumps({"type": "pong", "ref": "Zoë"}) == '{"type":"pong","ref":"Zoë"}'  # no escapes for non-ASCII
    # A value no check caught (the last line of defence): escaped as JSON allows, so the frame still encodes.
    text = outgoing.dumps({"type": "error", "message": "a\ud800b"})
    text.encode("utf-8")
    assert json.loads(text) == {"type": "error", "message": "a\ud800b"}
