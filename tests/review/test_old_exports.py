"""Exports that last: every kept export of a past version imports, replays and exports again.

The files under ``fixtures/exports/`` are real exports made with the app at
past commits (their README says which and how).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.options import table_options
from sixdice.review import exchange
from sixdice.tables.models import Event, Game, Seat, Table

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent / "fixtures" / "exports"
FILES = sorted(FIXTURES.glob("v*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _counts() -> tuple[int, int, int, int]:
    return Table.objects.count(), Seat.objects.count(), Game.objects.count(), Event.objects.count()


def test_every_version_and_game_has_a_kept_export():
    kept = {(_load(f)["version"], _load(f)["game"]["engine"]) for f in FILES}
    assert kept >= {(v, e) for v in range(1, exchange.VERSION + 1) for e in ("sixdice", "runbuster")}


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_a_kept_export_imports_replays_and_exports_again(client, tmp_path, path):
    doc = _load(path)
    as_read = copy.deepcopy(doc)
    (game,) = exchange.import_documents([doc], source=path.name, unsigned=True)
    assert doc == as_read  # the upgrade works on a copy
    assert game.import_mark.verified is False  # made by another install: not verified
    engine = get_engine(game.engine)
    assert game.options == {**engine.clean_options(game.options, players=len(game.players)),
                            **table_options(game.options)}
    assert [p["name"] for p in doc["players"]] == game.players
    assert game.seq == len(doc["events"]) and game.status == doc["game"]["status"]
    assert game.winners == doc["game"]["winners"]
    page = client.get(reverse("review:replay", args=[game.table.code, game.number]))
    assert page.status_code == 200

    again = exchange.export_game(game)
    assert again["version"] == exchange.VERSION
    assert [e["action"] for e in again["events"]] == [e["action"] for e in doc["events"]]
    assert exchange.upgrade(again) == again  # already in today's shape
    game.table.delete()
    out = tmp_path / "again.json"
    out.write_text(exchange.dumps(again), encoding="utf-8")
    call_command("import_game", str(out))  # signed here: no --unsigned needed
    reimported = Game.objects.get()
    assert reimported.import_mark.verified
    assert exchange.export_game(reimported) == again


@pytest.mark.parametrize("path", [p for p in FILES if _load(p)["version"] < exchange.VERSION][:1])
def test_an_old_export_from_another_install_still_needs_unsigned(tmp_path, path):
    before = _counts()
    with pytest.raises(CommandError, match="not signed by this install"):
        call_command("import_game", str(path))
    assert _counts() == before
    call_command("import_game", "--unsigned", str(path))
    assert Game.objects.count() == before[2] + 1


def test_the_reported_game_imports():
    """Six-Dice, app dice, 6 rounds and automatic balancing, exported at 4e5da74 (no "hints" option then)."""
    doc = _load(FIXTURES / "v1-4e5da74-sixdice-app-6rounds-balance.json")
    assert "hints" not in doc["game"]["options"] and doc["game"]["options"]["rounds"] == 6
    (game,) = exchange.import_documents([doc], unsigned=True)
    assert game.options["hints"] is False and game.options["auto_balance"] is True


def test_run_buster_loses_its_old_bots_list():
    doc = _load(FIXTURES / "v1-5a1b1ce-runbuster.json")
    assert "bots" in doc["game"]["options"] and "bots" in doc["initial_state"]["options"]
    upgraded = exchange.upgrade(doc)
    assert "bots" not in upgraded["game"]["options"] and "bots" not in upgraded["initial_state"]["options"]
    assert "bots" not in upgraded["table"]["options"] and "bots" not in upgraded["final_state"]["options"]
    assert all("text" not in e for e in upgraded["events"])  # written again by today's engine


def test_text_of_an_older_wording_is_rewritten_by_the_engine():
    doc = _load(FIXTURES / "v1-4374ed4-sixdice-2rounds.json")
    (game,) = exchange.import_documents([doc], unsigned=True)
    texts = list(game.events.order_by("seq").values_list("text", flat=True))
    assert len(texts) == len(doc["events"]) and all(texts)
    assert any(old["text"] != new for old, new in zip(doc["events"], texts, strict=True))


def _old() -> dict[str, Any]:
    return _load(FIXTURES / "v1-4e5da74-sixdice-app-6rounds-balance.json")


BAD: dict[str, Any] = {
    "future version": (lambda d: d.update(version=exchange.VERSION + 1), "newer than this app reads"),
    "far future": (lambda d: d.update(version=10**6), "newer than this app reads"),
    "version text": (lambda d: d.update(version="1"), '"version" must be a whole number'),
    "version true": (lambda d: d.update(version=True), '"version" must be a whole number'),
    "version missing": (lambda d: d.pop("version"), '"version" must be a whole number'),
    "negative version": (lambda d: d.update(version=-1), 'unsupported "version"'),
    "options a list": (lambda d: d["game"].update(options=[1]), '"game.options" must be a JSON object'),
    "game a list": (lambda d: d.update(game=[]), '"game" must be a JSON object'),
    "engine a number": (lambda d: d["game"].update(engine=3), '"game.engine" must be a string'),
    "table options odd": (lambda d: d["table"].update(options="x"), '"table.options" must be a JSON object'),
    "state a list": (lambda d: d.update(initial_state=[]), "initial_state"),
    "event not an object": (lambda d: d["events"].__setitem__(2, "roll"), "event 3 must be a JSON object"),
    "events a string": (lambda d: d.update(events="x"), '"events" must be a list'),
    "hints a number": (lambda d: d["game"]["options"].update(hints=7), "options"),
    "bad roll": (lambda d: d["events"][0]["action"].update(values=[9, 9, 9, 9, 9, 9]), "event 1"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_old_files_get_one_clear_line_and_change_nothing(tmp_path, name):
    doc = _old()
    tamper, message = BAD[name]
    tamper(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    before = _counts()
    with pytest.raises(CommandError) as info:
        call_command("import_game", "--unsigned", str(path))
    text = str(info.value)
    assert text.startswith("Refused: ") and "\n" not in text and message in text, text
    assert _counts() == before


def test_a_game_played_here_by_an_older_version_is_still_already_here(sixdice_game):
    """Played here before the hints option (its stored options lack it), then its old file imported."""
    old_options = {k: v for k, v in sixdice_game.options.items() if k != "hints"}
    Game.objects.filter(pk=sixdice_game.pk).update(options=old_options)
    sixdice_game.refresh_from_db()
    doc = exchange.export_game(sixdice_game)
    doc["version"] = 1  # as that version wrote it
    assert "hints" not in doc["game"]["options"]
    before = _counts()
    with pytest.raises(exchange.ImportRefused, match="already here"):
        exchange.import_documents([doc], unsigned=True)
    assert _counts() == before
