"""The lobby speaks (issue 14): waiting for the host, a full table, a seat held elsewhere."""

from __future__ import annotations

import pytest
from django.test import Client

from sixdice.tables.core import keys
from sixdice.tables.writes import services

pytestmark = pytest.mark.django_db


def test_a_full_table_says_so_before_the_name_form(client: Client):
    table, _host = services.create_table(game="sixdice", options={"dice": "app"}, capacity=2)
    services.join_table(table=table, name="Ana")
    page = client.get(f"/t/{table.code}/").content.decode()
    assert 'id="table-full"' not in page and 'name="name"' in page
    services.join_table(table=table, name="Bo")
    page = client.get(f"/t/{table.code}/").content.decode()
    assert 'id="table-full"' in page and "All 2 seats are taken." in page
    assert 'name="name"' not in page  # no form to fill in for nothing
    assert "?watch" in page


def test_a_phone_in_the_lobby_has_the_waiting_note(client: Client):
    table, _host = services.create_table(game="sixdice", options={"dice": "app"}, capacity=3)
    client.post(f"/t/{table.code}/join/", {"name": "Ana", "pin": keys.join_pin(table)})
    page = client.get(f"/t/{table.code}/").content.decode()
    assert 'data-role="seat"' in page and 'id="lobby-note"' in page
    assert "Waiting for the host to start" in page


def test_a_seat_held_elsewhere_says_how_to_get_it_back(client: Client):
    table, _host = services.create_table(game="sixdice", options={"dice": "app"}, capacity=2)
    client.post(f"/t/{table.code}/join/", {"name": "Ana", "pin": keys.join_pin(table)})
    services.join_table(table=table, name="Bo")
    services.start_game(table=table)
    assert 'id="lost-seat"' not in client.get(f"/t/{table.code}/").content.decode()
    services.hand_over_seat(table=table, position=0)
    page = client.get(f"/t/{table.code}/").content.decode()
    assert 'data-role="spectator"' in page and 'id="lost-seat"' in page and "Hand over" in page
    assert 'id="lost-seat"' not in Client().get(f"/t/{table.code}/").content.decode()  # a mere watcher
