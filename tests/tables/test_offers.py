"""The server tells the page what it may offer (sixdice/tables/wire/offers.py): the page copies no rule."""

from __future__ import annotations

import json
import random

import pytest

from sixdice.gamekit.engine import get_engine
from sixdice.tables.core.keys import Credentials
from sixdice.tables.reads import selectors
from sixdice.tables.wire import offers, outgoing
from sixdice.tables.writes import checked_path, services
from tests.tinygame import TINY

SIXDICE = get_engine("sixdice")


def ev(seq: int, actor: str, kind: str, **fields: object) -> dict:
    return {"seq": seq, "actor": actor, "action": {"type": kind, **fields}}


def test_the_table_part_is_the_engines_declarations():
    part = offers.table_part(SIXDICE, {"dice": "physical"})
    assert part["random_actions"] == ["roll"] and part["typed_in"] is True and part["take_back"] is True
    assert [s["value"] for s in part["bot_strengths"]] == list(SIXDICE.bot_strengths)
    assert [s["value"] for s in part["bot_strengths"] if s["default"]] == ["strong"]
    assert {s["label"] for s in part["bot_strengths"]} == {"level_easy", "level_medium", "level_hard"}
    assert offers.table_part(SIXDICE, {"dice": "app", "takeback": False})["typed_in"] is False
    assert offers.table_part(SIXDICE, {"takeback": False})["take_back"] is False
    tiny = offers.table_part(TINY, {"dealer": "table"})
    assert tiny["random_actions"] == ["deal"] and tiny["typed_in"] is True and tiny["bot_strengths"] == []


def test_the_take_back_offer_follows_the_services_rule():
    log = [ev(1, "system", "roll", values=[1]), ev(2, "0", "flip"), ev(3, "system", "group")]
    assert offers.take_back_offer(SIXDICE, log) == {"seat": 0, "seq": 2, "kind": "flip"}  # balancing goes with it
    drawn = [*log, ev(4, "system", "roll", values=[2])]  # across the app's draw: its values are dealt again
    assert offers.take_back_offer(SIXDICE, drawn) == {"seat": 0, "seq": 2, "kind": "flip"}
    assert offers.take_back_offer(SIXDICE, [*drawn, ev(5, "1", "group")])["seat"] == 1  # not 0 now
    assert offers.take_back_offer(SIXDICE, [ev(1, "0", "roll", values=[1])]) is None  # a typed roll
    assert offers.take_back_offer(SIXDICE, [ev(1, "0", "flip"), ev(2, "host", "undo", to=0)]) is None
    timed = {**ev(1, "0", "flip"), "stand_in": "timeout"}
    assert offers.take_back_offer(SIXDICE, [timed]) is None  # the app played it for the seat
    dealt = offers.take_back_offer(TINY, [ev(1, "0", "add", n=1), ev(2, "system", "deal", value=3)])
    assert dealt == {"seat": 0, "seq": 1, "kind": "move"}
    assert offers.take_back_offer(TINY, [ev(1, "0", "add", n=1), ev(2, "system", "roll")]) == {"seat": 0, "seq": 1, "kind": "move"}


def test_an_update_says_the_take_back_only_when_its_events_decide_it():
    assert offers.update_part(SIXDICE, [ev(5, "system", "group")]) == {}  # unchanged
    assert offers.update_part(SIXDICE, [ev(5, "1", "flip"), ev(6, "system", "group")]) == {
        "take_back": {"seat": 1, "seq": 5, "kind": "flip"}, "undo": {"seq": 5, "actor": "1", "seat": 1, "kind": "flip"}}
    undo = offers.update_part(SIXDICE, [ev(7, "host", "undo", to=4)])
    assert undo == {"take_back": None, "undone_from": 7}  # the table frame it asks for says the undo


def test_the_hosts_undo_offer_names_the_last_move_still_in_play():
    log = [ev(1, "system", "roll", values=[1]), ev(2, "0", "flip"), ev(3, "system", "roll", values=[2])]
    offer = {"seq": 2, "actor": "0", "seat": 0, "kind": "flip"}
    assert offers.undo_offer(SIXDICE, log, status="playing") == offer  # across the app's roll after it
    assert offers.undo_offer(SIXDICE, log, status="finished") is None
    assert offers.undo_offer(SIXDICE, log[:1], status="playing") is None  # only the app has played
    undone = [*log, ev(4, "1", "group"), ev(5, "host", "undo", to=3)]
    assert offers.undo_offer(SIXDICE, undone, status="playing", gone=[4]) == offer
    assert offers.game_part(SIXDICE, undone)["undo"] == offer
    assert offers.update_part(SIXDICE, [ev(6, "system", "group")]) == {}  # server steps: unchanged
    assert offers.update_part(SIXDICE, [ev(6, "system", "group")], status="finished") == {"undo": None}
    assert get_engine("runbuster").presentation.move_kind({"type": "choose"}) == "straight"
    assert TINY.presentation.move_kind({"type": "add"}) == "move"  # the default


