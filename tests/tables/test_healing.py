"""Presence turns "away" (issue 14): a connection that stopped sending heartbeats is shown gone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import timezone

from sixdice.tables.core import keys
from sixdice.tables.models import Connection
from sixdice.tables.writes import services
from tests.live_client import connect, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def started(tiny_table):
    table, host, secrets = tiny_table
    game = services.start_game(table=table).game
    return table, host, secrets, game


def _silence(table_id: int, seat: int) -> None:
    """As if the seat's phone sent no heartbeat for longer than the presence timeout (a half-open socket)."""
    old = timezone.now() - timedelta(seconds=settings.SIXDICE_PRESENCE_TIMEOUT + 1)
    Connection.objects.filter(table_id=table_id, seat_position=seat).update(last_seen=old)


async def test_a_silent_seat_turns_away_at_the_next_heartbeat_of_anyone(started):
    table, host, secrets, game = started
    hosting, _ = await connect(table.code, host=host)
    bo, _ = await connect(table.code, seat=secrets[1])
    presence = await receive_until(hosting, "presence")
    while 1 not in presence["connected"]:
        presence = await receive_until(hosting, "presence")
    await sync_to_async(_silence)(table.pk, 1)
    await hosting.send_json_to({"type": "ping", "id": 1})
    assert (await receive_until(hosting, "pong"))["ref"] == 1
    presence = await receive_until(hosting, "presence")
    assert 1 not in presence["connected"] and presence["host"] is True
    # Its socket is still open: when it speaks again it is back.
    await bo.send_json_to({"type": "ping", "id": 2})
    presence = await receive_until(hosting, "presence")
    assert 1 in presence["connected"]
    for comm in (hosting, bo):
        await comm.disconnect()


async def test_let_the_app_play_then_give_the_seat_back_to_the_same_phone(started):
    table, host, secrets, game = started
    hosting, _ = await connect(table.code, host=host)
    bo, welcome = await connect(table.code, seat=secrets[1])
    assert welcome["role"] == "seat"
    await hosting.send_json_to({"type": "host", "command": "bot", "position": 1, "on": True, "id": 1})
    revoked = await receive_until(bo, "revoked")
    assert revoked["role"] == "spectator" and revoked["table"]["seats"][1]["bot"] is True
    seat = await sync_to_async(services.seat_for)(table, keys.Credentials(seat_secret=secrets[1]))
    assert seat is None  # while the app plays it, the phone cannot act for the seat
    await bo.send_json_to({"type": "action", "seq": 0, "action": {"type": "add", "n": 1}, "id": 5})
    assert (await receive_until(bo, "error"))["code"] == "spectator"
    await hosting.send_json_to({"type": "host", "command": "bot", "position": 1, "on": False, "id": 2})
    snapshot = await receive_until(bo, "snapshot")
    while snapshot["table"]["seats"][1]["bot"]:
        snapshot = await receive_until(bo, "snapshot")
    assert (snapshot["role"], snapshot["seat"]) == ("seat", 1)  # the same phone holds it again
    seat = await sync_to_async(services.seat_for)(table, keys.Credentials(seat_secret=secrets[1]))
    assert seat is not None and seat.position == 1
    for comm in (hosting, bo):
        await comm.disconnect()


async def test_a_hand_over_link_comes_with_a_qr_code(started):
    table, host, secrets, game = started
    hosting, _ = await connect(table.code, host=host)
    await hosting.send_json_to({"type": "host", "command": "handover", "position": 0, "id": 1})
    reply = await receive_until(hosting, "handover")
    assert reply["url_full"] == "http://testserver" + reply["url"]
    assert reply["qr"].startswith("<svg") and "</svg>" in reply["qr"]
    await hosting.disconnect()
