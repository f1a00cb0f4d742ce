"""Statistics agree with counts made directly from the database; the CSV game list."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from runbuster.rules import win_probability
from sixdice.review import stats
from sixdice.review.local_time import spoken
from sixdice.tables.models import Event, Game

from .conftest import play

pytestmark = pytest.mark.django_db


def runbuster_stats(figures: stats.Statistics) -> stats.EngineStats:
    return next(e for e in figures.engines if e.slug == "runbuster")


@pytest.fixture
def many(db):
    games = []
    for seed in range(4):
        games.append(play("runbuster", ("Ana", "Bo"), seed=seed))
    games.append(play("runbuster", ("ana", "Cy", "Di"), seed=9))
    for seed in range(3):
        games.append(play("sixdice", ("Ana", "Cy"), seed=seed, options={"rounds": 1, "auto_balance": True}))
    return games


def test_figures_agree_with_the_database(many):
    figures = stats.compute()
    finished = Game.objects.filter(status=Game.Status.FINISHED)
    by_slug = {e.slug: e for e in figures.engines}
    for slug in ("runbuster", "sixdice"):
        games = finished.filter(engine=slug)
        es = by_slug[slug]
        assert es.games == games.count()
        events = Event.objects.filter(game__in=games).count()
        assert es.avg_events == pytest.approx(events / games.count())
        turn_kind = {"runbuster": "roll", "sixdice": "flip"}[slug]
        turns = sum(1 for a in Event.objects.filter(game__in=games).values_list("action", flat=True)
                    if a["type"] == turn_kind)
        assert es.avg_turns == pytest.approx(turns / games.count())
        reasons = {}
        for reason in games.values_list("end_reason", flat=True):
            reasons[reason] = reasons.get(reason, 0) + 1
        assert dict(es.end_reasons) == reasons
        first_wins = sum(1 for g in games if g.state["first"] in g.winners)
        assert (es.first_wins, es.first_games) == (first_wins, games.count())
    two = [g for g in finished.filter(engine="runbuster") if len(g.players) == 2]
    rb = by_slug["runbuster"]
    assert rb.two_player_games == len(two)
    assert rb.two_player_first_wins == sum(1 for g in two if g.state["first"] in g.winners)
    assert by_slug["sixdice"].reference is None  # no exact first-player chance is known for Six-Dice
    assert runbuster_stats(figures).reference == pytest.approx(float(win_probability((), ())))
    assert round(runbuster_stats(figures).reference, 4) == 0.5085

    # Every play() is a new table and its seats are guests: a guest counts only at their own table.
    players = {p.name: p for p in figures.players}
    assert len(players) == len(figures.players)
    guests = {(g.table.code, n) for g in finished for n in g.players}
    assert len(players) == len(guests)
    for code, name in guests:
        games = [g for g in finished if g.table.code == code and name in g.players]
        seat = {g.pk: g.players.index(name) for g in games}
        p = players[f"{name} (guest at {code})"]
        assert p.games == len(games)
        assert p.wins == sum(1 for g in games if seat[g.pk] in g.winners)
        assert p.rounds_lost == sum(1 for g in games if g.engine == "runbuster" and g.loser == seat[g.pk])
        assert p.win_rate == pytest.approx(p.wins / p.games)


def test_page_is_public_and_shows_the_figures(client, many):
    response = client.get(reverse("review:stats"))
    assert response.status_code == 200
    html = response.content.decode()
    figures = stats.compute()
    assert html.count("<svg") >= 3 and "<script" not in html.split("<main>")[1]
    assert f"{runbuster_stats(figures).reference * 100:.2f}%" in html  # the solver's exact chance, in English
    for p in figures.players:
        assert f'data-player="{p.name}"' in html
    rb = client.get(reverse("review:stats"), {"game": "runbuster"}).content.decode()
    assert 'id="engine-runbuster"' in rb and 'id="engine-sixdice"' not in rb
    assert client.get(reverse("review:stats"), {"game": "chess"}).status_code == 404


def test_empty_statistics(client, db):
    assert client.get(reverse("review:stats")).status_code == 200


def test_games_csv_is_staff_only_and_one_row_per_game(client, many):
    url = reverse("review:games_csv")
    response = client.get(url)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    client.force_login(get_user_model().objects.create_superuser("boss", "b@example.com", "pw-for-tests-1"))
    rows = list(csv.DictReader(io.StringIO(client.get(url).content.decode("utf-8-sig"))))
    assert len(rows) == Game.objects.count()
    by_key = {(r["table"], r["number"]): r for r in rows}
    for game in Game.objects.all():
        row = by_key[(game.table.code, str(game.number))]
        assert [row[f"player_{n + 1}"] for n in range(len(game.players))] == game.players
        assert row["winners"] == "; ".join(game.players[s] for s in game.winners)  # names, as a reviewer reads them
        assert row["winner_seats"] == " ".join(str(s + 1) for s in game.winners)  # and seat numbers (issue 15)
        assert row["end_reason"] == game.end_reason
        assert int(row["events"]) == game.events.count()
        assert row["date"] == spoken(game.started_at)  # the club's clock, with its zone
    only = list(csv.DictReader(io.StringIO(client.get(url, {"game": "sixdice"}).content.decode("utf-8-sig"))))
    assert len(only) == 3 and {r["game"] for r in only} == {"sixdice"}
