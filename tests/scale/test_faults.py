"""Faults on real infrastructure: a server killed mid-game, Redis restarted under load.

The clients are :class:`tests.load.clients.SeatClient` with ``reconnect=True``:
they reconnect by themselves with backoff and jitter, as static/js/live.js does,
and say where they were so the welcome carries what they missed.
"""

from __future__ import annotations

import asyncio
import random
import signal

from tests.load.clients import SeatClient
from tests.scale.conftest import agreed, assert_saw_every_event_once_in_order, play_moves


async def _seats(cluster, table) -> list[SeatClient]:
    seats = [SeatClient(cluster.ports[k % 2], table["code"], session, position=k,
                        reconnect=True, backoff=0.2, backoff_max=2.0, ping_every=1.0)
             for k, session in enumerate(table["sessions"])]
    await asyncio.gather(*(s.open() for s in seats))
    return seats


async def _until(predicate, timeout: float = 60) -> None:
    async def waiting() -> None:
        while not predicate():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(waiting(), timeout)


async def test_a_server_killed_mid_game_keeps_every_move_and_the_game_goes_on(cluster):
    table = cluster.new_table(seats=4)
    seats = await _seats(cluster, table)
    acked: list[int] = []
    try:
        playing = asyncio.create_task(play_moves(seats, 16, rng=random.Random(3), acked=acked, tolerate_faults=True))
        await _until(lambda: len(acked) >= 6)
        victim = cluster.servers[0]
        victim.stop(signal.SIGKILL)  # mid-game, with moves still coming
        at_kill = cluster.committed(table["code"])
        assert set(acked) <= {seq for _game, seq in at_kill}  # every acknowledged move was committed
        on_victim = [s for s in seats if s.ports[0] == victim.port]
        await asyncio.sleep(0.5)
        victim.start()  # the same port, a new process
        made = await asyncio.wait_for(playing, 180)
        game_id, final = await agreed(seats, timeout=60)

        assert final > len(at_kill) and made >= 8  # the game went on after the restart
        assert cluster.committed(table["code"])[: len(at_kill)] == at_kill  # nothing committed was lost
        assert cluster.committed(table["code"]) == [(game_id, n) for n in range(1, final + 1)]
        for seat in on_victim:
            assert seat.connects >= 2  # it reconnected by itself
        for seat in seats:
            assert_saw_every_event_once_in_order(seat, game_id, final)
    finally:
        await asyncio.gather(*(s.close() for s in seats))


async def test_redis_restarted_under_load_loses_no_move(cluster):
    tables = [cluster.new_table(seats=4) for _ in range(3)]
    all_seats = [await _seats(cluster, t) for t in tables]
    acked: list[list[int]] = [[] for _ in tables]
    try:
        playing = [asyncio.create_task(play_moves(seats, 14, rng=random.Random(10 + k), acked=acked[k],
                                                  tolerate_faults=True))
                   for k, seats in enumerate(all_seats)]
        await _until(lambda: all(len(a) >= 4 for a in acked))
        cluster.redis.stop()
        await asyncio.sleep(1.0)  # moves keep being sent and committed; their broadcasts are lost
        cluster.redis.start()  # empty: the groups are gone too
        await asyncio.wait_for(asyncio.gather(*playing), 240)

        for table, seats, acks in zip(tables, all_seats, acked, strict=True):
            game_id, final = await agreed(seats, timeout=60)
            committed = cluster.committed(table["code"])
            assert committed == [(game_id, n) for n in range(1, final + 1)]
            assert set(acks) <= set(range(1, final + 1))
            for seat in seats:
                assert_saw_every_event_once_in_order(seat, game_id, final)
        assert sum(s.gaps + s.resyncs + s.connects - 1 for seats in all_seats for s in seats) > 0  # recovery happened
    finally:
        await asyncio.gather(*(s.close() for seats in all_seats for s in seats))
