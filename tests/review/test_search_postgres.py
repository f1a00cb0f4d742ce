"""On PostgreSQL, as on SQLite: the admin's searches over names ignore case and accents (``unaccent``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.load.infra import ROOT, Postgres, base_env, migrate

pytestmark = pytest.mark.server


NEEDS_POSTGRES = "the accent-insensitive search test needs PostgreSQL"  # the shared throwaway server (tests/conftest.py, postgres)


def test_games_seats_events_and_notes_are_found_by_accented_names_on_postgresql(postgres: Postgres, tmp_path: Path):
    env = base_env(tmp_path, DATABASE_URL=postgres.url, SECRET_KEY="review-pg-search")
    migrate(env)  # creates the unaccent extension (review/0006_unaccent)
    done = subprocess.run([sys.executable, "-m", "tests.review.pg_search_worker"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    for name in ("tables_game", "tables_seat", "tables_event"):
        assert found[name]["joão"] == found[name]["joao"] == ["joao"], name
        assert found[name]["RENÉE"] == found[name]["renee"] == ["renee"], name
        assert found[name]["JOÃO RENÉE"] == [], name  # every word must match
    assert found["review_reviewnote"]["joão"] == ["joao"] and found["review_reviewnote"]["RENÉE"] == ["renee"]
