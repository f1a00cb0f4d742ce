"""The table screen page: every hand for a tablet or TV, no controls; the live page's header names the game."""

from __future__ import annotations

import pytest
from django.test import Client

from sixdice.tables.models import Table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game,label", [("sixdice", b"Six-Dice"), ("runbuster", b"Run Buster")])
def test_the_table_screen_and_the_header(client: Client, game, label):
    client.post(f"/new/{game}/", {"players": "3", "dice": "app"})
    table = Table.objects.get()
    host = client.get(f"/t/{table.code}/host/")
    assert f'href="/t/{table.code}/screen/"'.encode() in host.content  # the host's invitation links it
    assert b'class="brand" href="/">' + label + b"</a>" in host.content  # the header names the game
    screen = Client().get(f"/t/{table.code}/screen/")
    assert screen.status_code == 200
    assert b'data-view="screen"' in screen.content
    assert b"data-host=" not in screen.content and b"<svg" not in screen.content  # no host controls, no QR
    assert Client().get("/t/NOPE9/screen/").status_code == 404
