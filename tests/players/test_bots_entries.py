"""Bots are never profiles; each bot strength is its own statistics line."""

from __future__ import annotations

import random

import pytest

from sixdice.players import services as players
from sixdice.players.models import Participant
from sixdice.review import stats
from sixdice.tables.writes import services

from .helpers import BOT, play, table_with

pytestmark = pytest.mark.django_db


def test_each_bot_strength_is_its_own_line_per_game():
    rng = random.Random(4)
    sixdice = {"rounds": 1, "auto_balance": True}
    for _ in range(2):
        table, _host = services.create_table(game="sixdice", options=sixdice, capacity=4)
        services.join_table(table=table, name="Ana")
        services.join_table(table=table, name="R", is_bot=True, strength="random")
        services.join_table(table=table, name="S", is_bot=True, strength="strong")
        services.join_table(table=table, name="D", is_bot=True)
        play(table, rng)
    play(table_with("tiny", [BOT, "Ana"]), rng)
    rows = Participant.objects.filter(is_bot=True)
    assert rows.count() == 7 and not rows.exclude(profile=None).exists()
    lines = {p.name: p.games for p in stats.compute().players}
    assert lines["Six-Dice bot (random)"] == 2 and lines["Six-Dice bot (strong)"] == 2
    assert lines["Six-Dice bot"] == 2  # the game's default strength
    assert lines["Tiny bot"] == 1
    assert not any(name.startswith("R ") or name.startswith("S ") for name in lines)


def test_a_bot_seat_never_links_to_a_profile():
    ana, _s = players.create_profile(name="Ana")
    table = table_with("tiny", [ana, "Bo"])
    players.link_seat(seat=table.seats.get(name="Bo"), profile=None)
    services.set_bot(table=table, position=0)
    game = play(table, random.Random(9))
    row = Participant.objects.get(game=game, position=0)
    assert row.is_bot and row.profile is None
