"""Six-Dice bots at a live table (through the services and the bot driver), and hints in the views."""

from __future__ import annotations

import random

import pytest
from django.test import override_settings
from django.urls import reverse

from sixdice.engine import ENGINE
from sixdice.review import stats
from sixdice.rules import FACES, State, apply, legal_actions
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Event, Game, Seat
from sixdice.tables.policies import bots
from sixdice.tables.writes import checked_path, services

pytestmark = pytest.mark.django_db


def _events(game: Game) -> list[tuple[str, dict]]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("actor", "action"))


@override_settings(SIXDICE_DICE_SEED="bots-app")
def test_two_bot_seats_play_a_whole_game_with_app_dice(client):
    """The issue's freeze: two bot seats, 2 rounds, app dice; the game used to stop at seq 2."""
    table, host = services.create_table(game="sixdice", options={"rounds": 2}, capacity=2)
    creds = Credentials(host_secret=host)
    host_command(table_code=table.code, credentials=creds, command="add_bot", fields={"strength": "strong"})
    host_command(table_code=table.code, credentials=creds, command="add_bot", fields={"strength": "random"})
    assert list(Seat.objects.filter(table=table).values_list("bot_strength", flat=True)) == ["strong", "random"]
    game = services.start_game(table=table).game
    for _ in range(500):
        if not bots.step(table.code):
            break
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    events = _events(game)
    flips = [(actor, a) for actor, a in events if a["type"] == "flip"]
    assert {actor for actor, _ in flips} == {"0", "1"}  # each bot's flips are logged as its seat's moves
    assert all(actor == "system" for actor, a in events if a["type"] == "roll")  # the app rolls every die
    assert game.state["over"] and game.state["round"] == 2
    # the log replays: every recorded action is legal in turn
    st = State.from_dict(game.initial_state)
    for _actor, a in events:
        st = apply(st, a)
    assert st.to_dict()["hands"] == game.state["hands"]
    # the statistics page gives the results per bot strength
    es = next(e for e in stats.compute().engines if e.slug == "sixdice")
    rows = {b.strength: (b.seats, b.wins, b.fair) for b in es.bot_rows}
    assert set(rows) == {"random", "strong"} and all(seats == 1 and fair == 0.5 for seats, _, fair in rows.values())
    assert sum(w for _, w, _ in rows.values()) == pytest.approx(1.0)
    page = client.get(reverse("review:stats")).content.decode()
    assert "Bot results by strength" in page and 'data-strength="strong"' in page


@override_settings(SIXDICE_DICE_SEED="bots-physical")
def test_a_bot_seat_with_physical_dice_decides_and_the_host_types_its_dice():
    table, host = services.create_table(game="sixdice", options={"rounds": 1, "dice": "physical"}, capacity=2)
    host_creds = Credentials(host_secret=host)
    host_command(table_code=table.code, credentials=host_creds, command="add_bot", fields={"strength": "greedy"})
    _seat, secret = services.join_table(table=table, name="Ana")
    ana = Credentials(seat_secret=secret)
    game = services.start_game(table=table).game
    dice = random.Random(7)
    host_rolls_for_bot = 0
    for _ in range(500):
        if bots.step(table.code):
            continue
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        st = State.from_dict(game.state)
        p = st.pending
        assert p is not None
        if p.kind == "roll":  # real dice: the host types them, for the bot's seat as for anybody's
            host_rolls_for_bot += p.seat == 0
            action = {"type": "roll", "values": [dice.choice(FACES) for _ in range(p.count)]}
            checked_path.apply_action(table_code=table.code, credentials=host_creds, action=action,
                                  expected_seq=game.seq, as_host=True)
        else:  # Ana's decision; a bot never leaves its own decision open
            assert p.seat == 1
            checked_path.apply_action(table_code=table.code, credentials=ana, action=legal_actions(st)[0],
                                  expected_seq=game.seq)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    events = _events(game)
    assert host_rolls_for_bot >= 1
    assert any(actor == "0" and a["type"] == "flip" for actor, a in events) or game.state["end_reason"] == "all_threes"
    assert not any(actor == "0" and a["type"] == "roll" for actor, a in events)  # the bot never rolls real dice
    assert ENGINE.bot_action(game.initial_state, 0, random.Random(0)) is None  # a physical start roll: no bot move


def test_the_host_picks_a_bot_strength_and_a_wrong_one_is_refused_clearly():
    table, host = services.create_table(game="sixdice", options={}, capacity=3)
    creds = Credentials(host_secret=host)
    with pytest.raises(ServiceError) as exc:
        host_command(table_code=table.code, credentials=creds, command="add_bot", fields={"strength": "expert"})
    assert "Unknown bot strength 'expert'" in exc.value.message and "random, greedy, strong" in exc.value.message
    assert not Seat.objects.filter(table=table).exists()  # nothing changed
    host_command(table_code=table.code, credentials=creds, command="add_bot", fields={})
    services.join_table(table=table, name="Bo")
    host_command(table_code=table.code, credentials=creds, command="bot",
                          fields={"position": 1, "on": True, "strength": "random"})
    seats = list(Seat.objects.filter(table=table).order_by("position").values_list("is_bot", "bot_strength"))
    assert seats == [(True, ""), (True, "random")]  # "": the game's default (strong)
    host_command(table_code=table.code, credentials=creds, command="bot", fields={"position": 1, "on": False})
    assert Seat.objects.get(table=table, position=1).bot_strength == ""


def test_hints_show_for_the_seat_that_decides_only_when_the_option_is_on():
    """Hints are private: the seat whose choice it is sees one; the host's console (seat None) and the others never."""
    rng = random.Random(3)
    for hints in (True, False):
        options = ENGINE.clean_options({"hints": "on" if hints else "off", "rounds": 2}, players=3)
        assert options["hints"] is hints
        state = ENGINE.start(players=["Ana", "Bo", "Cy"], options=options)
        while ENGINE.actors(state) == frozenset() or State.from_dict(state).pending.kind == "roll":
            action = ENGINE.system_action(state, options, rng)
            state = ENGINE.apply(state, action, actor="system")
        st = State.from_dict(state)
        seat = st.pending.seat
        mine, other, host = ENGINE.view(state, seat), ENGINE.view(state, (seat + 1) % 3), ENGINE.view(state, None)
        assert "hint" not in other
        if not hints:
            assert "hint" not in mine and "hint" not in host and mine["hints_on"] is False
            continue
        h = mine["hint"]
        assert "hint" not in host and h["kind"] == st.pending.kind and isinstance(h["value"], float)
        ENGINE.apply(state, h["action"], actor=seat)  # the suggestion is a legal move for the seat
