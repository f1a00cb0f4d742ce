"""Many seeded games with undos and take-backs at random points: no value seen is rolled again, replay holds.

Each game is played by the app's bots through the table services (the server's
own dice come from seeded streams), and at points chosen by a seeded
``random.Random`` the host undoes the last move or the mover takes it back;
the game then goes on.  After every undo, the app's next draws deal exactly
the values it took back, in order, before any new value; at the end the log
replays to the stored snapshot and its pins are the stored pins.
"""

from __future__ import annotations

import random

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.pins import pinned_values
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Game
from sixdice.tables.policies import undo
from sixdice.tables.reads import table_frame
from sixdice.tables.writes import checked_path, services


def _new_game(slug: str, players: int, seed: int) -> tuple[object, str, list[str]]:
    table, host = services.create_table(game=slug, options={"dice": "app"}, capacity=players)
    secrets = [services.join_table(table=table, name=f"P{i}")[1] for i in range(players)]
    services.start_game(table=table, rng=random.Random(seed))
    return table, host, secrets


def _drawn(game: Game, events) -> list:
    engine = get_engine(game.engine)
    return [v for e in events if engine.draws_at_random(game.options, e.action) for v in engine.drawn_values(e.action)]


def _play_one(table, secrets, rng: random.Random) -> bool:
    """One move by the seat in turn (a seeded bot's choice, sent from that seat's phone); False when over."""
    game = table_frame.current_game(table)
    if game.status != Game.Status.PLAYING:
        return False
    engine = get_engine(game.engine)
    seat = min(engine.actors(game.state))
    action = engine.bot_action(game.state, seat, rng, strength="greedy")
    if action is None or engine.is_random(action):
        action = {"type": next(iter(engine.random_actions))}  # the seat taps to roll; the app draws the dice
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]), action=action,
                          expected_seq=game.seq)
    return True


def _undo_somehow(table, host, secrets, rng: random.Random) -> bool:
    """The host's undo, or the last mover's take-back (whichever the seeded coin picks and the rules allow)."""
    game = table_frame.current_game(table)
    if game.status != Game.Status.PLAYING:  # a finished game is refused as over, whichever examples run
        return False
    mover = next((e.actor for e in game.events.order_by("-seq") if e.actor != "system"), None)
    try:
        if rng.random() < 0.5 and mover not in (None, "host"):
            undo.take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[int(mover)]),
                           expected_seq=game.seq)
        else:
            host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="undo",
                         fields={"expected_seq": game.seq})
    except ServiceError as exc:
        assert exc.code in {"cannot_take_back", "cannot_undo"}, exc.code
        return False
    return True


@pytest.mark.django_db
@override_settings(SIXDICE_DICE_SEED="undo-redo")
@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), slug=st.sampled_from(["sixdice", "runbuster"]), players=st.integers(2, 4))
def test_undos_at_random_points_never_roll_a_seen_value_again_and_the_log_replays(seed, slug, players):
    rng = random.Random(seed)
    table, host, secrets = _new_game(slug, players, seed)
    for _ in range(60):
        if not _play_one(table, secrets, rng):
            break
        if rng.random() < 0.3 and _undo_somehow(table, host, secrets, rng):
            game = table_frame.current_game(table)
            pins = list(game.pinned)
            seq = game.seq
            for _again in range(3):  # the game goes on: the next draws deal the pins first
                if not _play_one(table, secrets, rng):
                    break
            game.refresh_from_db()
            dealt = _drawn(game, game.events.filter(seq__gt=seq).order_by("seq"))
            n = min(len(pins), len(dealt))
            assert dealt[:n] == pins[:n], (pins, dealt)  # no value seen is rolled again
            assert game.pinned == pins[n:]
    game = table_frame.current_game(table)
    log = list(game.events.order_by("seq"))
    assert game.state == checked_path.replay(game, log)
    assert game.pinned == pinned_values([(e.actor, e.action) for e in log], get_engine(game.engine), game.options)
