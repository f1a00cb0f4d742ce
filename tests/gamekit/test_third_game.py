"""A third game (tests/tinygame.py), registered from the tests only, gets every shared part.

A table and a game through the services, a live game through the WebSocket
consumer, a replay (the function and the page), an export/import round trip
and a row in the statistics, with no edit outside its own file.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from django.urls import reverse

from sixdice.gamekit.engine import REGISTRY, get_engine
from sixdice.review import exchange, stats
from sixdice.review.steps import replay_steps
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Game, Table
from sixdice.tables.writes import checked_path, services
from tests.live_client import connect, receive_until
from tests.review.conftest import play
from tests.tinygame import TINY

ROOT = Path(__file__).resolve().parents[2]


def test_the_game_is_named_only_in_its_own_files():
    """Adding it touched nothing shared: no app file, template, script or setting names it."""
    assert REGISTRY["tiny"] is TINY
    shared = [ROOT / "sixdice", ROOT / "runbuster", ROOT / "templates", ROOT / "static"]
    naming = [
        str(path.relative_to(ROOT))
        for folder in shared
        for path in folder.rglob("*")
        if path.is_file() and path.suffix in {".py", ".html", ".js", ".css", ".json"}
        and ("tinygame" in path.read_text(encoding="utf-8") or '"tiny"' in path.read_text(encoding="utf-8"))
    ]
    assert naming == []


@pytest.mark.django_db
def test_a_table_plays_a_whole_game_through_the_services():
    table, _host = services.create_table(game="tiny", options={"target": 6}, capacity=2)
    seats = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    rng = random.Random(5)
    game = services.start_game(table=table, rng=rng).game
    assert (game.engine, game.state["target"]) == ("tiny", 6)
    while game.status == Game.Status.PLAYING:
        mover = game.state["current"]
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=seats[mover]),
                              action={"type": "add", "n": 2}, expected_seq=game.seq, rng=rng)
        game.refresh_from_db()
    assert game.winners == [game.state["winner"]] and game.end_reason == "target"
    events = list(game.events.order_by("seq"))
    assert [e.action["type"] for e in events] == ["add", "deal", "add", "deal", "add"]
    assert events[0].text == f"{game.players[game.first]} adds 2"
    assert events[0].notation == [{"msg": "%(name)s adds %(n)s", "args": {"name": game.players[game.first], "n": 2}}]
    assert checked_path.replay(game) == game.state
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED  # a series: the host may start a rematch


@pytest.mark.django_db
def test_a_host_opens_a_table_from_the_generic_form(client):
    form = client.get(reverse("tables:new", args=["tiny"]))
    assert form.status_code == 200 and "Tiny" in form.content.decode()
    response = client.post(reverse("tables:new", args=["tiny"]), {"players": "3", "dice": "app", "target": "7"})
    assert response.status_code == 302
    table = Table.objects.get(game="tiny")
    assert (table.capacity, table.options["target"]) == (3, 7)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_live_game_through_the_consumer(tiny_table):
    from asgiref.sync import sync_to_async

    table, _host, secrets = tiny_table
    game = (await sync_to_async(services.start_game)(table=table, rng=random.Random(2))).game
    mover, welcome = await connect(table.code, seat=secrets[game.first])
    watcher, _ = await connect(table.code)
    assert welcome["game"]["view"]["mine"] is True
    await mover.send_json_to({"type": "action", "id": 1, "seq": 0, "action": {"type": "add", "n": 1}})
    assert (await receive_until(mover, "ack"))["seq"] == 2
    update = await receive_until(watcher, "update")
    assert [e["text"] for e in update["events"]][0] == f"{game.players[game.first]} adds 1"
    assert update["view"]["total"] == 1 and update["view"]["mine"] is False
    await mover.send_json_to({"type": "action", "id": 2, "seq": 2, "action": {"type": "add", "n": 3}})
    error = await receive_until(mover, "error")
    assert error["code"] in ("illegal", "not_allowed")
    for comm in (mover, watcher):
        await comm.disconnect()


@pytest.mark.django_db
def test_replay_of_the_game_and_its_page(client):
    game = play("tiny", ("Ana", "Bo", "Cy"), seed=4)
    steps = replay_steps(game)
    assert steps[-1].state == game.state and len(steps) == game.seq + 1
    adds = sum(1 for e in game.events.all() if e.actor.isdigit())
    assert steps[-1].turn == adds  # the kit's default: every action a seat sends is a turn
    response = client.get(reverse("review:replay", args=[game.table.code, game.number]))
    assert response.status_code == 200
    payload = response.context["payload"]
    last = payload["steps"][-1]
    assert last["view"]["total"] == game.state["total"]
    assert last["picture"]["facts"] == [["Total", str(game.state["total"])]]
    assert [d["v"] for d in last["picture"]["hands"][0]["loose"]] == game.state["deals"]
    assert client.get(reverse("tables:rules", args=["tiny"])).status_code == 404  # no rules page offered


@pytest.mark.django_db
def test_export_and_import_round_trip():
    game = play("tiny", ("Ana", "Bo"), seed=11)
    document = exchange.export_game(game)
    original = game.pk
    game.delete()  # the same game is refused while it is here (issue 15)
    (copy,) = exchange.import_text(json.dumps(document))
    assert copy.pk != original and copy.engine == "tiny"
    again = exchange.export_game(copy)
    for key in ("initial_state", "final_state", "players"):
        assert again[key] == document[key]
    assert [(e["actor"], e["action"], e["text"]) for e in again["events"]] == [
        (e["actor"], e["action"], e["text"]) for e in document["events"]
    ]
    assert (copy.winners, copy.end_reason) == (game.winners, game.end_reason)
    assert copy.table.game == "tiny" and copy.table.status == Table.Status.FINISHED
    tampered = json.loads(json.dumps(document))
    tampered["events"][0]["action"]["n"] = 5
    with pytest.raises(exchange.ImportRefused, match="refused by the rules"):
        exchange.import_documents([tampered])


@pytest.mark.django_db
def test_a_row_in_the_statistics(client):
    games = [play("tiny", ("Ana", "Bo"), seed=seed) for seed in range(3)]
    figures = stats.compute("tiny")
    (row,) = figures.engines
    assert (row.slug, row.label, row.games) == ("tiny", "Tiny", 3)
    assert row.events == sum(g.seq for g in games)
    assert row.reference is None
    # Each game is at its own table, and a guest counts only at their table: one row per table.
    for game in games:
        (ana,) = [p for p in figures.players if p.name == f"Ana (guest at {game.table.code})"]
        assert ana.games == 1 and ana.wins == (0 in game.winners)
        assert ana.rounds_lost == (game.loser == 0)  # the tiny game names a loser
    html = client.get(reverse("review:stats"), {"game": "tiny"}).content.decode()
    assert 'id="engine-tiny"' in html
    assert get_engine("tiny").label in html


@pytest.mark.django_db
def test_its_sets_of_rules_and_end_reasons_in_the_statistics(client):
    """The statistics' rules table is the game's: its sets in its order, the share of the end reasons it picks."""
    for seed in range(2):
        play("tiny", ("Ana", "Bo"), seed=seed)  # target 10: the standard game
    short = play("tiny", ("Ana", "Bo"), seed=5, options={"target": 4})
    table, host = services.create_table(game="tiny", options={"target": 6}, capacity=2)
    for name in ("Cy", "Di"):
        services.join_table(table=table, name=name)
    ended = services.start_game(table=table, rng=random.Random(3)).game
    checked_path.apply_action(table_code=table.code, credentials=Credentials(host_secret=host),
                              action={"type": "end"}, expected_seq=ended.seq, as_host=True, rng=random.Random(3))
    ended.refresh_from_db()
    assert (short.end_reason, ended.status, ended.end_reason) == ("target", Game.Status.FINISHED, "host")

    (row,) = stats.compute("tiny").engines
    assert [(r.rules, r.label, r.games) for r in row.rules_rows] == [("standard", "Standard", 2), ("short", "Short game", 2)]
    assert row.rules_columns == [("host", "Ended by the host")]
    shares = {r.rules: r.end_reason_shares for r in row.rules_rows}
    assert shares == {"standard": [("host", "Ended by the host", "0.0%")], "short": [("host", "Ended by the host", "50.0%")]}
    assert {label for _code, label, _n in row.end_reason_rows} == {"Target reached", "Ended by the host"}
    html = client.get(reverse("review:stats"), {"game": "tiny"}).content.decode()
    assert 'data-rules="short"' in html and "Short game" in html
    assert '<th>Ended by the host</th>' in html and 'data-reason="host" data-label="Ended by the host">50.0%<' in html


def test_its_plural_strings_reach_the_page_beside_the_tables_own():
    from sixdice.tables.core.plural_forms import plural_table

    table = plural_table()
    assert (table["tiny_total"]["one"], table["tiny_total"]["other"]) == ("Total: %(n)s point", "Total: %(n)s points")
    assert table["dice_count"]["one"] == "%(n)s die"  # the tables' own
