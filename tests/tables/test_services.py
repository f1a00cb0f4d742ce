"""The table services: seats, permissions, the event log and replay."""

from __future__ import annotations

import pytest

from sixdice.tables.core import keys
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Event, Game, Table
from sixdice.tables.reads import table_frame
from sixdice.tables.writes import checked_path, services

pytestmark = pytest.mark.django_db


def test_create_table_gives_a_short_code_and_host_secret():
    table, host_secret = services.create_table(game="tiny", options={"target": "7"}, capacity=2)
    assert len(table.code) == keys.CODE_LENGTH
    assert set(table.code) <= set(keys.CODE_ALPHABET)
    assert table.options == {"target": 7, "series": True}
    assert keys.is_host(table, Credentials(host_secret=host_secret))
    assert not keys.is_host(table, Credentials(host_secret="guess"))


def test_create_table_refuses_bad_options_and_sizes():
    with pytest.raises(ValueError, match="whole number"):
        services.create_table(game="tiny", options={"target": "many"}, capacity=2)
    with pytest.raises(ValueError, match="2 to 4 players"):
        services.create_table(game="tiny", options={}, capacity=9)
    with pytest.raises(ValueError, match="Unknown game"):
        services.create_table(game="chess", options={}, capacity=2)
    assert Table.objects.count() == 0


def test_join_binds_a_seat_to_its_secret(tiny_table):
    table, _host, secrets = tiny_table
    seat = services.seat_for(table, Credentials(seat_secret=secrets[1]))
    assert (seat.position, seat.name) == (1, "Bo")
    assert services.seat_for(table, Credentials(seat_secret="nope")) is None


@pytest.mark.parametrize(
    ("name", "code"),
    [("", "bad_name"), ("   ", "bad_name"), ("x" * 25, "bad_name"), ("ana", "name_taken"), ("A\x00b", "bad_name")],
)
def test_join_refuses_bad_names(tiny_table, name, code):
    table, _host, _secrets = tiny_table
    with pytest.raises(ServiceError) as exc:
        services.join_table(table=table, name=name)
    assert exc.value.code == code
    assert table.seats.count() == 2


def test_seats_close_when_full_and_when_the_game_starts(tiny_table):
    table, _host, _secrets = tiny_table
    services.join_table(table=table, name="Cy")
    with pytest.raises(ServiceError, match="All 3 seats"):
        services.join_table(table=table, name="Dee")
    services.start_game(table=table)
    table.refresh_from_db()
    table.capacity = 4
    table.save()
    with pytest.raises(ServiceError) as exc:
        services.join_table(table=table, name="Dee")
    assert exc.value.code == "seats_closed"


def test_start_needs_enough_players(db):
    table, _ = services.create_table(game="tiny", options={}, capacity=2)
    services.join_table(table=table, name="Ana")
    with pytest.raises(ServiceError, match="at least 2"):
        services.start_game(table=table)


def _act(table, secret, n, seq, **kw):
    return checked_path.apply_action(
        table_code=table.code, credentials=Credentials(seat_secret=secret), action={"type": "add", "n": n},
        expected_seq=seq, **kw,
    )


def test_apply_appends_the_action_and_the_app_roll(tiny_table, rng):
    table, _host, secrets = tiny_table
    game = services.start_game(table=table, rng=rng).game
    first = game.first
    applied = _act(table, secrets[first], 2, 0, rng=rng)
    assert [e.seq for e in applied.events] == [1, 2]
    assert [e.actor for e in applied.events] == [str(first), "system"]
    assert applied.events[1].action["type"] == "deal"
    game.refresh_from_db()
    assert game.seq == 2
    assert game.state["total"] == 2
    assert checked_path.replay(game) == game.state


def test_permissions_out_of_turn_spectator_and_non_host(tiny_table, rng):
    table, host, secrets = tiny_table
    game = services.start_game(table=table, rng=rng).game
    other = 1 - game.first
    with pytest.raises(ServiceError, match="Ana's turn|Bo's turn") as exc:
        _act(table, secrets[other], 1, 0)
    assert exc.value.code == "not_allowed"
    with pytest.raises(ServiceError) as exc:
        _act(table, "not-a-seat", 1, 0)
    assert exc.value.code == "spectator"
    with pytest.raises(ServiceError) as exc:
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[0]),
                              action={"type": "end"}, expected_seq=0, as_host=True)
    assert exc.value.code == "not_host"
    game.refresh_from_db()
    assert game.seq == 0 and Event.objects.count() == 0


def test_host_action_goes_through_the_engine(tiny_table):
    table, host, _secrets = tiny_table
    services.start_game(table=table)
    applied = checked_path.apply_action(table_code=table.code, credentials=Credentials(host_secret=host),
                                    action={"type": "end"}, expected_seq=0, as_host=True)
    assert applied.game.status == Game.Status.FINISHED
    assert applied.events[0].actor == "host"
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


