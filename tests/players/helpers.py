"""Tables whose seats are profiles, guests or bots, and whole games played fast through the services."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sixdice.gamekit.engine import get_engine
from sixdice.players import services as players
from sixdice.players.models import Profile
from sixdice.rules.game import State, default_action, random_flip
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Game, Table
from sixdice.tables.writes import checked_path, services

MAX_MOVES = 5000
BOT = "<bot>"

Sitter = Profile | str


def table_with(game: str, sitters: Sequence[Sitter], options: dict | None = None) -> Table:
    """A table whose seats are taken in order by profiles, guests (a name) or bots (:data:`BOT`)."""
    table, _host = services.create_table(game=game, options=options or {}, capacity=len(sitters))
    for i, who in enumerate(sitters):
        if isinstance(who, Profile):
            players.join_with_profile(table=table, profile=who)
        elif who == BOT:
            services.join_table(table=table, name=f"Bot {i + 1}", is_bot=True)
        else:
            services.join_table(table=table, name=who)
    return table


def next_action(slug: str, state: dict, seat: int, rng: random.Random) -> dict:
    engine = get_engine(slug)
    if slug == "runbuster":
        return engine.bot_action(state, seat, rng)  # type: ignore[attr-defined]
    if slug == "sixdice":
        st = State.from_dict(state)
        assert st.pending is not None
        action = random_flip(st, rng) if st.pending.kind == "flip" else default_action(st)
        assert action is not None
        return action
    return {"type": "add", "n": rng.choice((1, 2))}


def play(table: Table, rng: random.Random) -> Game:
    """Play the table's next game to its end (every seat played by the app); returns the finished game."""
    applied = services.start_game(table=table, rng=rng)
    game = applied.game
    engine = get_engine(table.game)
    for _ in range(MAX_MOVES):
        if game.status == Game.Status.FINISHED:
            return game
        seat = min(engine.actors(game.state))
        action = next_action(table.game, game.state, seat, rng)
        game = checked_path.apply_action(table_code=table.code, credentials=Credentials(), action=action,
                                     expected_seq=game.seq, bot_seat=seat, rng=rng).game
    raise AssertionError("the game did not end")
