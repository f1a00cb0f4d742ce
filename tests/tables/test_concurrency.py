"""Two actions for the same seq: exactly one lands, on SQLite as on PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Event
from sixdice.tables.writes import checked_path, services

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 40


def test_two_actions_at_the_same_seq_exactly_one_lands(tiny_table):
    table, host, secrets = tiny_table
    table.options = {"target": 10_000}
    table.save()
    game = services.start_game(table=table).game
    for _ in range(ROUNDS):
        game.refresh_from_db()
        seq, mover = game.seq, game.state["current"]
        barrier = threading.Barrier(2)
        results: list[str] = []

        def send(n: int, seq: int = seq, mover: int = mover, barrier: threading.Barrier = barrier,
                 results: list[str] = results) -> None:
            try:
                barrier.wait()
                checked_path.apply_action(
                    table_code=table.code, credentials=Credentials(seat_secret=secrets[mover]),
                    action={"type": "add", "n": n}, expected_seq=seq,
                )
                results.append("applied")
            except ServiceError as exc:
                results.append(exc.code)
            finally:
                connection.close()

        threads = [threading.Thread(target=send, args=(n,)) for n in (1, 2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == ["applied", "stale"]
    game.refresh_from_db()
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.seq + 1))  # no gap, no duplicate
    assert game.seq == 2 * ROUNDS  # each landed move plus its app roll
    assert checked_path.replay(game) == game.state
