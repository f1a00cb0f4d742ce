"""The Six-Dice adapter: options, permissions, system actions, views, a whole game."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from sixdice.engine import ENGINE
from sixdice.gamekit.engine import HOST, REGISTRY, SYSTEM, GameEngine, Outcome
from sixdice.gamekit.errors import IllegalMove, NotAllowed, OptionsError
from sixdice.rules import Hand, position

NAMES = ["Ana", "Bo", "Cy"]


def start(**options):
    opts = ENGINE.clean_options(options, players=len(NAMES))
    return ENGINE.start(players=NAMES, options=opts), opts


def turn_state(dice="app"):
    st = position(
        [Hand(((3, -3),), (1,)), Hand(((2, -2),), (1,)), Hand(((1, -1),), ())],
        bank=10,
        players=NAMES,
        dice=dice,
    )
    return st.to_dict()


FLIP = {"type": "flip", "victim": 1, "own": 2, "own_to": 3, "other": 2, "other_to": -1}


def test_registered_and_satisfies_the_protocol():
    assert isinstance(ENGINE, GameEngine)
    assert REGISTRY["sixdice"] is ENGINE
    assert (ENGINE.slug, ENGINE.label, ENGINE.min_players, ENGINE.max_players) == (
        "sixdice",
        "Six-Dice",
        2,
        8,
    )


# ---------------------------------------------------------------- options


def test_clean_options_defaults_and_form_strings():
    assert ENGINE.clean_options({}, players=4) == {
        "bank": 48,
        "rounds": 12,
        "time_limit_minutes": None,
        "dice": "app",
        "auto_balance": False,
        "hints": False,
    }
    got = ENGINE.clean_options(
        {"bank": "30", "rounds": "6", "time_limit_minutes": "45", "dice": "physical", "auto_balance": "on", "hints": "on"},
        players=3,
    )
    assert got == {
        "bank": 30,
        "rounds": 6,
        "time_limit_minutes": 45,
        "dice": "physical",
        "auto_balance": True,
        "hints": True,
    }
    assert ENGINE.clean_options({"bank": "", "time_limit_minutes": ""}, players=2)["bank"] == 24


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"bank": "abc"}, "whole number"),
        ({"bank": -5}, "18 to"),
        ({"bank": 17}, "18 to"),
        ({"bank": True}, "whole number"),
        ({"rounds": 0}, "1 to 99"),
        ({"rounds": "100"}, "1 to 99"),
        ({"rounds": "twelve"}, "whole number"),
        ({"time_limit_minutes": -1}, "minutes"),
        ({"dice": "loaded"}, "physical"),
        ({"auto_balance": "maybe"}, "on or off"),
    ],
)
def test_clean_options_refuses_bad_values(raw, words):
    with pytest.raises(OptionsError, match=words):
        ENGINE.clean_options(raw, players=3)


def test_clean_options_refuses_a_bad_player_count():
    with pytest.raises(OptionsError, match="2 to 8 players"):
        ENGINE.clean_options({}, players=9)


# ---------------------------------------------------------------- start and actors


def test_start_waits_for_app_rolls_with_no_seat_actor():
    state, opts = start()
    assert state["pending"] == {"kind": "roll", "seat": 0, "count": 6, "purpose": "start", "default": None}
    assert ENGINE.actors(state) == frozenset()
    assert state["bank"] == 36 and state["over"] is False
    assert ENGINE.outcome(state) is None


def test_physical_roll_belongs_to_the_roller():
    state, opts = start(dice="physical")
    assert ENGINE.actors(state) == frozenset({0})
    assert ENGINE.system_action(state, opts, random.Random(1)) is None
    with pytest.raises(NotAllowed, match="This roll belongs to Ana"):
        ENGINE.apply(state, {"type": "roll", "values": [1] * 6}, actor=1)
    with pytest.raises(NotAllowed, match="physical"):
        ENGINE.apply(state, {"type": "roll", "values": [1] * 6}, actor=SYSTEM)
    after = ENGINE.apply(state, {"type": "roll", "values": [1, 2, 3, -1, -2, -3]}, actor=0)
    assert after["hands"][0]["loose"] == [1, 2, 3, -1, -2, -3]
    after = ENGINE.apply(after, {"type": "roll", "values": [1, 1, 1, 1, 1, 1]}, actor=HOST)
    assert after["hands"][1]["loose"] == [1] * 6


def test_app_rolls_come_from_the_system_only():
    state, opts = start()
    with pytest.raises(NotAllowed, match="app rolls"):
        ENGINE.apply(state, {"type": "roll", "values": [1] * 6}, actor=0)
    with pytest.raises(NotAllowed, match="app rolls"):
        ENGINE.apply(state, {"type": "roll", "values": [1] * 6}, actor=HOST)
    action = ENGINE.system_action(state, opts, random.Random(7))
    assert action["type"] == "roll" and len(action["values"]) == 6
    assert all(v in (-3, -2, -1, 1, 2, 3) for v in action["values"])
    after = ENGINE.apply(state, action, actor=SYSTEM)
    assert after["hands"][0]["loose"] == action["values"]


# ---------------------------------------------------------------- permissions


def test_only_the_mover_flips():
    state = turn_state()
    assert ENGINE.actors(state) == frozenset({0})
    with pytest.raises(NotAllowed, match="It is Ana's turn"):
        ENGINE.apply(state, FLIP, actor=1)
    with pytest.raises(NotAllowed, match="Only Ana chooses the flip"):
        ENGINE.apply(state, FLIP, actor=HOST)
    with pytest.raises(NotAllowed, match="not a player"):
        ENGINE.apply(state, FLIP, actor=7)
    with pytest.raises(NotAllowed, match="not a player"):
        ENGINE.apply(state, FLIP, actor="spectator")
    after = ENGINE.apply(state, FLIP, actor=0)
    assert after["victim"] == 1
    assert after["pending"]["purpose"] == "draw"


def test_balancing_choices_belong_to_the_owner_or_the_host():
    st = position(
        [Hand((), (3, -3, 2, -2, 1, -1)), Hand(((1, -1),), ()), Hand(((1, -1),), ())], bank=10, players=NAMES
    )
    state = st.to_dict()
    state = ENGINE.apply(
        state, {"type": "flip", "victim": 1, "own": 5, "own_to": -2, "other": 0, "other_to": 2}, actor=0
    )
    state = ENGINE.apply(state, {"type": "roll", "values": [2]}, actor=SYSTEM)
    assert state["pending"]["kind"] == "keep" and state["pending"]["seat"] == 0
    assert ENGINE.actors(state) == frozenset({0})
    with pytest.raises(NotAllowed, match="This choice belongs to Ana"):
        ENGINE.apply(state, {"type": "keep", "keep": [0, 1]}, actor=2)
    by_host = ENGINE.apply(state, {"type": "keep", "keep": [0, 1]}, actor=HOST)
    by_owner = ENGINE.apply(state, {"type": "keep", "keep": [0, 1]}, actor=0)
    assert by_host == by_owner
    with pytest.raises(IllegalMove, match="2 different"):
        ENGINE.apply(state, {"type": "keep", "keep": [1, 1]}, actor=0)
    with pytest.raises(IllegalMove, match="choose 2 groups to keep, not a flip"):
        ENGINE.apply(state, FLIP, actor=HOST)
    with pytest.raises(IllegalMove, match="not a roll"):
        ENGINE.apply(state, {"type": "roll", "values": [1]}, actor=SYSTEM)


def test_end_on_time_is_for_the_host():
    state = turn_state()
    with pytest.raises(NotAllowed, match="Only the host"):
        ENGINE.apply(state, {"type": "end_on_time"}, actor=0)
    over = ENGINE.apply(state, {"type": "end_on_time"}, actor=HOST)
    assert over["over"] is True and over["end_reason"] == "time"
    assert ENGINE.outcome(over) == Outcome(winners=(0, 1), end_reason="time")  # +1 and +1 share (R10)
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.apply(over, FLIP, actor=0)
    assert ENGINE.actors(over) == frozenset()
    assert ENGINE.system_action(over, {}, random.Random(1)) is None


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (None, "JSON object"),
        ([1, 2], "JSON object"),
        ({}, '"type"'),
        ({"type": 5}, '"type"'),
        ({"type": "dance"}, "Unknown action type"),
        ({"type": "flip"}, "whole number"),
        ({"type": "flip", "victim": [1], "own": 0, "own_to": 3, "other": 0, "other_to": 1}, "whole number"),
        ({"type": "flip", "victim": 1, "own": 2, "own_to": "3", "other": 2, "other_to": -1}, "whole number"),
        ({"type": "flip", "victim": 1, "own": 2, "own_to": 2, "other": 2, "other_to": -1}, "must change by"),
    ],
)
def test_bad_shapes_are_illegal_moves_not_tracebacks(action, words):
    with pytest.raises(IllegalMove, match=words):
        ENGINE.apply(turn_state(), action, actor=0)


def test_bad_group_shapes_are_illegal_moves():
    st = position(
        [Hand((), (2, -2, 2, -1, -1)), Hand(((1, -1),), ()), Hand(((1, -1),), ())], bank=10, players=NAMES
    )
    state = ENGINE.apply(
        st.to_dict(),
        {"type": "flip", "victim": 1, "own": 0, "own_to": 3, "other": 1, "other_to": -2},
        actor=0,
    )
    state = ENGINE.apply(state, {"type": "roll", "values": [1]}, actor=SYSTEM)
    assert state["pending"]["kind"] == "group"
    for action, words in [
        ({"type": "group", "zero_groups": [["a"]], "pairs": []}, "whole numbers"),
        ({"type": "group", "zero_groups": 3, "pairs": []}, "lists"),
        ({"type": "group", "zero_groups": [[3, -2]], "pairs": []}, "does not hold|does not sum"),
        ({"type": "group", "zero_groups": [[1, -1]], "pairs": [[3, -2, -1]]}, "exactly 2 dice"),
    ]:
        with pytest.raises(IllegalMove, match=words):
            ENGINE.apply(state, action, actor=0)


# ---------------------------------------------------------------- system actions and views


def test_auto_balance_sends_the_default_choice():
    st = position(
        [Hand((), (3, -3, 2, -2, 1, -1)), Hand(((1, -1),), ()), Hand(((1, -1),), ())], bank=10, players=NAMES
    )
    state = ENGINE.apply(
        st.to_dict(),
        {"type": "flip", "victim": 1, "own": 5, "own_to": -2, "other": 0, "other_to": 2},
        actor=0,
    )
    state = ENGINE.apply(state, {"type": "roll", "values": [2]}, actor=SYSTEM)
    assert ENGINE.system_action(state, {"auto_balance": False}, random.Random(1)) is None
    action = ENGINE.system_action(state, {"auto_balance": True}, random.Random(1))
    assert action == {"type": "keep", "keep": state["pending"]["default"]}
    after = ENGINE.apply(state, action, actor=SYSTEM)
    assert after["pending"]["kind"] == "flip" and after["pending"]["seat"] == 1


def test_views_are_json_and_show_what_the_seat_may_do():
    state = turn_state()
    mine = ENGINE.view(state, 0)
    assert mine["you"] == 0 and mine["actors"] == [0]
    assert mine["values"] == [1, 1, 0]
    assert [1, 2, 3, 2, -1] in mine["legal_flips"]
    assert "todo" not in mine
    other = ENGINE.view(state, 1)
    assert "legal_flips" not in other
    host = ENGINE.view(state, None)
    assert host["you"] is None and "legal_flips" not in host
    for v in (mine, other, host):
        assert json.loads(json.dumps(v)) == v


def test_view_of_a_grouping_choice_lists_the_alternatives():
    st = position(
        [Hand((), (2, -2, 2, -1, -1)), Hand(((1, -1),), ()), Hand(((1, -1),), ())], bank=10, players=NAMES
    )
    state = ENGINE.apply(
        st.to_dict(),
        {"type": "flip", "victim": 1, "own": 0, "own_to": 3, "other": 1, "other_to": -2},
        actor=0,
    )
    state = ENGINE.apply(state, {"type": "roll", "values": [1]}, actor=SYSTEM)
    view = ENGINE.view(state, 0)
    assert view["groupings_total"] == 2
    assert view["groupings"][0] == view["pending"]["default"]
    assert ENGINE.view(state, None)["groupings"] == view["groupings"]
    assert "groupings" not in ENGINE.view(state, 2)


def test_describe_uses_the_notation():
    state = turn_state()
    assert ENGINE.describe(state, FLIP, names=NAMES) == "Ana: +1→+3, Bo's +1→−1"
    assert ENGINE.describe(state, {"type": "flip"}, names=NAMES).startswith("(")


# ---------------------------------------------------------------- final ranks


def test_final_ranks_put_a_shared_win_first_then_the_others_by_absolute_value():
    hands = [Hand((), (3, 1)), Hand((), (-3, -1)), Hand((), (-2, -2)), Hand((), (1,))]  # 4, −4, −4, 1
    state = position(hands, bank=20, players=["Ana", "Bo", "Cy", "Di"]).to_dict()
    assert ENGINE.final_ranks(state, players=4) is None  # the game goes on
    over = ENGINE.apply(state, {"type": "end_on_time"}, actor=HOST)
    assert ENGINE.outcome(over) == Outcome(winners=(0, 1, 2), end_reason="time")  # R10: 4, −4 and −4 share
    assert ENGINE.final_ranks(over, players=4) == [1, 1, 1, 4]  # three share first: Di is 4th


def test_the_boards_ranks_use_up_the_places_a_tie_shares_as_the_final_ranks_do():
    """Five hands, two tied for 3rd: the badges read 1st, 2nd, 3rd, 3rd, 5th, the end's ranks the same."""
    hands = [Hand((), (3, 3)), Hand((), (-3, -2)), Hand((), (-2, -1)), Hand((), (3,)), Hand((), (1,))]  # 6, −5, −3, 3, 1
    state = position(hands, bank=20, players=["Ana", "Bo", "Cy", "Di", "Ed"]).to_dict()
    assert ENGINE.view(state, None)["ranks"] == ENGINE.view(state, 2)["ranks"] == [1, 2, 3, 3, 5]
    over = ENGINE.apply(state, {"type": "end_on_time"}, actor=HOST)
    assert ENGINE.final_ranks(over, players=5) == ENGINE.view(over, None)["ranks"] == [1, 2, 3, 3, 5]


