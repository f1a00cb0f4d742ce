"""Database queries per applied action stay bounded (at most 6), whatever the game."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from runbuster.engine import RunBusterEngine
from sixdice.tables import services
from sixdice.tables.models import Event
from sixdice.tables.services import Credentials

MAX_QUERIES = 6

# Real transactions, as the server runs them: inside a test transaction every
# atomic block would add SAVEPOINT/RELEASE statements the server never sends.
pytestmark = pytest.mark.django_db(transaction=True)


def _apply_counted(**kwargs):
    with CaptureQueriesContext(connection) as ctx:
        applied = services.apply_action(**kwargs)
    return applied, [q["sql"] for q in ctx.captured_queries]


def test_tiny_game_action_takes_at_most_six_queries(tiny_table):
    table, _host, secrets = tiny_table
    game = services.start_game(table=table, rng=random.Random(3)).game
    for _ in range(3):
        game.refresh_from_db()
        seat = game.state["current"]
        applied, queries = _apply_counted(
            table_code=table.code,
            credentials=Credentials(seat_secret=secrets[seat]),
            action={"type": "add", "n": 1},
            expected_seq=game.seq,
            rng=random.Random(5),
        )
        assert len(queries) <= MAX_QUERIES, "\n".join(queries)
        assert [e.seq for e in applied.events] == [game.seq + 1, game.seq + 2]  # the add and the app's roll
    game.refresh_from_db()
    assert game.seq == 6
    assert list(Event.objects.filter(game=game).values_list("seq", flat=True)) == list(range(1, 7))


def test_run_buster_actions_take_at_most_six_queries(db):
    engine = RunBusterEngine()
    table, _host = services.create_table(game="runbuster", options={"dice": "app"}, capacity=3)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo", "Cy")]
    game = services.start_game(table=table, rng=random.Random(7)).game
    rng = random.Random(11)
    kinds = set()
    for _ in range(12):
        game.refresh_from_db()
        if game.status != "playing":
            break
        seat = game.state["current"]
        view = engine.view(game.state, seat)
        if view["phase"] == "roll":
            action = {"type": "roll"}
        elif view["phase"] == "choose":
            action = {"type": "choose", "straight": view["hand_options"][0]}
        else:
            action = {"type": "end_turn"}
        applied, queries = _apply_counted(
            table_code=table.code,
            credentials=Credentials(seat_secret=secrets[seat]),
            action=action,
            expected_seq=game.seq,
            rng=rng,
        )
        assert len(queries) <= MAX_QUERIES, f"{action['type']}:\n" + "\n".join(queries)
        assert applied.game.seq == game.seq + 1
        kinds.add(action["type"])
    assert {"roll", "end_turn"} <= kinds