def test_undone_seqs_strike_what_an_undo_took_back_even_in_the_last_events_only():
    log = [ev(3, "0", "flip"), ev(4, "system", "group"), ev(5, "host", "undo", to=3), ev(6, "0", "group"),
           ev(7, "host", "undo", to=2)]
    assert offers.undone_seqs(log) == [3, 4, 6]  # the undo events themselves stay as they are


@pytest.mark.django_db
def test_frames_and_updates_carry_them(tiny_table):
    table, _host, secrets = tiny_table
    game = services.start_game(table=table, rng=random.Random(2)).game
    frame = selectors.snapshot(table.pk, seat=0, host=False)
    assert frame["table"]["random_actions"] == ["deal"] and frame["table"]["typed_in"] is False
    assert (frame["game"]["undone"], frame["game"]["take_back"]) == ([], None)
    first = game.first
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[first]),
                          action={"type": "add", "n": 1}, expected_seq=0, rng=random.Random(1))
    game.refresh_from_db()
    events = [outgoing.event_payload(e) for e in game.events.order_by("seq")]
    message = outgoing.events_message(engine="tiny", game=game.pk, number=1, seq=game.seq, status="playing",
                                       events=events, state=game.state, version=1)
    update = json.loads(outgoing.PreparedUpdate(message).text(first, "en"))
    assert update["take_back"] == {"seat": first, "seq": 1, "kind": "move"}  # across the app's deal after the add
    assert update["actors"] == sorted(TINY.actors(game.state))  # whose move the game waits for
    assert update["undo"] == {"seq": 1, "actor": str(first), "seat": first, "kind": "move"}
    resync = selectors.resync(table.pk, seat=first, host=False, game_id=game.pk, since=0)
    assert resync["take_back"] == update["take_back"] and resync["type"] == "update"


@pytest.mark.django_db
def test_the_undo_offer_is_the_move_the_services_default_undo_takes_back(tiny_table):
    from sixdice.tables.policies.undo import undo_targets

    table, _host, secrets = tiny_table
    game = services.start_game(table=table, rng=random.Random(2)).game
    for _ in range(3):
        game.refresh_from_db()
        seat = min(get_engine(game.engine).actors(game.state))
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                              action={"type": "add", "n": 1}, expected_seq=game.seq, rng=random.Random(1))
    game.refresh_from_db()
    frame = selectors.snapshot(table.pk, seat=None, host=True)
    events = list(game.events.order_by("seq"))
    _targets, _states, default = undo_targets(game, events)
    line = [e.seq for e in events]
    assert default is not None
    assert frame["game"]["undo"]["seq"] == line[line.index(default) + 1 if default else 0]


def test_a_seated_host_is_sent_its_seats_view_and_what_the_host_answers_for_others():
    from sixdice.tables.wire.outgoing import PreparedUpdate, seat_view

    class Offers(type(TINY)):  # the seat in turn (1) and the host are offered "choices"; others are not
        def view_parts(self, state):
            return {"n": 1}, lambda seat: {"you": seat, **({"choices": [1, 2]} if seat in (None, 1) else {})}

    engine = Offers()
    assert seat_view(engine, {}, 0) == {"n": 1, "you": 0}
    assert seat_view(engine, {}, 0, host=True) == {"n": 1, "you": 0, "choices": [1, 2]}
    assert seat_view(engine, {}, None, host=True) == {"n": 1, "you": None, "choices": [1, 2]}
    prepared = PreparedUpdate({"engine": "tiny", "state": "{}", "events": "[]", "game": 1, "number": 1, "seq": 1,
                               "status": "playing", "version": 1})
    prepared.engine = engine
    assert json.loads(prepared.text(0, "en", True))["view"] == {"n": 1, "you": 0, "choices": [1, 2]}
    assert json.loads(prepared.text(0, "en"))["view"] == {"n": 1, "you": 0}
