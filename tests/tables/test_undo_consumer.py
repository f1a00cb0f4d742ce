"""The take_back frame over the WebSocket (docs/protocol.md): an ack, everyone's update in their language,
and clear refusals that change nothing."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import sync_to_async

from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Game
from sixdice.tables.writes import checked_path, services
from tests.live_client import connect, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _runbuster_after_a_choice():
    """A real-dice Run Buster table where Player 1 has rolled and taken a straight (nobody acted since)."""
    table, host = services.create_table(game="runbuster", options={"dice": "physical"}, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    game = services.start_game(table=table, rng=random.Random(1)).game
    first = game.first
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[first]),
                          action={"type": "roll", "values": [1, 2, 3, 3, 5, 6]}, expected_seq=0)
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[first]),
                          action={"type": "choose", "straight": [1, 2, 3]}, expected_seq=1)
    return table, secrets, first


async def test_a_take_back_frame_is_acked_and_everyone_reads_it_in_their_language():
    table, secrets, first = await sync_to_async(_runbuster_after_a_choice)()
    mover, _ = await connect(table.code, seat=secrets[first])
    other, _ = await connect(table.code, seat=secrets[1 - first], lang="fr")
    await mover.send_json_to({"type": "take_back", "id": "tb", "seq": 1})
    error = await receive_until(mover, "error")  # the phone saw seq 1, the table is at 2
    assert error["code"] == "stale" and error["ref"] == "tb"
    await mover.send_json_to({"type": "take_back", "id": "tb2", "seq": 2})
    assert await receive_until(mover, "ack") == {"type": "ack", "ref": "tb2"}
    name = ("Ana", "Bo")[first]
    update = await receive_until(mover, "update")
    [event] = update["events"]
    assert event["actor"] == str(first) and event["action"] == {"type": "undo", "to": 1, "seat": first}
    assert event["text"].startswith(f"{name} took back their ") and "#" not in event["text"]
    french = (await receive_until(other, "update"))["events"][0]["text"]
    assert french.startswith(f"{name} a repris son ") and "n°" not in french
    # Again: a take-back is not taken back.
    await mover.send_json_to({"type": "take_back", "id": "tb3", "seq": 3})
    error = await receive_until(mover, "error")
    assert error["code"] == "cannot_take_back" and "only your own last move" in error["message"]
    await other.send_json_to({"type": "take_back", "seq": 3})
    assert (await receive_until(other, "error"))["code"] == "cannot_take_back"
    await other.send_json_to({"type": "take_back"})
    assert (await receive_until(other, "error"))["code"] == "bad_field"
    for comm in (mover, other):
        await comm.disconnect()
    assert await sync_to_async(lambda: Game.objects.get(table=table).seq)() == 3
