"""On PostgreSQL: a move read before the host closes the table and written after is refused ``stale``.

PostgreSQL runs the two transactions side by side (SQLite lets one writer in
at a time), so this is where the race is real: the move has read the game as
played, the close commits, then the move's conditional UPDATE runs.  It must
match nothing: no event, no broadcast, the game stays abandoned, the table
closed, no rating recorded (``tests/tables/test_close_race.py`` has the same
order on SQLite).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.load.infra import ROOT, Postgres, base_env, migrate

pytestmark = pytest.mark.server


NEEDS_POSTGRES = "the close race is real only on PostgreSQL"  # the shared throwaway server (tests/conftest.py, postgres)


def test_a_move_in_flight_when_the_table_closes_is_refused_stale_and_changes_nothing(postgres: Postgres,
                                                                                     tmp_path: Path):
    env = base_env(tmp_path, DATABASE_URL=postgres.url, SECRET_KEY="close-race-pg")
    migrate(env)
    done = subprocess.run([sys.executable, "-m", "tests.tables.close_race_worker", "--target", "2", "--target", "10"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    for target in ("2", "10"):  # the held move would end the game; it would not
        got = report[target]
        assert got["move"] == "stale", got
        assert got["seq"] == got["seq_before"] == got["events"], got  # no event appended
        assert got["broadcasts"] == [], got  # nothing sent as if the game were still played
        assert (got["status"], got["end_reason"], got["winners"]) == ("abandoned", "closed", []), got
        assert got["table"] == "closed", got  # not reopened for a rematch
        assert got["ratings"] == 0, got