def test_final_ranks_after_all_threes_put_the_winner_first_whatever_the_values():
    hands = [
        Hand((), (3, 3, 3, 3, 3, 3, 2, 1)),  # 21
        Hand((), (-3, -3, -3, -3, -3, -3, -2, -1)),  # −21: tied with 21
        Hand((), (1, 1)),  # 2
        Hand((), (3, 3, 3, 3, 3, 3)),  # all threes: 18
    ]
    st = position(hands, players=["Ana", "Bo", "Cy", "Di"])
    over = dataclasses.replace(st, winners=(3,), end_reason="all_threes", pending=None).to_dict()
    assert ENGINE.outcome(over) == Outcome(winners=(3,), end_reason="all_threes")
    assert ENGINE.final_ranks(over, players=4) == [2, 2, 4, 1]


# ---------------------------------------------------------------- a whole game


@pytest.mark.parametrize("auto", [True, False])
def test_a_whole_game_through_the_adapter_replays_exactly(auto):
    rng = random.Random(2024)
    state, opts = start(rounds=3, auto_balance=auto)
    first = state
    log = []
    while ENGINE.outcome(state) is None:
        action = ENGINE.system_action(state, opts, rng)
        actor = SYSTEM
        if action is None:
            seat = next(iter(ENGINE.actors(state)))
            view = ENGINE.view(state, seat)
            kind = state["pending"]["kind"]
            if kind == "flip":
                f = rng.choice(view["legal_flips"])
                action = dict(
                    zip(("victim", "own", "own_to", "other", "other_to"), f, strict=True), type="flip"
                )
            elif kind == "group":
                g = rng.choice(view["groupings"])
                action = {"type": "group", "zero_groups": g["zero_groups"], "pairs": g["pairs"]}
            else:
                action = {"type": "keep", "keep": rng.choice(view["keep_options"])}
            actor = seat
        assert ENGINE.describe(state, action, names=NAMES)
        state = json.loads(json.dumps(ENGINE.apply(state, action, actor=actor)))
        log.append((action, actor))
        total = state["bank"] + sum(
            len(h["loose"]) + sum(len(g) for g in h["groups"]) for h in state["hands"]
        )
        assert total == 36
    outcome = ENGINE.outcome(state)
    assert outcome.winners and outcome.end_reason in ("rounds", "all_threes")
    ranks = ENGINE.final_ranks(state, players=3)
    assert ranks is not None and {ranks[seat] for seat in outcome.winners} == {1}
    assert all(ranks[seat] > 1 for seat in range(3) if seat not in outcome.winners)
    replay = first
    for action, actor in log:
        replay = ENGINE.apply(replay, action, actor=actor)
    assert replay == state


