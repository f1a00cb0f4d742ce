"""Bots: the app plays a seat, at once when the host hands it one, never twice for one move."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from sixdice.tables.core import errors, keys
from sixdice.tables.models import Event, Game
from sixdice.tables.reads import table_frame
from sixdice.tables.writes import checked_path, services
from tests.live_client import connect, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bot_plays_one(monkeypatch):
    """Bots move quickly in tests and always add 1."""
    from django.conf import settings

    from tests.tinygame import TINY

    monkeypatch.setattr(settings, "SIXDICE_BOT_DELAY", 0.01)
    monkeypatch.setattr(TINY, "bot_action", lambda state, seat, rng, strength=None: {"type": "add", "n": 1}, raising=False)


@pytest.mark.asyncio
async def test_letting_the_app_play_the_seat_in_turn_moves_it_at_a_table_without_bots(tiny_table, bot_plays_one):
    """Issue 14's freeze: no bot at the table yet; the host lets the app play the seat whose turn it is."""
    table, host, secrets = tiny_table
    game = (await sync_to_async(services.start_game)(table=table)).game
    hosting, welcome = await connect(table.code, host=host)
    assert not any(seat["bot"] for seat in welcome["table"]["seats"])
    await hosting.send_json_to({"type": "host", "command": "bot", "position": game.first, "on": True, "id": 1})
    assert (await receive_until(hosting, "ack"))["ref"] == 1
    update = await receive_until(hosting, "update")  # the app moves for the seat, without any other frame
    assert update["events"][0]["actor"] == str(game.first)
    assert update["events"][0]["action"] == {"type": "add", "n": 1}
    await hosting.disconnect()
    events = await sync_to_async(lambda: list(Event.objects.filter(game=game).values_list("seq", "actor")))()
    assert events[:2] == [(1, str(game.first)), (2, "system")]


@pytest.mark.asyncio
async def test_a_bot_move_another_process_made_first_is_not_an_error_and_the_bots_go_on(
    tiny_table, bot_plays_one, monkeypatch, caplog
):
    """Two processes drive the same table's bots: the one whose move lands second loses quietly.

    The other process is played here by a move applied while this one was choosing its own.
    """
    from sixdice.tables.policies import bots
    from tests.tinygame import TINY

    table, host, secrets = tiny_table
    for position in (0, 1):
        await sync_to_async(services.set_bot)(table=table, position=position)
    raced = []

    def choose_while_another_process_moves(state, seat, rng, strength=None):
        if not raced:  # the first time only: the other process applies its move for this seat first
            raced.append(seat)
            game = table_frame.current_game(table)
            checked_path.apply_action(table_code=table.code, credentials=keys.Credentials(),
                                  action={"type": "add", "n": 2}, expected_seq=game.seq, bot_seat=seat)
        return {"type": "add", "n": 1}

    monkeypatch.setattr(TINY, "bot_action", choose_while_another_process_moves, raising=False)
    game = (await sync_to_async(services.start_game)(table=table)).game
    assert await sync_to_async(bots.step)(table.code) is True  # lost the race: not an error, look again
    assert caplog.records == [] or all(r.levelname in {"DEBUG", "INFO"} for r in caplog.records)
    actions = await sync_to_async(lambda: list(Event.objects.filter(game=game, actor__in=["0", "1"])
                                               .values_list("seq", "action")))()
    assert actions == [(1, {"type": "add", "n": 2})]  # the seat moved once, not twice

    hosting, _ = await connect(table.code, host=host)  # a connection opening kicks the bots
    for _ in range(400):
        status = await sync_to_async(lambda: Game.objects.get(pk=game.pk).status)()
        if status == Game.Status.FINISHED:
            break
        await asyncio.sleep(0.02)
    assert status == Game.Status.FINISHED  # the driver went on after losing the race
    final = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert await sync_to_async(checked_path.replay)(final) == final.state
    await hosting.disconnect()


@pytest.mark.parametrize("how", ["bot", "handover"])
def test_a_browser_without_a_seat_secret_cannot_act_for_a_bot_or_vacant_seat(tiny_table, how):
    """Bot seats and handed-over seats hold no secret; holding none must not make one theirs."""
    table, host, secrets = tiny_table
    game = services.start_game(table=table).game
    if how == "bot":
        services.set_bot(table=table, position=game.first)
    else:
        services.hand_over_seat(table=table, position=game.first)
    for credentials, code in ((keys.Credentials(), "spectator"),
                              (keys.Credentials(host_secret=host), "not_allowed")):
        with pytest.raises(errors.ServiceError) as refused:
            checked_path.apply_action(table_code=table.code, credentials=credentials,
                                  action={"type": "add", "n": 1}, expected_seq=0)
        assert refused.value.code == code
    assert not Event.objects.filter(game=game).exists()


@pytest.mark.asyncio
async def test_a_kick_while_the_driver_looks_makes_it_look_once_more(monkeypatch):
    """A move that gives a bot its turn lands while the driver is finding no bot to move: it must not stop."""
    from django.conf import settings

    from sixdice.tables.policies import bots

    monkeypatch.setattr(settings, "SIXDICE_BOT_DELAY", 0)
    loop = asyncio.get_running_loop()
    calls = []

    async def kick_now() -> None:
        bots.kick("ABCDE")

    def step(code: str) -> bool:
        calls.append(code)
        if len(calls) == 1:  # a person's move commits and kicks the bots during this look
            asyncio.run_coroutine_threadsafe(kick_now(), loop).result()
        return False  # no bot to move (as read before that move)

    monkeypatch.setattr(bots, "step", step)
    bots.kick("ABCDE")
    driver = bots._running[loop]["ABCDE"]
    assert driver.task is not None
    await driver.task
    assert calls == ["ABCDE", "ABCDE"]  # it looked again after the kick, then stopped
    assert "ABCDE" not in bots._running[loop]


def test_a_bot_seat_with_no_move_does_not_keep_the_next_bot_seat_from_moving(tiny_table, monkeypatch):
    """Two bot seats may act at once; the first has no move (a roll typed at the table), the second has one."""
    from sixdice.tables.policies import bots
    from tests.tinygame import TINY

    table, host, secrets = tiny_table
    for position in (0, 1):
        services.set_bot(table=table, position=position)
    game = services.start_game(table=table).game
    asked: list[int] = []

    def both_act(state):
        return frozenset() if state["winner"] is not None or state["ended"] else frozenset({0, 1})

    def only_the_second(state, seat, rng, strength=None):
        asked.append(seat)
        return {"type": "add", "n": 1} if seat == 1 else None

    monkeypatch.setattr(TINY, "actors", both_act, raising=False)
    monkeypatch.setattr(TINY, "bot_action", only_the_second, raising=False)
    assert bots.step(table.code) is True
    assert asked == [0, 1]
    moves = list(Event.objects.filter(game=game, seq__gt=game.seq).values_list("actor", "action"))
    assert moves[0] == ("1", {"type": "add", "n": 1})
    game.refresh_from_db()
    assert game.state["total"] == 1


def test_no_bot_seat_with_a_move_means_the_driver_stops(tiny_table, monkeypatch):
    from sixdice.tables.policies import bots
    from tests.tinygame import TINY

    table, host, secrets = tiny_table
    for position in (0, 1):
        services.set_bot(table=table, position=position)
    game = services.start_game(table=table).game
    monkeypatch.setattr(TINY, "actors", lambda state: frozenset({0, 1}), raising=False)
    monkeypatch.setattr(TINY, "bot_action", lambda state, seat, rng, strength=None: None, raising=False)
    assert bots.step(table.code) is False
    assert Event.objects.filter(game=game).count() == game.seq
