"""Issue 15, items 3 and 4: per-connection flow control and the frame size limit."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from sixdice.asgi import application
from sixdice.tables.transport import flood_control
from sixdice.tables.transport.flood_control import CLOSE_FLOOD, TokenBucket, _Connection
from tests.live_client import connect, receive_until


def test_token_bucket_gives_a_burst_then_the_rate():
    now = [0.0]
    bucket = TokenBucket(rate=20, burst=40, clock=lambda: now[0])
    assert sum(bucket.take() for _ in range(100)) == 40
    now[0] += 0.5  # half a second: 10 more
    assert sum(bucket.take() for _ in range(100)) == 10
    now[0] += 100  # never more than the burst saved up
    assert sum(bucket.take() for _ in range(100)) == 40


async def _outputs_until_close(comm, limit: int = 500) -> list[dict]:
    out = []
    for _ in range(limit):
        message = await comm.receive_output(timeout=5)
        out.append(message)
        if message["type"] == "websocket.close":
            break
    return out


@pytest.mark.django_db(transaction=True)
@override_settings(SIXDICE_WS_RATE=0.0001, SIXDICE_WS_BURST=5, SIXDICE_WS_FLOOD=3)
def test_a_flood_gets_rate_limited_then_closed_with_4008(tiny_table):
    table, host, secrets = tiny_table

    async def run():
        comm, _welcome = await connect(table.code, seat=secrets[0])
        for k in range(5):
            await comm.send_to(text_data=json.dumps({"type": "ping", "id": k}))
        outputs = []
        while sum('"pong"' in o.get("text", "") for o in outputs) < 5:  # the burst is served
            outputs.append(await comm.receive_output(timeout=5))
        for k in range(5, 30):
            await comm.send_to(text_data=json.dumps({"type": "ping", "id": k}))
        outputs += await _outputs_until_close(comm)
        await comm.wait()
        return outputs

    outputs = async_to_sync(run)()
    frames = [json.loads(o["text"]) for o in outputs if o["type"] == "websocket.send"]
    pongs = [f for f in frames if f["type"] == "pong"]
    errors = [f for f in frames if f["type"] == "error"]
    assert sorted(p["ref"] for p in pongs) == [0, 1, 2, 3, 4]
    assert [e["code"] for e in errors] == ["rate_limited"] and errors[0]["message"]
    assert outputs[-1] == {"type": "websocket.close", "code": CLOSE_FLOOD}


@pytest.mark.django_db(transaction=True)
@override_settings(SIXDICE_WS_RATE=0.0001, SIXDICE_WS_BURST=1, SIXDICE_WS_FLOOD=1, SIXDICE_WS_FLOOD_COOLDOWN=60)
def test_a_client_closed_for_flooding_is_refused_at_the_handshake_for_a_while(tiny_table):
    table, host, secrets = tiny_table

    async def run():
        comm, _welcome = await connect(table.code, seat=secrets[0])
        cookie = dict(comm.scope["headers"])[b"cookie"]
        for k in range(5):
            await comm.send_to(text_data=json.dumps({"type": "ping", "id": k}))
        outputs = await _outputs_until_close(comm)
        await comm.wait()
        again = WebsocketCommunicator(application, f"/ws/t/{table.code}/",
                                      headers=[(b"host", b"testserver"), (b"cookie", cookie)])
        refused, _ = await again.connect()
        other, _welcome = await connect(table.code, seat=secrets[1])  # another session is not held back
        await other.disconnect()
        return outputs, refused

    outputs, refused = async_to_sync(run)()
    assert outputs[-1] == {"type": "websocket.close", "code": CLOSE_FLOOD}
    assert refused is False


@pytest.mark.django_db(transaction=True)
@override_settings(SIXDICE_WS_RATE=20, SIXDICE_WS_BURST=2, SIXDICE_WS_FLOOD=1000)
def test_a_client_that_slows_down_after_rate_limited_keeps_its_connection(tiny_table, monkeypatch):
    table, host, secrets = tiny_table
    now = [1000.0]
    monkeypatch.setattr(flood_control, "_clock", lambda: now[0])  # the bucket's time stands still until we move it

    async def frames_until(comm, wanted):
        seen = []
        while not wanted(seen):
            frame = await comm.receive_json_from(timeout=5)
            if frame["type"] in {"pong", "error"}:
                seen.append(frame)
        return seen

    async def run():
        comm, _welcome = await connect(table.code, seat=secrets[0], lang="fr")
        for k in range(4):
            await comm.send_to(text_data=json.dumps({"type": "ping", "id": k}))
        first = await frames_until(comm, lambda seen: len(seen) == 3)
        now[0] += 1.0  # a second later: 20 tokens (at most the burst of 2)
        await comm.send_to(text_data=json.dumps({"type": "ping", "id": "later"}))
        later = await frames_until(comm, lambda seen: len(seen) == 1)
        await comm.disconnect()
        return first, later

    first, later = async_to_sync(run)()
    assert sorted(str(f.get("ref")) for f in first if f["type"] == "pong") == ["0", "1"]  # 2 and 3 dropped
    (error,) = [f for f in first if f["type"] == "error"]
    assert error["code"] == "rate_limited" and "Too many" not in error["message"]  # in the reader's language
    assert later == [{**later[0], "type": "pong", "ref": "later"}]


@pytest.mark.django_db(transaction=True)
def test_a_frame_over_64_kib_gets_too_large_and_the_connection_stays(tiny_table):
    table, host, secrets = tiny_table

    async def run():
        comm, _welcome = await connect(table.code, seat=secrets[0])
        await comm.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * 900_000}))
        first = await receive_until(comm, "error")
        await comm.send_to(text_data=json.dumps({"type": "ping", "id": "after"}))
        second = await receive_until(comm, "pong")
        await comm.disconnect()
        return first, second

    first, second = async_to_sync(run)()
    assert first["type"] == "error" and first["code"] == "too_large"
    assert second["type"] == "pong" and second["ref"] == "after"


@override_settings(SIXDICE_WS_RATE=10_000, SIXDICE_WS_BURST=10_000, SIXDICE_WS_QUEUE=8, SIXDICE_WS_FLOOD=10_000)
def test_the_queue_to_a_busy_consumer_is_bounded():
    """A consumer that reads nothing (a slow database): at most SIXDICE_WS_QUEUE frames wait; the rest are dropped."""

    async def run():
        inbound: asyncio.Queue = asyncio.Queue()
        sent: list[dict] = []

        async def send(message):
            sent.append(message)

        conn = _Connection({"type": "websocket", "headers": []}, inbound.get, send)
        pump = asyncio.get_running_loop().create_task(conn.pump())
        for k in range(1000):
            inbound.put_nowait({"type": "websocket.receive", "text": json.dumps({"type": "ping", "id": k})})
        while not inbound.empty():
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        queued = len(conn.queue)
        first = await conn.receive()
        pump.cancel()
        return queued, first, sent

    queued, first, sent = asyncio.run(run())
    assert queued == 8
    assert json.loads(first["text"])["id"] == 0
    codes = [json.loads(m["text"])["code"] for m in sent if m["type"] == "websocket.send"]
    assert codes == ["rate_limited"]


class _Transport:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    def pauseProducing(self) -> None:  # noqa: N802 - Twisted's names
        self.log.append("stop reading")

    def loseWriteConnection(self) -> None:  # noqa: N802
        self.log.append("close the writing side")


class _Protocol:
    def __init__(self) -> None:
        self.log: list[str] = []
        self.transport = _Transport(self.log)


def test_closing_a_flooder_stops_reading_its_socket_after_the_close_frame():
    def close(protocol, code=None):
        protocol.log.append(f"close frame {code}")

    flooder, other = _Protocol(), _Protocol()
    flood_control.close_and_stop_reading(flooder, CLOSE_FLOOD, close)
    assert flooder.log == ["close frame 4008", "stop reading", "close the writing side"]
    flood_control.close_and_stop_reading(other, 1000, close)  # any other close: the graceful handshake, reading on
    assert other.log == ["close frame 1000"]


def test_daphne_closes_through_the_flood_abort():
    from daphne.ws_protocol import WebSocketProtocol

    assert flood_control.install_flood_abort() is True  # installed when the app is built (sixdice.asgi); idempotent
    assert getattr(WebSocketProtocol.serverClose, "sixdice_flood_abort", False) is True


def test_a_cool_down_is_noted_in_this_process_and_in_the_shared_cache():
    from django.core.cache import cache

    from sixdice.tables.transport import guess_limits

    key = "sixdice:flooded:addr:203.0.113.5"

    def shared() -> dict:
        return guess_limits.lookup([key])  # as a connect reads it, with its guess counters

    async def run() -> list[bool]:
        seen = [flood_control.cooling_down_here(key), flood_control.cooling_down(key, shared())]
        await flood_control.cool_down(key, 60)
        seen += [flood_control.cooling_down_here(key), flood_control.cooling_down(key, shared()), bool(await cache.aget(key))]
        flood_control._LOCAL_COOLDOWNS.clear()  # as another process sees it: through the shared cache only
        seen += [flood_control.cooling_down_here(key), flood_control.cooling_down(key, shared())]
        await cache.aclear()
        seen.append(flood_control.cooling_down(key, shared()))
        return seen

    assert async_to_sync(run)() == [False, False, True, True, True, False, True, False]


@pytest.mark.django_db(transaction=True)
def test_a_cool_down_set_by_another_process_refuses_the_handshake(tiny_table):
    """The consumer reads the shared cache's cool-down in its one database trip, before it accepts: HTTP 403."""
    from django.core.cache import cache

    from tests.live_client import make_session

    table, host, secrets = tiny_table
    flooder, other = make_session(table.code, seat=secrets[0]), make_session(table.code, seat=secrets[1])
    cache.set(f"sixdice:flooded:session:{flooder}", 1, 60)  # another process closed this session for flooding
    assert not flood_control.cooling_down_here(f"sixdice:flooded:session:{flooder}")

    async def run():
        outcome = {}
        for name, key in (("flooder", flooder), ("other", other)):
            comm = WebsocketCommunicator(application, f"/ws/t/{table.code}/",
                                         headers=[(b"host", b"testserver"), (b"cookie", f"sessionid={key}".encode())])
            connected, _code = await comm.connect(timeout=5)
            outcome[name] = connected
            if connected:
                outcome["welcome"] = await comm.receive_json_from(timeout=5)
                await comm.disconnect()
        return outcome

    outcome = async_to_sync(run)()
    assert outcome["flooder"] is False  # refused at the handshake
    assert outcome["other"] is True and (outcome["welcome"]["type"], outcome["welcome"]["seat"]) == ("welcome", 1)


