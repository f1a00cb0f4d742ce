"""The player page, the leaderboards with their season filter, and the statistics grouping."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sixdice.players import services as players
from sixdice.players.models import Participant, Profile, Rating, RatingUpdate
from sixdice.players.selectors import Season, leaderboard, parse_season
from sixdice.review import stats
from sixdice.tables.models import Game

from .helpers import BOT, play, table_with

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(db) -> dict[str, Profile]:
    """Ana, Bo and Cy play tiny games together (with a guest and a bot) and Six-Dice once."""
    people = {n: players.create_profile(name=n)[0] for n in ("Ana", "Bo", "Cy", "Di")}
    rng = random.Random(7)
    first = table_with("tiny", [people["Ana"], people["Bo"], "Guest", BOT])
    for _ in range(4):
        play(first, rng)
    second = table_with("tiny", [people["Cy"], people["Ana"], "Guest"])
    for _ in range(3):
        play(second, rng)
    play(table_with("sixdice", [people["Ana"], people["Di"]], {"rounds": 1, "auto_balance": True}), rng)
    return people


def test_player_page_shows_games_win_rate_chart_recent_games_and_head_to_head(client, league):
    ana = league["Ana"]
    response = client.get(reverse("players:player", args=[ana.public_id]))
    assert response.status_code == 200
    page = response.context["page"]
    rows = Participant.objects.filter(profile=ana)
    assert page.games == rows.count() == 8
    by_slug = {rec.slug: rec for rec in page.engines}
    assert by_slug["tiny"].games == 7 and by_slug["tiny"].wins == rows.filter(game__engine="tiny", rank=1).count()
    assert by_slug["tiny"].rating is not None
    assert len(by_slug["tiny"].history) == RatingUpdate.objects.filter(profile=ana, engine="tiny").count() == 7
    html = response.content.decode()
    assert html.count('class="chart rating-chart"') == 2 and "<polyline" in html
    for game in Game.objects.filter(participants__profile=ana):
        assert reverse("review:replay", args=[game.table.code, game.number]) in html
    opponents = {o.name: o for o in page.opponents}
    assert opponents["Bo"].games == 4 and opponents["Cy"].games == 3 and opponents["Di"].games == 1
    assert "Guest" not in opponents and not any("Bot" in n for n in opponents)
    bo = opponents["Bo"]
    assert bo.ahead + bo.behind + bo.level == 4
    mine = {r.game_id: r.rank for r in rows}
    theirs = Participant.objects.filter(profile=league["Bo"])
    assert bo.ahead == sum(1 for r in theirs if mine[r.game_id] < r.rank)


def test_leaderboard_ranks_by_rating_with_a_minimum_of_games(client, league):
    board = leaderboard("tiny", min_games=3)
    assert [s.profile.display_name for s in board] == sorted(
        ["Ana", "Bo", "Cy"], key=lambda n: -Rating.objects.get(profile__display_name=n, engine="tiny").ordinal)
    assert [s.profile.display_name for s in leaderboard("tiny", min_games=4)] == sorted(
        ["Ana", "Bo"], key=lambda n: -Rating.objects.get(profile__display_name=n, engine="tiny").ordinal)
    assert leaderboard("sixdice", min_games=3) == []
    assert [s.profile.display_name for s in leaderboard("sixdice", min_games=1)] != []
    html = client.get(reverse("players:leaderboard"), {"game": "tiny", "min": "4"}).content.decode()
    assert "Ana" in html and "Bo" in html and "Cy</a>" not in html
    assert client.get(reverse("players:leaderboard"), {"game": "chess"}).status_code == 404
    assert client.get(reverse("players:leaderboard"), {"game": "tiny", "min": "x"}).status_code == 200


def test_a_season_counts_only_its_games_and_rates_them_afresh(client, league):
    ana = league["Ana"]
    games = list(Game.objects.filter(engine="tiny").order_by("finished_at", "pk"))
    long_ago = timezone.now() - timedelta(days=400)
    Game.objects.filter(pk__in=[g.pk for g in games[:4]]).update(finished_at=long_ago)  # the first table's games
    today = timezone.localdate()
    season, error = parse_season(today.isoformat(), today.isoformat())
    assert error is None
    board = {s.profile.display_name: s for s in leaderboard("tiny", season=season, min_games=1)}
    assert set(board) == {"Ana", "Cy"} and board["Ana"].games == 3 and board["Ana"].rated_games == 3
    response = client.get(reverse("players:player", args=[ana.public_id]), {"from": today.isoformat()})
    assert response.context["page"].games == 4  # 3 tiny games and the Six-Dice game of this season
    _season, error = parse_season("2026-13-01", None)
    assert error and "YYYY-MM-DD" in error
    _season, error = parse_season("2026-05-02", "2026-05-01")
    assert error
    page = client.get(reverse("players:leaderboard"), {"game": "tiny", "from": "yesterday"})
    assert page.status_code == 200 and "YYYY-MM-DD" in page.content.decode()
    assert Season().is_open


def test_season_ratings_equal_a_rebuild_over_the_same_games(league):
    """With the whole history as the season, the season ratings are the live ones."""
    everything = Season(timezone.localdate() - timedelta(days=1), timezone.localdate() + timedelta(days=1))
    season = {s.profile.pk: s.skill for s in leaderboard("tiny", season=everything, min_games=1)}
    live = {s.profile.pk: s.skill for s in leaderboard("tiny", min_games=1)}
    assert season == live


def test_statistics_group_by_profile_guests_per_table_and_bots_together(client, league):
    figures = stats.compute("tiny")
    by_name = {p.name: p for p in figures.players}
    assert by_name["Ana"].games == 7 and by_name["Ana"].url == reverse("players:player", args=[league["Ana"].public_id])
    guests = [p for p in figures.players if p.name.startswith("Guest")]
    assert len(guests) == 2 and {p.games for p in guests} == {4, 3}  # one per table, never merged
    assert all("(guest at " in p.name for p in guests)
    bots = [p for p in figures.players if p.name == "Tiny bot"]
    assert len(bots) == 1 and bots[0].games == 4
    html = client.get(reverse("review:stats"), {"game": "tiny"}).content.decode()
    assert f'href="{by_name["Ana"].url}"' in html


def test_same_named_guests_at_two_tables_stay_two_entries(db):
    rng = random.Random(3)
    for _ in range(2):
        play(table_with("tiny", ["Bot 1", "Sam"]), rng)
    names = [p.name for p in stats.compute("tiny").players]
    assert len(names) == 4 and len(set(names)) == 4


def test_my_profile_page_and_pages_in_other_languages(league):
    client = Client()
    client.post(reverse("players:me"), {"action": "create", "name": "Олена"})
    for lang, word in (("uk", "Ваш профіль"), ("pt", "Seu perfil"), ("fr", "Votre profil"), ("nl", "Je profiel")):
        client.cookies["django_language"] = lang
        html = client.get(reverse("players:me")).content.decode()
        assert word in html, lang
        assert client.get(reverse("players:leaderboard"), {"game": "tiny", "min": 1}).status_code == 200
        ana = client.get(reverse("players:player", args=[league["Ana"].public_id]))
        assert ana.status_code == 200


def test_unknown_or_bad_addresses_say_so():
    client = Client()
    assert client.get(reverse("players:player", args=["nobody"])).status_code == 404
    assert client.get(reverse("players:carry", args=["nope"])).status_code == 410
    assert client.post(reverse("players:me"), {"action": "hide"}).status_code == 400
    assert client.post(reverse("players:join", args=["ZZZZZ"])).status_code == 404


def test_the_player_page_gives_each_rating_its_place_on_the_leaderboard_and_explains_level(client, league):
    """A rating's number alone says nothing to a person: the page gives its place, as the admin's profile page does."""
    ana = league["Ana"]
    html = client.get(reverse("players:player", args=[ana.public_id])).content.decode()
    board = [s.profile.pk for s in leaderboard("tiny", min_games=3)]
    place = f"{board.index(ana.pk) + 1} of {len(board)}"
    records = html.split('id="record-')
    tiny = next(r for r in records if r.startswith("tiny"))
    sixdice = next(r for r in records if r.startswith("sixdice"))
    assert f'class="place">{place}</strong>' in tiny
    assert 'class="place">–</strong>' in sixdice  # one rated Six-Dice game: not on that leaderboard yet
    assert "Level: games both finished in the same place." in html
