"""Bots on two daphne processes: each move made once, and the game goes on when a process dies."""

from __future__ import annotations

import asyncio
import signal

from tests.load.clients import SeatClient


async def _until(predicate, timeout: float = 120) -> None:
    async def waiting() -> None:
        while not predicate():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(waiting(), timeout)


async def test_bots_driven_from_two_processes_move_once_each_and_survive_a_dead_process(cluster):
    table = cluster.new_table(seats=3)
    code = table["code"]
    # The host (seat 0's session) is on the first process; the others on the second, pinging often.
    seats = [SeatClient(cluster.ports[0 if k == 0 else 1], code, session, position=k, ping_every=0.3)
             for k, session in enumerate(table["sessions"])]
    await asyncio.gather(*(s.open() for s in seats))
    host = seats[0]
    try:
        for position in (1, 2, 0):  # the app plays every seat
            reply = await asyncio.wait_for(await host.send({"type": "host", "command": "bot", "position": position}), 30)
            assert reply["type"] == "ack", reply
        await _until(lambda: (cluster.game_status(code) or ("", 0))[1] >= 6)  # the bots are playing
        cluster.servers[0].stop(signal.SIGKILL)  # the process that received the host's commands dies
        at_kill = len(cluster.committed(code))
        await _until(lambda: cluster.game_status(code)[0] == "finished", timeout=240)
        status, final = cluster.game_status(code)
        committed = cluster.committed(code)
        (game_id,) = {g for g, _seq in committed}
        assert final > at_kill  # the other process drove the bots on
        assert committed == [(game_id, n) for n in range(1, final + 1)]  # every move once, in order
        for seat in seats[1:]:  # no refusal ever reached a client
            assert seat.errors == []
    finally:
        await asyncio.gather(*(s.close() for s in seats))
