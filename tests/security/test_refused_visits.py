"""A client that reconnects only to be refused is cooled down as a flooder (docs/protocol.md, "Limits").

A phone never closes its socket because a move was refused (the refusal
brings the table as it is now); a client that does, again and again, costs
the server a connect each time.  After ``SIXDICE_WS_REFUSED_VISITS`` such
sockets within ``SIXDICE_WS_REFUSED_WINDOW`` seconds its handshakes are
refused (HTTP 403) for the flood cool-down.  A socket that had a write let
through, or sent nothing refused, never counts.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from sixdice.asgi import application
from sixdice.tables.transport import flood_control
from sixdice.tables.writes import services
from tests.live_client import make_session, receive_until


def test_the_fifth_refused_visit_within_the_window_asks_for_a_cool_down(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(flood_control, "_clock", lambda: now[0])
    key = "sixdice:flooded:session:k"
    assert [flood_control.refused_visit(key) for _ in range(4)] == [False] * 4
    now[0] += 10.5  # the window passed: those four are forgotten
    assert [flood_control.refused_visit(key) for _ in range(4)] == [False] * 4
    assert flood_control.refused_visit(key) is True
    assert flood_control.refused_visit(key) is False  # counted afresh after the cool-down it asked for
    assert flood_control.refused_visit("sixdice:flooded:session:other") is False  # per client


async def _visit(code: str, session: str, frames: list[dict]) -> tuple[bool, list[str]]:
    """Open a socket with ``session``, send ``frames`` (each answered), close; whether it was let in, the answers."""
    comm = WebsocketCommunicator(application, f"/ws/t/{code}/",
                                 headers=[(b"host", b"testserver"), (b"cookie", f"sessionid={session}".encode())])
    connected, _ = await comm.connect(timeout=5)
    if not connected:
        return False, []
    await receive_until(comm, "welcome")
    answers = []
    for frame in frames:
        await comm.send_to(text_data=json.dumps(frame))
        while (reply := await comm.receive_json_from(timeout=5))["type"] not in {"ack", "error", "pong"}:
            pass
        answers.append(reply.get("code", reply["type"]))
    await comm.disconnect()
    return True, answers


@pytest.mark.django_db(transaction=True)
@override_settings(SIXDICE_WS_REFUSED_VISITS=3, SIXDICE_WS_REFUSED_WINDOW=60, SIXDICE_WS_FLOOD_COOLDOWN=60)
def test_a_seat_that_reconnects_only_to_be_refused_is_refused_at_the_handshake(tiny_table):
    table, _host, secrets = tiny_table
    game = services.start_game(table=table).game
    mover = make_session(table.code, seat=secrets[game.first])
    other = make_session(table.code, seat=secrets[1 - game.first])
    stale = {"type": "action", "seq": 5, "action": {"type": "add", "n": 1}}

    async def run():
        visits = [await _visit(table.code, mover, [stale]) for _ in range(3)]
        visits.append(await _visit(table.code, mover, [{"type": "ping"}]))  # the fourth: refused at the handshake
        visits.append(await _visit(table.code, other, [{"type": "ping"}]))  # another phone at the table is not
        return visits

    visits = async_to_sync(run)()
    assert visits[:3] == [(True, ["stale"])] * 3
    assert visits[3] == (False, [])
    assert visits[4] == (True, ["pong"])
    assert flood_control.cooling_down_here(f"sixdice:flooded:session:{mover}")


@pytest.mark.django_db(transaction=True)
@override_settings(SIXDICE_WS_REFUSED_VISITS=2, SIXDICE_WS_REFUSED_WINDOW=60, SIXDICE_WS_FLOOD_COOLDOWN=60)
def test_visits_with_a_write_let_through_or_nothing_refused_do_not_count(tiny_table):
    table, _host, secrets = tiny_table
    game = services.start_game(table=table).game
    mover = make_session(table.code, seat=secrets[game.first])

    async def run():
        seq = await sync_to_async(lambda: type(game).objects.get(pk=game.pk).seq)()
        answers = []
        for _ in range(3):  # only heartbeats: nothing refused
            answers.append(await _visit(table.code, mover, [{"type": "ping"}]))
        # A refused move, then a move let through (a phone that caught up): not a refused visit.
        answers.append(await _visit(table.code, mover, [
            {"type": "action", "seq": seq + 9, "action": {"type": "add", "n": 1}},
            {"type": "action", "seq": seq, "action": {"type": "add", "n": 1}},
        ]))
        answers.append(await _visit(table.code, mover, [{"type": "ping"}]))
        return answers

    answers = async_to_sync(run)()
    assert answers[:3] == [(True, ["pong"])] * 3
    assert answers[3] == (True, ["stale", "ack"])
    assert answers[4] == (True, ["pong"])  # still let in
    assert not flood_control.cooling_down_here(f"sixdice:flooded:session:{mover}")


@pytest.mark.django_db(transaction=True)
@override_settings(SIXDICE_WS_DENY_DELAY=1.0)  # the server's default (the tests answer at once: conftest)
def test_a_handshake_refused_for_a_cool_down_is_answered_a_second_late(tiny_table, monkeypatch):
    """A client knocking again at once after each refusal knocks once a second (SIXDICE_WS_DENY_DELAY), not 20 times."""
    table, _host, secrets = tiny_table
    session, other = make_session(table.code, seat=secrets[0]), make_session(table.code, seat=secrets[1])
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    monkeypatch.setattr(flood_control, "_pause", pause)

    async def run():
        await flood_control.cool_down(f"sixdice:flooded:session:{session}", 60)
        refused = await _visit(table.code, session, [])
        let_in = await _visit(table.code, other, [])
        return refused, let_in

    refused, let_in = async_to_sync(run)()
    assert refused == (False, []) and let_in == (True, [])
    assert pauses == [1.0]  # the refused handshake waited; the other was let in at once


@pytest.mark.django_db(transaction=True)
@override_settings(SIXDICE_WS_DENY_DELAY=1.0)
def test_a_made_up_session_from_an_address_cooling_down_is_refused_a_second_late_too(tiny_table, monkeypatch):
    """Its key is its address's only once the connect found the session made up: refused there, a second late."""
    table, _host, _secrets = tiny_table
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    monkeypatch.setattr(flood_control, "_pause", pause)

    async def run():
        await flood_control.cool_down("sixdice:flooded:addr:127.0.0.1", 60)
        comm = WebsocketCommunicator(application, f"/ws/t/{table.code}/", headers=[
            (b"host", b"testserver"), (b"cookie", b"sessionid=0123456789abcdef0123456789abcdef")])
        comm.scope["client"] = ["127.0.0.1", 5000]
        connected, _ = await comm.connect(timeout=5)
        return connected

    assert async_to_sync(run)() is False
    assert pauses == [1.0]