def test_describe_parts_of_a_malformed_action_is_refused_not_swallowed():
    state = turn_state()
    with pytest.raises(IllegalMove):
        ENGINE.describe_parts(state, ["not", "a", "mapping"], names=NAMES)  # type: ignore[arg-type]


def test_turns_are_flips():
    assert ENGINE.is_turn(0, FLIP)
    assert not ENGINE.is_turn(SYSTEM, {"type": "roll", "values": [1]})
    assert not ENGINE.is_turn(0, {"type": "group", "zero_groups": [], "pairs": []})


def test_picture_and_faces_for_the_review_pages():
    state = turn_state()
    picture = ENGINE.presentation.picture(state)
    assert [h.groups for h in picture.hands] == [((3, -3),), ((2, -2),), ((1, -1),)]
    assert [h.loose for h in picture.hands] == [(1,), (1,), ()]
    assert [h.score for h in picture.hands] == [1, 1, 0]
    assert dict(picture.facts)["Bank"] == "10"
    assert (ENGINE.presentation.die_face(2).text, ENGINE.presentation.die_face(2).tone) == ("+2", "pos")
    assert (ENGINE.presentation.die_face(-3).text, ENGINE.presentation.die_face(-3).tone) == ("\u22123", "neg")


def test_the_state_is_parsed_once_per_move(monkeypatch):
    """A move through every hook the services call parses the stored dict once, not once per hook."""
    from sixdice.engine import SixDiceEngine
    from sixdice.rules.game import State

    engine = SixDiceEngine()  # a fresh adapter: nothing remembered yet
    rng = random.Random(3)
    opts = engine.clean_options({"auto_balance": True}, players=3)
    stored = json.loads(json.dumps(engine.start(players=NAMES, options=opts)))
    while (system := engine.system_action(stored, opts, rng)) is not None:  # the start rolls
        stored = json.loads(json.dumps(engine.apply(stored, system, actor=SYSTEM)))
    parsed = []
    monkeypatch.setattr(engine._state, "parse", lambda d: parsed.append(1) or State.from_dict(d))

    # What services.apply_action does with one flip, on a state loaded from the database:
    state = json.loads(json.dumps(stored))
    seat = min(engine.actors(state))
    flip = dict(zip(("victim", "own", "own_to", "other", "other_to"), engine.view(state, seat)["legal_flips"][0],
                    strict=True), type="flip")
    action = engine.complete_action(state, flip, opts, rng, actor=seat)
    new = engine.apply(state, action, actor=seat)
    engine.describe_parts(state, action, names=NAMES)
    steps = 0
    while (system := engine.system_action(new, opts, rng)) is not None:
        after = engine.apply(new, system, actor=SYSTEM)
        engine.describe_parts(new, system, names=NAMES)
        new, steps = after, steps + 1
    engine.outcome(new)
    assert steps >= 1  # the draw after the flip, at least
    assert len(parsed) == 1


