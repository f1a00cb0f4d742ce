"""The in-memory layer's local fan-out (docs/performance.md, "Local fan-out"): order is kept per connection."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.layers import get_channel_layer

from sixdice.tables.transport.memory_channel_layer import InMemoryChannelLayer
from sixdice.tables.writes import services
from tests.live_client import connect, receive_until

GROUP = "table.T"


class Taker:
    """A fake consumer: takes what it is handed unless ``busy``; remembers what it got and how."""

    def __init__(self, busy: bool = False, fail: bool = False) -> None:
        self.busy = busy
        self.fail = fail
        self.got: list[tuple[str, Any]] = []

    async def take(self, message: dict[str, Any]) -> bool:
        if self.busy:
            return False
        if self.fail:
            raise RuntimeError("boom")
        self.got.append(("direct", message["n"]))
        return True


def events(n: int, kind: str = "table.events") -> dict[str, Any]:
    return {"type": kind, "n": n}


@pytest.fixture
def layer() -> InMemoryChannelLayer:
    return InMemoryChannelLayer(capacity=100)


async def _joined(layer: InMemoryChannelLayer, taker: Taker | None = None) -> str:
    channel = await layer.new_channel()
    await layer.group_add(GROUP, channel)
    if taker is not None:
        layer.attach(channel, taker.take)
    return channel


@pytest.mark.asyncio
async def test_an_idle_connection_takes_the_message_at_once_and_its_queue_stays_empty(layer):
    taker = Taker()
    channel = await _joined(layer, taker)
    await layer.group_send(GROUP, events(1))
    assert taker.got == [("direct", 1)]
    assert channel not in layer.channels  # nothing queued


@pytest.mark.asyncio
async def test_a_busy_connection_gets_it_queued(layer):
    taker = Taker(busy=True)
    channel = await _joined(layer, taker)
    await layer.group_send(GROUP, events(1))
    assert taker.got == []
    assert (await layer.receive(channel))["n"] == 1


@pytest.mark.asyncio
async def test_a_message_never_overtakes_one_queued_before_it(layer):
    taker = Taker(busy=True)
    channel = await _joined(layer, taker)
    await layer.group_send(GROUP, events(1))  # queued: busy
    taker.busy = False
    await layer.group_send(GROUP, events(2))  # idle now, but 1 waits in the queue: 2 queues behind it
    assert taker.got == []
    first = await layer.receive(channel)
    # 1 is in hand (received, not yet handled): 3 still queues, behind 2
    await layer.group_send(GROUP, events(3))
    assert taker.got == []
    layer.handled(channel)
    assert [first["n"], (await layer.receive(channel))["n"]] == [1, 2]
    layer.handled(channel)
    assert (await layer.receive(channel))["n"] == 3
    layer.handled(channel)
    await layer.group_send(GROUP, events(4))  # everything handled: taken at once
    assert taker.got == [("direct", 4)]


@pytest.mark.asyncio
async def test_other_message_types_always_go_through_the_queue(layer):
    taker = Taker()
    channel = await _joined(layer, taker)
    await layer.group_send(GROUP, events(1, kind="table.frame"))
    assert taker.got == []
    assert (await layer.receive(channel))["n"] == 1


@pytest.mark.asyncio
async def test_a_failing_taker_does_not_stop_the_others(layer, caplog):
    bad, good = Taker(fail=True), Taker()
    await _joined(layer, bad)
    plain = await _joined(layer)  # not attached (another kind of consumer): queued as before
    await _joined(layer, good)
    await layer.group_send(GROUP, events(1))
    assert good.got == [("direct", 1)]
    assert (await layer.receive(plain))["n"] == 1
    assert "local delivery" in caplog.text


@pytest.mark.asyncio
async def test_detach_forgets_the_taker(layer):
    taker = Taker()
    channel = await _joined(layer, taker)
    layer.detach(channel)
    await layer.group_send(GROUP, events(1))
    assert taker.got == []
    assert (await layer.receive(channel))["n"] == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_mover_gets_its_ack_before_its_update_and_the_others_get_it_directly(tiny_table):
    table, host, secrets = tiny_table
    game = await asyncio.to_thread(lambda: services.start_game(table=table).game)
    mover, _ = await connect(table.code, seat=secrets[game.first])
    other, _ = await connect(table.code, seat=secrets[1 - game.first])
    layer = get_channel_layer()
    assert isinstance(layer, InMemoryChannelLayer)
    await asyncio.sleep(0.2)  # the presence frames of the connects are out
    queued: list[str] = []
    send = layer.send

    async def counting_send(channel: str, message: dict[str, Any]) -> None:
        if message["type"] == "table.events":
            queued.append(channel)
        await send(channel, message)

    layer.send = counting_send  # type: ignore[method-assign]
    try:
        await mover.send_json_to({"type": "action", "id": 7, "seq": 0, "action": {"type": "add", "n": 2}})
        kinds = []
        while "update" not in kinds:
            frame = await mover.receive_json_from(timeout=3)
            if frame["type"] != "presence":
                kinds.append(frame["type"])
        assert kinds == ["ack", "update"]
        assert (await receive_until(other, "update"))["seq"] == 2
    finally:
        layer.send = send  # type: ignore[method-assign]
    # The mover was busy answering its action: its update was queued; the other seat, idle, took it at once.
    assert len(queued) == 1
    for comm in (mover, other):
        await comm.disconnect()
