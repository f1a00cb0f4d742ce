"""Bots: the app plays a seat, at once when the host hands it one, never twice for one move."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from sixdice.tables import services
from sixdice.tables.models import Event
from tests.live_client import connect, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def bot_plays_one(monkeypatch):
    """Bots move quickly in tests and always add 1."""
    from django.conf import settings

    from tests.tinygame import TINY

    monkeypatch.setattr(settings, "SIXDICE_BOT_DELAY", 0.01)
    monkeypatch.setattr(TINY, "bot_action", lambda state, seat, rng: {"type": "add", "n": 1}, raising=False)


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
