"""Every game write carries the seq its sender saw, and what wakes after a write does not depend on who wrote.

The undo race: the host's screen shows the game at some ``seq``, the host
confirms "Undo the last move?", and a move lands meanwhile.  The undo names
the ``seq`` the host saw, so it is refused ``stale`` and changes nothing,
instead of undoing the move the host never saw.

The admin's "Resume selected tables": a write from a page, not a socket, must
still wake the bot whose turn it is.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from sixdice.tables.core import errors, keys
from sixdice.tables.core.errors import Stale
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Event, Game
from sixdice.tables.reads import table_frame
from sixdice.tables.writes import services
from tests.live_client import connect, receive_until
from tests.tables.test_undo import _move, _table


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_an_undo_sent_with_an_old_seq_is_refused_stale_and_changes_nothing(slug):
    table, host = _table(slug, "physical")
    _move(table, 2)
    seen = table_frame.current_game(table).seq  # what the host's screen shows when they tap Undo
    _move(table, 1)  # a move lands while the host's confirm dialog is open
    game = table_frame.current_game(table)
    log = list(game.events.order_by("seq").values_list("seq", "actor", "action"))
    with pytest.raises(Stale):
        host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="undo",
                     fields={"expected_seq": seen})
    game.refresh_from_db()
    assert list(game.events.order_by("seq").values_list("seq", "actor", "action")) == log  # nothing written
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="undo",
                 fields={"expected_seq": game.seq})  # with the seq on screen now, it goes through
    game.refresh_from_db()
    last = game.events.order_by("-seq").first()
    assert last is not None and last.action["type"] == "undo" and game.seq == len(log) + 1


@pytest.mark.django_db
def test_undo_and_correct_without_the_seen_seq_are_refused_as_bad_input():
    table, host = _table("runbuster", "physical")
    _move(table, 2)
    game = table_frame.current_game(table)
    for command, fields in (("undo", {}), ("correct", {"seq": 1, "values": [1]}), ("undo", {"expected_seq": "3"})):
        with pytest.raises(errors.ServiceError) as exc:
            host_command(table_code=table.code, credentials=Credentials(host_secret=host), command=command,
                         fields=fields)
        assert exc.value.code == "bad_field"
    assert Game.objects.get(pk=game.pk).seq == game.seq


@pytest.mark.django_db
def test_a_take_back_with_an_old_seq_is_refused_stale():
    table, _host = _table("runbuster", "physical")
    _move(table, 1)
    game = table_frame.current_game(table)
    mover = int(game.events.exclude(actor="system").order_by("-seq").first().actor)
    secret = "taken-back"
    table.seats.filter(position=mover).update(secret_hash=keys.hash_secret(secret))
    from sixdice.tables.policies.undo import take_back

    with pytest.raises(Stale):
        take_back(table_code=table.code, credentials=Credentials(seat_secret=secret), expected_seq=game.seq - 1)
    assert Game.objects.get(pk=game.pk).seq == game.seq


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_host_undo_frame_with_an_old_seq_gets_stale_and_the_table_as_it_is():
    table, host = await sync_to_async(_table)("runbuster", "physical")
    await sync_to_async(_move)(table, 2)
    seen = (await sync_to_async(table_frame.current_game)(table)).seq
    await sync_to_async(_move)(table, 1)
    hosting, _welcome = await connect(table.code, host=host)
    await hosting.send_json_to({"type": "host", "command": "undo", "expected_seq": seen, "id": 5})
    error = await receive_until(hosting, "error")
    assert error["code"] == "stale" and error["ref"] == 5 and error["snapshot"]["game"]["seq"] == seen + 1
    await hosting.disconnect()


@pytest.fixture
def quick_bots(monkeypatch):
    from django.conf import settings

    from tests.tinygame import TINY

    monkeypatch.setattr(settings, "SIXDICE_BOT_DELAY", 0.01)
    monkeypatch.setattr(TINY, "bot_action", lambda state, seat, rng, strength=None: {"type": "add", "n": 1}, raising=False)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_admins_resume_wakes_the_bot_in_turn_within_a_second(tiny_table, quick_bots, django_user_model):
    """Paused with a bot in turn, resumed from the admin (a page, not a socket): the bot moves at once."""
    table, host, _secrets = tiny_table
    game = (await sync_to_async(services.start_game)(table=table)).game
    await sync_to_async(services.set_paused)(table=table, paused=True)
    await sync_to_async(services.set_bot)(table=table, position=game.first)  # the seat in turn is the app's now
    watcher, welcome = await connect(table.code)  # a phone follows the table (no driver has work: paused)
    assert welcome["table"]["paused"]
    await asyncio.sleep(0.1)
    assert await sync_to_async(Event.objects.filter(game=game).count)() == 0

    def resume_from_the_admin() -> int:
        staff = django_user_model.objects.create_superuser("staff", "staff@example.invalid", "pw")
        client = Client()
        client.force_login(staff)
        response = client.post("/admin/tables/table/", {"action": "resume_tables", "_selected_action": [table.pk]})
        return response.status_code

    assert await sync_to_async(resume_from_the_admin)() == 302
    update = await receive_until(watcher, "update", timeout=1.0)  # the bot's move, within a second
    assert update["events"][0]["actor"] == str(game.first) and update["events"][0]["action"] == {"type": "add", "n": 1}
    await watcher.disconnect()
