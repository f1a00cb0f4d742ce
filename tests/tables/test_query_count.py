"""Database queries stay bounded: at most 5 per applied action, whatever the game; a few per table change."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from runbuster.engine import RunBusterEngine
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Event
from sixdice.tables.reads import table_frame
from sixdice.tables.writes import action_receipts, checked_path, services
from tests.tables.statements import Statements

MAX_QUERIES = 5  # BEGIN, the SELECT of table, game and seat, the conditional UPDATE, the INSERT of the events, COMMIT

# Real transactions, as the server runs them: inside a test transaction every
# atomic block would add SAVEPOINT/RELEASE statements the server never sends.
pytestmark = pytest.mark.django_db(transaction=True)


def _counted(call, **kwargs):
    """What ``call(**kwargs)`` returned, and the SQL statements it ran."""
    with CaptureQueriesContext(connection) as ctx:
        result = call(**kwargs)
    return result, [q["sql"] for q in ctx.captured_queries]


def _apply_counted(**kwargs):
    return _counted(checked_path.apply_action, **kwargs)


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
    from sixdice.tables.writes import after_commit

    table, _host, _secrets = tiny_table
    services.start_game(table=table, rng=random.Random(3))
    sent = []
    monkeypatch.setattr(after_commit, "send_now", lambda code, message: sent.append(message))
    with CaptureQueriesContext(connection) as ctx:
        services.set_paused(table=table, paused=True)
    frame_queries = [q["sql"] for q in ctx.captured_queries]
    table_frame.FRAMES.clear()  # computed from scratch, as in the change (no part of it remembered)
    with CaptureQueriesContext(connection) as only_frame:
        table_frame.table_frame(table.pk)
    assert len(only_frame.captured_queries) <= MAX_FRAME_QUERIES, "\n".join(q["sql"] for q in only_frame)
    change = len(frame_queries) - len(only_frame.captured_queries)
    assert change <= MAX_CHANGE_QUERIES, "\n".join(frame_queries)
    assert [m["type"] for m in sent] == ["table.frame"]  # one message for the whole table
    assert sent[0]["frame"]["table"]["paused"] is True


# ---------------------------------------------------------------- connects

MAX_CONNECT_STATEMENTS = 6  # issue 19; the session lookup counts, and the shared cache's as served (below)


@pytest.fixture
def served_cache(settings, transactional_db):
    """The cache as the app is served with the embedded defaults: a table in the database (settings.CACHES).

    Its lookups are statements too: the flood cool-down (flood_control.py) and the
    guessing counters (guess_limits.py), read together in one lookup at every
    connect.
    """
    from django.core.cache import cache
    from django.core.management import call_command

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "sixdice_cache"}}
    call_command("createcachetable", verbosity=0)  # the test database was migrated with the tests' memory cache
    cache.clear()
    yield


class _Statements(Statements):
    async def connect(self, code, key, *, query=""):
        """Open the table's socket with an existing session; the welcome and the statements it took."""
        comm, welcome, before = await self.open(code, key, query=query)
        return comm, welcome, self.sql[before:]


def _connect_fixture(tiny_table, n_spectators=0):
    from tests.live_client import make_session

    table, host, secrets = tiny_table
    game = services.start_game(table=table, rng=random.Random(3)).game
    keys = [make_session(table.code, seat=secret) for secret in secrets]
    return table, host, secrets, game, keys


