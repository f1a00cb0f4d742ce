"""On PostgreSQL: two processes end games that share a profile at once (no update lost or doubled); search."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.load.infra import ROOT, Postgres, base_env, migrate

pytestmark = pytest.mark.server

TABLES = 15  # per process


NEEDS_POSTGRES = "the rating concurrency test needs PostgreSQL"  # the shared throwaway server (tests/conftest.py, postgres)


def run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "tests.players.pg_worker", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_two_processes_ending_games_at_once_keep_every_rating_update(postgres: Postgres, tmp_path: Path):
    env = base_env(tmp_path, DATABASE_URL=postgres.url, SECRET_KEY="players-pg")
    migrate(env)
    out = tmp_path / "codes.json"
    run(env, "setup", "--tables", str(TABLES), "--out", str(out))
    codes = json.loads(out.read_text())
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    workers = [subprocess.Popen([sys.executable, "-m", "tests.players.pg_worker", "finish", "--me", str(k),
                                 "--barrier", str(barrier), "--codes", ",".join(codes[k])],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for k in range(2)]
    for worker in workers:
        _out, err = worker.communicate(timeout=600)
        assert worker.returncode == 0, err[-3000:]
    report = json.loads(run(env, "check"))
    games = 2 * TABLES
    assert report["finished"] == games
    assert report["participants"] == 2 * games
    assert report["updates"] == 2 * games  # one per (game, profile): none missed, none twice
    assert report["chained"], "a game was rated from a stale rating (a lost update)"
    by_name = {name: (mu, sigma, n) for name, mu, sigma, n in report["live"]}
    assert by_name["Ana"][2] == games and by_name["Bo"][2] == TABLES and by_name["Cy"][2] == TABLES
    assert report["rebuilt"] == report["live"]
    assert report["same_updates"]
    # The normalised search key works on PostgreSQL as on SQLite, in every script.
    assert report["search"] == {"олена": ["Олена"], "ОЛЕНА": ["Олена"], "ines": ["Inês"],
                                "francoise": ["Françoise"], "ijsbrand": ["Ĳsbrand van Dijk"],
                                "DIJK": ["Ĳsbrand van Dijk"]}
