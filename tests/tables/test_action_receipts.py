"""Client action ids (issue 14): a resent action gets its first answer and is applied once."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import ActionReceipt, Event
from sixdice.tables.wire import incoming
from sixdice.tables.writes import action_receipts, services
from tests.live_client import connect, receive_until


@pytest.fixture
def started(tiny_table):
    table, host, secrets = tiny_table
    game = services.start_game(table=table).game
    return table, host, secrets, game


def _seqs(game_id: int) -> list[int]:
    return list(Event.objects.filter(game_id=game_id).order_by("seq").values_list("seq", flat=True))


def _once(table, secret, action_id, *, seq=0, action=None, sender=None, as_host=False):
    return action_receipts.apply_once(
        table_id=table.pk, sender=sender, action_id=action_id, table_code=table.code,
        credentials=Credentials(seat_secret=secret), action=action or {"type": "add", "n": 1},
        expected_seq=seq, as_host=as_host,
    )


def test_the_same_id_twice_is_applied_once_and_acked_twice(started):
    table, host, secrets, game = started
    first = _once(table, secrets[game.first], "tap-1", sender=str(game.first))
    assert first.reply == {"type": "ack", "seq": 2} and first.applied is not None
    again = _once(table, secrets[game.first], "tap-1", sender=str(game.first))
    assert again.reply == {"type": "ack", "seq": 2, "duplicate": True} and again.applied is None
    assert _seqs(game.pk) == [1, 2]  # one move and its roll: nothing applied twice, nothing lost


def test_an_id_seen_before_rolls_back_a_move_that_would_pass_now(started):
    """The receipt clashes inside the move's transaction: the move is undone, the first answer given."""
    table, host, secrets, game = started
    mover = game.first
    first = _once(table, secrets[mover], "tap-1", sender=str(mover))
    assert first.reply == {"type": "ack", "seq": 2}
    other = 1 - mover
    _once(table, secrets[other], "tap-9", seq=2, sender=str(other))  # the other seat moves: seq 4, the first seat's turn
    again = _once(table, secrets[mover], "tap-1", seq=4, sender=str(mover))  # legal at seq 4, but tap-1 was answered
    assert again.reply == {"type": "ack", "seq": 2, "duplicate": True} and again.applied is None
    assert _seqs(game.pk) == [1, 2, 3, 4]  # nothing of the resent move was kept
    assert ActionReceipt.objects.filter(table=table, sender=str(mover)).count() == 1
    fresh = _once(table, secrets[mover], "tap-2", seq=4, sender=str(mover))  # the same move with a new id: it passes
    assert fresh.reply == {"type": "ack", "seq": 6}


def test_a_repeated_refusal_is_the_same_refusal(started):
    table, host, secrets, game = started
    with pytest.raises(ServiceError) as first:
        _once(table, secrets[game.first], "tap-9", action={"type": "add", "n": 5}, sender=str(game.first))
    assert first.value.code == "illegal" and not first.value.extra
    with pytest.raises(ServiceError) as again:
        _once(table, secrets[game.first], "tap-9", action={"type": "add", "n": 5}, sender=str(game.first))
    assert (again.value.code, again.value.message) == ("illegal", first.value.message)
    assert again.value.extra == {"duplicate": True}
    assert _seqs(game.pk) == []


def test_a_refused_id_stays_refused_even_when_the_move_would_now_pass(started):
    """The documented rule: an id is answered once; a new tap gets a new id."""
    table, host, secrets, game = started
    services.set_paused(table=table, paused=True)
    with pytest.raises(ServiceError) as first:
        _once(table, secrets[game.first], "tap-2", sender=str(game.first))
    assert first.value.code == "paused"
    services.set_paused(table=table, paused=False)
    with pytest.raises(ServiceError) as again:
        _once(table, secrets[game.first], "tap-2", sender=str(game.first))
    assert again.value.code == "paused" and again.value.extra == {"duplicate": True}
    assert _once(table, secrets[game.first], "tap-3", sender=str(game.first)).reply["seq"] == 2


def test_ids_are_per_sender(started):
    table, host, secrets, game = started
    _once(table, secrets[game.first], "same", sender=str(game.first))
    other = 1 - game.first
    moved = _once(table, secrets[other], "same", seq=2, sender=str(other))
    assert moved.reply == {"type": "ack", "seq": 4} and moved.applied is not None
    assert _seqs(game.pk) == [1, 2, 3, 4]


def test_a_bad_action_id_is_refused(started):
    for bad in ("", "x" * 65, 12, ["a"]):
        with pytest.raises(ServiceError) as exc:
            incoming.clean_action_id(bad)
        assert exc.value.code == "bad_field"
    assert incoming.clean_action_id("a" * 64) == "a" * 64
    assert incoming.clean_action_id(None) is None


def test_old_receipts_are_pruned_but_recent_ones_kept(started):
    table, host, secrets, game = started
    for i in range(action_receipts.KEEP + 2 * action_receipts.PRUNE_EVERY):
        ActionReceipt.objects.create(table=table, sender="0", action_id=f"old-{i}", reply={"seq": i})
    action_receipts._prune(table.pk, "0")
    kept = list(ActionReceipt.objects.filter(table=table, sender="0").order_by("id").values_list("action_id", flat=True))
    assert len(kept) == action_receipts.KEEP and kept[-1] == f"old-{action_receipts.KEEP + 2 * action_receipts.PRUNE_EVERY - 1}"


# ------------------------------------------------------------------ over the socket


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_double_tap_over_the_socket_gets_two_acks_not_someone_else_moved(started):
    table, host, secrets, game = started
    comm, _ = await connect(table.code, seat=secrets[game.first])
    frame = {"type": "action", "seq": 0, "action_id": "dbl", "action": {"type": "add", "n": 2}}
    await comm.send_json_to({**frame, "id": 1})
    assert await receive_until(comm, "ack") == {"type": "ack", "ref": 1, "seq": 2}
    await comm.send_json_to({**frame, "id": 2})
    assert await receive_until(comm, "ack") == {"type": "ack", "ref": 2, "seq": 2, "duplicate": True}
    assert await sync_to_async(_seqs)(game.pk) == [1, 2]
    await comm.send_json_to({"type": "action", "seq": 2, "action_id": 5, "action": {"type": "add", "n": 1}, "id": 3})
    error = await receive_until(comm, "error")
    assert (error["code"], error["ref"]) == ("bad_field", 3)
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_same_seat_in_two_tabs_sending_the_same_id_at_once(started):
    table, host, secrets, game = started
    tab1, _ = await connect(table.code, seat=secrets[game.first])
    tab2, _ = await connect(table.code, seat=secrets[game.first])
    frame = {"type": "action", "seq": 0, "action_id": "twin", "action": {"type": "add", "n": 1}}
    await asyncio.gather(tab1.send_json_to({**frame, "id": "a"}), tab2.send_json_to({**frame, "id": "b"}))
    acks = [await receive_until(tab1, "ack"), await receive_until(tab2, "ack")]
    assert sorted(a["seq"] for a in acks) == [2, 2]
    assert sorted(bool(a.get("duplicate")) for a in acks) == [False, True]
    assert await sync_to_async(_seqs)(game.pk) == [1, 2]
    for comm in (tab1, tab2):
        await comm.disconnect()
