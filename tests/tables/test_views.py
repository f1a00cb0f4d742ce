"""Pages: create a table, join it, hand a seat over, QR code, spectators."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from sixdice.tables.core import keys
from sixdice.tables.models import Seat, Table
from sixdice.tables.writes import services

pytestmark = pytest.mark.django_db


def test_home_lists_both_games_and_join_by_code(client: Client):
    page = client.get("/")
    assert page.status_code == 200
    assert b"Six-Dice" in page.content and b"Run Buster" in page.content
    table, _ = services.create_table(game="tiny", options={}, capacity=2)
    assert client.get("/join/", {"code": table.code.lower()}).url == f"/t/{table.code}/"
    missing = client.get("/join/", {"code": "zz-zzz"})
    assert "error=ZZZZZ" in missing.url
    assert b"There is no table" in client.get(missing.url).content


@pytest.mark.parametrize("game", ["sixdice", "runbuster"])
def test_host_creates_a_table_and_gets_the_host_page(client: Client, game):
    assert client.get(f"/new/{game}/").status_code == 200
    response = client.post(f"/new/{game}/", {"players": "3", "dice": "app"})
    table = Table.objects.get()
    assert response.url == f"/t/{table.code}/host/"
    host = client.get(response.url)
    assert host.status_code == 200
    assert b"<svg" in host.content  # the QR code of the join link
    assert f"http://testserver/t/{table.code}/".encode() in host.content
    assert Client().get(response.url).status_code == 403  # another browser is not the host


def test_bad_options_show_a_clear_error_and_create_nothing(client: Client):
    response = client.post("/new/sixdice/", {"players": "12"})
    assert response.status_code == 400
    assert b"2 to 8 players" in response.content
    response = client.post("/new/sixdice/", {"players": "3", "rounds": "lots"})
    assert response.status_code == 400 and b"class=\"error\"" in response.content
    assert client.get("/new/chess/").status_code == 404
    assert not Table.objects.exists()


def test_join_then_the_same_phone_returns_to_its_seat(client: Client):
    table, _ = services.create_table(game="tiny", options={}, capacity=2)
    assert b"Your name" in client.get(f"/t/{table.code}/").content
    bad = client.post(f"/t/{table.code}/join/", {"name": " ", "pin": keys.join_pin(table)})
    assert bad.status_code == 400 and b"Please type a name" in bad.content
    assert client.post(f"/t/{table.code}/join/", {"name": "Ana", "pin": keys.join_pin(table)}).url == f"/t/{table.code}/"
    again = client.get(f"/t/{table.code}/")
    assert b'data-role="seat"' in again.content
    client.post(f"/t/{table.code}/join/", {"name": "Another"})  # already seated: no second seat
    assert Seat.objects.filter(table=table).count() == 1


def test_seats_close_at_the_start_and_latecomers_watch(client: Client):
    table, _ = services.create_table(game="tiny", options={}, capacity=3)
    services.join_table(table=table, name="Ana")
    services.join_table(table=table, name="Bo")
    services.start_game(table=table)
    page = client.get(f"/t/{table.code}/")
    assert b'data-role="spectator"' in page.content
    late = client.post(f"/t/{table.code}/join/", {"name": "Cy", "pin": keys.join_pin(table)})
    assert late.status_code == 400 and b"seats are closed" in late.content


def test_handover_link_asks_first_then_binds_the_new_phone(client: Client):
    table, _ = services.create_table(game="tiny", options={}, capacity=2)
    services.join_table(table=table, name="Ana")
    token = services.hand_over_seat(table=table, position=0)
    url = f"/t/{table.code}/claim/{token}/"
    assert b"Take over Ana" in client.get(url).content
    assert client.post(url).url == f"/t/{table.code}/"
    assert b'data-role="seat"' in client.get(f"/t/{table.code}/").content
    used = Client().post(url)
    assert used.status_code == 410 and b"not valid any more" in used.content


def test_qr_code_and_unknown_tables(client: Client):
    table, _ = services.create_table(game="tiny", options={}, capacity=2)
    qr = client.get(f"/t/{table.code}/qr.svg")
    assert qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
    assert client.get("/t/NOPE9/").status_code == 404
    assert client.get("/t/NOPE9/host/").status_code == 404


def test_the_host_takes_a_seat_on_the_host_phone_in_the_lobby_and_between_games(client: Client):
    """The host plays too: one phone holds the host's rights and a seat, no second tab."""
    client.post("/new/tiny/", {"players": "3"})
    table = Table.objects.get()
    page = client.get(f"/t/{table.code}/host/")
    assert b'id="host-sit"' in page.content
    response = client.post(f"/t/{table.code}/host/sit/", {"name": "Hana"})
    assert response.status_code == 302 and response.url == f"/t/{table.code}/host/"
    seat = Seat.objects.get(table=table)
    assert seat.name == "Hana" and seat.position == 0
    held = client.session["tables"][table.code]
    assert held["host"] and held["seat"]  # one session: host and seat together
    assert b'id="host-sit"' not in client.get(f"/t/{table.code}/host/").content  # seated now
    client.post(f"/t/{table.code}/host/sit/", {"name": "Hana again"})  # a second tap changes nothing
    assert Seat.objects.filter(table=table).count() == 1
    # Between games the host may still sit down; while a game is played, not.
    other = Client()
    other.post("/new/tiny/", {"players": "3"})
    second = Table.objects.exclude(pk=table.pk).get()
    for name in ("Ana", "Bo"):
        services.join_table(table=second, name=name)
    services.start_game(table=second)
    assert other.post(f"/t/{second.code}/host/sit/", {"name": "Hana"}).status_code == 400
    Table.objects.filter(pk=second.pk).update(status=Table.Status.FINISHED)
    assert other.post(f"/t/{second.code}/host/sit/", {"name": "Hana"}).status_code == 302
    assert Seat.objects.filter(table=second).count() == 3


def test_only_the_host_may_take_a_host_seat(client: Client):
    table, _ = services.create_table(game="tiny", options={}, capacity=3)
    assert client.post(f"/t/{table.code}/host/sit/", {"name": "Eve"}).status_code == 403
    assert not Seat.objects.filter(table=table).exists()


def test_the_table_link_opens_the_hosts_page_for_the_host(client: Client):
    """A host who opens the table's own link (a seated host, "Play against the app") gets the host's buttons."""
    client.post("/new/tiny/", {"players": "2"})
    table = Table.objects.get()
    client.post(f"/t/{table.code}/host/sit/", {"name": "Hana"})
    html = client.get(f"/t/{table.code}/").content.decode()
    assert 'data-role="host"' in html and 'id="host-controls"' in html
    assert 'id="host-controls"' not in Client().get(f"/t/{table.code}/?watch").content.decode()


def test_end_the_game_now_is_in_the_host_bar_at_every_table(client: Client):
    """The page's body says whether the table has a time limit; "End the game now" is the host bar's, at every table."""
    client.post("/new/sixdice/", {"players": "2", "dice": "app"})
    client.post("/new/sixdice/", {"players": "2", "dice": "app", "time_limit_minutes": "30"})
    untimed, timed = Table.objects.order_by("pk")
    body = re.compile(r'<body class="([^"]*)"')
    for table, limited in ((untimed, False), (timed, True)):
        page = client.get(f"/t/{table.code}/host/").content.decode()
        assert ("time-limit" in body.search(page).group(1).split()) is limited
        assert 'data-host="end"' in page
    css = (Path(settings.BASE_DIR) / "static" / "css" / "app.css").read_text()
    assert ".sd-host{display:none}" not in css