def test_stale_seq_is_refused_and_changes_nothing(tiny_table, rng):
    table, _host, secrets = tiny_table
    game = services.start_game(table=table, rng=rng).game
    with pytest.raises(ServiceError) as exc:
        _act(table, secrets[game.first], 1, 5)
    assert exc.value.code == "stale"
    game.refresh_from_db()
    assert game.seq == 0 and not game.events.exists()


def test_illegal_action_is_refused_with_the_engine_message(tiny_table):
    table, _host, secrets = tiny_table
    game = services.start_game(table=table).game
    with pytest.raises(ServiceError, match="add 1 or 2") as exc:
        _act(table, secrets[game.first], 3, 0)
    assert exc.value.code == "illegal"


def test_paused_unknown_and_finished_tables(tiny_table):
    table, host, secrets = tiny_table
    game = services.start_game(table=table).game
    services.set_paused(table=table, paused=True)
    with pytest.raises(ServiceError) as exc:
        _act(table, secrets[game.first], 1, 0)
    assert exc.value.code == "paused"
    services.set_paused(table=table, paused=False)
    with pytest.raises(ServiceError) as exc:
        checked_path.apply_action(table_code="ZZZZZ", credentials=Credentials(), action={"type": "add"}, expected_seq=0)
    assert exc.value.code == "unknown_table"
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED)
    with pytest.raises(ServiceError) as exc:
        _act(table, secrets[game.first], 1, 0)
    assert exc.value.code == "table_closed"


def test_game_over_then_rematch_rotates_player_one(tiny_table, rng):
    table, host, secrets = tiny_table
    game = services.start_game(table=table, rng=rng).game
    seq, seat = 0, game.first
    while game.status == Game.Status.PLAYING:
        game = _act(table, secrets[seat], 2, seq, rng=rng).game
        seq, seat = game.seq, game.state["current"]
    assert game.winners == [game.state["winner"]]
    with pytest.raises(ServiceError) as exc:
        _act(table, secrets[seat], 1, seq)
    assert exc.value.code == "game_over"
    rematch = services.start_game(table=table, rng=rng).game
    assert rematch.number == 2 and rematch.first == (game.first + 1) % 2
    assert checked_path.replay(game) == game.state
    winner = game.winners[0]
    rows = {row["name"]: row for row in table_frame.standings(table)}
    assert rows[game.players[winner]]["wins"] == 1 and rows[game.players[winner]]["places"] == [1, 0]
    assert rows[game.players[1 - winner]]["lost"] == 1 and rows[game.players[1 - winner]]["places"] == [0, 1]


def test_hand_over_revokes_the_old_phone_and_the_old_link(tiny_table):
    table, _host, secrets = tiny_table
    token = services.hand_over_seat(table=table, position=0)
    assert services.seat_for(table, Credentials(seat_secret=secrets[0])) is None
    newer = services.hand_over_seat(table=table, position=0)
    with pytest.raises(ServiceError) as exc:
        services.claim_seat(table=table, token=token)
    assert exc.value.code == "bad_link"
    seat, secret = services.claim_seat(table=table, token=newer)
    assert seat.position == 0
    assert services.seat_for(table, Credentials(seat_secret=secret)).name == "Ana"
    with pytest.raises(ServiceError):
        services.claim_seat(table=table, token=newer)  # one use only


def test_a_single_game_table_closes_when_the_game_ends(db, rng):
    table, _host = services.create_table(game="tiny", options={"series": "off"}, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    game = services.start_game(table=table, rng=rng).game
    while game.status == Game.Status.PLAYING:
        game = _act(table, secrets[game.state["current"]], 2, game.seq, rng=rng).game
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    with pytest.raises(ServiceError) as exc:
        services.start_game(table=table)
    assert exc.value.code == "table_closed"


def test_only_a_seat_a_phone_held_can_be_given_back_from_the_app(tiny_table):
    """The host's "Give the seat back" is offered for a person's seat the app plays, not for the app's own player."""
    table, _host, _secrets = tiny_table
    services.add_bot(table=table)
    services.set_bot(table=table, position=1, is_bot=True)  # Bo left: the app plays his seat
    seats = {s["name"]: s for s in table_frame.table_info(table)["seats"]}
    assert (seats["Ana"]["bot"], seats["Ana"]["returnable"]) == (False, False)
    assert (seats["Bo"]["bot"], seats["Bo"]["returnable"]) == (True, True)
    app_player = next(s for name, s in seats.items() if name not in ("Ana", "Bo"))
    assert (app_player["bot"], app_player["returnable"]) == (True, False)
    services.set_bot(table=table, position=1, is_bot=False)  # given back: his phone holds it again
    assert table_frame.table_info(table)["seats"][1]["returnable"] is False
