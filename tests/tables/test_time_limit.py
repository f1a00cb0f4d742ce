"""A Six-Dice game's time limit in the table frame: the time left, worked out by the server.

The page counts it down from when the frame arrived (static/js/sixdice_board.js) and does no date
arithmetic of its own, so a phone whose clock is off shows the same time left as every other.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from sixdice.tables.models import Game
from sixdice.tables.reads import table_frame, timer_clock
from sixdice.tables.reads.selectors import snapshot
from sixdice.tables.writes import services

pytestmark = pytest.mark.django_db


def _table(minutes):
    table, _host = services.create_table(game="sixdice", options={"time_limit_minutes": minutes}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    return table


def test_the_frame_says_the_time_left_of_a_game_with_a_limit():
    table = _table(45)
    assert table_frame.table_frame(table.pk)["time_limit"] is None  # the lobby: no game, no limit running
    game = services.start_game(table=table).game
    frame = table_frame.table_frame(table.pk)
    limit = frame["time_limit"]
    assert limit["minutes"] == 45
    assert 45 * 60_000 - 60_000 < limit["left_ms"] <= 45 * 60_000  # just started
    assert snapshot(table.pk, seat=0, host=False)["time_limit"]["minutes"] == 45  # every connection gets it
    # Counted from the game's start, whenever (and by whichever process) it is worked out.
    table.refresh_from_db()
    assert timer_clock.time_limit_part(table, game, at=game.started_at + timedelta(minutes=44)) == {
        "minutes": 45, "left_ms": 60_000}
    assert timer_clock.time_limit_part(table, game, at=game.started_at + timedelta(minutes=50))["left_ms"] == 0


def test_no_time_limit_without_the_option_or_once_the_game_is_over():
    plain = _table(None)
    services.start_game(table=plain)
    assert table_frame.table_frame(plain.pk)["time_limit"] is None
    table = _table(10)
    game = services.start_game(table=table).game
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    table.refresh_from_db()
    assert timer_clock.time_limit_part(table, game) is None


def test_the_connect_path_sends_it_too():
    """The welcome built on a connect (selectors.welcome_for) without a turn timer carries the time limit."""
    from sixdice.tables.reads.selectors import arrival, welcome_for

    table = _table(30)
    services.start_game(table=table)
    arrived = arrival(table.code, None)
    welcome = welcome_for(arrived, host=False, here={"connected": []}, lang="en")
    assert welcome["timer"] is None and welcome["time_limit"]["minutes"] == 30
    assert 0 < welcome["time_limit"]["left_ms"] <= 30 * 60_000
