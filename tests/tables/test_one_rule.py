"""Pieces every entry shares are written once: a whole-number field, and the name of a seat the app plays.

Each entry that reads a whole number from a client (a frame's field, a host
command's ``position``, the ``seq`` a sender saw, an undo's ``to``, a
correction's ``seq``) refuses the same values with the same words; each that
adds a seat the app plays (the host's "add a bot", the new-table form, play
against the app) names it with the first free "Bot n".
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from sixdice.tables.core.errors import BadField, NameTaken
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Game, Seat
from sixdice.tables.pages.play_against_app import start_against_bots
from sixdice.tables.wire import incoming
from sixdice.tables.writes import checked_path, services

NOT_WHOLE = [True, False, "3", 2.0, None, [1], {"n": 1}]
TABLES = Path(services.__file__).resolve().parents[1]


@pytest.mark.parametrize("value", NOT_WHOLE, ids=repr)
def test_the_one_rule_refuses_what_is_not_a_whole_number(value):
    with pytest.raises(BadField) as exc:
        incoming.whole_number(value, "seq")
    assert str(exc.value.message) == "Field 'seq' must be a whole number."
    with pytest.raises(BadField):
        incoming.int_field({"seq": value}, "seq")
    assert incoming.whole_number(-3, "seq") == -3 and incoming.int_field({"seq": 7}, "seq") == 7


def _entries(table: Any, host: str, value: Any, seq: int) -> list[tuple[str, Any]]:
    """Every entry that reads a whole number from a client, each given ``value``: (the field's name, a call).

    A frame is parsed once, in ``wire/incoming.py``: the socket's frames
    through :func:`incoming.parse`, the host's commands through
    :func:`host_command` (which parses them the same way); the services
    below take the typed values.
    """
    as_host = Credentials(host_secret=host)

    def frame(**fields: Any) -> Any:
        def call() -> Any:
            try:
                return incoming.parse(json.dumps(fields), None)
            except incoming.BadFrame as bad:
                raise bad.refusal from None
        return call

    def command(name: str, **fields: Any) -> Any:
        return lambda: host_command(table_code=table.code, credentials=as_host, command=name, fields=fields)

    return [
        ("position", command("handover", position=value)),
        ("position", command("bot", position=value)),
        ("position", command("hint", position=value)),
        ("seq", frame(type="action", seq=value, action={"type": "end"})),
        ("seq", frame(type="take_back", seq=value)),
        ("since", frame(type="resync", since=value)),
        ("expected_seq", command("undo", expected_seq=value)),
        ("to", command("undo", expected_seq=seq, to=value)),
        ("expected_seq", command("correct", expected_seq=value, seq=1, values=[1])),
        ("seq", command("correct", expected_seq=seq, seq=value, values=[1])),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("value", [True, "1", 1.0], ids=repr)
def test_every_entry_refuses_a_field_that_is_not_a_whole_number_the_same_way_and_changes_nothing(tiny_table, value):
    table, host, _secrets = tiny_table
    services.start_game(table=table)
    checked_path.apply_action(table_code=table.code, credentials=Credentials(host_secret=host), as_host=True,
                              action={"type": "add", "n": 1}, expected_seq=0, bot_seat=0)
    game = Game.objects.get(table=table)
    before = (game.seq, game.state, list(Seat.objects.filter(table=table).values()))
    for name, call in _entries(table, host, value, game.seq):
        with pytest.raises(BadField) as exc:
            call()
        assert str(exc.value.message) == f"Field '{name}' must be a whole number."
    game.refresh_from_db()
    assert (game.seq, game.state, list(Seat.objects.filter(table=table).values())) == before


def test_the_whole_number_words_are_written_once_in_the_table_app():
    """The check lives in ``wire/incoming.py``, the lowest layer that parses client fields."""
    holders = []
    for path in sorted(TABLES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value == "Field %(name)s must be a whole number.":
                holders.append(path.relative_to(TABLES).as_posix())
    assert holders == ["wire/incoming.py"]


def test_bot_names_are_the_first_free_numbers_whatever_the_case():
    assert services.bot_name([]) == "Bot 1"
    assert services.bot_name(["Ana", "bot 1", "BOT 3"]) == "Bot 2"
    assert services.bot_name(["Bot 1", "Bot 2"]) == "Bot 3"


@pytest.mark.django_db
def test_adding_bots_from_every_entry_names_them_bot_1_bot_2(tiny_table):
    table, host, _secrets = tiny_table  # Ana and Bo
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="add_bot", fields={})
    assert list(table.seats.order_by("position").values_list("name", "is_bot")) == [
        ("Ana", False), ("Bo", False), ("Bot 1", True)]
    big, _host = services.create_table(game="tiny", options={}, capacity=4)
    services.join_table(table=big, name="bot 2")
    services.add_bot(table=big)
    services.add_bot(table=big)
    assert list(big.seats.order_by("position").values_list("name", flat=True)) == ["bot 2", "Bot 1", "Bot 3"]


@pytest.mark.django_db
def test_a_player_called_bot_1_can_play_against_the_app():
    """The player's own name is taken first; the app's seats take the numbers left (it was refused as taken)."""
    started = start_against_bots(game="tiny", name="Bot 1", bots=2, level="easy", options={})
    names = list(started.table.seats.order_by("position").values_list("name", "is_bot"))
    assert names == [("Bot 1", False), ("Bot 2", True), ("Bot 3", True)]


@pytest.mark.django_db
def test_the_new_table_form_fills_the_app_seats_with_bot_names(client):
    response = client.post("/new/sixdice/", {"players": "3", "bots": "2", "bot_level": "easy"})
    assert response.status_code == 302, response.content[:500]
    code = response["Location"].rstrip("/").split("/")[-2]
    assert list(Seat.objects.filter(table__code=code).order_by("position").values_list("name", "is_bot")) == [
        ("Bot 1", True), ("Bot 2", True)]


@pytest.mark.django_db
def test_a_person_cannot_take_a_bot_name_already_at_the_table():
    table, _host = services.create_table(game="tiny", options={}, capacity=3)
    services.add_bot(table=table)
    with pytest.raises(NameTaken):
        services.join_table(table=table, name="BOT 1")
