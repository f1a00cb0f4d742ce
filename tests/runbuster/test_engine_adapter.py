import json
import random

import pytest

from runbuster.engine import ENGINE
from sixdice.gamekit.engine import HOST, REGISTRY, SYSTEM, GameEngine, suggested_action
from sixdice.gamekit.errors import IllegalMove, NotAllowed, OptionsError

NAMES = ["Ana", "Bo", "Cy"]


def start(players=2, first=0, **raw):
    options = ENGINE.clean_options(raw, players=players)
    return ENGINE.start(players=NAMES[:players], options=options, first=first), options


def test_registered_and_protocol():
    assert isinstance(ENGINE, GameEngine)
    assert REGISTRY["runbuster"] is ENGINE
    assert (ENGINE.slug, ENGINE.label, ENGINE.min_players, ENGINE.max_players) == ("runbuster", "Run Buster", 2, 8)


def test_clean_options():
    assert ENGINE.clean_options({}, players=2) == {"dice": "app", "hints": False, "series": True}
    got = ENGINE.clean_options({"dice": "physical", "hints": "on", "series": "0"}, players=3)
    assert got == {"dice": "physical", "hints": True, "series": False}
    assert ENGINE.clean_options({"hints": "1"}, players=2)["hints"] is True
    for raw, players in [
        ({"dice": "cloud"}, 2),
        ({"hints": "maybe"}, 2),
        ({"series": "sometimes"}, 3),
        ({}, 1),
        ({}, 9),
    ]:
        with pytest.raises(OptionsError):
            ENGINE.clean_options(raw, players=players)


def test_permissions_and_actors():
    state, options = start(first=1)
    assert ENGINE.actors(state) == frozenset({1})
    with pytest.raises(NotAllowed, match="It is Bo's turn."):
        ENGINE.apply(state, {"type": "roll", "values": [1, 2, 3, 4, 5, 6]}, actor=0)
    with pytest.raises(NotAllowed):
        ENGINE.apply(state, {"type": "roll", "values": [1, 2, 3, 4, 5, 6]}, actor=HOST)  # app dice
    with pytest.raises(IllegalMove, match="values"):
        ENGINE.apply(state, {"type": "roll"}, actor=1)
    after = ENGINE.apply(state, {"type": "roll", "values": [1, 1, 1, 1, 1, 1]}, actor=SYSTEM)
    assert after["phase"] == "choose" and after["names"] == ["Ana", "Bo"]
    with pytest.raises(IllegalMove):
        ENGINE.apply(after, {"type": "end_turn"}, actor=1)


def test_complete_action_app_dice():
    state, options = start()
    rng = random.Random(1)
    action = ENGINE.complete_action(state, {"type": "roll"}, options, rng)
    assert len(action["values"]) == 6 and all(1 <= v <= 6 for v in action["values"])
    with pytest.raises(IllegalMove, match="app rolls"):
        ENGINE.complete_action(state, {"type": "roll", "values": [6] * 6}, options, rng, actor=0)
    # values that did not come from a seat are drawn again
    redrawn = ENGINE.complete_action(state, {"type": "roll", "values": [6] * 6}, options, random.Random(2))
    assert redrawn["values"] == ENGINE.complete_action(state, {"type": "roll"}, options, random.Random(2))["values"]
    assert ENGINE.complete_action(state, {"type": "end_turn"}, options, rng) == {"type": "end_turn"}
    after = ENGINE.apply(state, action, actor=0)
    assert after["last_roll"] == action["values"]


def test_complete_action_physical_dice():
    state, options = start(dice="physical")
    rng = random.Random(1)
    with pytest.raises(IllegalMove, match="Type in"):
        ENGINE.complete_action(state, {"type": "roll"}, options, rng)
    typed = {"type": "roll", "values": [2, 2, 4, 5, 5, 6]}
    assert ENGINE.complete_action(state, typed, options, rng, actor=0) == typed
    after = ENGINE.apply(state, typed, actor=HOST)
    assert ENGINE.view(after, 0)["hand_options"] == [[2], [4], [4, 5], [4, 5, 6], [5], [5, 6], [6]]
    with pytest.raises(NotAllowed):
        ENGINE.apply(after, {"type": "choose", "straight": [5, 6]}, actor=HOST)


def test_view_hints_and_describe():
    state, options = start(hints=True)
    state["hands"] = [[], [1, 2, 3, 4]]
    view = ENGINE.view(state, 0)
    assert view["complements"] == [[], [5, 6]] and view["your_turn"]
    assert view["hints"]["win"] == pytest.approx(view["hints"]["win"])
    roll = {"type": "roll", "values": [1, 3, 3, 5, 6, 6]}
    assert ENGINE.describe(state, roll, names=NAMES[:2]) == "Ana rolls 1 3 3 5 6 6 — busts Bo's 1-2-3-4"
    after = ENGINE.apply(state, roll, actor=0)
    hints = ENGINE.view(after, 0)["hints"]
    assert sorted(h["straight"] for h in hints["options"]) == [[1], [3], [5], [5, 6], [6]]
    assert hints["suggestion"] == hints["options"][0]["straight"]
    assert suggested_action(hints) == {"type": "choose", "straight": hints["suggestion"]}  # the move it suggests
    assert suggested_action(ENGINE.hint(state, 0)) is None  # a roll's hint gives only chances
    assert ENGINE.view(after, 1)["hints"] is None and ENGINE.view(after, None)["hand_options"] == []
    assert ENGINE.describe(after, {"type": "choose", "straight": [5, 6]}, names=NAMES[:2]) == "Ana takes 5-6"
    assert ENGINE.describe(after, {"type": "end_turn"}, names=NAMES[:2]) == "Ana ends the turn"


