"""A stale action is refused at the first look that shows it stale: no rules work, one receipt statement.

A phone on an old screen (or a client that floods old frames) must cost the
server as little as possible: the refusal is decided by the ``seq`` the sender
saw, after the sender, the game in play and the frame's shape are checked
(a malformed frame is still refused as malformed), and before the write's own
checks run.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sixdice.tables.core.errors import BadField, Stale
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import ActionReceipt, Event
from sixdice.tables.writes import action_receipts, checked_path, services

WORK = {"SELECT", "INSERT", "UPDATE", "DELETE"}  # statements that do work (not a transaction's own)


@pytest.fixture
def moved(tiny_table):
    """A tiny game one move in (seq 2: the add and its deal)."""
    table, host, secrets = tiny_table
    game = services.start_game(table=table).game
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[game.first]),
                              action={"type": "add", "n": 1}, expected_seq=0)
    game.refresh_from_db()
    assert game.seq == 2
    return table, secrets, game


@pytest.mark.django_db
def test_a_stale_write_is_refused_before_its_own_checks_run(moved):
    table, secrets, game = moved
    composed: list[int] = []

    def compose(turn: checked_path.Turn) -> None:
        composed.append(turn.expected_seq)

    with pytest.raises(Stale):
        checked_path.checked_write(table_code=table.code, credentials=Credentials(seat_secret=secrets[0]),
                                   expected_seq=0, compose=compose)
    assert composed == []
    checked_path.checked_write(table_code=table.code, credentials=Credentials(seat_secret=secrets[0]),
                               expected_seq=game.seq, compose=compose)  # nothing appended: nothing saved
    assert composed == [game.seq]


@pytest.mark.django_db
def test_a_malformed_frame_is_refused_as_malformed_even_when_stale(moved):
    table, secrets, game = moved
    with pytest.raises(BadField):
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[0]),
                                  action={"n": 1}, expected_seq=0)  # no type


@pytest.mark.django_db
def test_a_stale_action_with_an_id_costs_two_statements_and_keeps_its_answer(moved):
    table, secrets, game = moved
    seat = 1 - game.state["current"]  # whichever seat: the seq decides
    kwargs = dict(table_id=table.pk, sender=str(seat), action_id="tap-1", table_code=table.code,
                  credentials=Credentials(seat_secret=secrets[seat]), action={"type": "add", "n": 2},
                  expected_seq=0, as_host=False)
    with CaptureQueriesContext(connection) as done, pytest.raises(Stale) as first:
        action_receipts.apply_once(**kwargs)
    statements = [q["sql"].split()[0] for q in done.captured_queries if q["sql"].split()[0] in WORK]
    assert statements == ["SELECT", "INSERT"]  # the look, then the receipt (no rules work, no second look)
    assert not first.value.extra.get("duplicate")
    with pytest.raises(Stale) as again:  # the same tap sent again: the first answer, marked duplicate
        action_receipts.apply_once(**{**kwargs, "expected_seq": game.seq})
    assert again.value.extra.get("duplicate") is True
    receipt = ActionReceipt.objects.get(table=table, sender=str(seat), action_id="tap-1")
    assert receipt.reply["code"] == "stale"
    assert Event.objects.filter(game=game).count() == game.seq  # nothing applied
