"""Closing a table while a move is in flight: the move is refused ``stale`` and changes nothing.

A move reads the game, then writes it with a conditional UPDATE.  The host
(or the admin's "Close selected tables") may close the table between the two.
On PostgreSQL that really happens (``test_close_race_postgres.py``); on SQLite
every transaction takes the write lock first, so here the move's read is made
before the close and handed to the move after the close has committed: the
same order of the same statements.
"""

from __future__ import annotations

import random

import pytest

from sixdice.players import services as players
from sixdice.players.models import RatingUpdate
from sixdice.tables.core.errors import Stale
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Event, Game, Table, TableChange
from sixdice.tables.writes import checked_path, services


def _table(target: int) -> tuple[Table, Game]:
    """A tiny-game table of two profiles' seats, its game started; ``target`` 2 makes the first add of 2 win."""
    table, _host = services.create_table(game="tiny", options={"target": target}, capacity=2)
    for name in ("Ana", "Bo"):
        players.join_with_profile(table=table, profile=players.create_profile(name=name)[0])
    game = services.start_game(table=table, rng=random.Random(3)).game
    return table, game


def _move_read_before_close(monkeypatch: pytest.MonkeyPatch, table: Table, game: Game) -> None:
    """The move's read, then the close (committed), then the move's write with what it read."""
    seat = game.state["current"]
    read = checked_path.load_for_action(table.code, Credentials())
    services.close_table(table=table)
    monkeypatch.setattr(checked_path, "load_for_action", lambda code, credentials: read)
    with pytest.raises(Stale):
        checked_path.apply_action(table_code=table.code, credentials=Credentials(), action={"type": "add", "n": 2},
                                  expected_seq=game.seq, bot_seat=seat, rng=random.Random(1))


@pytest.mark.django_db
@pytest.mark.parametrize("target", [2, 10], ids=["the move would end the game", "the game would go on"])
def test_a_move_read_before_the_close_is_refused_stale_and_changes_nothing(monkeypatch, target):
    table, game = _table(target)
    seq = game.seq
    _move_read_before_close(monkeypatch, table, game)
    game.refresh_from_db()
    table.refresh_from_db()
    assert game.status == Game.Status.ABANDONED and game.end_reason == "closed"
    assert game.seq == seq == Event.objects.filter(game=game).count()  # no event appended
    assert game.winners == [] and game.places == [] and game.loser is None
    assert table.status == Table.Status.CLOSED  # not reopened for a rematch
    assert not RatingUpdate.objects.exists()  # no rating recorded
    assert list(TableChange.objects.filter(table=table).values_list("kind", flat=True))[-1] == TableChange.Kind.CLOSE


@pytest.mark.django_db
def test_closing_records_one_table_change_and_leaves_the_log_as_it_was(django_capture_on_commit_callbacks):
    table, game = _table(10)
    version = Table.objects.get(pk=table.pk).version
    log = list(Event.objects.filter(game=game).values_list("seq", "actor", "action"))
    with django_capture_on_commit_callbacks() as callbacks:
        services.close_table(table=table)
    assert len(callbacks) == 1  # the table frame, sent once after the commit
    table.refresh_from_db()
    game.refresh_from_db()
    assert table.version == version + 1
    assert TableChange.objects.filter(table=table, version=version + 1, kind=TableChange.Kind.CLOSE).exists()
    assert list(Event.objects.filter(game=game).values_list("seq", "actor", "action")) == log
    assert game.seq == len(log) and game.finished_at is not None