# ---------------------------------------------------------------- whose cool-down: a session's, or an address's


def _socket(code: str, *, session: str | None, address: str) -> WebsocketCommunicator:
    headers = [(b"host", b"testserver")]
    if session:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/t/{code}/", headers=headers)
    comm.scope["client"] = [address, 50000]  # the communicator has no client address of its own
    return comm


def _invented() -> str:
    import secrets

    return secrets.token_hex(16)  # shaped as Django's session keys: 32 characters, no such session


async def _flood_until_closed(comm: WebsocketCommunicator) -> list[dict]:
    connected, _code = await comm.connect(timeout=5)
    assert connected
    await comm.receive_json_from(timeout=5)  # the welcome
    for k in range(5):
        await comm.send_to(text_data=json.dumps({"type": "ping", "id": k}))
    outputs = await _outputs_until_close(comm)
    await comm.wait()
    return outputs


async def _admitted(comm: WebsocketCommunicator) -> bool:
    connected, _code = await comm.connect(timeout=5)
    if connected:
        await comm.receive_json_from(timeout=5)  # the welcome
        await comm.disconnect()
    return connected


FLOODER, NEIGHBOUR = "203.0.113.7", "203.0.113.8"


@pytest.mark.django_db(transaction=True)
@override_settings(SIXDICE_WS_RATE=0.0001, SIXDICE_WS_BURST=1, SIXDICE_WS_FLOOD=1, SIXDICE_WS_FLOOD_COOLDOWN=60)
def test_sockets_with_invented_session_ids_share_their_addresss_cool_down(tiny_table):
    """A cookie naming no session counts as no cookie: a new made-up session per socket is limited by its address."""
    from django.core.cache import cache

    from tests.live_client import make_session

    table, host, secrets = tiny_table
    invented = _invented()
    real = make_session(table.code, seat=secrets[0])

    async def run():
        outputs = await _flood_until_closed(_socket(table.code, session=invented, address=FLOODER))
        seen = {"closed": outputs[-1]}
        seen["keys"] = {key: bool(await cache.aget(f"sixdice:flooded:{key}"))
                        for key in (f"session:{invented}", f"addr:{FLOODER}")}
        seen["another invented"] = await _admitted(_socket(table.code, session=_invented(), address=FLOODER))
        seen["no cookie"] = await _admitted(_socket(table.code, session=None, address=FLOODER))
        seen["real session"] = await _admitted(_socket(table.code, session=real, address=FLOODER))
        seen["other address"] = await _admitted(_socket(table.code, session=_invented(), address=NEIGHBOUR))
        flood_control._LOCAL_COOLDOWNS.clear()  # as another process sees it: through the shared cache only
        seen["elsewhere, invented"] = await _admitted(_socket(table.code, session=_invented(), address=FLOODER))
        seen["elsewhere, real"] = await _admitted(_socket(table.code, session=real, address=FLOODER))
        return seen

    seen = async_to_sync(run)()
    assert seen.pop("closed") == {"type": "websocket.close", "code": CLOSE_FLOOD}
    assert seen == {
        "keys": {f"session:{invented}": False, f"addr:{FLOODER}": True},  # cooled down by its address
        "another invented": False,  # limited together: refused at the handshake
        "no cookie": False,
        "real session": True,  # a real session keeps its own key
        "other address": True,
        "elsewhere, invented": False,
        "elsewhere, real": True,
    }


