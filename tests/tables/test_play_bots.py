"""Play against the app (one phone is host and seat, the bots fill the rest, the game starts) and the new-table
form's seats the app plays."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from sixdice.gamekit.engine import get_engine
from sixdice.tables.core import keys
from sixdice.tables.models import Table
from sixdice.tables.pages.play_against_app import start_against_bots
from sixdice.tables.pages.views import credentials
from sixdice.tables.reads import table_frame
from sixdice.tables.writes import services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["sixdice", "runbuster"])
def test_start_against_bots_seats_this_phone_adds_bots_and_starts(game):
    started = start_against_bots(game=game, name="Ana", bots=2, level="hard", rng=random.Random(1))
    table = Table.objects.get(pk=started.table.pk)
    seats = list(table.seats.order_by("position"))
    assert [s.is_bot for s in seats] == [False, True, True]
    assert {s.bot_strength for s in seats[1:]} == {get_engine(game).bot_strengths[-1]}
    assert table.status == Table.Status.PLAYING and table_frame.current_game(table) is not None


@pytest.mark.parametrize("game", ["sixdice", "runbuster"])
def test_the_play_page_lands_on_the_seat_page_holding_host_rights_too(game):
    client = Client()
    assert client.get(f"/play/{game}/").status_code == 200
    response = client.post(f"/play/{game}/", {"bots": "1", "level": "easy", "name": ""})
    assert response.status_code == 302
    code = response["Location"].strip("/").split("/")[-1]
    table = Table.objects.get(code=code)
    request = type("R", (), {"session": client.session})()
    creds = credentials(request, code)
    assert keys.is_host(table, creds) and services.seat_for(table, creds) is not None
    page = client.get(response["Location"])
    assert page.status_code == 200
    # The host's page: Rematch (Run Buster's next round), Undo and Pause in plain sight, the table screen one tap away.
    html = page.content.decode()
    assert 'data-role="host"' in html and 'id="host-controls"' in html
    for control in ('data-host="rematch"', 'data-host="undo"', 'data-host="pause"', 'id="screen-link"'):
        assert control in html
    assert html.index('id="host-controls"') < html.index('id="board"')  # above the board, not folded in the console


def test_play_now_comes_after_the_name_field():
    html = Client().get("/play/runbuster/").content.decode()
    assert html.index('id="play-name"') < html.index('id="play-now"')


def test_the_new_table_form_fills_the_seats_the_app_plays():
    client = Client()
    response = client.post("/new/sixdice/", {"players": "3", "bots": "2", "bot_level": "medium", "dice": "app",
                                             "rounds": "6", "takeback": "on"})
    assert response.status_code == 302
    table = Table.objects.order_by("-pk").first()
    assert [s.is_bot for s in table.seats.order_by("position")] == [True, True]
    assert "bots" not in table.options and "bot_level" not in table.options
    refused = client.post("/new/sixdice/", {"players": "3", "bots": "3", "dice": "app"})
    assert refused.status_code == 400
