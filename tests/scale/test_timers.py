"""Turn timers on two daphne processes: each runs the table's timer, every timeout is played once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest

from tests.load.clients import SeatClient
from tests.load.infra import Postgres

from .conftest import Cluster, running_cluster

SPEEDUP = 60  # the test-only speed-up: the table's "30 s" run out in 0.5 s
TIME = timedelta(seconds=30 / SPEEDUP)


@pytest.fixture
def timed_cluster(postgres: Postgres, tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(postgres, tmp_path, SECRET_KEY="scale-timers", SIXDICE_BOT_DELAY="0.05",
                         SIXDICE_TIMER_SPEEDUP=str(SPEEDUP), SIXDICE_TESTING="1", SIXDICE_DICE_SEED="timers") as c:
        yield c


def _sql(cluster: Cluster, query: str, *args: object) -> list[tuple]:
    with psycopg.connect(cluster.postgres.url.replace("postgres://", "postgresql://")) as conn:
        cursor = conn.execute(query, args)
        rows = cursor.fetchall() if cursor.description else []
        conn.commit()
    return rows


async def _until(predicate, timeout: float = 120) -> None:
    async def waiting() -> None:
        while not predicate():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(waiting(), timeout)


async def test_the_timer_fires_once_per_timeout_with_two_processes(timed_cluster):
    cluster = timed_cluster
    table = cluster.new_table(seats=2)
    code = table["code"]
    _sql(cluster, "INSERT INTO tables_turntimer (table_id, seconds, paused) SELECT id, 30, false FROM tables_table "
                  "WHERE code = %s", code)
    # Seat 0 on the first process, seat 1 on the second: both processes run the table's timer.
    seats = [SeatClient(cluster.ports[k], code, session, position=k, ping_every=0.3)
             for k, session in enumerate(table["sessions"])]
    await asyncio.gather(*(s.open() for s in seats))
    try:
        # Nobody moves: each seat times out three actions in a row and passes to the app.
        away = "SELECT c.payload FROM tables_tablechange c JOIN tables_table t ON t.id = c.table_id " \
               "WHERE t.code = %s AND c.kind = 'away' ORDER BY c.version"
        await _until(lambda: len(_sql(cluster, away, code)) == 2 or (cluster.game_status(code) or ("",))[0] != "playing")
        events = _sql(cluster, "SELECT e.seq, e.actor, e.stand_in, e.created_at FROM tables_event e "
                               "JOIN tables_game g ON g.id = e.game_id JOIN tables_table t ON t.id = g.table_id "
                               "WHERE t.code = %s ORDER BY e.seq", code)
        changes = [payload for (payload,) in _sql(cluster, away, code)]
    finally:
        await asyncio.gather(*(s.close() for s in seats))
    assert [seq for seq, *_ in events] == list(range(1, len(events) + 1))  # every event once, in order
    stand_ins = [(seq, actor) for seq, actor, stand_in, _at in events if stand_in == "timeout"]
    assert len(stand_ins) >= 3
    by_seq = {seq: at for seq, _actor, _s, at in events}
    for seq, _actor in stand_ins:  # each played only once its seat's time had run out, never early
        if seq > 1:
            assert by_seq[seq] - by_seq[seq - 1] >= TIME
    # A seat passes to the app after exactly three stand-ins in a row, once
    assert changes
    for payload in changes:
        assert payload["misses"] == 3
    assert len({p["position"] for p in changes}) == len(changes)
    for seat in seats:
        assert seat.errors == []
