"""Issue 15, item 8: a lobby table's code alone is not enough to take a seat (join link or PIN)."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from sixdice.tables.core import keys
from sixdice.tables.models import Seat
from sixdice.tables.writes import checked_path, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def lobby():
    table, host_secret = services.create_table(game="runbuster", options={}, capacity=4)
    return table


def test_the_code_alone_asks_for_the_pin_and_a_wrong_pin_is_refused(lobby):
    phone = Client(REMOTE_ADDR="10.9.0.1")
    page = phone.get(f"/t/{lobby.code}/").content.decode()
    assert 'name="pin"' in page
    wrong = "0000" if keys.join_pin(lobby) != "0000" else "1111"
    refused = phone.post(f"/t/{lobby.code}/join/", {"name": "Ana", "pin": wrong})
    assert refused.status_code == 403 and "Wrong join PIN" in refused.content.decode()
    assert not Seat.objects.filter(table=lobby).exists()
    taken = phone.post(f"/t/{lobby.code}/join/", {"name": "Ana", "pin": keys.join_pin(lobby)})
    assert taken.status_code == 302 and Seat.objects.filter(table=lobby, name="Ana").exists()


def test_the_join_link_needs_no_pin(lobby):
    host = Client()
    session = host.session
    session["tables"] = {lobby.code: {"host": "x"}}
    session.save()
    phone = Client()
    link = f"/t/{lobby.code}/?k={keys.join_key(lobby)}"
    assert 'name="pin"' not in phone.get(link).content.decode()
    assert phone.post(f"/t/{lobby.code}/join/", {"name": "Bo"}).status_code == 302
    forged = Client()
    assert 'name="pin"' in forged.get(f"/t/{lobby.code}/?k=00000000000000000000").content.decode()
    assert forged.post(f"/t/{lobby.code}/join/", {"name": "Cy"}).status_code == 403


def test_the_host_page_shows_the_pin_and_the_link_with_its_key(client):
    response = client.post("/new/runbuster/", {"players": "2"})
    code = response.url.split("/")[2]
    table = checked_path.load_table(code)
    page = client.get(response.url).content.decode()
    assert f'id="join-pin">{keys.join_pin(table)}<' in page
    assert f"/t/{code}/?k={keys.join_key(table)}" in page


def test_spectating_by_code_alone_stays_open(lobby):
    page = Client().get(f"/t/{lobby.code}/?watch")
    assert page.status_code == 200 and 'data-role="spectator"' in page.content.decode()


@override_settings(SIXDICE_GUESS_LIMIT=3)
def test_pin_guessing_counts_as_code_guessing(lobby):
    guesser = Client(REMOTE_ADDR="10.9.0.2")
    right = keys.join_pin(lobby)
    wrong = [pin for pin in ("0000", "1111", "2222", "3333") if pin != right][:3]
    for pin in wrong:
        assert guesser.post(f"/t/{lobby.code}/join/", {"name": "Eve", "pin": pin}).status_code == 403
    assert guesser.post(f"/t/{lobby.code}/join/", {"name": "Eve", "pin": right}).status_code == 429
    assert not Seat.objects.filter(table=lobby).exists()


def test_pins_and_keys_differ_between_tables():
    tables = [services.create_table(game="runbuster", options={}, capacity=2)[0] for _ in range(20)]
    assert len({keys.join_key(t) for t in tables}) == 20
    assert all(len(keys.join_pin(t)) == 4 and keys.join_pin(t).isdigit() for t in tables)
