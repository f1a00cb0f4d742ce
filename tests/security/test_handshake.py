"""Issue 15, items 8 and 9: code guessing is throttled; the WebSocket handshake checks Host and scheme."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client, override_settings

from sixdice.asgi import application
from sixdice.tables.transport import guess_limits
from sixdice.tables.transport.origins import host_allowed, origin_allowed
from sixdice.tables.writes import checked_path


def test_origin_must_match_host_and_scheme():
    assert origin_allowed("http://testserver", "testserver", "ws")
    assert origin_allowed("https://testserver", "testserver", "wss")
    assert not origin_allowed("http://testserver", "testserver", "wss")
    assert not origin_allowed("https://testserver", "testserver", "ws")
    assert not origin_allowed("https://evil.example", "testserver", "wss")
    assert not origin_allowed("null", "testserver", "ws")
    assert origin_allowed(None, "testserver", "ws")  # not a browser


@override_settings(ALLOWED_HOSTS=["play.example", "127.0.0.1"], DEBUG=False)
def test_host_must_be_allowed():
    assert host_allowed("play.example") and host_allowed("play.example:8000") and host_allowed("127.0.0.1:8000")
    assert not host_allowed("evil.example") and not host_allowed("") and not host_allowed(None)


def _handshake(path: str, headers: list[tuple[bytes, bytes]], scheme: str = "ws") -> tuple[bool, list[dict]]:
    async def run():
        comm = WebsocketCommunicator(application, path, headers=headers)
        comm.scope["scheme"] = scheme
        comm.scope["client"] = ["10.0.0.9", 5555]
        connected, _ = await comm.connect()
        frames = []
        if connected:
            while True:
                out = await comm.receive_output(timeout=3)
                frames.append(out)
                if out["type"] == "websocket.close":
                    break
        await comm.disconnect()
        return connected, frames

    return async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_handshake_with_a_foreign_host_or_scheme_is_refused(tiny_table):
    table, *_ = tiny_table
    path = f"/ws/t/{table.code}/"
    connected, _ = _handshake(path, [(b"host", b"evil.example"), (b"origin", b"http://evil.example")])
    assert not connected
    connected, _ = _handshake(path, [(b"host", b"testserver"), (b"origin", b"http://testserver")], scheme="wss")
    assert not connected


@pytest.mark.django_db(transaction=True)
@override_settings(SIXDICE_GUESS_LIMIT=3)
def test_websocket_code_guessing_is_throttled_then_closed_with_4429(tiny_table):
    table, *_ = tiny_table
    headers = [(b"host", b"testserver")]
    for guess in ("AAAAA", "BBBBB", "CCCCC"):
        connected, frames = _handshake(f"/ws/t/{guess}/", headers)
        assert connected and frames[-1] == {"type": "websocket.close", "code": 4404}
    # blocked now, even for a table that exists: the guesser cannot tell a hit from a miss
    connected, frames = _handshake(f"/ws/t/{table.code}/", headers)
    assert connected
    assert '"rate_limited"' in frames[0]["text"]
    assert frames[-1] == {"type": "websocket.close", "code": guess_limits.CLOSE_GUESSING}


@pytest.mark.django_db
@override_settings(SIXDICE_GUESS_LIMIT=3)
def test_page_code_guessing_is_throttled_per_address(tiny_table):
    table, *_ = tiny_table
    guesser = Client(REMOTE_ADDR="10.1.1.1")
    assert guesser.get("/t/AAAAA/").status_code == 404
    assert guesser.get("/join/", {"code": "BBBBB"}).status_code == 302
    assert guesser.get("/t/CCCCC/host/").status_code == 404
    blocked = guesser.get(f"/t/{table.code}/")
    assert blocked.status_code == 429 and blocked["Retry-After"]
    assert guesser.get("/join/", {"code": table.code}).status_code == 429
    # another address is not held back, and the home page stays open to the guesser
    assert Client(REMOTE_ADDR="10.2.2.2").get(f"/t/{table.code}/").status_code == 200
    assert guesser.get("/").status_code == 200


@pytest.mark.django_db
@override_settings(SIXDICE_GUESS_LIMIT=3)
def test_page_code_guessing_is_throttled_per_session(tiny_table):
    table, *_ = tiny_table
    guesser = Client()
    guesser.get(f"/t/{table.code}/")  # a session
    session = guesser.session
    session["x"] = 1
    session.save()
    for k, guess in enumerate(("AAAAA", "BBBBB", "CCCCC")):
        guesser.defaults["REMOTE_ADDR"] = f"10.3.3.{k}"  # a new address for every guess
        assert guesser.get(f"/t/{guess}/").status_code == 404
    guesser.defaults["REMOTE_ADDR"] = "10.3.3.99"
    assert guesser.get(f"/t/{table.code}/").status_code == 429


@pytest.mark.django_db
def test_a_known_table_with_a_missing_game_is_not_a_guess(tiny_table):
    table, *_ = tiny_table
    client = Client(REMOTE_ADDR="10.4.4.4")
    for _ in range(25):
        assert client.get(f"/t/{table.code}/replay/99/").status_code == 404
    assert client.get(f"/t/{table.code}/").status_code == 200
    assert checked_path.load_table(table.code)
