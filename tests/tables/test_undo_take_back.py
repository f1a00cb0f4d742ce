"""A player's take-back of their own last action (issue 14): the rule, the service, the option, export/import."""

from __future__ import annotations

import json
import random

import pytest

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.errors import GameError
from sixdice.gamekit.options import table_options, takes_back
from sixdice.gamekit.replay import take_back_point, undone, undone_by
from sixdice.review import exchange
from sixdice.rules.dice import FACES
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Event, Game
from sixdice.tables.policies.undo import take_back
from sixdice.tables.reads import table_frame
from sixdice.tables.wire import incoming
from sixdice.tables.writes import checked_path, services

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Bo")
SIXDICE = get_engine("sixdice")  # its random step is the roll


# ---------------------------------------------------------------- the rule, pure


def test_take_back_point_is_the_event_before_the_seats_own_last_action():
    flip, group, roll, undo = {"type": "flip"}, {"type": "group"}, {"type": "roll"}, {"type": "undo", "to": 1}
    assert take_back_point([("system", roll), ("0", flip)], 0, engine=SIXDICE) == 1
    assert take_back_point([("system", roll), ("0", flip), ("system", group)], 0, engine=SIXDICE) == 1  # server steps go with it
    assert take_back_point([("system", roll), ("0", flip)], 1, engine=SIXDICE) is None  # not Bo's action
    assert take_back_point([("0", flip), ("1", group)], 0, engine=SIXDICE) is None  # someone else acted since
    assert take_back_point([("0", flip), ("host", group)], 0, engine=SIXDICE) is None  # the host too
    assert take_back_point([("0", flip), ("system", roll)], 0, engine=SIXDICE) == 0  # the app's draw goes back with it (dealt again)
    assert take_back_point([("system", roll), ("0", roll)], 0, engine=SIXDICE) is None  # a typed roll is information
    assert take_back_point([("0", flip), ("0", undo)], 0, engine=SIXDICE) is None  # a take-back is not taken back
    assert take_back_point([], 0, engine=SIXDICE) is None
    # Back past an undone stretch: the event before the action on the current line.
    log = [("system", roll), ("0", flip), ("host", {"type": "undo", "to": 1}), ("0", group)]
    assert take_back_point(log, 0, engine=SIXDICE) == 1


def test_the_option_is_on_by_default_and_stored_only_when_off():
    assert table_options({}) == {} and takes_back({})
    assert table_options({"takeback": "on"}) == {}
    assert table_options({"takeback": "off"}) == {"takeback": False}
    assert not takes_back({"takeback": False})
    with pytest.raises(GameError):
        table_options({"takeback": "maybe"})


def test_undone_by_names_the_undo_that_took_each_event_back():
    log = [("system", {"type": "roll"}), ("0", {"type": "flip"}), ("0", {"type": "group"}),
           ("host", {"type": "undo", "to": 1}), ("1", {"type": "flip"})]
    assert undone_by(log) == {2: 4, 3: 4}
    assert undone(log) == {2, 3}


# ---------------------------------------------------------------- the service


def _table(slug: str, dice: str, **options):
    table, host = services.create_table(game=slug, options={"dice": dice, **options}, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in NAMES]
    services.start_game(table=table, rng=random.Random(7))
    return table, host, secrets


def _act(table, secrets, *, seat: int | None = None) -> int:
    """One action by the seat in turn (as a strong player would), typed rolls from a seeded rng; returns the seat."""
    game = table_frame.current_game(table)
    engine = get_engine(game.engine)
    actor = min(engine.actors(game.state)) if seat is None else seat
    rng = random.Random(f"{game.seq}")
    action = engine.bot_action(game.state, actor, rng)
    if action is None:  # a physical roll: type in values, as the phone would
        count = engine.view(game.state, actor)["pending"]["count"]
        action = {"type": "roll", "values": [rng.choice(FACES) for _ in range(count)]}
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[actor]),
                          action=action, expected_seq=game.seq)
    return actor


