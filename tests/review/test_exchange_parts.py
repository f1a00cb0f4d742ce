"""An imported game's players are named by the join form's own rule, and an import is written through the ledger."""

from __future__ import annotations

import pytest

from sixdice.review import exchange
from sixdice.review.exchange import checks
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.writes import services

NAMES = ["Ana", " Ana", "Ana ", "A  B", "A B", "x" * 24, "x" * 25, "", "Ana\u200b", "Ana\x00", "ANA", "Bo",
         "\u0410na", "Olena", "Οlena"]


def _join_form_takes(name: str, others: list[str]) -> bool:
    """Whether the join form seats ``name`` (exactly as typed) at a table where ``others`` sit."""
    try:
        cleaned = services.clean_name(name)
    except ServiceError:
        return False
    return cleaned == name and services.name_clash(cleaned, others) is None


@pytest.mark.parametrize("name", NAMES, ids=repr)
def test_an_imported_player_is_refused_exactly_when_the_join_form_would_refuse_the_name(name):
    others = ["Ana", "Olena"]
    try:
        checks._seat_name(name, others, 2, "the game")
        imported = True
    except exchange.ImportRefused:
        imported = False
    assert imported == _join_form_takes(name, others)


def test_name_clash_tells_the_same_name_from_a_lookalike():
    assert services.name_clash("ana", ["Ana", "Bo"]) == (services.SAME_NAME, "Ana")
    assert services.name_clash("\u0410na", ["Ana"]) == (services.LOOKALIKE, "Ana")  # a Cyrillic A
    assert services.name_clash("Cy", ["Ana", "Bo"]) is None


# ---------------------------------------------------------------- written through the ledger


def _spy(monkeypatch, module, name: str) -> list:
    calls: list = []
    real = getattr(module, name)

    def spy(*args, **kwargs):
        calls.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return calls


def _reimported(game, *, bot: int | None = None, abandoned: bool = False):
    """``game`` exported (seat ``bot`` marked as played by the app, or the game closed first), deleted, imported."""
    from sixdice.tables.models import Seat

    if bot is not None:
        Seat.objects.filter(table=game.table, position=bot).update(is_bot=True)
    if abandoned:
        services.close_table(table=game.table)
        game.refresh_from_db()
    doc = exchange.export_game(game)
    game.table.delete()
    return doc


@pytest.mark.django_db
def test_an_imported_game_is_written_through_the_ledger_with_its_table_history(
    runbuster_game, monkeypatch, django_capture_on_commit_callbacks
):
    from sixdice.review.tablelog import bots_by_event, table_log
    from sixdice.tables.models import Table, TableChange
    from sixdice.tables.writes import ledger

    doc = _reimported(runbuster_game, bot=1)
    opened, appended, changed = (_spy(monkeypatch, ledger, name) for name in ("open_game", "append", "record_changes"))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        (game,) = exchange.import_documents([doc])
    assert len(opened) == len(appended) == 1 and len(changed) == 2  # the seats and the start; then the end
    assert len(callbacks) == 2  # one table frame after the commit for each record (no one is watching yet)
    table = Table.objects.get(pk=game.table_id)
    changes = list(TableChange.objects.filter(table=table).order_by("version"))
    assert [(c.version, c.kind, c.payload) for c in changes] == [
        (1, "join", {"position": 0, "bot": False}), (2, "join", {"position": 1, "bot": True}),
        (3, "start", {"game": game.number, "imported": True}),
        (4, "game_end", {"game": game.number, "winners": game.winners, "imported": True}),
    ]
    assert table.version == 4
    events = list(game.events.order_by("seq"))
    assert changes[0].created_at == changes[2].created_at == game.started_at <= events[0].created_at
    assert changes[3].created_at == game.finished_at
    assert bots_by_event(game, events) == [[False, True]] * len(events)  # as the seats say, at every move
    assert table_log(game) == []
    assert exchange.export_game(game)["players"] == doc["players"]


@pytest.mark.django_db
def test_an_imported_abandoned_game_ends_its_table_history_with_the_close(tiny_table):
    import random

    from sixdice.review.tablelog import table_log
    from sixdice.tables.core.keys import Credentials
    from sixdice.tables.models import TableChange
    from sixdice.tables.writes import checked_path

    table, _host, _secrets = tiny_table
    game = services.start_game(table=table, rng=random.Random(1)).game
    checked_path.apply_action(table_code=table.code, credentials=Credentials(), action={"type": "add", "n": 1},
                              expected_seq=0, bot_seat=game.first, rng=random.Random(2))
    game.refresh_from_db()
    doc = _reimported(game, abandoned=True)
    assert doc["game"]["status"] == "abandoned"
    (game,) = exchange.import_documents([doc])
    kinds = list(TableChange.objects.filter(table_id=game.table_id).order_by("version").values_list("kind", flat=True))
    assert kinds == ["join", "join", "start", "close"]
    assert [change.text for change in table_log(game)] == ["The host closed the table."]


@pytest.mark.django_db
def test_a_refused_import_records_no_table_change(runbuster_game):
    from sixdice.tables.models import TableChange

    doc = _reimported(runbuster_game)
    doc["final_state"] = {}
    before = TableChange.objects.count()
    with pytest.raises(exchange.ImportRefused):
        exchange.import_documents([doc], unsigned=True)
    assert TableChange.objects.count() == before
