"""The replay: every step equals a fresh replay of the events; the public page and its refusals."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from sixdice.gamekit.engine import get_engine
from sixdice.review.steps import count_turns, replay_steps, step_payloads
from sixdice.tables.models import Game
from sixdice.tables.writes import checked_path, services

from .conftest import play

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("fixture", ["runbuster_game", "sixdice_game"])
def test_every_step_equals_a_fresh_replay(request, fixture):
    game = request.getfixturevalue(fixture)
    events = list(game.events.order_by("seq"))
    steps = replay_steps(game)
    assert len(steps) == len(events) + 1
    engine = get_engine(game.engine)
    for k, step in enumerate(steps):
        fresh = checked_path.replay(game, events[:k])
        assert step.state == fresh
        assert step.seq == k
    assert steps[-1].state == game.state
    payloads = step_payloads(game, steps)
    for k, payload in enumerate(payloads):
        assert payload["view"] == engine.view(checked_path.replay(game, events[:k]), None)
        assert payload["text"] == (events[k - 1].text if k else "")


def test_turns_are_flips_in_sixdice_and_rolls_in_runbuster(runbuster_game, sixdice_game):
    rb = list(runbuster_game.events.values_list("actor", "action"))
    assert count_turns(get_engine("runbuster"), rb) == sum(1 for _a, action in rb if action["type"] == "roll")
    assert count_turns(get_engine("runbuster"), rb) == runbuster_game.state["turns"]
    sd = list(sixdice_game.events.values_list("actor", "action"))
    flips = sum(1 for _a, action in sd if action["type"] == "flip")
    assert flips > 0 and count_turns(get_engine("sixdice"), sd) == flips
    assert replay_steps(sixdice_game)[-1].turn == flips


def _data(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="replay-data" type="application/json">') + len(
        '<script id="replay-data" type="application/json">')
    return json.loads(html[start:html.index("</script>", start)])


@pytest.mark.parametrize("fixture", ["runbuster_game", "sixdice_game"])
def test_public_replay_page(client, request, fixture):
    game = request.getfixturevalue(fixture)
    url = reverse("review:replay", args=[game.table.code.lower(), game.number])
    response = client.get(url)  # no login, the code is enough (any case)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="step-slider"' in html and f'max="{game.seq}"' in html
    assert f"js/{game.engine}_board.js" in html  # the live table's board
    data = _data(response)
    assert len(data["steps"]) == game.seq + 1
    assert data["steps"][-1]["view"] == get_engine(game.engine).view(game.state, None)
    assert [s["seq"] for s in data["steps"]] == list(range(game.seq + 1))
    assert data["table"]["seats"][0]["name"] == game.players[0]


def test_rematch_has_its_own_replay(client, runbuster_game):
    second = play("runbuster", seed=11, table=runbuster_game.table)
    assert second.number == 2
    data = _data(client.get(reverse("review:replay", args=[second.table.code, 2])))
    assert data["game"]["number"] == 2 and len(data["steps"]) == second.seq + 1


def test_unknown_games_are_404_and_unfinished_refused(client, tiny_table):
    table, _host, _secrets = tiny_table
    assert client.get(reverse("review:replay", args=["ZZZZZ", 1])).status_code == 404
    assert client.get(reverse("review:replay", args=[table.code, 1])).status_code == 404
    services.start_game(table=table)
    response = client.get(reverse("review:replay", args=[table.code, 1]))
    assert response.status_code == 409
    assert "not finished" in response.content.decode()
    assert client.get(reverse("review:export", args=[table.code, 1])).status_code == 409
    assert Game.objects.get().status == Game.Status.PLAYING
