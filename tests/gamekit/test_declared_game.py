"""The declared game: each engine says which actions are drawn at random and which are typed in.

The third game (tests/tinygame.py) names its random step ``deal``, not
``roll``: the undo floor, the take-back, the stand-in of a turn timer, the
review's "who decided" and the import fingerprint must all ask the engine.
"""

from __future__ import annotations

import random

import pytest

from sixdice.gamekit import DEFAULT, DRAW, TIMEOUT
from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.replay import take_back_point
from sixdice.review import limits
from sixdice.review.decisions import APP_DEFAULT, APP_ROLL, actor_kind
from sixdice.review.decisions import TIMEOUT as TIMEOUT_KIND
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Event, Game
from sixdice.tables.policies import undo
from sixdice.tables.reads import timer_clock
from sixdice.tables.writes import checked_path, services
from tests.tinygame import TINY

DEAL, ADD = {"type": "deal", "value": 4}, {"type": "add", "n": 1}
APP, TABLE = {}, {"dealer": "table"}


def test_each_engine_declares_its_random_steps():
    assert TINY.random_actions == frozenset({"deal"})
    assert get_engine("sixdice").random_actions == get_engine("runbuster").random_actions == frozenset({"roll"})
    assert TINY.draws_at_random(APP, DEAL) and not TINY.typed_in(APP, DEAL)
    assert TINY.typed_in(TABLE, DEAL) and not TINY.draws_at_random(TABLE, DEAL)
    assert not TINY.draws_at_random(APP, ADD) and not TINY.typed_in(TABLE, ADD)
    roll = {"type": "roll", "values": [1, 2, 3]}
    for slug in ("sixdice", "runbuster"):
        engine = get_engine(slug)
        assert engine.draws_at_random({"dice": "app"}, roll) and not engine.typed_in({"dice": "app"}, roll)
        assert engine.typed_in({"dice": "physical"}, roll) and not engine.draws_at_random({"dice": "physical"}, roll)
        assert not engine.is_random({"type": "flip"}) and not engine.is_random({"type": "choose"})


def test_the_engine_says_why_the_app_acted():
    sixdice = get_engine("sixdice")
    assert TINY.system_reason(DEAL) == DRAW and TINY.system_reason({"type": "end"}) == DEFAULT
    assert sixdice.system_reason({"type": "roll"}) == DRAW
    assert sixdice.system_reason({"type": "group"}) == DEFAULT
    assert sixdice.system_reason({"type": "end_on_time"}) == TIMEOUT
    assert actor_kind(TINY, "system", DEAL, []) == (APP_ROLL, None)
    assert actor_kind(TINY, "system", ADD, []) == (APP_DEFAULT, None)
    assert actor_kind(sixdice, "system", {"type": "end_on_time"}, []) == (TIMEOUT_KIND, None)
    assert actor_kind(TINY, "1", DEAL, [False, True]) == ("bot", 1)


def test_take_back_stops_at_the_games_own_random_step():
    assert take_back_point([("0", ADD)], 0, engine=TINY) == 0
    assert take_back_point([("0", ADD), ("system", DEAL)], 0, engine=TINY) == 0  # the app's deal goes back with it
    assert take_back_point([("0", ADD), ("1", DEAL)], 1, engine=TINY) is None  # a typed deal is information
    # Six-Dice's roll is nothing to the tiny game: a server step that drew nothing.
    assert take_back_point([("0", ADD), ("system", {"type": "roll"})], 0, engine=TINY) == 0


def test_the_fingerprint_counts_a_typed_deal_as_one_sender():
    by_seat = limits.content_hash("tiny", TABLE, ["A", "B"], 0, [("0", ADD), ("1", DEAL)])
    by_host = limits.content_hash("tiny", TABLE, ["A", "B"], 0, [("0", ADD), ("host", DEAL)])
    assert by_seat == by_host
    assert limits.content_hash("tiny", TABLE, ["A", "B"], 0, [("0", ADD), ("host", ADD)]) != limits.content_hash(
        "tiny", TABLE, ["A", "B"], 0, [("0", ADD), ("1", ADD)])


# ---------------------------------------------------------------- at a table


