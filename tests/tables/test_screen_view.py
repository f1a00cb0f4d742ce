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
    from sixdice.tables.core import keys

    # The host's invitation links it, with the join key: that screen shows the room the QR code to join.
    link = f"/t/{table.code}/screen/?k={keys.join_key(table)}"
    assert f'href="{link}"'.encode() in host.content
    assert b'class="brand" href="/">' + label + b"</a>" in host.content  # the header names the game
    screen = Client().get(f"/t/{table.code}/screen/")
    assert screen.status_code == 200
    assert b'data-view="screen"' in screen.content
    assert b"data-host=" not in screen.content and b"<svg" not in screen.content  # no host controls, no QR
    assert keys.join_key(table).encode() not in screen.content  # knowing the code alone shows no join key
    invited = Client().get(link)
    assert b'id="screen-lobby"' in invited.content and b"<svg" in invited.content  # from the host's link: the QR
    assert b"data-host=" not in invited.content
    assert Client().get("/t/NOPE9/screen/").status_code == 404
