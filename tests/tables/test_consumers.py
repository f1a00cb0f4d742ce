"""The WebSocket protocol (docs/protocol.md) through WebsocketCommunicator."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from sixdice.asgi import application
from sixdice.tables.core import keys
from sixdice.tables.models import Connection, Game
from sixdice.tables.writes import checked_path, services
from tests.live_client import connect, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def started(tiny_table):
    table, host, secrets = tiny_table
    game = services.start_game(table=table).game
    return table, host, secrets, game


async def test_welcome_says_who_you_are(started):
    table, host, secrets, game = started
    seat, welcome = await connect(table.code, seat=secrets[1])
    assert welcome["type"] == "welcome"
    assert (welcome["role"], welcome["seat"]) == ("seat", 1)
    assert welcome["game"]["seq"] == 0 and welcome["game"]["view"]["total"] == 0
    assert [s["name"] for s in welcome["table"]["seats"]] == ["Ana", "Bo"]
    spectator, welcome = await connect(table.code)
    assert (welcome["role"], welcome["seat"]) == ("spectator", None)
    hosting, welcome = await connect(table.code, host=host)
    assert welcome["role"] == "host" and welcome["host"] is True
    for comm in (seat, spectator, hosting):
        await comm.disconnect()


async def test_a_move_reaches_everyone_with_its_seq(started):
    table, host, secrets, game = started
    mover, _ = await connect(table.code, seat=secrets[game.first])
    other, _ = await connect(table.code, seat=secrets[1 - game.first])
    watcher, _ = await connect(table.code)
    await mover.send_json_to({"type": "action", "id": 7, "seq": 0, "action": {"type": "add", "n": 2}})
    ack = await receive_until(mover, "ack")
    assert ack == {"type": "ack", "ref": 7, "seq": 2}
    for comm in (mover, other, watcher):
        update = await receive_until(comm, "update")
        assert update["seq"] == 2
        assert [e["seq"] for e in update["events"]] == [1, 2]
        assert update["events"][0]["text"].endswith("adds 2")
        assert update["view"]["total"] == 2
    for comm in (mover, other, watcher):
        await comm.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('{"kind": "action"}', "bad_field"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "action", "seq": 0}', "bad_field"),
        ('{"type": "action", "seq": "0", "action": {"type": "add", "n": 1}}', "bad_field"),
        ('{"type": "action", "seq": true, "action": {"type": "add", "n": 1}}', "bad_field"),
        ('{"type": "action", "seq": 0, "action": {"type": "add", "n": 1}, "as_host": "yes"}', "bad_field"),
        ('{"type": "resync"}', "bad_field"),
        ('{"type": "host", "command": "explode"}', "not_host"),
        ('{"type": "ping", "id": [1]}', "bad_field"),
    ],
)
async def test_bad_frames_get_an_error_and_change_nothing(started, frame, code):
    table, host, secrets, game = started
    comm, _ = await connect(table.code, seat=secrets[game.first])
    await comm.send_to(text_data=frame)
    error = await receive_until(comm, "error")
    assert error["code"] == code and error["message"]
    await comm.send_json_to({"type": "ping", "id": "still-there"})
    assert (await receive_until(comm, "pong"))["ref"] == "still-there"
    await comm.disconnect()
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).seq)() == 0


async def test_frames_over_64_kib_are_refused(started):
    table, host, secrets, game = started
    comm, _ = await connect(table.code, seat=secrets[game.first])
    await comm.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * 70_000}))
    assert (await receive_until(comm, "error"))["code"] == "too_large"
    await comm.send_to(bytes_data=b"{}")
    assert (await receive_until(comm, "error"))["code"] == "bad_json"
    await comm.disconnect()


async def test_out_of_turn_spectator_and_non_host_are_refused(started):
    table, host, secrets, game = started
    waiting, _ = await connect(table.code, seat=secrets[1 - game.first])
    await waiting.send_json_to({"type": "action", "seq": 0, "action": {"type": "add", "n": 1}})
    error = await receive_until(waiting, "error")
    assert error["code"] == "not_allowed" and "turn" in error["message"]
    assert error["snapshot"]["game"]["seq"] == 0
    await waiting.send_json_to({"type": "action", "seq": 0, "as_host": True, "action": {"type": "end"}})
    assert (await receive_until(waiting, "error"))["code"] == "not_host"
    await waiting.send_json_to({"type": "host", "command": "pause"})
    assert (await receive_until(waiting, "error"))["code"] == "not_host"
    spectator, _ = await connect(table.code)
    await spectator.send_json_to({"type": "action", "seq": 0, "action": {"type": "add", "n": 1}})
    assert (await receive_until(spectator, "error"))["code"] == "spectator"
    for comm in (waiting, spectator):
        await comm.disconnect()
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).seq)() == 0


async def test_unknown_table_gets_an_error_frame_then_close(db):
    comm = WebsocketCommunicator(application, "/ws/t/NOPE9/", headers=[(b"host", b"testserver")])
    connected, _ = await comm.connect()
    assert connected
    error = await comm.receive_json_from()
    assert error["code"] == "unknown_table"
    closed = await comm.receive_output()
    assert closed == {"type": "websocket.close", "code": 4404}


async def test_foreign_origin_is_refused_at_the_handshake(started):
    table, *_ = started
    comm = WebsocketCommunicator(
        application, f"/ws/t/{table.code}/", headers=[(b"host", b"testserver"), (b"origin", b"https://evil.example")]
    )
    connected, _ = await comm.connect()
    assert not connected


async def test_stale_action_gets_the_current_state(started):
    table, host, secrets, game = started
    comm, _ = await connect(table.code, seat=secrets[game.first])
    await comm.send_json_to({"type": "action", "seq": 3, "action": {"type": "add", "n": 1}})
    error = await receive_until(comm, "error")
    assert error["code"] == "stale"
    assert error["snapshot"]["game"]["seq"] == 0
    await comm.disconnect()


async def test_resync_after_a_missed_broadcast(started):
    table, host, secrets, game = started
    comm, _ = await connect(table.code, seat=secrets[1 - game.first])
    # A move is applied while this client's broadcast is lost (applied outside any consumer).
    await sync_to_async(checked_path.apply_action)(
        table_code=table.code, credentials=keys.Credentials(seat_secret=secrets[game.first]),
        action={"type": "add", "n": 1}, expected_seq=0,
    )
    await receive_until(comm, "update")  # the in-memory layer did deliver it; ask again as if it had not
    await comm.send_json_to({"type": "resync", "game": game.pk, "since": 0, "id": 1})
    reply = await receive_until(comm, "update")
    assert [e["seq"] for e in reply["events"]] == [1, 2] and reply["ref"] == 1
    await comm.send_json_to({"type": "resync", "game": game.pk + 999, "since": 0})
    assert (await receive_until(comm, "snapshot"))["game"]["seq"] == 2
    await comm.disconnect()


async def test_reconnect_with_last_seq_gets_the_missed_events(started):
    table, host, secrets, game = started
    await sync_to_async(checked_path.apply_action)(
        table_code=table.code, credentials=keys.Credentials(seat_secret=secrets[game.first]),
        action={"type": "add", "n": 2}, expected_seq=0,
    )
    comm, welcome = await connect(table.code, query=f"?game={game.pk}&since=1", seat=secrets[0])
    assert welcome["game"]["seq"] == 2
    assert [e["seq"] for e in welcome["missed"]] == [2]
    await comm.disconnect()


async def test_presence_follows_connections(started):
    table, host, secrets, game = started
    hosting, welcome = await connect(table.code, host=host)
    seat, _ = await connect(table.code, seat=secrets[1])
    presence = await receive_until(hosting, "presence")
    while 1 not in presence["connected"]:
        presence = await receive_until(hosting, "presence")
    assert presence["host"] is True
    await seat.disconnect()
    presence = await receive_until(hosting, "presence")
    assert 1 not in presence["connected"]
    await hosting.disconnect()
    assert not await sync_to_async(Connection.objects.exists)()


async def test_host_commands_and_handover_revoke_the_old_phone(tiny_table):
    table, host, secrets = tiny_table
    hosting, _ = await connect(table.code, host=host)
    old_phone, _ = await connect(table.code, seat=secrets[0])
    await hosting.send_json_to({"type": "host", "command": "start", "id": 1})
    assert (await receive_until(hosting, "ack"))["ref"] == 1
    await hosting.send_json_to({"type": "host", "command": "handover", "position": 0, "id": 2})
    handover = await receive_until(hosting, "handover")
    assert handover["url"].startswith(f"/t/{table.code}/claim/")
    revoked = await receive_until(old_phone, "revoked")
    assert revoked["role"] == "spectator" and "another phone" in revoked["message"]
    presence = await receive_until(hosting, "presence")
    while 0 in presence["connected"]:  # the old phone no longer counts as seat 0
        presence = await receive_until(hosting, "presence")
    await hosting.send_json_to({"type": "host", "command": "handover", "position": 9})
    assert (await receive_until(hosting, "error"))["code"] == "bad_seat"
    await hosting.send_json_to({"type": "host", "command": "pause"})
    snapshot = await receive_until(hosting, "snapshot")
    while not snapshot["table"]["paused"]:
        snapshot = await receive_until(hosting, "snapshot")
    for comm in (hosting, old_phone):
        await comm.disconnect()


async def test_host_adds_a_bot_in_the_lobby_and_bots_move_by_themselves(tiny_table, monkeypatch):
    from django.conf import settings

    from tests.tinygame import TINY

    monkeypatch.setattr(settings, "SIXDICE_BOT_DELAY", 0.01)
    monkeypatch.setattr(TINY, "bot_action", lambda state, seat, rng, strength=None: {"type": "add", "n": 1}, raising=False)
    table, host, secrets = tiny_table
    hosting, _ = await connect(table.code, host=host)
    await hosting.send_json_to({"type": "host", "command": "add_bot"})
    snapshot = await receive_until(hosting, "snapshot")
    assert [s["name"] for s in snapshot["table"]["seats"]] == ["Ana", "Bo", "Bot 1"]
    assert snapshot["table"]["seats"][2]["bot"] is True
    await hosting.send_json_to({"type": "host", "command": "bot", "position": 0, "on": True})
    await hosting.send_json_to({"type": "host", "command": "bot", "position": 1, "on": True})
    await hosting.send_json_to({"type": "host", "command": "start"})
    # Every seat is a bot now: they play the game to its end by themselves.
    for _ in range(200):
        game = await sync_to_async(lambda: Game.objects.filter(table=table).first())()
        if game and game.status == Game.Status.FINISHED:
            break
        await asyncio.sleep(0.05)
    assert game.status == Game.Status.FINISHED
    assert game.state["total"] >= 10
    await hosting.disconnect()


async def test_engine_refusals_and_server_bugs_become_error_frames(started, monkeypatch):
    from tests.tinygame import TINY

    table, host, secrets, game = started
    hosting, _ = await connect(table.code, host=host)
    await hosting.send_json_to({"type": "host", "command": "start"})  # a game is running
    assert (await receive_until(hosting, "error"))["code"] == "game_running"

    def broken(*args, **kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(TINY, "apply", broken)
    mover, _ = await connect(table.code, seat=secrets[game.first])
    await mover.send_json_to({"type": "action", "seq": 0, "action": {"type": "add", "n": 1}})
    error = await receive_until(mover, "error")
    assert error["code"] == "server_error" and "nothing was changed" in error["message"]
    await mover.send_json_to({"type": "ping", "id": 5})
    assert (await receive_until(mover, "pong"))["ref"] == 5
    for comm in (hosting, mover):
        await comm.disconnect()
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).seq)() == 0


async def test_host_closes_the_table_the_series_ends_and_watchers_still_see_it(started):
    table, host, secrets, game = started
    hosting, _ = await connect(table.code, host=host)
    seat, _ = await connect(table.code, seat=secrets[game.first])
    await hosting.send_json_to({"type": "host", "command": "close"})
    snapshot = await receive_until(seat, "snapshot")
    while snapshot["table"]["status"] != "closed":
        snapshot = await receive_until(seat, "snapshot")
    assert snapshot["game"]["status"] == "abandoned"
    await seat.send_json_to({"type": "action", "seq": 0, "action": {"type": "add", "n": 1}})
    assert (await receive_until(seat, "error"))["code"] == "table_closed"
    await hosting.send_json_to({"type": "host", "command": "rematch"})
    assert (await receive_until(hosting, "error"))["code"] == "table_closed"
    watcher, welcome = await connect(table.code)  # a closed table can still be watched
    assert welcome["table"]["status"] == "closed"
    for comm in (hosting, seat, watcher):
        await comm.disconnect()
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).seq)() == 0


async def test_a_ping_rejoins_a_forgotten_group_and_says_where_the_game_is(started):
    """A channel layer that restarted forgot who was in the table's group (Redis restarted)."""
    from channels.layers import get_channel_layer

    from sixdice.tables.writes import after_commit

    table, host, secrets, game = started
    waiting, welcome = await connect(table.code, seat=secrets[1 - game.first])
    assert welcome["game"]["seq"] == 0
    layer, group = get_channel_layer(), after_commit.group_name(table.code)
    for channel in list(layer.groups[group]):
        await layer.group_discard(group, channel)
    assert not layer.groups.get(group)
    await sync_to_async(checked_path.apply_action)(
        table_code=table.code, credentials=keys.Credentials(seat_secret=secrets[game.first]),
        action={"type": "add", "n": 1}, expected_seq=0,
    )
    await waiting.send_json_to({"type": "ping", "id": 1})
    pong = await receive_until(waiting, "pong")
    assert (pong["game"], pong["seq"]) == (game.pk, 2)  # the client sees it is behind and resyncs
    await waiting.send_json_to({"type": "resync", "game": game.pk, "since": 0})
    assert [e["seq"] for e in (await receive_until(waiting, "update"))["events"]] == [1, 2]
    await sync_to_async(checked_path.apply_action)(  # and broadcasts reach it again
        table_code=table.code, credentials=keys.Credentials(seat_secret=secrets[1 - game.first]),
        action={"type": "add", "n": 1}, expected_seq=2,
    )
    assert (await receive_until(waiting, "update"))["seq"] == 4
    await waiting.disconnect()
