"""Database queries stay bounded: at most 5 per applied action, whatever the game; a few per table change."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from runbuster.engine import RunBusterEngine
from sixdice.tables import services
from sixdice.tables.models import Event
from sixdice.tables.services import Credentials

MAX_QUERIES = 5  # BEGIN, the SELECT of table, game and seat, the conditional UPDATE, the INSERT of the events, COMMIT

# Real transactions, as the server runs them: inside a test transaction every
# atomic block would add SAVEPOINT/RELEASE statements the server never sends.
pytestmark = pytest.mark.django_db(transaction=True)


def _apply_counted(**kwargs):
    with CaptureQueriesContext(connection) as ctx:
        applied = services.apply_action(**kwargs)
    return applied, [q["sql"] for q in ctx.captured_queries]


def test_tiny_game_action_takes_at_most_five_queries(tiny_table):
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


def test_run_buster_actions_take_at_most_five_queries(db):
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


# ---------------------------------------------------------------- table changes

# BEGIN, the change itself, the version bump, reading it back, the log row, re-reading the table, COMMIT
MAX_CHANGE_QUERIES = 7
MAX_FRAME_QUERIES = 6  # table, seats, presence, finished games, current game, its last events


def test_a_table_change_costs_a_few_statements_and_one_frame_for_everyone(tiny_table, monkeypatch):
    """The frame is computed once per change, after the commit; connections add no query to it.

    (Before table versions every connection re-read a snapshot, about 9 queries each.)
    """
    from sixdice.tables import broadcast, selectors

    table, _host, _secrets = tiny_table
    services.start_game(table=table, rng=random.Random(3))
    sent = []
    monkeypatch.setattr(broadcast, "send_now", lambda code, message: sent.append(message))
    with CaptureQueriesContext(connection) as ctx:
        services.set_paused(table=table, paused=True)
    frame_queries = [q["sql"] for q in ctx.captured_queries]
    with CaptureQueriesContext(connection) as only_frame:
        selectors.table_frame(table.pk)
    assert len(only_frame.captured_queries) <= MAX_FRAME_QUERIES, "\n".join(q["sql"] for q in only_frame)
    change = len(frame_queries) - len(only_frame.captured_queries)
    assert change <= MAX_CHANGE_QUERIES, "\n".join(frame_queries)
    assert [m["type"] for m in sent] == ["table.frame"]  # one message for the whole table
    assert sent[0]["frame"]["table"]["paused"] is True