@pytest.mark.asyncio
async def test_a_connect_takes_at_most_six_statements_and_the_next_at_the_table_five(
    tiny_table, monkeypatch, served_cache,
):
    """The flood cool-down and guess counters 1, session 1, the table with its game and seats 1, presence row 1,
    who is here 1.

    The first connect at a table in a process reads the log too (none at seq 0); the next
    take the frame this process remembers.  (Before issue 19 a connect ran 22: session 1,
    identify 3, register 6, welcome 9, presence 3.)
    """
    from asgiref.sync import sync_to_async

    from sixdice.tables.reads import selectors

    table, _host, _secrets, game, keys = await sync_to_async(_connect_fixture)(tiny_table)
    await sync_to_async(table_frame.FRAMES.clear)()  # as in a process that never saw this table
    statements = _Statements(monkeypatch)
    first, welcome, cold = await statements.connect(table.code, keys[0])
    assert len(cold) <= MAX_CONNECT_STATEMENTS, "\n".join(cold)
    assert (welcome["role"], welcome["seat"]) == ("seat", 0)
    second, welcome2, warm = await statements.connect(table.code, keys[1])
    assert len(warm) <= 5, "\n".join(warm)
    assert (welcome2["role"], welcome2["seat"]) == ("seat", 1)
    assert welcome2["presence"]["connected"] == [0, 1]  # counted at this connect, not remembered
    watcher, welcome3, spectator = await statements.connect(table.code, None)
    assert len(spectator) <= 4, "\n".join(spectator)  # no session to read
    assert (welcome3["role"], welcome3["presence"]["watching"]) == ("spectator", 1)
    # What the remembered frame gives is what a frame computed afresh gives.
    fresh = await sync_to_async(selectors.snapshot)(table.pk, seat=1, host=False)
    assert {**welcome2, "type": None, "presence": None} == {
        **fresh, "type": None, "presence": None, "game": {**fresh["game"], "log": welcome2["game"]["log"]},
    }
    for comm in (first, second, watcher):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_connect_with_a_made_up_session_id_costs_its_session_read_and_no_more(
    tiny_table, monkeypatch, served_cache,
):
    """Its flood cool-down is then its address's (flood_control.FloodKey): looked up in the same lookup as the session's."""
    from asgiref.sync import sync_to_async

    table, _host, _secrets, game, keys = await sync_to_async(_connect_fixture)(tiny_table)
    statements = _Statements(monkeypatch)
    watcher, _welcome, spectator = await statements.connect(table.code, None)
    invented, welcome, made_up = await statements.connect(table.code, "0123456789abcdef0123456789abcdef")
    assert len(made_up) <= len(spectator) + 1, "\n".join(made_up)  # the session's row, not found
    assert (welcome["role"], welcome["seat"]) == ("spectator", None)
    for comm in (watcher, invented):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_connect_after_a_move_this_process_did_not_see_stays_within_six_statements(
    tiny_table, monkeypatch, served_cache,
):
    """A move applied elsewhere costs the log's query: the rest of the frame is still this process's."""
    from asgiref.sync import sync_to_async


    table, host, secrets, game, keys = await sync_to_async(_connect_fixture)(tiny_table)
    statements = _Statements(monkeypatch)
    first, welcome, _ = await statements.connect(table.code, keys[0])

    def move() -> None:
        game.refresh_from_db()
        seat = game.state["current"]
        checked_path.apply_action(
            table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]), action={"type": "add", "n": 1},
            expected_seq=game.seq, rng=random.Random(5),
        )
        table_frame.FRAMES.clear()  # another process applied it

    await sync_to_async(move)()
    second, welcome2, after_move = await statements.connect(table.code, keys[1])
    assert len(after_move) <= MAX_CONNECT_STATEMENTS, "\n".join(after_move)
    assert welcome2["game"]["seq"] == 2 and [e["seq"] for e in welcome2["game"]["log"]] == [1, 2]
    # Reconnecting from seq 1: the missed event comes from the remembered log, no query.
    third, welcome3, reconnect = await statements.connect(table.code, keys[1], query=f"?game={game.pk}&since=1")
    assert len(reconnect) <= 5, "\n".join(reconnect)
    assert [e["seq"] for e in welcome3["missed"]] == [2]
    for comm in (first, second, third):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_after_a_finished_game_a_first_connect_also_reads_the_standings(monkeypatch, served_cache):
    """The one case over six: a process that never saw the table, after a finished game (documented)."""
    from asgiref.sync import sync_to_async

    from tests.live_client import make_session

    def finished_then_rematch():
        table, _host = services.create_table(game="tiny", options={"target": 2}, capacity=2)
        secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
        game = services.start_game(table=table, rng=random.Random(3)).game
        while game.status == "playing":
            seat = game.state["current"]
            checked_path.apply_action(
                table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                action={"type": "add", "n": 2}, expected_seq=game.seq, rng=random.Random(5),
            )
            game.refresh_from_db()
        table.refresh_from_db()
        services.start_game(table=table, rng=random.Random(4))
        table_frame.FRAMES.clear()
        return table, [make_session(table.code, seat=s) for s in secrets]

    table, keys = await sync_to_async(finished_then_rematch)()
    statements = _Statements(monkeypatch)
    first, welcome, cold = await statements.connect(table.code, keys[0])
    assert len(cold) <= MAX_CONNECT_STATEMENTS + 1, "\n".join(cold)
    assert welcome["game"]["number"] == 2
    assert sum(s["wins"] for s in welcome["standings"]) == 1
    second, _welcome, warm = await statements.connect(table.code, keys[1])
    assert len(warm) <= 5, "\n".join(warm)
    for comm in (first, second):
        await comm.disconnect()


def test_a_phones_action_with_its_client_id_adds_only_the_receipt(tiny_table):
    """The consumer's path (``action_receipts.apply_once``): the move's statements and one INSERT of its receipt."""
    table, _host, secrets = tiny_table
    game = services.start_game(table=table, rng=random.Random(3)).game
    for k in range(3):
        game.refresh_from_db()
        seat = game.state["current"]
        outcome, queries = _counted(
            action_receipts.apply_once, table_id=table.pk, sender=str(seat), action_id=f"tap-{k}", table_code=table.code,
            credentials=Credentials(seat_secret=secrets[seat]), action={"type": "add", "n": 1},
            expected_seq=game.seq, as_host=False,
        )
        assert outcome.applied is not None
        assert len(queries) <= MAX_QUERIES + 1, "\n".join(queries)
        assert not any("SAVEPOINT" in q for q in queries), "\n".join(queries)