def _play_to_a_decision(table, secrets) -> int:
    """Play until a seat's last action is a decision (not a roll) that nobody followed; returns that seat."""
    for _ in range(200):
        seat = _act(table, secrets)
        game = table_frame.current_game(table)
        log = [(e.actor, e.action) for e in game.events.order_by("seq")]
        if take_back_point(log, seat, engine=SIXDICE) is not None:
            return seat
    raise AssertionError("no decision to take back in 200 actions")


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_a_player_takes_back_their_last_action_as_an_event(slug):
    table, _host, secrets = _table(slug, "physical")
    seat = _play_to_a_decision(table, secrets)
    game = table_frame.current_game(table)
    before = list(game.events.order_by("seq").values_list("seq", "actor", "action"))
    own = max(s for s, a, _ in before if a == str(seat))
    to = max([s for s, a, _ in before if s < own] or [0])
    expected = checked_path.replay(game, list(game.events.filter(seq__lte=to).order_by("seq")))

    take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]), expected_seq=game.seq)

    game.refresh_from_db()
    log = list(game.events.order_by("seq"))
    assert [(e.seq, e.actor, e.action) for e in log[:-1]] == before  # nothing deleted or changed
    last = log[-1]
    assert last.actor == str(seat) and last.action == {"type": "undo", "to": to, "seat": seat}
    move = get_engine(game.engine).presentation.move_name(dict(next(a for q, _, a in before if q == own)))["msg"]
    assert last.text == f"{NAMES[seat]} took back their {move}"  # plain words: no event number
    assert game.state == expected == checked_path.replay(game)
    assert own in undone([(e.actor, e.action) for e in log])
    # The same seat may now make its move again: the game goes on from there.
    assert seat in get_engine(game.engine).actors(game.state)


def test_take_back_refusals_change_nothing():
    table, host, secrets = _table("runbuster", "physical")
    seat = _play_to_a_decision(table, secrets)
    other = 1 - seat
    game = table_frame.current_game(table)
    seq = game.seq

    def refused(credentials, expected_seq=seq) -> str:
        with pytest.raises(ServiceError) as exc:
            take_back(table_code=table.code, credentials=credentials, expected_seq=expected_seq)
        return exc.value.code

    assert refused(Credentials(seat_secret=secrets[other])) == "cannot_take_back"  # not Bo's move
    assert refused(Credentials(host_secret=host)) == "spectator"  # the host undoes with "undo"
    assert refused(Credentials()) == "spectator"
    assert refused(Credentials(seat_secret=secrets[seat]), seq - 1) == "stale"
    with pytest.raises(incoming.BadFrame) as bad:  # a seq that is not a whole number: refused as the frame came in
        incoming.parse(json.dumps({"type": "take_back", "seq": "7"}), None)
    assert bad.value.refusal.code == "bad_field"
    services.set_paused(table=table, paused=True)
    assert refused(Credentials(seat_secret=secrets[seat])) == "paused"
    services.set_paused(table=table, paused=False)
    game.refresh_from_db()
    assert game.seq == seq and game.events.count() == seq

    # After a take-back, that undo is not taken back again (the player just plays again).
    take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]), expected_seq=seq)
    assert refused(Credentials(seat_secret=secrets[seat]), seq + 1) == "cannot_take_back"


def test_no_take_back_once_someone_else_acted_or_a_die_was_rolled():
    table, _host, secrets = _table("runbuster", "physical")
    refusals = 0
    for _ in range(12):
        if table_frame.current_game(table).status != Game.Status.PLAYING:
            break
        seat = _act(table, secrets)
        game = table_frame.current_game(table)
        log = [(e.actor, e.action) for e in game.events.order_by("seq")]
        if game.status == Game.Status.PLAYING and take_back_point(log, seat, engine=SIXDICE) is None:  # a roll, or Bo acted since
            with pytest.raises(ServiceError) as exc:
                take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                          expected_seq=game.seq)
            assert exc.value.code == "cannot_take_back"
            refusals += 1
    assert refusals
    game = table_frame.current_game(table)
    assert not game.events.filter(action__type="undo").exists()


