"""The host ends a game now, at every table: the hands as they stand decide, said so in the log, the frame's
offer and the replay; only the host may; a time-limit table whose time is up ends on time."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client

from runbuster.engine import ENGINE as RUNBUSTER
from runbuster.rules import game as rb_rules
from sixdice.engine import ENGINE as SIXDICE
from sixdice.gamekit.engine import HOST, get_engine
from sixdice.gamekit.errors import GameError
from sixdice.review import exchange
from sixdice.rules import Hand, position
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Event, Game
from sixdice.tables.reads import table_frame
from sixdice.tables.writes import checked_path, services

pytestmark = pytest.mark.django_db


def _table(slug: str, *, options: dict | None = None, names=("Ana", "Bo", "Cy")):
    table, host = services.create_table(game=slug, options={"dice": "app", **(options or {})}, capacity=len(names))
    seats = [services.join_table(table=table, name=name)[1] for name in names]
    services.start_game(table=table, rng=random.Random(3))
    return table, host, seats


def _play(table, n: int) -> None:
    for i in range(n):
        game = table_frame.current_game(table)
        engine = get_engine(game.engine)
        if not engine.actors(game.state):
            return
        seat = min(engine.actors(game.state))
        action = engine.bot_action(game.state, seat, random.Random(f"{i}-{game.seq}"))
        checked_path.apply_action(table_code=table.code, credentials=Credentials(), action=action,
                                  expected_seq=game.seq, bot_seat=seat)


def _end(table, host):
    return host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="end",
                        fields={"expected_seq": table_frame.current_game(table).seq})


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_the_host_ends_the_game_now_at_a_table_without_a_time_limit(slug):
    table, host, _seats = _table(slug)
    _play(table, 4)
    frame = table_frame.table_frame(table.pk)
    assert frame["game"]["can_end"] is True and frame["time_limit"] is None
    _end(table, host)
    game = Game.objects.get(table=table)
    assert game.status == Game.Status.FINISHED
    engine = get_engine(slug)
    outcome = engine.outcome(game.state)
    assert outcome is not None and outcome.end_reason == "ended"
    assert engine.presentation.end_reasons["ended"] == "The host ended the game"
    last = Event.objects.filter(game=game).order_by("-seq").first()
    assert last is not None and last.actor == "host" and last.action["type"] == "end_now"
    assert last.text.startswith("The host ended the ")  # the game or the round
    assert "the hands as they stand decide" in last.text
    assert table_frame.table_frame(table.pk)["game"]["can_end"] is False  # over: nothing more to end
    # The replay and an export keep it: the imported game replays to the same end.
    data = exchange.export_game(game)
    assert data["events"][-1]["action"]["type"] == "end_now"
    text, line = exchange.dumps(data), last.text
    table.delete()  # an import refuses a game that is already here: import it into a database without it
    (imported,) = exchange.import_text(text)
    assert imported.status == Game.Status.FINISHED and engine.outcome(imported.state).end_reason == "ended"
    assert imported.events.order_by("-seq").first().text == line


def test_sixdice_ends_on_the_largest_absolute_value_and_in_time_once_the_limit_is_up():
    st = position([Hand(((3, -3),), (2, 1)), Hand(((2, -2),), (-3, -2, -1)), Hand(((1, -1),), ())], bank=5)
    state = SIXDICE._dump(st)  # type: ignore[attr-defined]
    assert SIXDICE.end_action(state) == {"type": "end_now"}
    assert SIXDICE.end_action(state, time_up=True) == {"type": "end_on_time"}
    over = SIXDICE.apply(state, {"type": "end_now"}, actor=HOST)
    assert SIXDICE.outcome(over).winners == (1,) and SIXDICE.outcome(over).end_reason == "ended"  # −6 beats +3
    assert SIXDICE.end_action(over) is None
    line = SIXDICE.describe(state, {"type": "end_now"}, names=["Ana", "Bo", "Cy"])
    assert line == "The host ended the game: the hands as they stand decide · Bo wins"
    for actor in (0, "system"):
        with pytest.raises(GameError, match="Only the host can end the game"):
            SIXDICE.apply(state, {"type": "end_now"}, actor=actor)  # type: ignore[arg-type]


def test_a_time_limit_table_whose_time_is_up_ends_on_time():
    table, host, _ = _table("sixdice", options={"time_limit_minutes": 5})
    Game.objects.filter(table=table).update(started_at=table_frame.current_game(table).started_at - timedelta(minutes=6))
    _end(table, host)
    game = Game.objects.get(table=table)
    assert SIXDICE.outcome(game.state).end_reason == "time"


def test_runbuster_places_those_still_in_by_the_length_of_their_hand():
    st = rb_rules.State(players=4, hands=((1, 2), (), (3, 4, 5), (6,)), current=1, finished=(), phase="roll")
    state = RUNBUSTER._dump({"names": ["A", "B", "C", "D"], "options": {"dice": "app"}}, st)  # type: ignore[attr-defined]
    over = RUNBUSTER.apply(state, {"type": "end_now"}, actor=HOST)
    out = RUNBUSTER.outcome(over)
    assert out is not None and out.places == (2, 0, 3, 1) and out.loser == 1 and out.end_reason == "ended"
    assert RUNBUSTER.final_ranks(over, players=4) == [2, 4, 1, 3]
    line = RUNBUSTER.describe(state, {"type": "end_now"}, names=["A", "B", "C", "D"])
    assert line == "The host ended the round: the hands as they stand decide; B loses the round"
    # An older state (no "ended" key) reads as before: a round that ended by a full straight.
    assert "ended" not in RUNBUSTER._state(state).to_dict()  # type: ignore[attr-defined]
    with pytest.raises(GameError, match="Only the host can end the game"):
        RUNBUSTER.apply(state, {"type": "end_now"}, actor=1)


def test_only_the_host_may_end_and_a_stale_screen_is_refused():
    table, host, seats = _table("sixdice")
    with pytest.raises(ServiceError):
        host_command(table_code=table.code, credentials=Credentials(seat_secret=seats[0]), command="end",
                     fields={"expected_seq": table_frame.current_game(table).seq})
    with pytest.raises(ServiceError) as stale:
        host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="end",
                     fields={"expected_seq": table_frame.current_game(table).seq - 1})
    assert stale.value.code == "stale"
    assert Game.objects.get(table=table).status == Game.Status.PLAYING


def test_the_host_page_offers_the_button_with_the_games_words(client: Client):
    from sixdice.tables.models import Table

    client.post("/new/runbuster/", {"players": "2", "dice": "app"})
    page = client.get(f"/t/{Table.objects.get().code}/host/").content.decode()
    assert 'data-host="end"' in page and "End the round now" in page