def test_multiplayer_hint_is_a_suggestion():
    state, options = start(players=3, hints=True)
    after = ENGINE.apply(state, {"type": "roll", "values": [1, 2, 3, 4, 5, 5]}, actor=0)
    hints = ENGINE.view(after, 0)["hints"]
    assert hints["kind"] == "heuristic" and "options" not in hints
    assert hints["suggestion"] in ENGINE.view(after, 0)["hand_options"]


def test_full_game_json_round_trip_and_outcome():
    state, options = start(players=3, first=2)
    bots = {1}  # the table plays seat 1 (the app's bot seats live on the table, not in the options)
    rng = random.Random(7)
    log = []
    while ENGINE.outcome(state) is None:
        seat = state["current"]
        if seat in bots:
            action, actor = ENGINE.bot_action(state, seat, rng), SYSTEM
        elif state["phase"] == "roll":
            action, actor = ENGINE.complete_action(state, {"type": "roll"}, options, rng, actor=seat), seat
        elif state["phase"] == "choose":
            action, actor = {"type": "choose", "straight": ENGINE.view(state, seat)["hand_options"][-1]}, seat
        else:
            action, actor = {"type": "end_turn"}, seat
        log.append(ENGINE.describe(state, action, names=NAMES))
        state = json.loads(json.dumps(ENGINE.apply(state, action, actor=actor)))
        assert len(log) < 5000
    out = ENGINE.outcome(state)
    assert out.end_reason == "full_straight" and sorted(out.places) == [0, 1, 2]
    assert out.winners == (out.places[0],) and out.loser == out.places[-1] == state["loser"]
    ranks = ENGINE.final_ranks(state, players=3)
    assert ranks is not None and [ranks[seat] for seat in out.places] == [1, 2, 3]
    assert ENGINE.actors(state) == frozenset()
    assert "1st place" in "\n".join(log) and "loses the round" in log[-1]
    with pytest.raises(IllegalMove):
        ENGINE.apply(state, {"type": "end_turn"}, actor=SYSTEM)
    assert ENGINE.system_action(state, options, rng) is None


def test_final_ranks_follow_the_drop_out_order_the_loser_last():
    state, _options = start(players=3)
    assert ENGINE.final_ranks(state, players=3) is None  # the round goes on
    one_out = {**state, "finished": [2]}
    assert ENGINE.outcome(one_out) is None and ENGINE.final_ranks(one_out, players=3) is None
    over = {**state, "finished": [2, 0], "loser": 1}
    assert ENGINE.final_ranks(over, players=3) == [2, 3, 1]
    two, _options = start(players=2)
    assert ENGINE.final_ranks({**two, "finished": [1], "loser": 0}, players=2) == [2, 1]


def test_series_option_says_whether_the_table_plays_on():
    assert ENGINE.plays_series(ENGINE.clean_options({}, players=2)) is True
    assert ENGINE.plays_series(ENGINE.clean_options({"series": "off"}, players=2)) is False


def test_bot_strengths_and_hint_hooks():
    state, options = start(first=0)
    assert ENGINE.bot_strengths[0] == "random" and ENGINE.bot_strengths[-1] == "optimal"
    for strength in ENGINE.bot_strengths:
        action = ENGINE.bot_action(state, 0, random.Random(1), strength=strength)
        assert action["type"] == "roll" and len(action["values"]) == 6
    with pytest.raises(ValueError, match="unknown bot strength"):
        ENGINE.bot_action(state, 0, random.Random(1), strength="godlike")
    assert ENGINE.hint(state, 1) is None  # not Bo's turn
    assert ENGINE.hint(state, 0)["win"] == pytest.approx(ENGINE.presentation.first_player_reference())
    assert round(ENGINE.presentation.first_player_reference(), 4) == 0.5085


def test_turns_and_picture_for_the_review_pages():
    assert ENGINE.is_turn(0, {"type": "roll", "values": [1] * 6})
    assert ENGINE.is_turn(SYSTEM, {"type": "roll", "values": [1] * 6})
    assert not ENGINE.is_turn(0, {"type": "end_turn"})
    state, _options = start(players=3)
    state = ENGINE.apply(state, {"type": "roll", "values": [1, 2, 3, 4, 5, 5]}, actor=0)
    state = ENGINE.apply(state, {"type": "choose", "straight": [1, 2, 3, 4, 5]}, actor=0)
    picture = ENGINE.presentation.picture(state)
    assert [h.loose for h in picture.hands] == [(1, 2, 3, 4, 5), (), ()]
    assert dict(picture.facts)["Roll"] == "1 2 3 4 5 5 (Ana)"
    assert ENGINE.presentation.die_face(4).text == "4" and ENGINE.presentation.die_face(4).tone == "pip"
