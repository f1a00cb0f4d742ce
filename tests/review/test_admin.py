"""The admin: staff see tables, games, seats and events; everyone else is refused; the log is read-only."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import escape

from sixdice.gamekit.engine import get_engine
from sixdice.review.desk import LOG_PAGE
from sixdice.review.stats import end_reason_label
from sixdice.review.wording import option_rows
from sixdice.tables.models import Event, Game

from .conftest import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(db):
    return [
        play("runbuster", ("Ana", "Bo"), seed=7),
        play("sixdice", ("Ana", "Cy", "Di"), seed=3, options={"rounds": 1, "auto_balance": True}),
    ]


PAGES = [
    "admin:tables_table_changelist", "admin:tables_game_changelist",
    "admin:tables_seat_changelist", "admin:tables_event_changelist",
]


@pytest.mark.parametrize("name", PAGES)
def test_lists_render_for_staff(staff, games, name):
    response = staff.get(reverse(name))
    assert response.status_code == 200


def test_object_pages_render_for_staff(staff, games):
    game = games[0]
    event = game.events.first()
    for url in (
        reverse("admin:tables_table_change", args=[game.table_id]),
        reverse("admin:tables_game_change", args=[game.pk]),
        reverse("admin:tables_seat_change", args=[game.table.seats.first().pk]),
        reverse("admin:tables_event_change", args=[event.pk]),
    ):
        assert staff.get(url).status_code == 200, url


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_everyone_else_is_refused(client, games, who):
    if who == "player":
        user = get_user_model().objects.create_user("ana", "ana@example.com", "pw-for-tests-1")
        client.force_login(user)
    game = games[0]
    for url in [reverse(name) for name in PAGES] + [reverse("admin:tables_game_change", args=[game.pk])]:
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url


def test_game_page_shows_everything(staff, games):
    for game in games:
        url = reverse("admin:tables_game_change", args=[game.pk])
        html = staff.get(url).content.decode()
        for name in game.players:
            assert name in html
        assert end_reason_label(game.engine, game.end_reason) in html  # in words, not the code
        for label, value in option_rows(game.options, get_engine(game.engine)):  # options in words, not their keys
            assert f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>" in html
        assert "time_limit_minutes" not in html and "auto_balance" not in html
        assert 'class="die"' in html  # hands drawn as dice
        assert '&quot;groups&quot;' not in html and '&quot;hands&quot;' not in html  # not raw JSON
        replay = reverse("review:replay", args=[game.table.code, game.number])
        pages = -(-game.events.count() // LOG_PAGE)
        shown = "".join(staff.get(url, {"log": n}).content.decode() for n in range(1, pages + 1))
        for event in game.events.all():  # every event on its page of the log, linked to its replay step
            assert f'<tr data-seq="{event.seq}"' in shown
            assert f'<a href="{replay}#step-{event.seq}"' in shown
        assert replay in html
        assert reverse("review:export", args=[game.table.code, game.number]) in html


def test_events_cannot_be_added_changed_or_deleted(staff, games):
    event = Event.objects.first()
    assert staff.get(reverse("admin:tables_event_add")).status_code == 403
    assert staff.get(reverse("admin:tables_event_delete", args=[event.pk])).status_code == 403
    before = event.text
    staff.post(reverse("admin:tables_event_change", args=[event.pk]), {"text": "tampered", "seq": 99})
    event.refresh_from_db()
    assert event.text == before and event.seq != 99
    page = staff.get(reverse("admin:tables_event_changelist")).content.decode()
    assert "delete_selected" not in page
    # Deleting a game would delete its log: refused too.
    game = games[0]
    assert staff.get(reverse("admin:tables_game_delete", args=[game.pk])).status_code == 403


def test_filters_and_search(staff, games):
    url = reverse("admin:tables_game_changelist")
    page = staff.get(url, {"players": "3"}).content.decode()
    assert games[1].table.code in page and games[0].table.code not in page
    page = staff.get(url, {"players": "2"}).content.decode()
    assert games[0].table.code in page and games[1].table.code not in page
    # A name: "di" is in no table code (they have no I), so the search can only find the game Di played.
    # ("cy" failed when the other table's random code had "CY" in it.)
    page = staff.get(url, {"q": "di"}).content.decode()
    assert games[1].table.code in page and games[0].table.code not in page
    page = staff.get(url, {"q": games[0].table.code}).content.decode()
    assert games[0].table.code in page and games[1].table.code not in page
    for params in ({"engine": "runbuster"}, {"status__exact": "finished"}, {"end_reason": "rounds"},
                   {"started_at__year": "2000"}):
        assert staff.get(url, params).status_code == 200


def test_export_actions(staff, games):
    url = reverse("admin:tables_game_changelist")
    ids = [str(g.pk) for g in games]
    response = staff.post(url, {"action": "export_json", "_selected_action": ids})
    docs = json.loads(response.content)
    assert [d["game"]["engine"] for d in docs] == ["runbuster", "sixdice"]
    response = staff.post(url, {"action": "export_zip", "_selected_action": ids})
    names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    assert len(names) == 2
    response = staff.post(url, {"action": "export_csv", "_selected_action": ids})
    assert response.content.decode().count("\n") == 3
    assert Game.objects.count() == 2
