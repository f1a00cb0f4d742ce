"""The CSV and the replay give the club's time (``TIME_ZONE``) with its zone, in the reader's language's format
(issue 39: the CSV said ``2026-12-04T15:18:25.509768+00:00`` where the admin said 17:18 Europe/Kyiv; the replay
"12/04/2026 5:28 p.m." with no zone)."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse

from sixdice.tables.models import Game

from .conftest import play

pytestmark = pytest.mark.django_db

STARTED = dt.datetime(2026, 12, 4, 15, 18, 25, 509768, tzinfo=dt.UTC)
FINISHED = dt.datetime(2026, 12, 4, 15, 28, 2, tzinfo=dt.UTC)
IN_KYIV = {  # 17:18 and 17:28 in Kyiv, as each language writes a date
    "en": ("Dec. 4, 2026, 5:18 p.m. (Europe/Kyiv)", "Dec. 4, 2026, 5:28 p.m. (Europe/Kyiv)"),
    "uk": ("04 грудня 2026 р. 17:18 (Europe/Kyiv)", "04 грудня 2026 р. 17:28 (Europe/Kyiv)"),
    "pt": ("4 de Dezembro de 2026 às 17:18 (Europe/Kyiv)", "4 de Dezembro de 2026 às 17:28 (Europe/Kyiv)"),
    "fr": ("4 décembre 2026 17:18 (Europe/Kyiv)", "4 décembre 2026 17:28 (Europe/Kyiv)"),
    "nl": ("4 december 2026 17:18 (Europe/Kyiv)", "4 december 2026 17:28 (Europe/Kyiv)"),
}


@pytest.fixture
def game(db) -> Game:
    game = play("runbuster", ("Ana", "Bo"), seed=7)
    Game.objects.filter(pk=game.pk).update(started_at=STARTED, finished_at=FINISHED)
    game.refresh_from_db()
    return game


@override_settings(TIME_ZONE="Europe/Kyiv")
@pytest.mark.parametrize("lang", sorted(IN_KYIV))
def test_the_csv_gives_the_clubs_time_with_its_zone_in_the_readers_format(client, game, lang):
    client.force_login(get_user_model().objects.create_superuser("boss", "b@example.com", "pw-for-tests-1"))
    started, finished = IN_KYIV[lang]
    for response in (
        client.get(reverse("review:games_csv"), HTTP_ACCEPT_LANGUAGE=lang),
        client.post(reverse("admin:tables_game_changelist"), {"action": "export_csv", "_selected_action": [game.pk]},
                    HTTP_ACCEPT_LANGUAGE=lang),
    ):
        (row,) = csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")))
        assert (row["date"], row["finished_at"]) == (started, finished)
        assert "+00:00" not in response.content.decode("utf-8-sig")


@override_settings(TIME_ZONE="Europe/Kyiv")
@pytest.mark.parametrize("lang", sorted(IN_KYIV))
def test_the_replay_header_gives_the_clubs_time_with_its_zone(client, game, lang):
    page = client.get(reverse("review:replay", args=[game.table.code, game.number]),
                      HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert f'<time datetime="{FINISHED.isoformat()}">{IN_KYIV[lang][1]}</time>' in page