@pytest.mark.django_db(transaction=True)
@override_settings(SIXDICE_WS_RATE=0.0001, SIXDICE_WS_BURST=1, SIXDICE_WS_FLOOD=1, SIXDICE_WS_FLOOD_COOLDOWN=60)
def test_a_real_session_is_cooled_down_by_its_own_key_not_its_address(tiny_table):
    from django.core.cache import cache

    from tests.live_client import make_session

    table, host, secrets = tiny_table
    real = make_session(table.code, seat=secrets[0])

    async def run():
        outputs = await _flood_until_closed(_socket(table.code, session=real, address=FLOODER))
        seen = {"closed": outputs[-1]}
        seen["keys"] = {key: bool(await cache.aget(f"sixdice:flooded:{key}"))
                        for key in (f"session:{real}", f"addr:{FLOODER}")}
        seen["the same session"] = await _admitted(_socket(table.code, session=real, address=NEIGHBOUR))
        seen["no cookie, same address"] = await _admitted(_socket(table.code, session=None, address=FLOODER))
        seen["invented, same address"] = await _admitted(_socket(table.code, session=_invented(), address=FLOODER))
        return seen

    seen = async_to_sync(run)()
    assert seen.pop("closed") == {"type": "websocket.close", "code": CLOSE_FLOOD}
    assert seen == {
        "keys": {f"session:{real}": True, f"addr:{FLOODER}": False},
        "the same session": False,
        "no cookie, same address": True,
        "invented, same address": True,
    }


def test_the_flood_key_is_the_sessions_until_the_connect_finds_no_such_session():
    class Session:
        session_key = "k" * 32

    with_cookie = {"type": "websocket", "client": [FLOODER, 1], "session": Session()}
    key = flood_control.FloodKey(with_cookie)
    assert key.key == f"sixdice:flooded:session:{'k' * 32}" == flood_control.cooldown_key(with_cookie)
    assert key.keys() == [f"sixdice:flooded:session:{'k' * 32}", f"sixdice:flooded:addr:{FLOODER}"]
    assert key.settle(live=True) is False and key.key == f"sixdice:flooded:session:{'k' * 32}"
    assert key.settle(live=False) is True and key.key == f"sixdice:flooded:addr:{FLOODER}"
    # The scope carries the socket's key (FlowControl puts it there): what the connect settled, the flood close uses.
    assert flood_control.cooldown_key({**with_cookie, flood_control.FLOOD_KEY: key}) == f"sixdice:flooded:addr:{FLOODER}"
    without = flood_control.FloodKey({"type": "websocket", "client": [FLOODER, 1]})
    assert without.key == f"sixdice:flooded:addr:{FLOODER}" and without.keys() == [without.key]
    assert without.settle(live=False) is False
