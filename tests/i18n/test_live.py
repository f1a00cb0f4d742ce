"""Over the WebSocket, each connection reads errors and the move log in its own language."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from sixdice.tables.core.i18n import language_from_headers, render_notation
from sixdice.tables.models import Event
from sixdice.tables.writes import services
from tests.live_client import connect, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _sixdice_table():
    table, host = services.create_table(game="sixdice", options={"auto_balance": "on"}, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    game = services.start_game(table=table).game
    return table, host, secrets, game


@pytest.fixture
def sixdice_game(db):
    return _sixdice_table()


async def test_language_choice_cookie_then_accept_language_then_english():
    assert language_from_headers("uk", "fr") == "uk"
    assert language_from_headers(None, "fr-CA,fr;q=0.9,en;q=0.5") == "fr"
    assert language_from_headers("xx", "de, nl;q=0.8") == "nl"
    assert language_from_headers("pt-BR", None) == "pt"
    assert language_from_headers(None, "de") == "en"
    assert language_from_headers(None, None) == "en"


async def test_a_websocket_error_arrives_in_the_seats_language(sixdice_game):
    table, host, secrets, game = sixdice_game
    waiting = 1 - game.state["pending"]["seat"]
    comm, welcome = await connect(table.code, lang="uk", seat=secrets[waiting])
    await comm.send_json_to({"type": "action", "id": 1, "seq": welcome["game"]["seq"], "action": {"type": "roll", "values": [1]}})
    error = await receive_until(comm, "error")
    mover = game.players[game.state["pending"]["seat"]]
    assert error["code"] == "not_allowed"
    assert error["message"] == f"Зараз хід гравця {mover}."
    await comm.send_json_to({"type": "host", "id": 2, "command": "pause"})
    error = await receive_until(comm, "error")
    assert (error["code"], error["message"]) == ("not_host", "Це може зробити лише ведучий.")
    await comm.disconnect()


async def test_spectators_and_other_refusals_are_translated(sixdice_game):
    table, host, secrets, game = sixdice_game
    watcher, welcome = await connect(table.code, accept="fr-FR,fr;q=0.9")
    await watcher.send_json_to({"type": "action", "id": 1, "seq": 0, "action": {"type": "flip"}})
    error = await receive_until(watcher, "error")
    assert error["code"] == "spectator" and "spectat" in error["message"] and "You are" not in error["message"]
    await watcher.send_json_to({"type": "nonsense"})
    error = await receive_until(watcher, "error")
    assert error["message"].startswith("Type de message inconnu")
    await watcher.disconnect()
    mover_seat = game.state["pending"]["seat"]
    mover, welcome = await connect(table.code, lang="nl", seat=secrets[mover_seat])
    await mover.send_json_to({"type": "action", "id": 3, "seq": welcome["game"]["seq"] - 1, "action": {"type": "flip"}})
    error = await receive_until(mover, "error")
    assert error["code"] in {"stale", "illegal", "bad_field"}  # a flip without its fields is malformed (issue 15)
    if error["code"] == "stale":
        assert error["message"] == "Iemand anders was je voor; dit is de tafel zoals ze nu is."
    await mover.disconnect()


async def test_log_lines_arrive_in_each_readers_language(sixdice_game):
    table, host, secrets, game = sixdice_game
    first = game.state["pending"]["seat"]
    mover, welcome_uk = await connect(table.code, lang="uk", seat=secrets[first])
    other, welcome_fr = await connect(table.code, lang="fr", seat=secrets[1 - first])
    watcher, welcome_en = await connect(table.code)
    log_uk = [e["text"] for e in welcome_uk["game"]["log"]]
    log_fr = [e["text"] for e in welcome_fr["game"]["log"]]
    log_en = [e["text"] for e in welcome_en["game"]["log"]]
    assert len(log_uk) == len(log_fr) == len(log_en) > 0
    assert "кидає" in log_uk[0] and "lance" in log_fr[0] and "rolls" in log_en[0]
    assert "notation" not in welcome_uk["game"]["log"][0]
    flip = welcome_uk["game"]["view"]["legal_flips"][0]
    action = dict(zip(("victim", "own", "own_to", "other", "other_to"), flip, strict=True), type="flip")
    await mover.send_json_to({"type": "action", "id": 1, "seq": welcome_uk["game"]["seq"], "action": action})
    texts = {}
    for name, comm in (("uk", mover), ("fr", other), ("en", watcher)):
        update = await receive_until(comm, "update")
        texts[name] = [e["text"] for e in update["events"]]
    assert len(texts["uk"]) == len(texts["fr"]) == len(texts["en"]) >= 2
    draw = 1  # the flip, then the app draws a die for the mover
    assert "бере" in texts["uk"][draw] and "pioche" in texts["fr"][draw] and "draws" in texts["en"][draw]
    event = await sync_to_async(lambda: Event.objects.get(game=game, seq=welcome_uk["game"]["seq"] + 2))()
    assert event.text == texts["en"][draw]  # the stored English text is the untranslated notation
    assert render_notation(event.notation, "nl") != event.text
    for comm in (mover, other, watcher):
        await comm.disconnect()
