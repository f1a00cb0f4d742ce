"""Host undo, kept in the log (issue 14): both games, the one replay, export/import after an undo."""

from __future__ import annotations

import random

import pytest

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.replay import undone
from sixdice.review import exchange
from sixdice.rules.dice import FACES
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Event, Game
from sixdice.tables.reads import table_frame
from sixdice.tables.writes import checked_path, services

pytestmark = pytest.mark.django_db


def _undid(game, before, target: int) -> str:
    """The plain-words line of the host's undo back to ``target``: whose move it took back, and which."""
    seq, actor, action = next(e for e in before if e[0] > target)
    move = get_engine(game.engine).presentation.move_name(dict(action))["msg"]
    return f"The host undid {game.players[int(actor)]}'s {move}" if actor.isdigit() else f"The host undid the app's {move}"


def _table(slug: str, dice: str):
    table, host = services.create_table(game=slug, options={"dice": dice}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    services.start_game(table=table, rng=random.Random(7))
    return table, host


def _move(table, n: int) -> None:
    """Play ``n`` actions: each seat in turn as a bot would, typed-in rolls drawn from a seeded rng."""
    for i in range(n):
        game = table_frame.current_game(table)
        engine = get_engine(game.engine)
        seat = min(engine.actors(game.state))
        rng = random.Random(f"{i}-{game.seq}")
        action = engine.bot_action(game.state, seat, rng)
        if action is None:  # a physical roll: type in values, as the phone would
            count = engine.view(game.state, seat)["pending"]["count"]
            action = {"type": "roll", "values": [rng.choice(FACES) for _ in range(count)]}
        checked_path.apply_action(table_code=table.code, credentials=Credentials(), action=action,
                              expected_seq=game.seq, bot_seat=seat)


def _undo(table, host, to=None):
    return host_command(table_code=table.code, credentials=Credentials(host_secret=host),
                                 command="undo",
                        fields={"expected_seq": table_frame.current_game(table).seq, **({} if to is None else {"to": to})})


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_host_undoes_typed_moves_as_an_event_and_the_one_replay_follows(slug):
    table, host = _table(slug, "physical")
    _move(table, 4)
    game = table_frame.current_game(table)
    before = list(game.events.order_by("seq").values_list("seq", "actor", "action"))
    states = {}
    for k in range(len(before) + 1):  # the state after each event, by the engines alone
        states[k] = checked_path.replay(game, list(game.events.filter(seq__lte=k).order_by("seq")))
    _undo(table, host)
    game.refresh_from_db()
    log = list(game.events.order_by("seq"))
    assert [(e.seq, e.actor, e.action) for e in log[:-1]] == before  # nothing deleted or changed
    last = log[-1]
    assert last.actor == "host" and last.action["type"] == "undo" and last.seq == len(before) + 1
    target = last.action["to"]
    assert target < len(before) and last.text == _undid(game, before, target)  # plain words: no event number
    assert game.state == states[target] == checked_path.replay(game)
    assert undone([(e.actor, e.action) for e in log]) == set(range(target + 1, len(before) + 1))

    # Play on from there, then undo to an explicit seq; the replay still agrees.
    _move(table, 2)
    game.refresh_from_db()
    _undo(table, host, to=target)
    game.refresh_from_db()
    assert game.state == states[target] == checked_path.replay(game)

    # Play on to the end (only finished or abandoned games are imported), then export and import.
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        _move(table, 1)
    assert game.status == Game.Status.FINISHED
    text = exchange.dumps(exchange.export_game(game))
    expected_state, expected_seq = game.state, game.seq
    undo_seqs = [e.seq for e in game.events.filter(action__type="undo").order_by("seq")]
    table.delete()  # an import refuses a game that is already here: import it into a database without it
    [copy] = exchange.import_text(text)
    assert copy.state == expected_state and copy.seq == expected_seq
    assert list(Event.objects.filter(game=copy, action__type="undo").order_by("seq").values_list("seq", flat=True)) == undo_seqs
    assert len(undo_seqs) == 2


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_no_undo_across_dice_the_app_drew_before_the_last_move(slug):
    """The app's dice drawn after the last move go back with it (and are dealt again); those before it do not."""
    table, host = _table(slug, "app")
    _move(table, 3)
    game = table_frame.current_game(table)
    seq = game.seq
    events = list(game.events.order_by("seq"))
    last_move = max(e.seq for e in events if e.actor != "system")
    rolls = [e.seq for e in events if e.action["type"] == "roll" and e.seq < last_move]
    assert rolls  # the app rolled before the last move
    with pytest.raises(ServiceError) as exc:
        _undo(table, host, to=rolls[-1] - 1)
    assert exc.value.code == "cannot_undo"
    game.refresh_from_db()
    assert game.seq == seq  # a refusal changes nothing


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_undoing_the_last_move_keeps_the_dice_drawn_after_it_for_the_move_made_again(slug):
    from sixdice.gamekit.engine import get_engine as engine_of
    from sixdice.gamekit.pins import pinned_values

    table, host = _table(slug, "app")
    _move(table, 3)
    game = table_frame.current_game(table)
    events = list(game.events.order_by("seq"))
    last_move = max(e.seq for e in events if e.actor != "system")
    drawn = [v for e in events if e.seq >= last_move and engine_of(game.engine).draws_at_random(game.options, e.action)
             for v in e.action["values"]]
    _undo(table, host)  # the default: back to before the last move, with the dice drawn after it
    game.refresh_from_db()
    assert game.pinned == drawn
    _move(table, 1)  # the move made again (as the seat would): the same dice come again
    game.refresh_from_db()
    again = [e for e in game.events.order_by("seq") if e.seq > seq_of_undo(game)]
    dealt = [v for e in again if engine_of(game.engine).draws_at_random(game.options, e.action) for v in e.action["values"]]
    assert dealt[: len(drawn)] == drawn[: len(dealt)]  # no value seen is rolled again
    log = [(e.actor, e.action) for e in game.events.order_by("seq")]
    assert game.pinned == pinned_values(log, engine_of(game.engine), game.options)  # the log says the same
    assert game.state == checked_path.replay(game)


def seq_of_undo(game):
    return game.events.filter(action__type="undo").order_by("-seq").values_list("seq", flat=True).first()


def test_undo_is_for_the_host_and_checks_its_field():
    table, host = _table("runbuster", "physical")
    _move(table, 2)
    with pytest.raises(ServiceError) as exc:
        host_command(table_code=table.code, credentials=Credentials(), command="undo", fields={"expected_seq": table_frame.current_game(table).seq})
    assert exc.value.code == "not_host"
    for bad in ("1", True, 99, -1):
        with pytest.raises(ServiceError) as exc:
            _undo(table, host, to=bad)
        assert exc.value.code in {"bad_field", "cannot_undo"}


def test_the_replay_steps_follow_the_undo_and_mark_the_undone_moves():
    from sixdice.review.steps import replay_steps, step_payloads

    table, host = _table("runbuster", "physical")
    _move(table, 4)
    _undo(table, host)
    game = table_frame.current_game(table)
    target = game.events.order_by("-seq").first().action["to"]
    steps = replay_steps(game)
    assert steps[-1].state == game.state
    payloads = step_payloads(game, steps)
    assert [p["i"] for p in payloads if p["undone"]] == list(range(target + 1, 5))
    assert "#" not in payloads[-1]["text"] and payloads[-1]["text"].startswith("The host undid")
    assert not payloads[-1]["undone"]


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_host_corrects_a_typed_roll_after_later_moves(slug):
    table, host = _table(slug, "physical")
    _move(table, 5)
    game = table_frame.current_game(table)
    before = list(game.events.order_by("seq").values_list("seq", "actor", "action"))
    roll = next(e for e in game.events.order_by("seq") if e.action["type"] == "roll")
    faces = list(FACES) if slug == "sixdice" else [1, 2, 3, 4, 5, 6]
    fixed = [faces[(faces.index(v) + 1) % len(faces)] for v in roll.action["values"]]  # every die differs
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="correct",
                          fields={"expected_seq": table_frame.current_game(table).seq, "seq": roll.seq, "values": fixed})
    game.refresh_from_db()
    log = list(game.events.order_by("seq"))
    assert [(e.seq, e.actor, e.action) for e in log[: len(before)]] == before  # nothing deleted
    added = log[len(before):]
    assert added[0].action == {"type": "undo", "to": roll.seq - 1, "corrects": roll.seq} and added[0].actor == "host"
    roller = game.players[int(roll.actor)] if roll.actor.isdigit() else None
    assert added[0].text == (f"The host corrects {roller}'s roll" if roller else "The host corrects a typed roll")
    assert added[1].actor == "host" and added[1].action["values"] == fixed
    assert game.state == checked_path.replay(game)  # the one replay reaches the corrected state
    remade = [e for e in added[2:] if e.actor != "system"]
    original_later = [(a, act) for s, a, act in before if s > roll.seq and a != "system"]
    assert [(e.actor, e.action) for e in remade] == original_later[: len(remade)]  # re-made in order while legal


def test_a_correction_needs_a_typed_roll_in_play():
    table, host = _table("runbuster", "app")
    _move(table, 2)
    game = table_frame.current_game(table)
    roll = next(e for e in game.events.order_by("seq") if e.action["type"] == "roll")
    seq = game.seq
    with pytest.raises(ServiceError) as exc:
        host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="correct",
                              fields={"expected_seq": table_frame.current_game(table).seq, "seq": roll.seq, "values": [1, 2, 3, 4, 5, 6]})
    assert exc.value.code == "cannot_correct"
    with pytest.raises(ServiceError) as exc:
        host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="correct",
                              fields={"expected_seq": table_frame.current_game(table).seq, "seq": roll.seq, "values": "123"})
    assert exc.value.code == "bad_field"
    game.refresh_from_db()
    assert game.seq == seq and game.events.count() == seq  # refusals wrote nothing
