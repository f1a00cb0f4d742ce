"""Pages: create a table, join it, hand a seat over, QR code, spectators."""

from __future__ import annotations

import pytest
from django.test import Client

from sixdice.tables import services
from sixdice.tables.models import Seat, Table

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
    bad = client.post(f"/t/{table.code}/join/", {"name": " ", "pin": services.join_pin(table)})
    assert bad.status_code == 400 and b"Please type a name" in bad.content
    assert client.post(f"/t/{table.code}/join/", {"name": "Ana", "pin": services.join_pin(table)}).url == f"/t/{table.code}/"
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
    late = client.post(f"/t/{table.code}/join/", {"name": "Cy", "pin": services.join_pin(table)})
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
