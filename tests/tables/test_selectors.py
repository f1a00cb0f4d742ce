"""What the live connection is sent, read from the database."""

from __future__ import annotations

import pytest

from sixdice.tables.core.keys import Credentials
from sixdice.tables.reads import selectors
from sixdice.tables.writes import checked_path, services


@pytest.mark.django_db
def test_a_welcomes_missed_events_stop_at_its_snapshots_seq(tiny_table, monkeypatch):
    """A move committed between the welcome's snapshot and its missed events comes later, as an update.

    Otherwise a client would take it from ``missed`` and again from the update (seen twice).
    """
    table, host, secrets = tiny_table
    game = services.start_game(table=table).game

    def move(seat: int, seq: int) -> None:
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                              action={"type": "add", "n": 1}, expected_seq=seq)

    move(game.first, 0)  # seq 2 (the add and the app's roll)
    real = selectors.snapshot

    def snapshot_then_someone_moves(table_id, *, seat, host):
        taken = real(table_id, seat=seat, host=host)
        move(1 - game.first, 2)  # commits seq 3 and 4 right after the snapshot was read
        return taken

    monkeypatch.setattr(selectors, "snapshot", snapshot_then_someone_moves)
    welcome = selectors.welcome(table.pk, seat=0, host=False, game_id=game.pk, since=1)
    assert welcome["game"]["seq"] == 2
    assert [e["seq"] for e in welcome["missed"]] == [2]
