"""Turn timers (issue 14): the stand-in when time runs out, three in a row, "I'm back", pausing.

The clock is injected (``at=``): nothing here waits for a timer to run out,
except the one live test, whose "30 s" runs out in 0.3 s by the test-only
speed-up, and which polls for the logged event.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from sixdice.tables.core import keys
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Event, Game, Seat, TableChange
from sixdice.tables.policies import turn_timers
from sixdice.tables.reads import table_frame, timer_clock
from sixdice.tables.writes import checked_path, services
from tests.live_client import connect, receive_until
from tests.test_only_settings import check_refused_outside_a_test_server

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tiny_bot(monkeypatch):
    """The tiny game gets a bot that always adds 1 (it has none of its own)."""
    from tests.tinygame import TINY

    monkeypatch.setattr(TINY, "bot_strengths", ("plain",), raising=False)
    monkeypatch.setattr(TINY, "bot_action", lambda state, seat, rng, strength=None: {"type": "add", "n": 1}, raising=False)


@pytest.fixture
def timed(tiny_table, tiny_bot):
    """A started tiny game at a table with a 30 s timer."""
    table, host, secrets = tiny_table
    turn_timers.configure(table, 30)
    game = services.start_game(table=table).game
    return table, host, secrets, game


def later(seconds: float = 31):
    return timezone.now() + timedelta(seconds=seconds)


def log(game: Game) -> list[tuple[int, str, str]]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "actor", "stand_in"))


def test_the_host_chooses_off_30_60_or_120_seconds():
    assert [timer_clock.clean_seconds(v) for v in ("", "0", "off", "30", "60", "120", None)] == [0, 0, 0, 30, 60, 120, 0]
    for bad in ("45", "abc", "-30", "3600"):
        with pytest.raises(ServiceError) as err:
            timer_clock.clean_seconds(bad)
        assert err.value.code == "bad_options"


def test_the_new_table_form_sets_the_timer_and_refuses_another_time(client):
    response = client.post("/new/runbuster/", {"players": "2", "dice": "app", "turn_timer": "60"})
    assert response.status_code == 302
    from sixdice.tables.models import Table

    table = Table.objects.get()
    assert table.code in response["Location"]
    assert table.turn_timer.seconds == 60 and "turn_timer" not in table.options
    from django.test import Client

    joining = Client().get(f"/t/{table.code}/")  # the lobby's join page says it
    assert "Time per action: 60 seconds" in joining.content.decode()
    refused = client.post("/new/runbuster/", {"players": "2", "dice": "app", "turn_timer": "45"})
    assert refused.status_code == 400 and Table.objects.count() == 1
    assert "30 seconds, 60 seconds or 2 minutes" in refused.content.decode()


def test_time_running_out_plays_the_seat_s_action_and_the_log_says_so(timed):
    table, _host, _secrets, game = timed
    clock = timer_clock.clock(table.pk)
    assert clock is not None and clock.seats == (game.first,) and clock.seq == 0
    assert turn_timers.fire(table.code, game_id=game.pk, seq=0, at=later(29)) is None  # not yet
    fired = turn_timers.fire(table.code, game_id=game.pk, seq=0, at=later())
    assert fired is not None and fired.seat == game.first and fired.misses == 1 and not fired.away
    assert log(game) == [(1, str(game.first), "timeout"), (2, "system", "")]

    frame_log = table_frame.table_frame(table.pk)["game"]["log"]
    assert frame_log[0]["stand_in"] == "timeout" and "stand_in" not in frame_log[1]
    # the same deadline cannot fire twice: the game's seq moved on
    assert turn_timers.fire(table.code, game_id=game.pk, seq=0, at=later()) is None
    assert len(log(game)) == 2


def test_a_move_made_just_before_the_deadline_wins_over_the_timer(timed):
    table, _host, secrets, game = timed
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[game.first]),
                          action={"type": "add", "n": 2}, expected_seq=0)
    assert turn_timers.fire(table.code, game_id=game.pk, seq=0, at=later()) is None
    assert log(game) == [(1, str(game.first), ""), (2, "system", "")]


def test_three_timeouts_in_a_row_hand_the_seat_to_the_app_until_i_m_back(timed):
    table, _host, secrets, game = timed
    first = game.first
    other = 1 - first
    fired = []
    while not (fired and fired[-1].away):
        game.refresh_from_db()
        result = turn_timers.fire(table.code, game_id=game.pk, seq=game.seq, at=later())
        assert result is not None
        fired.append(result)
    # both seats ran out each time; the first to miss three in a row is the first seat
    assert [(f.seat, f.misses) for f in fired] == [(first, 1), (other, 1), (first, 2), (other, 2), (first, 3)]
    seat = Seat.objects.get(table=table, position=first)
    assert seat.is_bot and seat.secret_hash == "" and seat.parked_secret_hash
    away = TableChange.objects.filter(table=table, kind="away").get()
    assert away.actor == "system" and away.payload == {"position": first, "misses": 3}
    clock = timer_clock.clock(table.pk)
    assert clock is not None and clock.away == (first,)
    game.refresh_from_db()
    assert first not in clock.seats  # a seat the app plays is not timed (its bot moves by itself)
    # Only that seat's own phone may come back
    with pytest.raises(ServiceError) as err:
        turn_timers.come_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[other]))
    assert err.value.code == "not_away"
    assert turn_timers.come_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[first])) == first
    seat.refresh_from_db()
    assert not seat.is_bot and seat.secret_hash == keys.hash_secret(secrets[first]) and not seat.parked_secret_hash
    assert TableChange.objects.filter(table=table).order_by("-version").first().kind == "back"
    assert timer_clock.clock(table.pk).away == ()
    with pytest.raises(ServiceError):
        turn_timers.come_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[first]))
    # nothing was lost: every event is in the log once, in order
    assert [s for s, _a, _t in log(game)] == list(range(1, game.seq + 1))


def test_the_host_giving_the_seat_back_also_ends_the_away(timed):
    table, _host, _secrets, game = timed
    for _ in range(5):
        game.refresh_from_db()
        turn_timers.fire(table.code, game_id=game.pk, seq=game.seq, at=later())
    assert timer_clock.clock(table.pk).away == (game.first,)
    services.set_bot(table=table, position=game.first, is_bot=False)
    assert timer_clock.clock(table.pk).away == ()


def test_a_move_of_its_own_starts_the_count_of_misses_again(timed):
    table, _host, secrets, game = timed
    turn_timers.fire(table.code, game_id=game.pk, seq=0, at=later())  # first seat misses once
    game.refresh_from_db()
    turn_timers.fire(table.code, game_id=game.pk, seq=game.seq, at=later())  # the other misses once
    game.refresh_from_db()
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[game.first]),
                          action={"type": "add", "n": 1}, expected_seq=game.seq)
    assert timer_clock.misses(game.pk, [0, 1]) == {1 - game.first: 1}


@pytest.mark.parametrize("stop", ["pause_table", "pause_timer", "close", "finished"])
def test_a_paused_or_closed_table_or_a_finished_game_never_fires(timed, stop):
    table, host, _secrets, game = timed
    if stop == "pause_table":
        services.set_paused(table=table, paused=True)
    elif stop == "pause_timer":
        host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="timer",
                              fields={"paused": True})
    elif stop == "close":
        services.close_table(table=table)
    else:
        checked_path.apply_action(table_code=table.code, credentials=Credentials(host_secret=host),
                              action={"type": "end"}, expected_seq=0, as_host=True)
    game.refresh_from_db()
    assert turn_timers.fire(table.code, game_id=game.pk, seq=game.seq, at=later(10_000)) is None
    clock = timer_clock.clock(table.pk)
    assert clock is None or clock.seats == ()
    assert not Event.objects.filter(game=game, stand_in="timeout").exists()


def test_the_lobby_never_fires(tiny_table, tiny_bot):
    table, _host, _secrets = tiny_table
    turn_timers.configure(table, 30)
    clock = timer_clock.clock(table.pk)
    assert clock is not None and not clock.running and clock.seats == () and clock.deadline is None


def test_resuming_gives_the_seat_in_turn_its_time_again(timed):
    table, host, _secrets, game = timed
    creds = Credentials(host_secret=host)
    host_command(table_code=table.code, credentials=creds, command="timer", fields={"paused": True})
    paused = timer_clock.clock(table.pk)
    assert paused.paused and paused.deadline is None
    host_command(table_code=table.code, credentials=creds, command="timer", fields={"paused": False})
    resumed = timer_clock.clock(table.pk)
    change = TableChange.objects.filter(table=table).order_by("-version").first()
    assert change.kind == "timer_resume"
    assert resumed.deadline == change.created_at + timedelta(seconds=30)


def test_the_timer_command_is_refused_clearly(timed):
    table, host, secrets, _game = timed
    with pytest.raises(ServiceError) as err:
        host_command(table_code=table.code, credentials=Credentials(seat_secret=secrets[0]),
                              command="timer", fields={"paused": True})
    assert err.value.code == "not_host"
    for fields in ({}, {"paused": "yes"}, {"paused": 1}):
        with pytest.raises(ServiceError) as err:
            host_command(table_code=table.code, credentials=Credentials(host_secret=host),
                                  command="timer", fields=fields)
        assert err.value.code == "bad_field"
    before = table.changes.count()
    from sixdice.tables.models import TurnTimer

    TurnTimer.objects.filter(table=table).delete()
    with pytest.raises(ServiceError) as err:
        host_command(table_code=table.code, credentials=Credentials(host_secret=host),
                              command="timer", fields={"paused": True})
    assert err.value.code == "no_timer" and table.changes.count() == before


def test_a_roll_of_real_dice_is_not_timed(db):
    table, _host = services.create_table(game="runbuster", options={"dice": "physical"}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    turn_timers.configure(table, 30)
    game = services.start_game(table=table).game
    clock = timer_clock.clock(table.pk)
    assert clock.running and clock.seats == () and clock.deadline is None
    assert turn_timers.fire(table.code, game_id=game.pk, seq=game.seq, at=later(10_000)) is None


def test_run_buster_s_bot_stands_in(db):
    table, _host = services.create_table(game="runbuster", options={"dice": "app"}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    turn_timers.configure(table, 60)
    game = services.start_game(table=table).game
    fired = turn_timers.fire(table.code, game_id=game.pk, seq=game.seq, at=later(61))
    assert fired is not None
    event = Event.objects.get(game=game, seq=fired.seq)
    assert event.stand_in == "timeout" and event.actor == str(fired.seat) and event.action["type"] == "roll"
    assert len(event.action["values"]) == 6  # the app's dice, recorded: the game replays
    game.refresh_from_db()
    assert checked_path.replay(game) == game.state


@pytest.mark.asyncio
async def test_live_the_countdown_is_sent_and_the_stand_in_arrives_as_an_update(tiny_table, tiny_bot, settings):
    """The driver: a timer frame with the seat in turn, then the stand-in's update (the timer sped up 100 times)."""
    settings.SIXDICE_TIMER_SPEEDUP = 100  # 30 s -> 0.3 s
    table, host, _secrets = tiny_table
    await sync_to_async(turn_timers.configure)(table, 30)
    hosting, welcome = await connect(table.code, host=host)
    assert welcome["timer"]["seconds"] == 30 and welcome["timer"]["seats"] == []
    await hosting.send_json_to({"type": "host", "command": "start", "id": 1})
    timer = await receive_until(hosting, "timer", timeout=10)
    game = await sync_to_async(lambda: Game.objects.get(table=table))()
    assert timer["game"] == game.pk and timer["seats"] == [game.first] and 0 <= timer["left_ms"] <= 300
    while True:  # poll for the logged stand-in
        update = await receive_until(hosting, "update", timeout=10)
        if update["events"][0].get("stand_in") == "timeout":
            break
    assert update["events"][0]["actor"] == str(game.first)
    settings.SIXDICE_TIMER_SPEEDUP = 1  # the driver waits 30 s now: nothing more fires before we stop
    await hosting.disconnect()
    stand_ins = await sync_to_async(lambda: list(Event.objects.filter(game=game, stand_in="timeout").values_list("seq", flat=True)))()
    assert stand_ins and stand_ins[0] == 1


