"""Export and import: round trips, the commands, and refusals that write nothing."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from sixdice.review import exchange
from sixdice.tables.models import Event, Game, Seat, Table

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, int, int, int]:
    return Table.objects.count(), Seat.objects.count(), Game.objects.count(), Event.objects.count()


def _without_code(doc: dict) -> dict:
    """The document but its table code (and so its signature, which covers the code)."""
    doc = copy.deepcopy(doc)
    doc["table"].pop("code")
    doc.pop("signature")
    return doc


@pytest.mark.parametrize("fixture", ["runbuster_game", "sixdice_game"])
def test_document_holds_everything(request, fixture):
    game = request.getfixturevalue(fixture)
    doc = exchange.export_game(game)
    assert doc["format"] == "sixdice-game" and doc["version"] == exchange.VERSION == 4
    assert doc["game"]["engine"] == game.engine and doc["game"]["options"] == game.options
    assert [p["name"] for p in doc["players"]] == game.players
    assert len(doc["events"]) == game.seq
    assert doc["final_state"] == game.state and doc["initial_state"] == game.initial_state
    rolls = [e for e in doc["events"] if e["action"]["type"] == "roll"]
    assert rolls and all(e["action"].get("values") for e in rolls)  # every rolled value
    json.dumps(doc)  # plain JSON


@pytest.mark.parametrize("fixture", ["runbuster_game", "sixdice_game"])
def test_round_trip_same_install_new_code(request, fixture):
    game = request.getfixturevalue(fixture)
    first = exchange.export_game(game)
    game.delete()  # the same game is refused while it is here (issue 15); its table keeps the code
    (imported,) = exchange.import_documents([json.loads(exchange.dumps(first))])
    assert imported.table.code != game.table.code  # the code is taken here: a fresh one
    assert imported.table.status == Table.Status.FINISHED
    second = exchange.export_game(imported)
    assert _without_code(second) == _without_code(first)


def test_round_trip_keeps_the_code_when_free(runbuster_game):
    first = exchange.export_game(runbuster_game)
    runbuster_game.table.delete()
    (imported,) = exchange.import_text(exchange.dumps(first))
    assert exchange.export_game(imported) == first


def test_commands_round_trip(tmp_path, sixdice_game, capsys):
    path = tmp_path / "game.json"
    call_command("export_game", sixdice_game.table.code, str(sixdice_game.number), "-o", str(path))
    sixdice_game.delete()  # the same game is refused while it is here (issue 15)
    call_command("import_game", str(path))
    out = capsys.readouterr().out
    assert "Imported sixdice game 1 as table" in out
    new = Game.objects.get()
    again = tmp_path / "again.json"
    call_command("export_game", new.table.code, "-o", str(again))
    assert _without_code(json.loads(again.read_text())) == _without_code(json.loads(path.read_text()))


def test_export_download_link(client, runbuster_game):
    response = client.get(reverse("review:export", args=[runbuster_game.table.code, 1]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(response.content) == exchange.export_game(runbuster_game)


def _tamper_roll(doc):
    event = next(e for e in doc["events"] if e["action"]["type"] == "roll" and e["seq"] > 2)
    values = event["action"]["values"]
    values[0] = values[0] % 6 + 1 if doc["game"]["engine"] == "runbuster" else -values[0]


TAMPERS = {
    "format": (lambda d: d.update(format="something-else"), '"format"'),
    "version": (lambda d: d.update(version=exchange.VERSION + 1), "version"),
    "version not a number": (lambda d: d.update(version="2"), '"version"'),
    "version zero": (lambda d: d.update(version=0), '"version"'),
    "missing events": (lambda d: d.pop("events"), '"events" is missing'),
    "events not a list": (lambda d: d.update(events={}), '"events" must be a list'),
    "unknown engine": (lambda d: d["game"].update(engine="chess"), "unknown game engine"),
    "unfinished": (lambda d: d["game"].update(status="playing"), "only finished or abandoned games"),
    "rolled value": (_tamper_roll, "event"),
    "initial state": (lambda d: d["initial_state"].update(first=1 - d["initial_state"].get("first", 0) if
                                                         isinstance(d["initial_state"].get("first"), int) else 5),
                      "initial_state"),
    "final state": (lambda d: d["final_state"].update(turns=d["final_state"]["turns"] + 1), "final_state"),
    "dropped event": (lambda d: d["events"].pop(), ""),
    "seq gap": (lambda d: d["events"][3].update(seq=99), '"seq": 4'),
    "bad actor": (lambda d: d["events"][0].update(actor="9"), '"actor"'),
    "notation": (lambda d: d["events"][1].update(text="Bo wins everything"), '"text"'),
    "winners": (lambda d: d["game"].update(winners=[1 - d["game"]["winners"][0]]), "winners"),
    "player names": (lambda d: d["players"][1].update(name="Ana"), "two players"),
    "options": (lambda d: d["game"]["options"].update(dice="loaded"), "options"),
    "action not object": (lambda d: d["events"][0].update(action=[1, 2]), "JSON object"),
    "bad time": (lambda d: d["events"][0].update(at="yesterday"), "ISO 8601"),
}


@pytest.mark.parametrize("fixture", ["runbuster_game", "sixdice_game"])
@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_tampered_files_are_refused_and_write_nothing(request, tmp_path, fixture, name):
    game = request.getfixturevalue(fixture)
    doc = exchange.export_game(game)
    tamper, message = TAMPERS[name]
    tamper(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    before = _counts()
    with pytest.raises(CommandError) as info:
        call_command("import_game", str(path))
    text = str(info.value)
    assert text.startswith("Refused: ") and "\n" not in text and message in text
    assert _counts() == before


def test_not_json_and_missing_files(tmp_path, db):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_game", str(path))
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_game", str(path))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_game", str(tmp_path / "missing.json"))
    path.write_text("[]")
    with pytest.raises(CommandError, match="empty list"):
        call_command("import_game", str(path))
    path.write_text("42")
    with pytest.raises(CommandError, match="JSON object"):
        call_command("import_game", str(path))


def test_a_list_is_all_or_nothing(tmp_path, runbuster_game, sixdice_game):
    good = exchange.export_game(runbuster_game)
    bad = exchange.export_game(sixdice_game)
    bad["final_state"]["bank"] = bad["final_state"]["bank"] + 1
    path = tmp_path / "two.json"
    path.write_text(json.dumps([good, bad]))
    before = _counts()
    with pytest.raises(CommandError, match="game 2"):
        call_command("import_game", str(path))
    assert _counts() == before
    path.write_text(json.dumps([good, exchange.export_game(sixdice_game)]))
    runbuster_game.delete()  # games already here are refused (issue 15)
    sixdice_game.delete()
    call_command("import_game", str(path))
    assert Game.objects.count() == 2


def test_export_command_errors(db, tiny_table):
    with pytest.raises(CommandError, match="no game"):
        call_command("export_game", "ZZZZZ")