def test_a_changed_dict_is_a_new_state_for_the_adapter():
    """Remembering by identity never hands back a stale state for a different dict."""
    state = turn_state()
    assert ENGINE.actors(state) == frozenset({0})
    other = json.loads(json.dumps(state))
    other["pending"] = {**other["pending"], "seat": 1}
    other["current"] = 1
    assert ENGINE.actors(other) == frozenset({1})


def test_first_player_is_decided_by_the_start_rolls():
    state, opts = start(auto_balance=True)
    assert ENGINE.first_player(state) is None  # not decided before the start rolls
    rng = random.Random(8)
    while state["first"] is None:
        state = ENGINE.apply(state, ENGINE.system_action(state, opts, rng), actor=SYSTEM)
    assert ENGINE.first_player(state).seat == state["first"] in range(len(NAMES))


def test_ranks_of_a_finished_game():
    """Winners first (tied), then the others by the absolute value of their hand, larger first."""
    from sixdice.rules.game import State, replace

    st = State.from_dict(turn_state())  # hand values 1, 1, 0
    assert ENGINE.final_ranks(st.to_dict(), players=3) is None  # not over
    over = replace(st, winners=(2,), end_reason="rounds", pending=None)
    assert ENGINE.final_ranks(over.to_dict(), players=3) == [2, 2, 1]
    assert ENGINE.final_ranks(replace(over, winners=(0, 1)).to_dict(), players=3) == [1, 1, 3]


def test_a_hint_is_searched_once_per_position_and_handed_out_as_a_copy(monkeypatch):
    """The search is deterministic and every connection views the same position: the second ask is remembered."""
    from sixdice import engine as adapter
    from sixdice.rules import bots

    adapter._hint.cache_clear()
    searched = []
    real = bots.hint
    monkeypatch.setattr(bots, "hint", lambda st: searched.append(1) or real(st))
    state = turn_state()
    seat = min(ENGINE.actors(state))
    first = ENGINE.hint(state, seat)
    assert first is not None and first["kind"] == "flip" and first["action"]["type"] == "flip"
    first["kind"] = "changed by a caller"
    again = ENGINE.hint(json.loads(json.dumps(state)), seat)  # the same position, read again from the database
    assert again is not None and again["kind"] == "flip"
    assert searched == [1]
    assert ENGINE.hint(state, (seat + 1) % 3) is None  # not that seat's decision: no search
    assert searched == [1]