def test_a_stand_in_is_kept_by_export_and_import_and_named_in_who_decided(db):
    from sixdice.review import exchange
    from sixdice.review.decisions import TIMEOUT, decisions
    from sixdice.review.steps import replay_steps

    table, _host = services.create_table(game="runbuster", options={"dice": "app"}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    turn_timers.configure(table, 30)
    game = services.start_game(table=table).game
    fired = turn_timers.fire(table.code, game_id=game.pk, seq=game.seq, at=later())
    assert fired is not None
    services.close_table(table=table)  # only an ended game is exported and imported
    game.refresh_from_db()
    steps = replay_steps(game)
    made = decisions(turn_timers.get_engine(game.engine), steps, [False, False], game.players)
    stood = next(d for d in made if d.seq == fired.seq)
    assert stood.kind == TIMEOUT and stood.seat == fired.seat
    assert stood.label(game.players) == f"{game.players[fired.seat]} (time ran out: the app played)"
    doc = exchange.export_game(game)
    assert [e.get("stand_in") for e in doc["events"]][fired.seq - 1] == "timeout"
    text = exchange.dumps(doc)
    table.delete()  # an import refuses a game that is already here
    [copy] = exchange.import_text(text)
    assert list(Event.objects.filter(game=copy, stand_in="timeout").values_list("seq", "actor")) == [
        (fired.seq, str(fired.seat))
    ]
    broken = text.replace('"stand_in": "timeout"', '"stand_in": "late"')
    with pytest.raises(exchange.ImportRefused) as err:
        exchange.import_text(broken)
    assert "stand_in" in str(err.value)


@pytest.mark.asyncio
async def test_live_the_phone_is_told_the_app_plays_for_it_and_i_m_back_returns_the_seat(timed):
    table, _host, secrets, game = timed
    first = game.first
    phone, welcome = await connect(table.code, seat=secrets[first])
    assert welcome["role"] == "seat" and welcome["timer"]["seats"] == [first]

    def run_out_five_times() -> None:
        for _ in range(5):
            game.refresh_from_db()
            turn_timers.fire(table.code, game_id=game.pk, seq=game.seq, at=later())

    await sync_to_async(run_out_five_times)()
    revoked = await receive_until(phone, "revoked", timeout=5)
    assert revoked["role"] == "spectator" and revoked["away_seat"] == first
    assert "I'm back" in revoked["message"] and revoked["timer"]["away"] == [first]
    await phone.send_json_to({"type": "back", "id": 7})
    assert (await receive_until(phone, "ack"))["ref"] == 7
    while True:
        snapshot = await receive_until(phone, "snapshot")
        if snapshot["role"] == "seat":
            break
    assert snapshot["seat"] == first and "away_seat" not in snapshot and snapshot["timer"]["away"] == []
    await phone.send_json_to({"type": "back", "id": 8})
    refused = await receive_until(phone, "error")
    assert refused["code"] == "not_away" and refused["ref"] == 8
    await phone.disconnect()
    changes = await sync_to_async(lambda: list(TableChange.objects.filter(table=table, kind__in=["away", "back"])
                                               .values_list("kind", "actor")))()
    assert changes == [("away", "system"), ("back", str(first))]


def test_six_dice_s_bot_stands_in_for_a_seat_s_decision(db):
    table, _host = services.create_table(game="sixdice", options={"dice": "app", "rounds": "6"}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    turn_timers.configure(table, 30)
    game = services.start_game(table=table).game
    clock = timer_clock.clock(table.pk)
    assert clock is not None and len(clock.seats) == 1  # a seat's decision is waited for, and timed
    fired = turn_timers.fire(table.code, game_id=game.pk, seq=game.seq, at=later())
    assert fired is not None and fired.seat == clock.seats[0]
    event = Event.objects.get(game=game, seq=fired.seq)
    assert event.stand_in == "timeout" and event.actor == str(fired.seat)
    game.refresh_from_db()
    assert checked_path.replay(game) == game.state


def test_the_review_s_table_log_tells_the_away_and_the_return_and_who_played(timed):
    from sixdice.review.tablelog import bots_by_event, table_log

    table, _host, secrets, game = timed
    for _ in range(5):
        game.refresh_from_db()
        turn_timers.fire(table.code, game_id=game.pk, seq=game.seq, at=later())
    turn_timers.come_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[game.first]))
    game.refresh_from_db()
    name = game.players[game.first]
    texts = [change.text for change in table_log(game)]
    assert f"Time ran out three times in a row for {name}: the app plays the seat." in texts
    assert texts[-1] == f"{name} is back (I'm back) and plays again."
    events = list(game.events.order_by("seq"))
    flags = bots_by_event(game, events)
    assert not any(flags[0])  # the stand-ins were not a bot seat's moves: the timeout kind says who