def test_a_wrong_flip_is_taken_back_across_the_apps_draw_and_made_again_with_the_same_die():
    """The commonest mistake: the wrong victim.  The app drew the mover's die at once; the take-back still works,
    and the flip made again draws that same die."""
    from sixdice.gamekit.engine import get_engine as engine_of

    table, _host, secrets = _table("sixdice", "app")
    taken_back = 0
    for _ in range(10):
        seat = _act(table, secrets)
        game = table_frame.current_game(table)
        events = list(game.events.order_by("seq"))
        own = next(e for e in reversed(events) if e.actor != "system")
        after = [e for e in events if e.seq > own.seq]
        if own.actor != str(seat) or own.action["type"] != "flip" or not after:
            continue
        drawn = [v for e in after if engine_of(game.engine).draws_at_random(game.options, e.action) for v in e.action["values"]]
        assert drawn  # a flip is always followed by the app's roll at an app-dice Six-Dice table
        take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]), expected_seq=game.seq)
        game.refresh_from_db()
        assert game.pinned == drawn and game.state == checked_path.replay(game)
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                              action=own.action, expected_seq=game.seq)  # the same flip again
        game.refresh_from_db()
        again = list(game.events.filter(seq__gt=game.seq - len(after) - 1).order_by("seq"))
        assert [v for e in again if engine_of(game.engine).draws_at_random(game.options, e.action) for v in e.action["values"]] == drawn
        assert game.pinned == []
        taken_back += 1
        break
    assert taken_back


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_a_table_may_forbid_take_backs(slug):
    table, _host, secrets = _table(slug, "physical", takeback="off")
    assert table.options["takeback"] is False
    game = table_frame.current_game(table)
    assert game.options["takeback"] is False
    seat = _play_to_a_decision(table, secrets)
    game.refresh_from_db()
    with pytest.raises(ServiceError) as exc:
        take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]), expected_seq=game.seq)
    assert exc.value.code == "take_back_off"


def _finish(table, secrets) -> Game:
    for _ in range(3000):
        game = table_frame.current_game(table)
        if game.status != Game.Status.PLAYING:
            return game
        _act(table, secrets)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_export_and_import_keep_a_take_back_and_check_it(slug):
    table, _host, secrets = _table(slug, "physical")
    seat = _play_to_a_decision(table, secrets)
    game = table_frame.current_game(table)
    take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]), expected_seq=game.seq)
    undo_seq = game.seq + 1
    game = _finish(table, secrets)
    doc = exchange.export_game(game)
    text = exchange.dumps(doc)
    expected_state = game.state
    table.delete()  # an import refuses a game that is already here

    # Doctored copies: the take-back claimed by the other seat, or on a table that forbade it.
    stolen = json.loads(text)
    event = stolen["events"][undo_seq - 1]
    other = 1 - seat
    event["actor"], event["action"]["seat"] = str(other), other
    event["text"] = f"{NAMES[other]} took back their last move"
    with pytest.raises(exchange.ImportRefused, match="take back only their own last action"):
        exchange.import_text(json.dumps(stolen))
    forbidden = json.loads(text)
    forbidden["game"]["options"]["takeback"] = False
    forbidden["table"]["options"]["takeback"] = False
    for key in ("initial_state", "final_state"):  # Run Buster's state carries its options
        if "options" in forbidden[key]:
            forbidden[key]["options"]["takeback"] = False
    with pytest.raises(exchange.ImportRefused, match="does not let players take back"):
        exchange.import_text(json.dumps(forbidden))

    [copy] = exchange.import_text(text)
    assert copy.state == expected_state
    back = Event.objects.get(game=copy, seq=undo_seq)
    assert back.actor == str(seat) and back.action["seat"] == seat


