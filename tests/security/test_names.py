"""Issue 15, item 9: lookalike names at one table are refused (NFKC, case folding, TR39 confusables)."""

from __future__ import annotations

import pytest

from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.lookalike_names import skeleton
from sixdice.tables.writes import services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ana", "\u0410na"),  # Cyrillic capital A
        ("Ana", "\uff21\uff4e\uff41"),  # fullwidth
        ("Ana", "ANA"),
        ("Olga", "\u041elga"),  # Cyrillic O
        ("paypal", "p\u0430yp\u0430l"),  # Cyrillic a
    ],
)
def test_a_lookalike_of_a_seated_name_is_refused(first, second):
    table, _host = services.create_table(game="runbuster", options={}, capacity=4)
    services.join_table(table=table, name=first)
    with pytest.raises(ServiceError) as refused:
        services.join_table(table=table, name=second)
    assert refused.value.code == "name_taken"
    assert table.seats.count() == 1


@pytest.mark.parametrize("name", ["\u3164", "Ana\u3164", "A\u200bna", "\u2800"])
def test_invisible_fillers_are_refused(name):
    table, _host = services.create_table(game="runbuster", options={}, capacity=4)
    with pytest.raises(ServiceError) as refused:
        services.join_table(table=table, name=name)
    assert refused.value.code == "bad_name"


def test_different_names_stay_welcome():
    table, _host = services.create_table(game="runbuster", options={}, capacity=6)
    for name in ("Ana", "Anna", "Chloé", "Chloe2", "Олег", "Bo"):
        services.join_table(table=table, name=name)
    assert table.seats.count() == 6
    assert skeleton("Chloé") != skeleton("Chloe")  # accents are not lookalikes
