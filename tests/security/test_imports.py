"""Issue 15, item 5: imports are bounded, checked, refused when already here, and marked."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from sixdice.review import exchange, limits, stats
from sixdice.review.models import ImportMark
from sixdice.tables.models import Event, Game, Seat, Table
from tests.review.conftest import play

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, int, int, int, int]:
    return (Table.objects.count(), Seat.objects.count(), Game.objects.count(), Event.objects.count(),
            ImportMark.objects.count())


def _exported(game: Game) -> dict:
    """The game's document, with the game itself gone from the database (so that it may come back)."""
    doc = exchange.export_game(game)
    game.table.delete()
    return doc


def _refused(tmp_path, payload: str | bytes, message: str) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(payload if isinstance(payload, bytes) else payload.encode())
    before = _counts()
    with pytest.raises(CommandError) as info:
        call_command("import_game", str(path))
    assert str(info.value).startswith("Refused: ") and message in str(info.value), str(info.value)
    assert _counts() == before


@pytest.fixture
def doc(db) -> dict:
    return _exported(play("runbuster", ("Ana", "Bo"), seed=3))


@pytest.mark.parametrize("code", ["lower", "../../x", "ABC", "ABCDEF", "AB0O1", "A B C"])
def test_table_codes_are_checked_as_the_join_form_reads_them(tmp_path, doc, code):
    doc["table"]["code"] = code
    _refused(tmp_path, json.dumps(doc), '"table.code"')


def test_huge_options_are_refused_before_the_replay(tmp_path, doc):
    doc["table"]["options"] = {"junk": "x" * 100_000}
    _refused(tmp_path, json.dumps(doc), '"table.options" is larger than')


def test_a_file_past_the_limit_is_refused_before_it_is_read(tmp_path, doc, monkeypatch):
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 4096)
    _refused(tmp_path, json.dumps(doc) + " " * 5000, "at most 4,096")
    stream = io.BytesIO(b"x" * 10_000)
    with pytest.raises(limits.TooLarge):
        limits.read_bounded(stream, 4096)
    assert stream.tell() == 4097  # read one byte past the limit, no more


def test_deep_nesting_nan_and_long_texts_are_refused(tmp_path, doc):
    _refused(tmp_path, "[" * 100_000 + "]" * 100_000, "not valid JSON")
    _refused(tmp_path, json.dumps(doc).replace('"version": 1', '"version": NaN', 1), "not valid JSON")
    long_text = copy.deepcopy(doc)
    long_text["events"][0]["text"] = "x" * 1000
    _refused(tmp_path, json.dumps(long_text), '"text" is longer than')
    deep = copy.deepcopy(doc)
    deep["review"] = {"note": "", "x": json.loads("[" * 40 + "]" * 40)}
    _refused(tmp_path, json.dumps(deep), "nested more than")


def test_the_same_game_is_refused_twice_in_a_file_and_once_imported(tmp_path, doc):
    _refused(tmp_path, json.dumps([doc, doc]), "appears twice")
    timeshifted = copy.deepcopy(doc)  # edits around the play do not make it another game
    timeshifted["players"][0]["bot"] = not timeshifted["players"][0].get("bot", False)
    timeshifted["table"].pop("code", None)
    (game,) = exchange.import_documents([doc], source="one.json")
    assert game.import_mark.source == "one.json" and game.import_mark.content_hash
    _refused(tmp_path, json.dumps(doc), "already here")
    _refused(tmp_path, json.dumps(timeshifted), "already here")


def test_a_game_played_here_is_refused(tmp_path, db):
    game = play("sixdice", ("Ana", "Bo"), seed=4)
    _refused(tmp_path, exchange.dumps(exchange.export_game(game)), "already here")


def test_three_thousand_copies_make_no_games(tmp_path, doc):
    _refused(tmp_path, json.dumps([doc] * 3000), "at most 8,388,608")  # too large a file
    _refused(tmp_path, json.dumps([doc] * 501), "at most 500")  # too many games
    _refused(tmp_path, json.dumps([doc] * 3), "appears twice")


def test_actors_are_checked_against_the_engine(tmp_path, db):
    doc = _exported(play("sixdice", ("Ana", "Bo"), seed=5, options={"dice": "app"}))
    system = next(i for i, e in enumerate(doc["events"]) if e["actor"] == "system")
    forged = copy.deepcopy(doc)
    forged["events"][system]["actor"] = "host"  # the app's roll claimed by the host
    _refused(tmp_path, json.dumps(forged), "(Host) is refused by the rules")
    forged["events"][system]["actor"] = "1"  # ... or by a seat
    _refused(tmp_path, json.dumps(forged), "refused by the rules")
    seat_move = next(i for i, e in enumerate(doc["events"]) if e["actor"] not in ("system", "host"))
    forged = copy.deepcopy(doc)
    forged["events"][seat_move]["actor"] = "system"  # a player's choice claimed by the server
    _refused(tmp_path, json.dumps(forged), '"actor"')


def test_event_times_must_not_go_backwards(tmp_path, doc):
    stamped = [e for e in doc["events"] if e.get("at")]
    assert len(stamped) >= 2
    stamped[1]["at"] = "2000-01-01T00:00:00+00:00"
    _refused(tmp_path, json.dumps(doc), '"at" is earlier')


def test_abandoned_games_import_marked_abandoned(db):
    from sixdice.tables import services

    table, _host = services.create_table(game="runbuster", options={}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    game = services.start_game(table=table).game
    services.close_table(table=table)
    game.refresh_from_db()
    doc = _exported(game)
    (imported,) = exchange.import_documents([doc], source="abandoned.json")
    assert imported.status == Game.Status.ABANDONED and imported.table.status == Table.Status.CLOSED
    assert imported.import_mark.source == "abandoned.json"


def test_imported_games_are_marked_in_the_admin_and_can_be_left_out_of_statistics(db):
    doc = _exported(play("runbuster", ("Ana", "Bo"), seed=6))
    play("runbuster", ("Cy", "Di"), seed=7)
    exchange.import_documents([doc], source="old.json")
    assert stats.compute("runbuster").total_games == 2
    assert stats.compute("runbuster", imported=False).total_games == 1
    client = Client()
    assert "1 finished game." in client.get(reverse("review:stats"), {"imported": "0"}).content.decode()
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(admin)
    listing = client.get(reverse("admin:tables_game_changelist")).content.decode()
    assert "old.json" in listing
    only = client.get(reverse("admin:tables_game_changelist"), {"imported": "yes"}).content.decode()
    assert "old.json" in only and "Cy, " not in only
