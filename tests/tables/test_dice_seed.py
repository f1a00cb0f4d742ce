"""The test-only dice seed: the same point of a game gets the same dice; refused outside tests."""

from __future__ import annotations

import random

import pytest
from django.test import override_settings

from sixdice.tables.core import rng
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Event
from sixdice.tables.writes import checked_path, services
from tests.test_only_settings import check_refused_outside_a_test_server

pytestmark = pytest.mark.django_db


def _play_tiny(adds: int = 6) -> tuple[int, list[dict]]:
    """A tiny-game table played by the same moves every time; returns who went first and every action."""
    table, _host = services.create_table(game="tiny", options={"target": 99}, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    game = services.start_game(table=table).game
    for _ in range(adds):
        game.refresh_from_db()
        seat = game.state["current"]
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                              action={"type": "add", "n": 1}, expected_seq=game.seq)
    game.refresh_from_db()
    return game.first, [e.action for e in Event.objects.filter(game=game).order_by("seq")]


@override_settings(SIXDICE_DICE_SEED=None)
def test_without_a_seed_the_dice_come_from_the_os():
    assert isinstance(rng.system_rng("move", 1, 0), random.SystemRandom)


def test_every_test_rolls_seeded_dice():
    assert not isinstance(rng.system_rng("move", 1, 0), random.SystemRandom)


def test_a_seed_gives_every_table_the_same_dice_at_the_same_point_of_its_game():
    with override_settings(SIXDICE_DICE_SEED="a"):
        first_a, log_a = _play_tiny()
        assert _play_tiny() == (first_a, log_a)  # a second table, after the first: the same game
        rolls_a = [a["value"] for a in log_a if a["type"] == "deal"]
        assert len(rolls_a) == 6
    with override_settings(SIXDICE_DICE_SEED="b"):
        _first_b, log_b = _play_tiny()
    assert [a["value"] for a in log_b if a["type"] == "deal"] != rolls_a  # seeds "a" and "b" differ here


def test_a_seed_keys_the_dice_by_the_point_of_the_game():
    with override_settings(SIXDICE_DICE_SEED="a"):
        stream = rng.system_rng("move", 1, 4)
        one = [stream.random(), stream.random()]
        assert one[0] != one[1]  # a stream, not one value repeated
        assert rng.system_rng("move", 1, 4).random() == one[0]
        assert rng.system_rng("move", 1, 5).random() != one[0]


def test_the_seed_is_refused_unless_the_process_says_it_is_a_test_server():
    check_refused_outside_a_test_server("SIXDICE_DICE_SEED", "7", shown="7", default="None",
                                        refusal="SIXDICE_DICE_SEED fixes the app's dice and is for tests only")
