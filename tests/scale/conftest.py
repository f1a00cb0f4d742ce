"""Real infrastructure on loopback: redis-server, PostgreSQL and two daphne processes.

These tests skip only when redis-server or PostgreSQL's programs are missing
and CI is unset (saying why); in CI they must run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.conftest import require_binary, throwaway_postgres
from tests.load.clients import SeatClient, next_action
from tests.load.infra import ROOT, Daphne, Postgres, Redis, base_env, migrate, raise_fd_limit

pytestmark = pytest.mark.server


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """One throwaway server for the whole multi-process suite (the clusters share it)."""
    require_binary("redis-server", "the multi-process tests share state through Redis")
    with throwaway_postgres("the multi-process tests share a PostgreSQL database") as pg:
        yield pg


@dataclass
class Cluster:
    """Two daphne processes sharing one PostgreSQL database and one Redis."""

    workdir: Path
    redis: Redis
    postgres: Postgres
    env: dict[str, str]
    servers: list[Daphne] = field(default_factory=list)

    @property
    def ports(self) -> list[int]:
        return [s.port for s in self.servers]

    def new_table(self, seats: int) -> dict[str, Any]:
        """A Run Buster table with a started game: its code and one session per seat."""
        with tempfile.NamedTemporaryFile(suffix=".json", dir=self.workdir, delete=False) as fh:
            out = fh.name
        subprocess.run([sys.executable, "-m", "tests.load.clients", "setup", "--tables", "1", "--seats", str(seats),
                        "--out", out], cwd=ROOT, env=self.env, check=True)
        return json.loads(Path(out).read_text())[0]

    def committed(self, code: str) -> list[tuple[int, int]]:
        """(game id, seq) of every event stored for the table, in order."""
        with psycopg.connect(self.postgres.url.replace("postgres://", "postgresql://")) as conn:
            rows = conn.execute(
                "SELECT e.game_id, e.seq FROM tables_event e JOIN tables_game g ON g.id = e.game_id "
                "JOIN tables_table t ON t.id = g.table_id WHERE t.code = %s ORDER BY e.game_id, e.seq",
                (code,),
            ).fetchall()
        return [(g, s) for g, s in rows]

    def game_status(self, code: str) -> tuple[str, int] | None:
        """(status, seq) of the table's current game."""
        with psycopg.connect(self.postgres.url.replace("postgres://", "postgresql://")) as conn:
            row = conn.execute(
                "SELECT g.status, g.seq FROM tables_game g JOIN tables_table t ON t.id = g.table_id "
                "WHERE t.code = %s ORDER BY g.number DESC LIMIT 1",
                (code,),
            ).fetchone()
        return (row[0], row[1]) if row else None


@contextlib.contextmanager
def running_cluster(postgres: Postgres, tmp_path: Path, **env: str) -> Iterator[Cluster]:
    """Redis, the migrated database and two daphne processes sharing them, with ``env`` for the servers."""
    raise_fd_limit()
    redis = Redis(tmp_path)
    c = Cluster(tmp_path, redis, postgres, {})
    try:
        redis.start()
        c.env = base_env(tmp_path, DATABASE_URL=postgres.url, REDIS_URL=redis.url, **env)
        migrate(c.env)
        c.servers = [Daphne(tmp_path, c.env, name=f"app{k}").start() for k in range(2)]
        yield c
    finally:
        for server in c.servers:
            server.stop()
        redis.stop()


@pytest.fixture
def cluster(postgres: Postgres, tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(postgres, tmp_path, SECRET_KEY="scale-tests",
                         SIXDICE_BOT_DELAY="0.05",  # bots move quickly here
                         SIXDICE_TESTING="1", SIXDICE_DICE_SEED="scale") as c:  # seeded dice: games as long every run
        yield c


# ---------------------------------------------------------------- playing helpers


def knows_it_is_behind(seat: SeatClient) -> bool:
    """A seat that discarded an update on purpose learns of the gap only with the next one."""
    return seat.dropped > seat.gaps


async def agreed(seats: list[SeatClient], timeout: float = 30, at_least: int = 0) -> tuple[int, int]:
    """Wait until every seat holds the same game at the same seq (>= at_least); returns (game id, seq)."""

    async def waiting() -> tuple[int, int]:
        while True:
            states = {(s.game["id"], s.game["seq"]) if s.game else None for s in seats if not knows_it_is_behind(s)}
            if len(states) == 1 and None not in states:
                state = states.pop()
                if state[1] >= at_least:
                    return state
            await asyncio.sleep(0.02)

    return await asyncio.wait_for(waiting(), timeout)


async def play_moves(seats: list[SeatClient], moves: int, *, rng, acked: list[int] | None = None,
                     tolerate_faults: bool = False) -> int:
    """The seat whose turn it is moves, ``moves`` times (or until the game ends); returns moves made."""
    made = 0
    seq = 0
    while made < moves:
        game_id, seq = await agreed(seats, timeout=60, at_least=seq)
        mover = next((s for s in seats if s.game["view"].get("your_turn") and not knows_it_is_behind(s)), None)
        if mover is None or seats[0].game["status"] != "playing":
            break
        try:
            reply = await asyncio.wait_for(await mover.act(next_action(mover.game["view"], rng)), 30)
        except Exception:  # the connection dropped or the server is down: try again once it is back
            if not tolerate_faults:
                raise
            await asyncio.sleep(0.2)
            continue
        if reply.get("type") == "error":
            if not tolerate_faults:
                raise AssertionError(f"move refused: {reply}")
            await asyncio.sleep(0.2)
            continue
        assert reply["type"] == "ack" and reply["seq"] == seq + 1, reply
        if acked is not None:
            acked.append(reply["seq"])
        made += 1
        seq = reply["seq"]  # the ack can come before the broadcast: wait for every seat to have it
    await agreed(seats, timeout=60, at_least=seq)
    return made


def assert_saw_every_event_once_in_order(seat: SeatClient, game_id: int, final: int) -> None:
    log = seat.logs[game_id]
    assert log.seqs == list(range(1, final + 1)), f"seat {seat.position}: {log.seqs}"
    assert log.known == set(range(1, final + 1))
