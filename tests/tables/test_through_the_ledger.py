"""Starting a game writes through the ledger: the game row, its first events and the table's change."""

from __future__ import annotations

import random

import pytest

from sixdice.tables.models import Event, Game, Table, TableChange
from sixdice.tables.writes import ledger, services


@pytest.mark.django_db
@pytest.mark.parametrize("rematch", [False, True])
def test_starting_a_game_opens_it_through_the_ledger(tiny_table, monkeypatch, rematch,
                                                      django_capture_on_commit_callbacks):
    table, _host, _secrets = tiny_table
    if rematch:
        game = services.start_game(table=table, rng=random.Random(1)).game
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    opened: list = []
    real = ledger.open_game
    monkeypatch.setattr(ledger, "open_game", lambda *a, **k: opened.append(k["kind"]) or real(*a, **k))
    version = Table.objects.get(pk=table.pk).version
    with django_capture_on_commit_callbacks() as callbacks:
        applied = services.start_game(table=table, rng=random.Random(2))
    kind = TableChange.Kind.REMATCH if rematch else TableChange.Kind.START
    assert opened == [kind]
    assert callbacks  # the table frame (and the first events, if any) go out after the commit
    table.refresh_from_db()
    assert table.version == version + 1 and table.status == Table.Status.PLAYING
    change = TableChange.objects.get(table=table, version=table.version)
    assert (change.kind, change.payload) == (kind, {"game": applied.game.number})
    game = Game.objects.get(pk=applied.game.pk)
    assert game.seq == Event.objects.filter(game=game).count() == len(applied.events)
