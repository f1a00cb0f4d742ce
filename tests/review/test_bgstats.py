"""Send to BG Stats: the link's JSON against the fields the BG Stats app documents; the end screen's links."""

from __future__ import annotations

import json
from urllib.parse import unquote, urlsplit

import pytest
from django.urls import reverse

from sixdice.gamekit.engine import PlayRecord, get_engine
from sixdice.review import bgstats
from sixdice.review.stats import first_player
from sixdice.tables.models import Game
from sixdice.tables.reads import selectors, table_frame
from tests.review.conftest import play

pytestmark = pytest.mark.django_db

# "Push plays to BG Stats from other apps or websites" (www.bgstatsapp.com/support): the play's fields.
PLAY_FIELDS = {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players",
               "board", "comments", "location"}
GAME_FIELDS = {"name", "sourceGameId", "bggId", "highestWins", "noPoints"}
PLAYER_FIELDS = {"name", "sourcePlayerId", "score", "rank", "role", "winner", "startPlayer"}


def _decoded(link: str) -> dict:
    assert link.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    query = urlsplit(link).query
    assert query.startswith("data=") and "&" not in query and " " not in link  # one url-encoded parameter
    return json.loads(unquote(query.removeprefix("data=")))


def _check_documented(data: dict, game: Game) -> None:
    assert set(data) <= PLAY_FIELDS and set(data["game"]) <= GAME_FIELDS
    assert data["sourceName"] == "Six-Dice" and isinstance(data["sourcePlayId"], str) and data["sourcePlayId"]
    assert len(data["playDate"]) == 19 and data["playDate"][4] == "-" and data["playDate"][10] == " "
    assert isinstance(data["durationMin"], int) and data["durationMin"] >= 1
    engine = get_engine(game.engine)
    assert data["game"]["name"] == engine.label and data["game"]["sourceGameId"] == engine.slug
    players = data["players"]
    assert [p["name"] for p in players] == game.players
    ranks = engine.final_ranks(game.state, players=len(game.players))
    start = first_player(game, engine)
    for seat, p in enumerate(players):
        assert set(p) <= PLAYER_FIELDS
        assert p["winner"] is (seat in game.winners)
        assert p["startPlayer"] is (seat == start)
        assert p["rank"] == ranks[seat]
        assert isinstance(p["sourcePlayerId"], str)
    assert sum(p["startPlayer"] for p in players) == 1
    assert all(p["rank"] == 1 for p in players if p["winner"])


def test_sixdice_link_scores_what_each_hand_counts_and_notes_the_signed_values(sixdice_game):
    data = _decoded(bgstats.link(sixdice_game))
    _check_documented(data, sixdice_game)
    values = get_engine("sixdice")._state(sixdice_game.state).values()
    assert [p["score"] for p in data["players"]] == [abs(v) for v in values]
    assert data["game"]["noPoints"] is False and data["game"]["highestWins"] is True
    signed = ", ".join(f"{n} {v:+d}".replace("-", "\u2212").replace("+0", "0") for n, v in zip(sixdice_game.players, values, strict=True))
    assert data["comments"] == signed
    assert "bggId" not in data["game"]  # not verified on BoardGameGeek: never invented


def test_a_sixdice_game_won_with_a_negative_hand_gives_the_winner_the_highest_score():
    game = play("sixdice", ("Ana", "Ben", "Cleo"), seed=1, options={"rounds": 2, "auto_balance": True})
    values = get_engine("sixdice")._state(game.state).values()
    assert game.end_reason == "rounds" and game.winners == [0] and values[0] < 0 < max(values)  # the case in point
    data = _decoded(bgstats.link(game))
    _check_documented(data, game)
    scores = [p["score"] for p in data["players"]]
    winner = next(p for p in data["players"] if p["winner"])
    assert winner["name"] == "Ana" and winner["score"] == max(scores) and scores.count(max(scores)) == 1
    assert data["game"]["highestWins"] is True
    assert data["comments"].startswith(f"Ana \u2212{abs(values[0])}, Ben ")  # the signed value, in the note


def test_runbuster_link_scores_the_place(runbuster_game):
    data = _decoded(bgstats.link(runbuster_game))
    _check_documented(data, runbuster_game)
    assert data["game"]["noPoints"] is False and data["game"]["highestWins"] is False and "bggId" not in data["game"]
    assert [p["score"] for p in data["players"]] == [p["rank"] for p in data["players"]]
    assert next(p for p in data["players"] if p["winner"])["score"] == 1
    assert "comments" not in data


def test_the_adapter_gives_the_bgg_id_and_scores(runbuster_game, monkeypatch):
    engine = get_engine("runbuster")
    monkeypatch.setattr(type(engine.presentation), "play_record",
                        lambda self, state, *, players: PlayRecord(scores=(3.5, None), bgg_id=12345, highest_wins=True))
    data = _decoded(bgstats.link(runbuster_game))
    assert data["game"]["bggId"] == 12345 and data["game"]["highestWins"] is True
    assert data["players"][0]["score"] == 3.5 and "score" not in data["players"][1]


def test_no_link_for_a_game_not_finished(sixdice_game):
    sixdice_game.status = Game.Status.ABANDONED
    assert bgstats.link(sixdice_game) == "" and table_frame.end_links(sixdice_game, code="ABCDE") is None


def test_the_replay_page_offers_it(client, sixdice_game):
    page = client.get(reverse("review:replay", args=[sixdice_game.table.code, sixdice_game.number]))
    html = page.content.decode()
    assert 'id="bgstats-link"' in html and "bgstats://app.bgstatsapp.com/createPlay.html?data=" in html
    assert "Send to BG Stats" in html


def test_the_finished_games_frame_links_to_replay_standings_and_bgstats(runbuster_game):
    table = runbuster_game.table
    table_frame.FRAMES.clear()
    frame = selectors.snapshot(table.pk, seat=0, host=False)
    links = frame["game"]["links"]
    assert links["replay"] == reverse("review:replay", args=[table.code, runbuster_game.number])
    assert links["standings"] == reverse("tables:table", args=[table.code]) + "#standings-card"
    assert _decoded(links["bgstats"])["players"][0]["name"] == runbuster_game.players[0]
