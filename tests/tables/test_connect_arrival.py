"""Issue 19: a connect's one statement (``selectors.arrival``) gives what the ORM gives, from a plain cursor."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sixdice.tables.core import keys
from sixdice.tables.models import Game, Seat, Table, TurnTimer
from sixdice.tables.reads import selectors
from sixdice.tables.writes import services

pytestmark = pytest.mark.django_db


def _fields(obj, names):
    return {name: getattr(obj, name) for name in names}


def test_the_arrival_reads_the_table_its_game_seats_and_timer_as_the_orm_does(tiny_table):
    table, _host, secrets = tiny_table
    services.start_game(table=table, rng=random.Random(3))
    TurnTimer.objects.create(table=table, seconds=30, paused=True)
    seat = Seat.objects.get(table=table, position=1)
    seat.parked_secret_hash, seat.secret_hash = seat.secret_hash, ""  # the app took this seat over after timeouts
    seat.save()

    with CaptureQueriesContext(connection) as ctx:
        arrived = selectors.arrival(table.code, keys.hash_secret(secrets[1]))
        assert arrived is not None
        seats = arrived.seats
    assert len(ctx.captured_queries) == 1

    orm_table = Table.objects.get(pk=table.pk)
    orm_game = Game.objects.filter(table=table).order_by("-number").first()
    names = list(selectors._TABLE_FIELDS)
    assert _fields(arrived.table, names) == _fields(orm_table, names)
    assert type(arrived.table.paused) is bool and isinstance(arrived.table.options, dict)  # converted (SQLite: 0/1, text)
    game_names = list(selectors._GAME_FIELDS)
    assert _fields(arrived.game, game_names) == _fields(orm_game, game_names)
    assert arrived.game.started_at == orm_game.started_at and arrived.game.started_at.tzinfo is not None
    seat_names = list(selectors._SEAT_FIELDS)
    assert [_fields(s, seat_names) for s in seats] == [_fields(s, seat_names) for s in Seat.objects.filter(table=table).order_by("position")]
    assert (arrived.timer.seconds, arrived.timer.paused) == (30, True) and arrived.table.turn_timer is arrived.timer
    assert (arrived.seat, arrived.parked) == (None, 1)  # this browser's seat is the one the app plays

    # A field the connect does not read is deferred, never silently a default: reading it loads it.
    with CaptureQueriesContext(connection) as ctx:
        assert arrived.table.created_at == orm_table.created_at
        assert arrived.game.first == orm_game.first
    assert len(ctx.captured_queries) == 2


def test_the_arrival_of_a_table_without_game_or_timer_and_of_an_unknown_code(tiny_table):
    table, host, secrets = tiny_table
    arrived = selectors.arrival(table.code, keys.hash_secret(secrets[0]))
    assert arrived is not None
    assert (arrived.game, arrived.timer, arrived.seat, arrived.parked) == (None, None, 0, None)
    with CaptureQueriesContext(connection) as ctx, pytest.raises(TurnTimer.DoesNotExist):
        _ = arrived.table.turn_timer  # as after select_related: known to be absent
    assert ctx.captured_queries == []
    assert [s.position for s in arrived.seats] == [0, 1]
    assert selectors.arrival(table.code, None).seat is None
    assert selectors.arrival("ZZZZZ", None) is None
