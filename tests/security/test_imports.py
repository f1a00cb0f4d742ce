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
from sixdice.tables.writes import checked_path
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
    _refused(tmp_path, json.dumps(doc).replace(f'"version": {exchange.VERSION}', '"version": NaN', 1), "not valid JSON")
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
    from sixdice.tables.writes import services

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


# ---------------------------------------------------------------- forged files: who sent a move, bot flags (issue 15)


def _physical_game() -> Game:
    """A Run Buster game with physical dice: the host types every other roll in, the roller's phone the rest."""
    import random

    from sixdice.gamekit.engine import get_engine
    from sixdice.tables.core.keys import Credentials
    from sixdice.tables.writes import services

    rng = random.Random(15)
    table, host = services.create_table(game="runbuster", options={"dice": "physical"}, capacity=2)
    seats = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    game = services.start_game(table=table, rng=rng).game
    engine = get_engine("runbuster")
    rolls = 0
    while game.status == Game.Status.PLAYING:
        seat = min(engine.actors(game.state))
        action = engine.bot_action(game.state, seat, rng)  # a roll comes with the values rolled at the table
        rolls += action["type"] == "roll"
        by_host = action["type"] == "roll" and rolls % 2 == 0
        checked_path.apply_action(table_code=table.code, action=action, expected_seq=game.seq, rng=rng, as_host=by_host,
                              credentials=Credentials(host_secret=host) if by_host else Credentials(seat_secret=seats[seat]))
        game.refresh_from_db()
    return game


def _typed_roll(doc: dict, actor: str) -> int:
    return next(i for i, e in enumerate(doc["events"]) if e["action"]["type"] == "roll" and e["actor"] == actor)


def test_a_typed_roll_moved_between_the_host_and_the_roller_is_refused(tmp_path, db):
    doc = _exported(_physical_game())
    assert exchange.signature_of(doc) == exchange.VERIFIED
    for before, after in (("host", None), (None, "host")):
        forged = copy.deepcopy(doc)
        index = _typed_roll(forged, before) if before else next(
            i for i, e in enumerate(forged["events"]) if e["action"]["type"] == "roll" and e["actor"].isdigit())
        roller = str(min(get_engine_actors(forged, index)))
        forged["events"][index]["actor"] = after or roller  # the rules accept either: both may type a roll in
        assert exchange.signature_of(forged) == exchange.CHANGED
        _refused(tmp_path, json.dumps(forged), "changed after it was exported")
        with pytest.raises(exchange.ImportRefused, match="changed after it was exported"):
            exchange.import_documents([forged], unsigned=True)  # a file signed here and edited: never taken
    (game,) = exchange.import_documents([doc], source="physical.json")  # the file as exported imports
    assert game.import_mark.verified


def get_engine_actors(doc: dict, index: int) -> frozenset[int]:
    """The seats the engine expects to act before event ``index`` (replaying the document's events)."""
    from sixdice.gamekit.engine import get_engine
    from sixdice.gamekit.replay import replay

    engine = get_engine(doc["game"]["engine"])
    steps = list(replay(engine, doc["initial_state"], ((e["actor"], e["action"]) for e in doc["events"][:index + 1])))
    return engine.actors(steps[-1].before)


def test_a_seats_bot_flag_flipped_is_refused(tmp_path, doc):
    for position in (0, 1):
        forged = copy.deepcopy(doc)
        forged["players"][position]["bot"] = not forged["players"][position]["bot"]
        _refused(tmp_path, json.dumps(forged), "changed after it was exported")


def test_the_three_edits_of_the_issue_are_refused(tmp_path, db):
    doc = _exported(_physical_game())
    host_roll = _typed_roll(doc, "host")
    actor = copy.deepcopy(doc)  # an event's actor changed from host to a seat
    actor["events"][host_roll]["actor"] = str(min(get_engine_actors(actor, host_roll)))
    _refused(tmp_path, json.dumps(actor), "changed after it was exported")
    bot = copy.deepcopy(doc)  # a seat's bot flag flipped
    bot["players"][1]["bot"] = True
    _refused(tmp_path, json.dumps(bot), "changed after it was exported")
    times = copy.deepcopy(doc)  # event times out of order
    times["events"][3]["at"], times["events"][4]["at"] = times["events"][4]["at"], times["events"][3]["at"]
    _refused(tmp_path, json.dumps(times), '"at" is earlier')


def test_a_forged_copy_of_a_game_here_is_refused_even_unsigned(tmp_path, db):
    """Who typed a roll is not part of the play's fingerprint: the forged copy is the same game."""
    game = _physical_game()
    doc = exchange.export_game(game)
    forged = copy.deepcopy(doc)
    host_roll = _typed_roll(forged, "host")
    forged["events"][host_roll]["actor"] = str(min(get_engine_actors(forged, host_roll)))
    forged.pop("signature")
    with pytest.raises(exchange.ImportRefused, match="already here"):
        exchange.import_documents([forged], unsigned=True)


def test_unsigned_files_need_unsigned_and_are_marked_not_verified(tmp_path, doc):
    unsigned = copy.deepcopy(doc)
    unsigned.pop("signature")
    _refused(tmp_path, json.dumps(unsigned), "not signed by this install")
    path = tmp_path / "old.json"
    path.write_text(json.dumps(unsigned))
    call_command("import_game", str(path), "--unsigned")
    mark = ImportMark.objects.get()
    assert mark.verified is False and mark.source == "old.json"
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(admin)
    assert "old.json" in (page := client.get(reverse("admin:tables_game_changelist")).content.decode())
    assert "(unsigned: not verified)" in page


def test_another_installs_signature_is_unsigned_here_and_an_old_key_still_verifies(doc, settings):
    other = copy.deepcopy(doc)
    settings.SECRET_KEY = "another-install-" + "x" * 40
    other = exchange.sign(other)  # signed by another install
    assert exchange.signature_of(other) == exchange.VERIFIED
    old_key = settings.SECRET_KEY
    settings.SECRET_KEY = "this-install-" + "y" * 40
    assert exchange.signature_of(other) == exchange.UNSIGNED
    with pytest.raises(exchange.ImportRefused, match="not signed by this install"):
        exchange.import_documents([other])
    settings.SECRET_KEY_FALLBACKS = [old_key]  # the key was rotated: files signed with the old one still verify
    assert exchange.signature_of(other) == exchange.VERIFIED
    (game,) = exchange.import_documents([other])
    assert game.import_mark.verified


def test_the_review_note_is_outside_the_signature(doc):
    edited = copy.deepcopy(doc)
    edited["review"] = {"note": "checked by the referee", "disputed": True}
    assert exchange.signature_of(edited) == exchange.VERIFIED
    (game,) = exchange.import_documents([edited])
    assert game.review_note.note == "checked by the referee"