def _table(options: dict) -> tuple[str, str, list[str], Game]:
    table, host = services.create_table(game="tiny", options=options, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    game = services.start_game(table=table, rng=random.Random(3)).game
    return table.code, host, secrets, game


def _send(code: str, secret: str, action: dict, game: Game) -> Game:
    checked_path.apply_action(table_code=code, credentials=Credentials(seat_secret=secret), action=action,
                          expected_seq=game.seq, rng=random.Random(game.seq))
    game.refresh_from_db()
    return game


def _events(game: Game) -> list[Event]:
    return list(game.events.order_by("seq"))


@pytest.mark.django_db
def test_no_undo_back_across_a_value_the_app_dealt_before_the_last_move():
    code, host, secrets, game = _table(APP)
    for _ in range(2):
        game = _send(code, secrets[game.state["current"]], ADD, game)
    assert [e.action["type"] for e in _events(game)] == ["add", "deal", "add", "deal"]
    targets, _states, default = undo.undo_targets(game, _events(game))
    assert (targets, default) == ([2], 2)  # the last move and the deal after it; not past the deal before it
    with pytest.raises(ServiceError) as refused:
        undo.undo(table_code=code, credentials=Credentials(host_secret=host), expected_seq=game.seq, to=0)
    assert refused.value.code == "cannot_undo"
    dealt = _events(game)[-1].action["value"]
    undo.undo(table_code=code, credentials=Credentials(host_secret=host), expected_seq=game.seq)
    game.refresh_from_db()
    assert game.pinned == [dealt]  # the deal taken back waits to be dealt again
    game = _send(code, secrets[game.state["current"]], ADD, game)
    assert _events(game)[-1].action == {"type": "deal", "value": dealt} and game.pinned == []


@pytest.mark.django_db
def test_a_typed_in_deal_can_be_undone():
    code, host, secrets, game = _table(TABLE)
    first = game.state["current"]
    game = _send(code, secrets[first], ADD, game)  # 1: the first seat adds
    game = _send(code, secrets[1 - first], DEAL, game)  # 2: the next seat types the die in
    game = _send(code, secrets[1 - first], ADD, game)  # 3: and adds
    targets, states, default = undo.undo_targets(game, _events(game))
    assert (targets, default) == ([2, 1, 0], 2)
    undo.undo(table_code=code, credentials=Credentials(host_secret=host), expected_seq=game.seq, to=0)
    game.refresh_from_db()
    assert game.state == game.initial_state == states[0]


@pytest.mark.django_db
def test_a_take_back_across_the_apps_deal_deals_the_same_value_again():
    code, _host, secrets, game = _table(APP)
    first = game.state["current"]
    game = _send(code, secrets[first], ADD, game)
    assert _events(game)[-1].actor == "system" and _events(game)[-1].action["type"] == "deal"
    dealt = _events(game)[-1].action["value"]
    undo.take_back(table_code=code, credentials=Credentials(seat_secret=secrets[first]), expected_seq=game.seq)
    game.refresh_from_db()
    assert game.state == game.initial_state and game.pinned == [dealt]
    game = _send(code, secrets[first], ADD, game)
    assert _events(game)[-1].action == {"type": "deal", "value": dealt}  # no value seen is dealt anew


@pytest.mark.django_db
def test_a_take_back_before_a_typed_in_deal_and_not_after_it():
    code, _host, secrets, game = _table(TABLE)
    first = game.state["current"]
    game = _send(code, secrets[first], ADD, game)  # the die is not typed in yet: the add may be taken back
    undo.take_back(table_code=code, credentials=Credentials(seat_secret=secrets[first]), expected_seq=game.seq)
    game.refresh_from_db()
    assert game.state == game.initial_state
    assert _events(game)[-1].action == {"type": "undo", "to": 0, "seat": first}
    game = _send(code, secrets[first], ADD, game)
    game = _send(code, secrets[1 - first], DEAL, game)
    with pytest.raises(ServiceError) as refused:  # the next seat typed the die in: information, not taken back
        undo.take_back(table_code=code, credentials=Credentials(seat_secret=secrets[1 - first]), expected_seq=game.seq)
    assert refused.value.code == "cannot_take_back"


@pytest.mark.django_db
def test_the_app_never_plays_a_typed_in_deal_for_a_seat(monkeypatch):
    monkeypatch.setattr(TINY, "bot_strengths", ("plain",), raising=False)
    monkeypatch.setattr(TINY, "bot_action", lambda state, seat, rng, strength=None: dict(DEAL), raising=False)
    for options, played in ((TABLE, None), (APP, DEAL)):
        _code, _host, _secrets, game = _table(options)
        assert timer_clock.stand_in_action(TINY, game, game.state["current"]) == played
