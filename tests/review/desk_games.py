"""Games for the review desk's tests, played through the table services with seeded dice and choices.

``undone_game``: Run Buster with real dice, one undo by the host and one take-back by a player.
``corrected_game``: Six-Dice with real dice typed in, hosted by Hana from her own seat; the host corrects
the first die Ivo draws after later moves, then the game is played to its end.  ``host_typed_game``: Run Buster with real dice, three rolls typed in by the host for the seats, the last of them
undone by the host.  ``long_game``: Run Buster with
the app playing every seat, a series of at least ``events`` events.
"""

from __future__ import annotations

import random

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.replay import take_back_point
from sixdice.rules.dice import FACES
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Game, Table
from sixdice.tables.policies.undo import take_back
from sixdice.tables.reads import table_frame
from sixdice.tables.writes import checked_path, services

MAX_MOVES = 20_000


def _act(table: Table, rng: random.Random) -> Game:
    """One move: the seat (or the app) in turn chooses as a bot would; a typed roll gets seeded values."""
    game = table_frame.current_game(table)
    assert game is not None
    engine = get_engine(game.engine)
    seat = min(engine.actors(game.state))
    action = engine.bot_action(game.state, seat, rng)
    if action is None:  # a physical roll: typed in, as the phone would
        count = engine.view(game.state, seat)["pending"]["count"]
        faces = list(FACES) if game.engine == "sixdice" else [1, 2, 3, 4, 5, 6]
        action = {"type": "roll", "values": [rng.choice(faces) for _ in range(count)]}
    checked_path.apply_action(table_code=table.code, credentials=Credentials(), action=action,
                              expected_seq=game.seq, bot_seat=seat, rng=rng)
    game.refresh_from_db()
    return game


def play_out(table: Table, rng: random.Random) -> Game:
    for _ in range(MAX_MOVES):
        game = table_frame.current_game(table)
        assert game is not None
        if game.status != Game.Status.PLAYING:
            return game
        _act(table, rng)
    raise AssertionError("the game did not end")


def corrected_game(*, seed: int = 5, names: tuple[str, ...] = ("Hana", "Ivo", "Jo")) -> Game:
    """A finished Six-Dice game (real dice) whose host, Hana (seated), corrected the first die Ivo drew."""
    rng = random.Random(seed)
    table, host = services.create_table(game="sixdice", options={"dice": "physical", "rounds": 2},
                                        capacity=len(names), host_name=names[0])
    for name in names:
        services.join_table(table=table, name=name)
    Table.objects.filter(pk=table.pk).update(host_seat=0)  # Hana took her seat on the host's phone
    services.start_game(table=table, rng=rng)
    game = table_frame.current_game(table)
    ivo = str(names.index("Ivo"))
    for _ in range(400):  # until the first die Ivo draws has three moves after it
        game = _act(table, rng)
        rolls = [e for e in game.events.order_by("seq")
                 if e.actor == ivo and e.action.get("type") == "roll" and len(e.action["values"]) == 1]
        if rolls and game.seq >= rolls[0].seq + 3:
            break
    roll = rolls[0]
    values = [FACES[(FACES.index(v) + 1) % len(FACES)] for v in roll.action["values"]]  # every die differs
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="correct",
                 fields={"expected_seq": game.seq, "seq": roll.seq, "values": values})
    return play_out(table, rng)


def long_game(*, events: int = 1000, seed: int = 1, players: int = 8) -> Game:
    """A finished Run Buster series of at least ``events`` events (the first such rematch), every seat played by
    the app (eight seats: a series runs longest with many players).  For 1,000 events, seed 1 gets there at the
    table's 4th game, seed 4 at its first (1,028 events), in a third of the time."""
    rng = random.Random(seed)
    table, _host = services.create_table(game="runbuster", options={"series": True}, capacity=players,
                                         host_name="Hana")
    for number in range(1, players + 1):
        services.join_table(table=table, name=f"Bot {number}", is_bot=True)
    for _ in range(20):
        services.start_game(table=table, rng=rng)
        game = play_out(table, rng)
        if game.seq >= events:
            return game
    raise AssertionError("no game was long enough")


def undone_game(*, seed: int = 4) -> Game:
    """A finished Run Buster game (real dice) with one undo by the host and one take-back by a player."""
    rng = random.Random(seed)
    table, host = services.create_table(game="runbuster", options={"dice": "physical"}, capacity=2, host_name="Hana")
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    services.start_game(table=table, rng=rng)
    for _ in range(3):
        game = _act(table, rng)
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="undo",
                 fields={"expected_seq": game.seq})
    for _ in range(400):  # until a seat may take back what it just did
        game = _act(table, rng)
        if game.status != Game.Status.PLAYING:
            raise AssertionError("the game ended before a take-back was possible")
        events = [(e.actor, e.action) for e in game.events.order_by("seq")]
        last = events[-1][0]
        if last.isdigit() and take_back_point(events, int(last), engine=get_engine("runbuster")) is not None:
            take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[int(last)]),
                      expected_seq=game.seq)
            break
    return play_out(table, rng)


def host_typed_game() -> tuple[Game, list[int]]:
    """Run Buster with real dice: the host types three rolls for the seats, then undoes the last of them."""
    rng = random.Random(4)
    table, host = services.create_table(game="runbuster", options={"dice": "physical"}, capacity=2, host_name="Hana")
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    services.start_game(table=table, rng=rng)
    engine = get_engine("runbuster")
    typed: list[int] = []
    while len(typed) < 3:
        game = table_frame.current_game(table)
        assert game is not None and game.status == Game.Status.PLAYING, [
            (e.seq, e.actor, e.action) for e in game.events.order_by("seq")] if game else None
        seat = min(engine.actors(game.state))
        action = engine.bot_action(game.state, seat, rng)
        assert action is not None
        if action["type"] == "roll":  # the seat's real dice: the host types them in for the seat
            applied = checked_path.apply_action(table_code=table.code, credentials=Credentials(host_secret=host),
                                                action=action, expected_seq=game.seq, as_host=True, rng=rng)
            typed.append(applied.events[0].seq)
        else:
            checked_path.apply_action(table_code=table.code, credentials=Credentials(), action=action,
                                      expected_seq=game.seq, bot_seat=seat, rng=rng)
    game = table_frame.current_game(table)
    assert game is not None
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="undo",
                 fields={"expected_seq": game.seq})
    return play_out(Table.objects.get(pk=table.pk), rng), typed