def _replay_data(client, game: Game, language: str = "en") -> dict:
    from django.urls import reverse

    response = client.get(reverse("review:replay", args=[game.table.code, game.number]),
                          HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    start = html.index('<script id="replay-data" type="application/json">') + len('<script id="replay-data" type="application/json">')
    return json.loads(html[start:html.index("</script>", start)])


def test_the_replay_strikes_through_what_was_taken_back_and_says_by_whom(client):
    table, host, secrets = _table("runbuster", "physical")
    seat = _play_to_a_decision(table, secrets)
    game = table_frame.current_game(table)
    own = game.seq if game.events.order_by("-seq").first().actor == str(seat) else None
    take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]), expected_seq=game.seq)
    back_at = game.seq + 1
    for _ in range(3):
        _act(table, secrets)
    game.refresh_from_db()
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="undo", fields={"expected_seq": table_frame.current_game(table).seq})
    game.refresh_from_db()
    host_at = game.seq
    game = _finish(table, secrets)

    steps = _replay_data(client, game)["steps"]
    struck = {s["i"]: s["undone_by"] for s in steps if s["undone"]}
    assert struck  # the take-back and the host's undo both took moves back
    assert set(struck.values()) == {f"taken back by {NAMES[seat]} at move {back_at}",
                                    f"undone by the host at move {host_at}"}
    if own is not None:
        assert struck[own] == f"taken back by {NAMES[seat]} at move {back_at}"
    assert all(not s["undone_by"] for s in steps if not s["undone"])
    undo_step = steps[back_at]
    assert undo_step["text"].startswith(f"{NAMES[seat]} took back their ") and "#" not in undo_step["text"]
    assert undo_step["default"] is None and undo_step["differs"] is False

    # In the reader's language: the note and the take-back line.
    uk = _replay_data(client, game, "uk")["steps"]
    assert {s["undone_by"] for s in uk if s["undone"]}.isdisjoint(struck.values())
    assert uk[back_at]["text"] != undo_step["text"]


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_the_new_table_form_offers_the_option_checked(client, slug):
    from django.urls import reverse

    from sixdice.tables.models import Table

    page = client.get(reverse("tables:new", args=[slug])).content.decode()
    assert 'name="takeback" checked' in page  # on by default
    # The form sends the hidden "off", then "on" when the box is ticked (the last one counts).
    client.post(reverse("tables:new", args=[slug]), {"players": "2", "dice": "app", "takeback": ["off", "on"]})
    client.post(reverse("tables:new", args=[slug]), {"players": "2", "dice": "app", "takeback": "off"})
    allowed, forbidden = Table.objects.order_by("created_at", "pk")
    assert takes_back(allowed.options) and "takeback" not in allowed.options
    assert forbidden.options["takeback"] is False


def test_turns_taken_back_are_not_counted():
    from sixdice.review.steps import count_turns, replay_steps

    table, _host, secrets = _table("runbuster", "physical")
    seat = _act(table, secrets)  # a roll: Run Buster's turn
    game = table_frame.current_game(table)
    engine = get_engine("runbuster")
    log = [(e.actor, e.action) for e in game.events.order_by("seq")]
    assert count_turns(engine, log) == 1
    # The host undoes the roll: that turn no longer counts, and the undo is no turn.
    host_command(table_code=table.code, credentials=Credentials(host_secret=_host), command="undo",
                          fields={"expected_seq": table_frame.current_game(table).seq})
    game.refresh_from_db()
    log = [(e.actor, e.action) for e in game.events.order_by("seq")]
    assert count_turns(engine, log) == 0 and replay_steps(game)[-1].turn == 0
    assert seat == _act(table, secrets)  # rolled again
    game.refresh_from_db()
    assert replay_steps(game)[-1].turn == 1


def test_statistics_count_only_the_turns_still_in_play():
    from sixdice.review import stats
    from sixdice.review.steps import count_turns

    table, host, secrets = _table("runbuster", "physical")
    _act(table, secrets)  # a roll: Run Buster's turn
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="undo", fields={"expected_seq": table_frame.current_game(table).seq})
    game = _finish(table, secrets)
    log = [(e.actor, e.action) for e in game.events.order_by("seq")]
    engine = get_engine("runbuster")
    everything = sum(1 for actor, action in log if action["type"] != "undo" and engine.is_turn(actor, action))
    in_play = count_turns(engine, log)
    assert in_play < everything  # the undo took a turn back
    [runbuster] = [e for e in stats.compute("runbuster").engines if e.slug == "runbuster"]
    assert runbuster.turns == in_play


def test_a_move_the_timer_made_for_the_seat_is_not_taken_back():
    table, _host, secrets = _table("runbuster", "physical")
    seat = _play_to_a_decision(table, secrets)
    game = table_frame.current_game(table)
    Event.objects.filter(game=game, seq=game.seq).update(stand_in="timeout")  # as the turn timer marks it
    with pytest.raises(ServiceError) as exc:
        take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]), expected_seq=game.seq)
    assert exc.value.code == "cannot_take_back"


def test_the_admin_game_page_strikes_through_what_was_taken_back(admin_client):
    from django.urls import reverse

    table, _host, secrets = _table("runbuster", "physical")
    seat = _play_to_a_decision(table, secrets)
    game = table_frame.current_game(table)
    own = game.seq
    take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]), expected_seq=game.seq)
    page = admin_client.get(reverse("admin:tables_game_change", args=[game.pk])).content.decode()
    assert f"taken back by {NAMES[seat]} at move {own + 1}" in page
    row = page[page.index(f'<tr data-seq="{own}"'):]
    assert row.index("<s>") < row.index("</tr>")
