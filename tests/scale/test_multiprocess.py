"""Two daphne processes on PostgreSQL and Redis: every seat sees every move, once, in order."""

from __future__ import annotations

import asyncio
import random

from tests.load.clients import SeatClient
from tests.scale.conftest import agreed, assert_saw_every_event_once_in_order, play_moves


async def _seats(cluster, table, **kwargs) -> list[SeatClient]:
    # Seats alternate between the two processes: every move crosses from one to the other.
    seats = [SeatClient(cluster.ports[k % 2], table["code"], session, position=k, **kwargs)
             for k, session in enumerate(table["sessions"])]
    await asyncio.gather(*(s.open() for s in seats))
    return seats


async def test_moves_on_either_process_reach_every_seat_once_in_order(cluster):
    table = cluster.new_table(seats=4)
    seats = await _seats(cluster, table)
    try:
        made = await play_moves(seats, 30, rng=random.Random(1))
        game_id, final = await agreed(seats)
        assert made >= 10 and final == made
        movers_port = {s.ports[0] for s in seats}
        assert movers_port == set(cluster.ports)  # seats really sit on both processes
        for seat in seats:
            assert_saw_every_event_once_in_order(seat, game_id, final)
            assert seat.logs[game_id].pushed == set(range(1, final + 1))  # all by broadcast, none by resync
            assert (seat.duplicates, seat.gaps, seat.resyncs, seat.errors) == (0, 0, 0, [])
        assert cluster.committed(table["code"]) == [(game_id, n) for n in range(1, final + 1)]
    finally:
        await asyncio.gather(*(s.close() for s in seats))


async def test_a_lost_broadcast_is_detected_and_recovered_by_resync(cluster):
    """The channel layer is at-most-once: one seat loses the broadcast of seq 5 (discarded on arrival).

    It is a seat that does not move next, so it finds out from the next update's gap, as live.js does.
    """
    table = cluster.new_table(seats=4)
    lost: list[int] = []

    def lose_seq_5_once(msg) -> bool:
        if msg["seq"] == 5 and msg.get("ref") is None and not lost and not msg["view"]["your_turn"]:
            lost.append(msg["seq"])
            return True
        return False

    seats = await _seats(cluster, table, drop=lose_seq_5_once)
    try:
        await play_moves(seats, 10, rng=random.Random(2))
        game_id, final = await agreed(seats)
        assert final >= 7 and lost == [5]
        (victim,) = [s for s in seats if s.dropped]
        assert (victim.dropped, victim.gaps, victim.resyncs) == (1, 1, 1)  # the next update showed the gap
        # Update 6 showed the gap; the resync reply brought 5 and 6, every other event came by broadcast.
        assert victim.logs[game_id].pushed == set(range(1, final + 1)) - {5, 6}
        for seat in seats:
            assert_saw_every_event_once_in_order(seat, game_id, final)
            assert seat.duplicates == 0
    finally:
        await asyncio.gather(*(s.close() for s in seats))
