"""A frame or a catch-up built from a game row never runs ahead of that row's seq.

Another process may commit a move between the read of the game row and the
read of its events (each statement sees what is committed when it runs).  A
welcome whose log held that move while its seq did not made the client take
the move twice: once from the log, once from its own update (the flake hunt
caught it: a seat saw "... 14, 15, 15, 16" after a server was killed).
"""

from __future__ import annotations

from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Game
from sixdice.tables.reads.selectors import events_since
from sixdice.tables.reads.table_frame import build_frame
from sixdice.tables.writes import action_receipts, services


def _move(table, secret, seq, action_id):
    return action_receipts.apply_once(
        table_id=table.pk, sender="test", action_id=action_id, table_code=table.code,
        credentials=Credentials(seat_secret=secret), action={"type": "add", "n": 1}, expected_seq=seq, as_host=False,
    )


def test_a_move_committed_after_the_game_row_was_read_is_in_neither_the_frame_nor_the_catch_up(tiny_table):
    table, _host, secrets = tiny_table
    game = services.start_game(table=table).game
    assert _move(table, secrets[game.first], 0, "tap-1").reply == {"type": "ack", "seq": 2}
    read = Game.objects.get(pk=game.pk)  # the row as the welcome read it: seq 2
    assert read.seq == 2
    other = 1 - game.first
    assert _move(table, secrets[other], 2, "tap-2").reply == {"type": "ack", "seq": 4}  # another process moves

    frame = build_frame(table, read, {"connected": []}).frame["game"]
    assert frame["seq"] == 2
    assert [e["seq"] for e in frame["log"]] == [1, 2]  # not 3 and 4: they come in their own update

    caught_up = events_since(read, 0)
    assert caught_up is not None and [e.seq for e in caught_up] == [1, 2]

    now = Game.objects.get(pk=game.pk)  # read again, the frame has every move
    assert [e["seq"] for e in build_frame(table, now, {"connected": []}).frame["game"]["log"]] == [1, 2, 3, 4]
