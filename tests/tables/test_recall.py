"""A seat or host back at once gets its welcome from the cached table frame, with no database trip.

``live/connect.py``, ``Recall``: a browser this process let in moments ago
(a seat or the host, with a live session) that connects again while nothing
was written to the table gets its welcome before any statement; its
presence row is written after.  Anything written to the table since, a
spectator, or a table with a turn timer takes the one trip as before, so no
one is ever shown an old table or a seat they no longer hold.
"""

from __future__ import annotations

import random

import pytest
from asgiref.sync import sync_to_async

from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.consumers import TableConsumer
from sixdice.tables.models import Connection
from sixdice.tables.reads import selectors
from sixdice.tables.writes import checked_path, services
from tests.live_client import make_session, receive_until
from tests.tables.statements import Statements

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class WelcomedStatements(Statements):
    """Every SQL statement any thread runs, and where each welcome fell among them."""

    def __init__(self, monkeypatch):
        super().__init__(monkeypatch)
        self.welcomed: list[int] = []  # how many statements had run when each welcome was sent
        send_table = TableConsumer._send_table

        async def noted(consumer, payload, **kwargs):
            if payload.get("type") == "welcome":
                self.welcomed.append(len(self.sql))
            await send_table(consumer, payload, **kwargs)

        monkeypatch.setattr(TableConsumer, "_send_table", noted)

    async def connect(self, code: str, key: str | None):
        """The socket, its welcome, the statements run before the welcome arrived, and the connect's whole count."""
        comm, welcome, before = await self.open(code, key)
        await comm.send_json_to({"type": "ping", "id": "p"})  # the connect's own work is done before this is read
        await receive_until(comm, "pong")
        return comm, welcome, self.sql[before:self.welcomed[-1]]


@pytest.fixture
def table_in_play(tiny_table):
    table, host, secrets = tiny_table
    game = services.start_game(table=table, rng=random.Random(3)).game
    return table, host, secrets, game, [make_session(table.code, seat=secret) for secret in secrets]


async def test_a_seat_back_at_once_is_welcomed_before_any_statement_and_is_present(table_in_play, monkeypatch):
    table, _host, _secrets, _game, keys = await sync_to_async(lambda: table_in_play)()
    statements = WelcomedStatements(monkeypatch)
    first, welcome, trip = await statements.connect(table.code, keys[0])
    assert trip, "the first connect takes the trip"
    await first.disconnect()
    again, welcome2, none = await statements.connect(table.code, keys[0])
    assert none == [], "\n".join(none)
    assert (welcome2["role"], welcome2["seat"]) == ("seat", 0)
    fresh = await sync_to_async(selectors.snapshot)(table.pk, seat=0, host=False)
    assert {**welcome2, "type": None, "presence": None} == {
        **fresh, "type": None, "presence": None, "game": {**fresh["game"], "log": welcome2["game"]["log"]},
    }
    assert 0 in welcome2["presence"]["connected"]
    # Its presence row is written after the welcome (two statements, and no more for the connect): the seat
    # counts as here (its hint stays private).
    assert [sql.split()[0] for sql in statements.sql[statements.welcomed[-1]:]][:2] == ["INSERT", "SELECT"]
    assert await sync_to_async(lambda: Connection.objects.filter(table=table, seat_position=0).count())() == 1
    await again.disconnect()


async def test_a_write_to_the_table_since_sends_the_seat_through_the_database(table_in_play, monkeypatch):
    table, _host, secrets, game, keys = await sync_to_async(lambda: table_in_play)()
    statements = WelcomedStatements(monkeypatch)
    first, welcome, _trip = await statements.connect(table.code, keys[0])
    await first.disconnect()

    def move() -> None:
        game.refresh_from_db()
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[game.state["current"]]),
                                  action={"type": "add", "n": 1}, expected_seq=game.seq, rng=random.Random(5))

    await sync_to_async(move)()
    again, welcome2, trip = await statements.connect(table.code, keys[0])
    assert trip, "a write since: the trip again"
    assert welcome2["game"]["seq"] == welcome["game"]["seq"] + 2
    await again.disconnect()


async def test_a_seat_handed_over_is_not_recalled_as_that_seat(table_in_play, monkeypatch):
    table, _host, _secrets, _game, keys = await sync_to_async(lambda: table_in_play)()
    statements = WelcomedStatements(monkeypatch)
    first, _welcome, _trip = await statements.connect(table.code, keys[1])
    await first.disconnect()
    await sync_to_async(services.hand_over_seat)(table=table, position=1)
    again, welcome, trip = await statements.connect(table.code, keys[1])
    assert trip and (welcome["role"], welcome["seat"]) == ("spectator", None)
    await again.disconnect()


async def test_spectators_and_made_up_sessions_always_take_the_trip(table_in_play, monkeypatch):
    table, _host, _secrets, _game, _keys = await sync_to_async(lambda: table_in_play)()
    watcher = await sync_to_async(make_session)(table.code)
    statements = WelcomedStatements(monkeypatch)
    for key in (watcher, watcher, "0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"):
        comm, welcome, trip = await statements.connect(table.code, key)
        assert trip and welcome["role"] == "spectator"
        await comm.disconnect()


async def test_a_refusals_snapshot_comes_from_the_frame_noted_current_until_the_table_is_written(
    table_in_play, monkeypatch,
):
    """A stale move brings the table as it is now: from the frame noted current, read again after a write."""
    table, _host, secrets, game, keys = await sync_to_async(lambda: table_in_play)()
    statements = WelcomedStatements(monkeypatch)
    comm, welcome, _trip = await statements.connect(table.code, keys[0])
    stale = {"type": "action", "seq": welcome["game"]["seq"] + 5, "action": {"type": "add", "n": 1}}
    reads: list[int] = []  # the snapshots read from the database
    real = selectors.snapshot

    def counted(*args, **kwargs):
        reads.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(selectors, "snapshot", counted)

    async def refused() -> tuple[dict, int]:
        before = len(reads)
        await comm.send_json_to(stale)
        error = await receive_until(comm, "error")
        assert error["code"] == "stale"
        return error["snapshot"], len(reads) - before

    first, read = await refused()
    second, read_again = await refused()
    assert read == read_again == 0, "the frame the start's writer computed is noted current: no read"
    fresh = await sync_to_async(real)(table.pk, seat=0, host=False)
    assert {**second, "presence": None} == {**fresh, "presence": None} == {**first, "presence": None}

    def move() -> None:
        game.refresh_from_db()
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[game.state["current"]]),
                                  action={"type": "add", "n": 1}, expected_seq=game.seq, rng=random.Random(5))

    await sync_to_async(move)()
    third, read = await refused()
    assert read == 1 and third["game"]["seq"] == second["game"]["seq"] + 2  # a write since: read again, as it is now
    fourth, read = await refused()
    assert read == 0 and fourth == third  # and noted current again
    await comm.disconnect()
