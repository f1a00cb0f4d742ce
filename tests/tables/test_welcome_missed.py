"""A reconnection's ``missed`` events stop at the welcome snapshot's seq (docs/protocol.md).

A move committed between the snapshot and the ``missed`` query reaches the
client in an ``update``; were it in ``missed`` too, beyond the frame's seq, the
client would take it twice (seen as a duplicated log line after a Redis restart).
"""

from __future__ import annotations

import pytest

from sixdice.tables.core.keys import Credentials
from sixdice.tables.reads import selectors, table_frame
from sixdice.tables.writes import checked_path, services

pytestmark = pytest.mark.django_db


def _add(table, secrets) -> None:
    game = table_frame.current_game(table)
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[game.state["current"]]),
                          action={"type": "add", "n": 1}, expected_seq=game.seq)


def test_missed_stops_at_the_snapshots_seq(tiny_table, monkeypatch):
    table, _host, secrets = tiny_table
    game = services.start_game(table=table).game
    _add(table, secrets)  # seq 2: the add and the app's roll
    real_snapshot = selectors.snapshot
    monkeypatch.setattr(selectors, "snapshot", lambda *a, **kw: (real_snapshot(*a, **kw), _add(table, secrets))[0])
    frame = selectors.welcome(table.pk, seat=0, host=False, game_id=game.pk, since=1)
    game.refresh_from_db()
    assert game.seq == 4  # the second add (and its roll) committed after the snapshot was taken
    assert frame["game"]["seq"] == 2
    assert [e["seq"] for e in frame["missed"]] == [2]
