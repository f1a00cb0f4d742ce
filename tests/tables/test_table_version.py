"""Table changes carry ids: one version bump per change, in its transaction, one frame for everyone."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from sixdice.tables.core import errors
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Game, Table, TableChange
from sixdice.tables.reads import table_frame
from sixdice.tables.reads import table_frame as table_frames
from sixdice.tables.writes import checked_path, services
from tests.live_client import connect, receive_until


def _version(table: Table) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table.pk)


def _host(table: Table, host: str, command: str, **fields):
    return host_command(table_code=table.code, credentials=Credentials(host_secret=host),
                                 command=command, fields=fields)


@pytest.mark.django_db
def test_every_table_change_bumps_the_version_once_and_is_logged(tiny_table):
    table, host, secrets = tiny_table  # two joins so far
    assert _version(table) == 2
    steps = [
        ("add_bot", {}, "join"),
        ("start", {}, "start"),
        ("pause", {}, "pause"),
        ("resume", {}, "resume"),
        ("bot", {"position": 0, "on": True}, "bot_on"),
        ("bot", {"position": 0, "on": False}, "bot_off"),
        ("handover", {"position": 1}, "handover"),
    ]
    for command, fields, kind in steps:
        before = _version(table)
        _host(table, host, command, **fields)
        assert _version(table) == before + 1, command
        assert TableChange.objects.filter(table=table).latest("version").kind == kind
    token = _host(table, host, "handover", position=1)["url"].rstrip("/").rsplit("/", 1)[1]
    before = _version(table)
    services.claim_seat(table=table, token=token)
    assert _version(table) == before + 1
    game = Game.objects.get(table=table)
    checked_path.apply_action(table_code=table.code, credentials=Credentials(host_secret=host), as_host=True,
                          action={"type": "end"}, expected_seq=game.seq)  # the game ends: one change
    _host(table, host, "rematch")
    _host(table, host, "close")
    changes = list(TableChange.objects.filter(table=table).values_list("version", "kind", "actor"))
    assert [version for version, _kind, _actor in changes] == list(range(1, _version(table) + 1))  # no gap, no repeat
    assert [kind for _version_, kind, _actor in changes] == [
        "join", "join", "join", "start", "pause", "resume", "bot_on", "bot_off", "handover", "handover", "claim",
        "game_end", "rematch", "close",
    ]
    assert [actor for *_rest, actor in changes][:3] == ["0", "1", "2"]  # who joined
    assert changes[-3][2] == "system" and changes[-1][2] == "host"


@pytest.mark.django_db
def test_refused_commands_change_no_version(tiny_table):
    table, host, secrets = tiny_table
    before = _version(table)
    with pytest.raises(errors.ServiceError):
        _host(table, host, "bot", position=7)
    with pytest.raises(errors.ServiceError):
        _host(table, "not the host", "pause")
    assert _version(table) == before
    assert TableChange.objects.filter(table=table).count() == before


@pytest.mark.django_db(transaction=True)
def test_the_version_is_bumped_in_the_changes_own_transaction(tiny_table, monkeypatch):
    """A change that fails after its bump (here: the engine breaks while starting) leaves no trace."""
    from tests.tinygame import TINY

    table, host, secrets = tiny_table
    before = _version(table)

    def broken(*args, **kwargs):
        raise RuntimeError("the engine broke")

    monkeypatch.setattr(TINY, "system_action", broken)
    with pytest.raises(RuntimeError):
        services.start_game(table=table)
    assert _version(table) == before
    assert TableChange.objects.filter(table=table).count() == before
    assert not Game.objects.filter(table=table).exists()
    assert Table.objects.get(pk=table.pk).status == Table.Status.LOBBY


@pytest.mark.django_db
def test_an_old_copy_of_the_table_saved_does_not_turn_its_version_back(tiny_table):
    table, host, secrets = tiny_table  # this copy was read before the joins
    assert table.version == 0 and _version(table) == 2
    table.options = {"target": 12}
    table.save()
    assert _version(table) == 2
    assert Table.objects.get(pk=table.pk).options == {"target": 12}


# ---------------------------------------------------------------- the live side

@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_one_frame_per_change_computed_once_and_right_for_every_role(tiny_table, monkeypatch):
    table, host, secrets = tiny_table
    game = (await sync_to_async(services.start_game)(table=table)).game
    seats = [(await connect(table.code, seat=secret))[0] for secret in secrets]
    hosting, welcome = await connect(table.code, host=host)
    watcher, _ = await connect(table.code)
    version = welcome["table"]["version"]
    computed = []
    real = table_frames.table_frame
    monkeypatch.setattr(table_frames, "table_frame", lambda table_id, **kw: computed.append(table_id) or real(table_id, **kw))

    await hosting.send_json_to({"type": "host", "command": "pause"})
    frames = [await receive_until(comm, "snapshot") for comm in (*seats, hosting, watcher)]
    assert computed == [table.pk]  # once, by the writer; no connection asked the database again
    for frame in frames:
        assert frame["table"]["version"] == version + 1 and frame["table"]["paused"] is True
        assert frame["game"]["id"] == game.pk and "state" not in frame["game"]
    assert [(f["role"], f["seat"], f["host"]) for f in frames] == [
        ("seat", 0, False), ("seat", 1, False), ("host", None, True), ("spectator", None, False)]
    assert [f["game"]["view"]["mine"] for f in frames] == [game.first == 0, game.first == 1, False, False]
    for comm in (*seats, hosting, watcher):
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_missed_table_change_shows_in_pong_and_is_resynced(tiny_table):
    from channels.layers import get_channel_layer

    from sixdice.tables.writes import after_commit

    table, host, secrets = tiny_table
    await sync_to_async(services.start_game)(table=table)
    seat, welcome = await connect(table.code, seat=secrets[0])
    known = welcome["table"]["version"]
    layer, group = get_channel_layer(), after_commit.group_name(table.code)
    for channel in list(layer.groups[group]):  # the table frame of the next change is lost
        await layer.group_discard(group, channel)
    await sync_to_async(services.set_paused)(table=table, paused=True)
    await seat.send_json_to({"type": "ping", "id": 1})
    pong = await receive_until(seat, "pong")
    assert pong["version"] == known + 1  # the client sees it missed a table change
    await seat.send_json_to({"type": "resync_table", "id": 2})
    snapshot = await receive_until(seat, "snapshot")
    assert snapshot["ref"] == 2
    assert snapshot["table"]["version"] == known + 1 and snapshot["table"]["paused"] is True
    assert snapshot["role"] == "seat" and snapshot["game"]["view"]["mine"] == (snapshot["game"]["view"]["current"] == 0)
    await seat.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_table_frame_older_than_the_last_one_sent_is_dropped(tiny_table):
    """Two writers in two processes: their frames may reach a connection out of order."""
    from channels.layers import get_channel_layer

    from sixdice.tables.writes import after_commit

    table, host, secrets = tiny_table
    seat, welcome = await connect(table.code, seat=secrets[0])
    old = await sync_to_async(table_frame.table_frame)(table.pk)
    old["table"]["version"] = welcome["table"]["version"] - 1
    await get_channel_layer().group_send(after_commit.group_name(table.code),
                                         {"type": "table.frame", "frame": old, "revoked": []})
    await seat.send_json_to({"type": "ping", "id": 1})
    reply = await seat.receive_json_from()
    while reply["type"] == "presence":
        reply = await seat.receive_json_from()
    assert reply["type"] == "pong"  # no snapshot came before it
    await seat.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_every_update_carries_the_table_version_so_a_missed_change_shows_at_the_next_move(tiny_table):
    from channels.layers import get_channel_layer

    from sixdice.tables.writes import after_commit

    table, host, secrets = tiny_table
    game = (await sync_to_async(services.start_game)(table=table)).game
    watcher, welcome = await connect(table.code)
    known = welcome["table"]["version"]
    layer, group = get_channel_layer(), after_commit.group_name(table.code)
    members = list(layer.groups[group])
    for channel in members:  # the next table frame is lost
        await layer.group_discard(group, channel)
    await sync_to_async(services.hand_over_seat)(table=table, position=1 - game.first)
    for channel in members:  # broadcasts reach the watcher again
        await layer.group_add(group, channel)
    await sync_to_async(checked_path.apply_action)(
        table_code=table.code, credentials=Credentials(seat_secret=secrets[game.first]),
        action={"type": "add", "n": 1}, expected_seq=game.seq,
    )
    update = await receive_until(watcher, "update")
    assert update["version"] == known + 1  # newer than the watcher's table: it asks for the table
    await watcher.send_json_to({"type": "resync_table"})
    snapshot = await receive_until(watcher, "snapshot")
    assert snapshot["table"]["version"] == known + 1
    assert snapshot["table"]["seats"][1 - game.first]["vacant"] is True
    await watcher.disconnect()
