"""Issue 15, items 6 and 7: a CSV that runs no formulas, and staff who cannot break tables."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from sixdice.review.csvsafe import BOM, safe_cell
from sixdice.tables.models import Game, Table
from sixdice.tables.writes import services

pytestmark = pytest.mark.django_db


def _staff(username: str, *perms: str) -> Client:
    user = get_user_model().objects.create_user(username, f"{username}@example.com", "pw-for-tests-1", is_staff=True)
    for codename in perms:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def hostile_names_game():
    table, _host = services.create_table(game="runbuster", options={}, capacity=4)
    names = ["=HYPERLINK(\"http://x\")", "Chloé; Bo", "Олег", "@SUM(A1)"]
    for name in names:
        services.join_table(table=table, name=name)
    return services.start_game(table=table).game, names


@pytest.mark.parametrize("value", ["=1+1", "+1", "-1", "@x", "\t=1", "\r=1"])
def test_formula_prefixes_are_neutralised(value):
    assert safe_cell(value) == "'" + value
    assert safe_cell("Ana") == "Ana" and safe_cell(-3) == -3


def test_games_csv_has_a_bom_a_column_per_seat_and_no_formulas(hostile_names_game):
    game, names = hostile_names_game
    body = _staff("viewer", "view_game").get(reverse("review:games_csv")).content.decode("utf-8")
    assert body.startswith(BOM)
    (row,) = list(csv.DictReader(io.StringIO(body[1:])))
    assert [row[f"player_{n + 1}"] for n in range(4)] == ["'" + names[0], "Chloé; Bo", "Олег", "'" + names[3]]
    for cell in row.values():
        assert not cell.startswith(("=", "+", "@", "\t", "\r"))


def test_staff_without_view_permission_get_403_as_in_the_admin(hostile_names_game):
    game, _names = hostile_names_game
    bare = _staff("bare")
    assert bare.get(reverse("admin:tables_game_changelist")).status_code == 403
    assert bare.get(reverse("review:games_csv")).status_code == 403
    export = reverse("review:export", args=[game.table.code, game.number])
    assert bare.get(export).status_code == 403  # a game in play: staff with the permission only
    assert Client().get(export).status_code == 409  # the public: not finished yet
    viewer = _staff("viewer", "view_game")
    assert viewer.get(reverse("review:games_csv")).status_code == 200
    assert viewer.get(export).status_code == 200


def test_an_abandoned_games_export_needs_the_view_permission_its_replay_stays_public(hostile_names_game):
    game, _names = hostile_names_game
    services.close_table(table=game.table)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    export = reverse("review:export", args=[game.table.code, game.number])
    replay = reverse("review:replay", args=[game.table.code, game.number])
    bare, viewer, public = _staff("bare"), _staff("viewer", "view_game"), Client()
    assert public.get(export).status_code == 403
    assert bare.get(export).status_code == 403
    response = viewer.get(export)
    assert response.status_code == 200 and b'"status": "abandoned"' in response.content
    page = public.get(replay)
    assert page.status_code == 200 and export.encode() not in page.content  # no link to a refused download
    assert export.encode() in viewer.get(replay).content


def test_a_finished_games_export_is_public_as_its_replay(hostile_names_game):
    game, _names = hostile_names_game
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    export = reverse("review:export", args=[game.table.code, game.number])
    assert Client().get(export).status_code == 200
    assert _staff("bare").get(export).status_code == 200


def test_table_status_and_paused_cannot_be_set_by_hand():
    table, _host = services.create_table(game="runbuster", options={}, capacity=2)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(admin)
    url = reverse("admin:tables_table_change", args=[table.pk])
    page = client.get(url).content.decode()
    assert 'name="status"' not in page and 'name="paused"' not in page
    client.post(url, {"status": "lobby", "paused": "on"})
    table.refresh_from_db()
    assert (table.status, table.paused) == (Table.Status.FINISHED, False)
    assert "Take a seat" not in Client().get(f"/t/{table.code}/").content.decode()


def test_admin_actions_go_through_the_services():
    table, _host = services.create_table(game="runbuster", options={}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    game = services.start_game(table=table).game
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(admin)
    changelist = reverse("admin:tables_table_changelist")
    client.post(changelist, {"action": "pause_tables", "_selected_action": [table.pk]})
    table.refresh_from_db()
    assert table.paused
    client.post(changelist, {"action": "close_tables", "_selected_action": [table.pk]})
    table.refresh_from_db()
    game.refresh_from_db()
    assert table.status == Table.Status.CLOSED and not table.paused
    assert game.status == Game.Status.ABANDONED and game.end_reason == "closed"
