"""Bots are never profiles; each bot strength is its own statistics line."""

from __future__ import annotations

import random

import pytest

from sixdice.players import services as players
from sixdice.players.models import Participant
from sixdice.review import stats
from sixdice.tables.models import Seat

from .helpers import BOT, play, table_with

pytestmark = pytest.mark.django_db


def test_each_bot_strength_is_its_own_line(monkeypatch):
    strengths = {"Bot 1": "random", "Bot 3": "strong"}
    monkeypatch.setattr(Seat, "bot_strength", property(lambda seat: strengths.get(seat.name, "")), raising=False)
    rng = random.Random(4)
    for _ in range(2):
        play(table_with("tiny", [BOT, "Ana", BOT]), rng)
    rows = Participant.objects.filter(is_bot=True)
    assert rows.count() == 4 and not rows.exclude(profile=None).exists()
    assert set(rows.values_list("bot_strength", flat=True)) == {"random", "strong"}
    lines = {p.name: p.games for p in stats.compute("tiny").players}
    assert lines["Bot (random)"] == 2 and lines["Bot (strong)"] == 2


def test_a_bot_seat_never_links_to_a_profile():
    ana, _s = players.create_profile(name="Ana")
    table = table_with("tiny", [ana, "Bo"])
    players.link_seat(seat=table.seats.get(name="Bo"), profile=None)
    from sixdice.tables import services

    services.set_bot(table=table, position=0)
    game = play(table, random.Random(9))
    row = Participant.objects.get(game=game, position=0)
    assert row.is_bot and row.profile is None