def test_the_speed_up_is_refused_unless_the_process_says_it_is_a_test_server():
    check_refused_outside_a_test_server("SIXDICE_TIMER_SPEEDUP", "100", refusal="SIXDICE_TIMER_SPEEDUP is for tests only",
                                        shown="100.0", default="1.0")


@pytest.mark.asyncio
async def test_live_the_timer_command_answers_the_host_and_refuses_the_others(timed):
    table, host, secrets, _game = timed
    phone, _welcome = await connect(table.code, seat=secrets[0])
    await phone.send_json_to({"type": "host", "command": "timer", "paused": True, "id": 1})
    refused = await receive_until(phone, "error")
    assert refused["code"] == "not_host" and refused["ref"] == 1
    hosting, _welcome = await connect(table.code, host=host)
    await hosting.send_json_to({"type": "host", "command": "timer", "paused": "yes", "id": 2})
    assert (await receive_until(hosting, "error"))["code"] == "bad_field"
    await hosting.send_json_to({"type": "host", "command": "timer", "paused": True, "id": 3})
    assert (await receive_until(hosting, "ack"))["ref"] == 3
    while True:  # everyone's table frame says the timer is paused
        snapshot = await receive_until(phone, "snapshot")
        if snapshot["timer"]["paused"]:
            break
    assert snapshot["timer"]["seats"] == [] and snapshot["timer"]["left_ms"] is None
    await phone.disconnect()
    await hosting.disconnect()
