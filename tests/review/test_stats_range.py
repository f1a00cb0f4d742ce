"""The statistics over a date range (?from=&to=, both days included, in the club's time zone)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from sixdice.review import stats
from sixdice.tables.models import Game

from .conftest import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_nights(settings):
    """Three finished games, on 2026-11-30, 12-01 and 12-02 at 23:30 in Lisbon (a time that is 12-01 in UTC for one)."""
    settings.TIME_ZONE = "Europe/Lisbon"
    games = [play("runbuster", ("Ana", "Bo"), seed=seed) for seed in (7, 8, 9)]
    for game, day in zip(games, (30, 1, 2), strict=True):
        month = 11 if day == 30 else 12
        finished = timezone.make_aware(dt.datetime(2026, month, day, 23, 30))
        Game.objects.filter(pk=game.pk).update(finished_at=finished, started_at=finished - dt.timedelta(minutes=20))
    return games


def test_the_statistics_count_the_games_of_a_date_range(client, three_nights):
    url = reverse("review:stats")

    def games(**params: str) -> int:
        response = client.get(url, params)
        assert response.status_code == 200
        page = response.content.decode()
        return int(page.split('class="n-games">')[1].split("<")[0]) if 'class="n-games">' in page else 0

    assert games() == 3
    assert games(**{"from": "2026-12-01"}) == 2
    assert games(to="2026-12-01") == 2
    assert games(**{"from": "2026-12-01", "to": "2026-12-01"}) == 1  # 23:30 in Lisbon is still that day
    assert games(**{"from": "2026-12-03"}) == 0
    assert stats.compute("runbuster").total_games == 3
    page = client.get(url, {"from": "2026-12-01", "to": "2026-12-02", "game": "runbuster"}).content.decode()
    assert "Games that finished from 2026-12-01 to 2026-12-02." in page
    assert 'name="from" value="2026-12-01"' in page and 'name="game" value="runbuster"' in page
    assert "?game=sixdice&amp;from=2026-12-01&amp;to=2026-12-02" in page  # the other game keeps the range


@pytest.mark.parametrize(("start", "end", "error"), [
    ("yesterday", "", "Dates are written as YYYY-MM-DD; showing every game."),
    ("2026-12-02", "2026-12-01", "The season ends before it starts; showing every game."),
])
def test_a_bad_range_says_so_and_counts_every_game(client, three_nights, start, end, error):
    response = client.get(reverse("review:stats"), {"from": start, "to": end})
    page = response.content.decode()
    assert response.status_code == 200 and error in page
    assert int(page.split('class="n-games">')[1].split("<")[0]) == 3
