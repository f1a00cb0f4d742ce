"""Finished games played through the table services, with seeded dice."""

from __future__ import annotations

import html as html_lib
import random
import re
from collections.abc import Sequence

import pytest
from django.contrib.auth import get_user_model

from sixdice.gamekit.engine import get_engine
from sixdice.rules.game import State, default_action, random_flip, roll_action
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Game, Table
from sixdice.tables.writes import checked_path, services

MAX_MOVES = 5000


def _table(game: str, names: Sequence[str], options: dict) -> Table:
    table, _host = services.create_table(game=game, options=options, capacity=len(names))
    for name in names:
        services.join_table(table=table, name=name)
    return table


def _next_action(engine_slug: str, state: dict, seat: int, rng: random.Random) -> dict:
    engine = get_engine(engine_slug)
    if engine_slug == "runbuster":
        return engine.bot_action(state, seat, rng)
    if engine_slug == "sixdice":
        st = State.from_dict(state)
        assert st.pending is not None
        if st.pending.kind == "roll":  # real dice: the seat types in what it rolled
            action = roll_action(st, rng)
        else:
            action = random_flip(st, rng) if st.pending.kind == "flip" else default_action(st)
        assert action is not None
        return action
    return {"type": "add", "n": rng.choice((1, 2))}


def play(game: str, names: Sequence[str] = ("Ana", "Bo"), *, seed: int = 1, options: dict | None = None,
         table: Table | None = None) -> Game:
    """Play one whole game (or a rematch at ``table``) to the end; returns the finished game."""
    rng = random.Random(seed)
    table = table or _table(game, names, options or {})
    applied = services.start_game(table=table, rng=rng)
    g = applied.game
    engine = get_engine(game)
    for _ in range(MAX_MOVES):
        g.refresh_from_db()
        if g.status == Game.Status.FINISHED:
            return g
        seat = min(engine.actors(g.state))
        action = _next_action(game, g.state, seat, rng)
        checked_path.apply_action(table_code=table.code, credentials=Credentials(), action=action,
                              expected_seq=g.seq, bot_seat=seat, rng=rng)
    raise AssertionError("the game did not end")


@pytest.fixture
def runbuster_game(db) -> Game:
    return play("runbuster", ("Ana", "Bo"), seed=7)


@pytest.fixture
def sixdice_game(db) -> Game:
    return play("sixdice", ("Ana", "Bo", "Cy"), seed=3, options={"rounds": 2, "auto_balance": True})


@pytest.fixture
def staff(client):
    """The test client logged in as a superuser (the admin's review desk)."""
    client.force_login(get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-for-tests-1"))
    return client


def page_text(page: str) -> str:
    """A page's words, as a reader sees them: tags dropped, entities read, white space folded."""
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", page)).split())
