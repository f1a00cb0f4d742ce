"""An imported game's players are named by the join form's own rule, and an import is written through the ledger."""

from __future__ import annotations

import pytest

from sixdice.review import exchange
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
        exchange._seat_name(name, others, 2, "the game")
        imported = True
    except exchange.ImportRefused:
        imported = False
    assert imported == _join_form_takes(name, others)


def test_name_clash_tells_the_same_name_from_a_lookalike():
    assert services.name_clash("ana", ["Ana", "Bo"]) == (services.SAME_NAME, "Ana")
    assert services.name_clash("\u0410na", ["Ana"]) == (services.LOOKALIKE, "Ana")  # a Cyrillic A
    assert services.name_clash("Cy", ["Ana", "Bo"]) is None
