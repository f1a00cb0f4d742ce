"""Places read as standings: a tie uses up the places it shares (1, 1, 3), in the stored ranks too.

Ranks were stored dense (1, 1, 2) before migration 0003; it rewrites them, and the ratings do not move
(OpenSkill reads only the order and the ties).
"""

from __future__ import annotations

import importlib
import random

import pytest

from sixdice.players import services as players
from sixdice.players.models import Participant, Rating, RatingUpdate
from sixdice.players.ranking import final_ranks

from .helpers import play, table_with

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("sixdice.players.migrations.0003_places_as_standings")


def test_dense_ranks_become_standings_and_back():
    # the end of an eight-player game: two hands tied for 3rd; the next is 5th, the last 8th
    assert MIGRATION.standings([1, 7, 2, 6, 4, 3, 5, 3]) == [1, 8, 2, 7, 5, 3, 6, 3]
    assert MIGRATION.standings([1, 1, 1, 2]) == [1, 1, 1, 4]  # three shared the win
    assert MIGRATION.standings([2, 1, 3]) == [2, 1, 3]  # no tie: nothing changes
    for ranks in ([1, 8, 2, 7, 5, 3, 6, 3], [1, 1, 1, 4], [2, 1, 3], [1, 1]):
        assert MIGRATION.standings(MIGRATION.dense(ranks)) == ranks


def _ratings() -> list[tuple]:
    return sorted(Rating.objects.values_list("profile_id", "engine", "mu", "sigma", "games"))


def test_the_migration_rewrites_a_game_stored_dense_and_the_ratings_stay():
    names = ["Ana", "Bo", "Cy", "Di"]
    profiles = [players.create_profile(name=name)[0] for name in names]
    game = play(table_with("tiny", profiles), random.Random(5))
    rows = list(Participant.objects.filter(game=game).order_by("position"))
    assert [r.rank for r in rows] == final_ranks(engine="tiny", state=game.state, players=4)
    # As an earlier version stored a game where Ana and Bo shared the win: dense, with its rating updates.
    for row, rank in zip(rows, [1, 1, 2, 3], strict=True):
        Participant.objects.filter(pk=row.pk).update(rank=rank)
    players.rebuild_ratings()
    before = _ratings()
    assert sorted(RatingUpdate.objects.filter(game=game).values_list("rank", flat=True)) == [1, 1, 2, 3]

    changed = MIGRATION.rewrite(Participant, RatingUpdate, MIGRATION.standings)

    assert changed == 4  # Cy and Di, their participant rows and their rating updates
    assert list(Participant.objects.filter(game=game).order_by("position").values_list("rank", flat=True)) == [1, 1, 3, 4]
    by_profile = dict(RatingUpdate.objects.filter(game=game).values_list("profile_id", "rank"))
    assert [by_profile[p.pk] for p in profiles] == [1, 1, 3, 4]
    players.rebuild_ratings()
    assert _ratings() == before  # the same order and ties: the same ratings

    MIGRATION.rewrite(Participant, RatingUpdate, MIGRATION.dense)  # and back, for a migration undone
    assert list(Participant.objects.filter(game=game).order_by("position").values_list("rank", flat=True)) == [1, 1, 2, 3]
