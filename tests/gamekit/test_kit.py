"""The kit on its own: the engine base class's defaults, the registry, the one replay, options."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from sixdice.gamekit import (
    DEFAULT,
    HOST,
    SYSTEM,
    BoardPicture,
    GameEngine,
    IllegalMove,
    OptionsError,
    Outcome,
    competition_ranks,
    final_state,
    get_engine,
    parse_actor,
    part,
    register,
    replay,
)
from sixdice.gamekit.engine import REGISTRY, MoveWords, PlayRecord, Presentation, suggested_action
from sixdice.gamekit.notation import signed
from sixdice.gamekit.options import dice_mode, on_off, whole_number
from tests.tinygame import TINY


class Counting(GameEngine):
    """The least a game writes: the five required hooks."""

    slug = "counting"
    label = "Counting"

    def clean_options(self, raw: Mapping[str, Any], *, players: int) -> dict[str, Any]:
        return {}

    def start(self, *, players: Sequence[str], options: Mapping[str, Any], first: int = 0) -> dict[str, Any]:
        return {"count": 0}

    def actors(self, state: Mapping[str, Any]) -> frozenset[int]:
        return frozenset({state["count"] % 2})

    def apply(self, state: Mapping[str, Any], action: Mapping[str, Any], *, actor: Any) -> dict[str, Any]:
        if action.get("type") != "count":
            raise IllegalMove("Only %(kind)s.", params={"kind": "count"})
        return {"count": state["count"] + 1}

    def outcome(self, state: Mapping[str, Any]) -> Outcome | None:
        return Outcome(winners=(0,), end_reason="three") if state["count"] >= 3 else None


def test_every_optional_hook_has_a_default():
    game = Counting()
    state = game.start(players=["A", "B"], options={})
    rng = random.Random(0)
    assert game.system_action(state, {}, rng) is None
    assert game.complete_action(state, {"type": "count"}, {}, rng, actor=0) == {"type": "count"}
    assert game.bot_action(state, 0, rng) is None and game.bot_action(state, 0, rng, strength="x") is None
    assert game.bot_strengths == ()
    assert game.bot_action(state, 0, rng, strength=DEFAULT) is None  # no default choice either
    assert game.random_actions == frozenset() and game.app_draws({}) is True
    assert not game.draws_at_random({}, {"type": "count"}) and not game.typed_in({}, {"type": "count"})
    assert game.system_reason({"type": "count"}) == DEFAULT
    assert game.hint(state, 0) is None
    assert game.plays_series({}) is True
    assert game.view(state, None) == state and game.view(state, None) is not state
    shared, own = game.view_parts(state)
    assert shared == {} and own(1) == state
    assert game.describe_parts(state, {"type": "count"}, names=["A", "B"]) == [part("%(type)s", type="count")]
    assert game.describe(state, {"type": "count"}, names=["A", "B"]) == "count"
    assert game.is_turn(0, {"type": "count"}) and not game.is_turn(SYSTEM, {"type": "count"})
    assert isinstance(game.presentation, Presentation) and game.presentation.engine is game
    assert game.presentation.die_face(5).text == "5"
    assert game.presentation.picture(state) == BoardPicture()
    assert game.presentation.first_player_reference() is None and game.first_player(state) is None
    assert game.presentation.rules_template is None and game.presentation.rules_context() == {}
    assert game.rules_in_force({}, players=2) == {} and game.rule_set({}, players=2) is None  # no house rules


def test_every_presentation_hook_has_a_default():
    game = Counting()
    shown = game.presentation
    state = game.start(players=["A", "B"], options={})
    assert shown.moves == {} and shown.move_kind({"type": "count"}) == "move" and shown.option_labels == {}
    assert shown.move_name({"type": "count"}) == part("move")
    assert shown.lesson == "" and shown.rules_template is None and shown.rules_context() == {}
    assert shown.end_reasons == {} and shown.rule_sets == {} and shown.end_reasons_by_rules == ()
    assert shown.first_player_reference() is None
    assert shown.play_record(state, players=2) == PlayRecord()
    assert shown.plural_forms(lambda one, many, n: one if n == 1 else many) == {}


def test_a_games_moves_are_named_from_its_one_table():
    class Shown(Presentation):
        moves = {"count": MoveWords("tally", "count of beans")}

    shown = Shown(Counting())
    assert (shown.move_kind({"type": "count"}), shown.move_name({"type": "count"})) == ("tally", part("count of beans"))
    assert (shown.move_kind({"type": "other"}), shown.move_name({"type": "other"})) == ("move", part("move"))
    for slug in ("sixdice", "runbuster"):  # each game's words come from its table: one entry per action it names
        presentation = get_engine(slug).presentation
        for kind, words in presentation.moves.items():
            assert presentation.move_kind({"type": kind}) == words.kind
            assert presentation.move_name({"type": kind}) == part(words.name)


def test_an_engine_class_may_not_answer_a_presentation_hook():
    """Such a hook on the engine would never be asked: the class is refused as it is written."""
    with pytest.raises(TypeError, match="move_kind, rules_template: these are answered by the game's Presentation"):
        type("Misplaced", (Counting,), {"move_kind": lambda self, action: "count", "rules_template": "rules/x"})
    assert type("Fine", (Counting,), {"rules_in_force": lambda self, options, *, players: {}})  # a rules hook


def test_the_engine_reads_its_end_reasons_from_its_presentation():
    assert TINY.end_reasons is TINY.presentation.end_reasons
    assert TINY.end_reasons["target"] == "Target reached"


def test_default_final_ranks_put_the_winners_first_and_the_others_tied():
    game = Counting()
    state = game.start(players=["A", "B", "C"], options={})
    assert game.final_ranks(state, players=3) is None  # the game goes on
    over = {"count": 3}
    assert game.final_ranks(over, players=3) == [1, 2, 2]


def test_default_final_ranks_follow_the_finishing_order_where_the_outcome_has_one():
    state = TINY.start(players=["A", "B", "C", "D"], options={"target": 2}, first=2)
    assert TINY.final_ranks(state, players=4) is None
    won = TINY.apply(state, {"type": "add", "n": 2}, actor=2)
    assert TINY.outcome(won).places == (2, 0, 1, 3)
    assert TINY.final_ranks(won, players=4) == [2, 3, 1, 4]
    ended = TINY.apply(state, {"type": "end"}, actor=HOST)
    assert TINY.outcome(ended).winners == () and TINY.final_ranks(ended, players=4) == [1, 1, 1, 1]


def test_a_hints_suggested_move_is_its_action():
    assert suggested_action({"action": {"type": "count"}, "value": 1}) == {"type": "count"}
    assert suggested_action({"win": 0.5}) is None


def test_competition_ranks_share_ties_and_use_up_the_places_they_share():
    assert competition_ranks([3, 1, 3, 2]) == [3, 1, 3, 2]
    assert competition_ranks([(False, -5), (True, -7), (False, -5)]) == [1, 3, 1]
    assert competition_ranks([]) == []
    # eight hands at the end of a game, two tied for third: the next is fifth and the last is eighth
    values = [23, 3, 12, 4, 6, 9, 5, 9]
    assert competition_ranks([-v for v in values]) == [1, 8, 2, 7, 5, 3, 6, 3]
    assert competition_ranks([False, False, False, True]) == [1, 1, 1, 4]  # three share a win: the other is 4th


def test_required_hooks_say_they_are_missing():
    bare = GameEngine()
    with pytest.raises(NotImplementedError):
        bare.apply({}, {"type": "x"}, actor=0)
    with pytest.raises(NotImplementedError):
        bare.outcome({})


def test_describe_renders_the_parts_in_english():
    class Talking(Counting):
        def describe_parts(self, state_before, action, *, names):
            return [part("%(name)s counts", name=names[0]), part("%(n)s so far", n=state_before["count"] + 1)]

    assert Talking().describe({"count": 1}, {"type": "count"}, names=["Ana"]) == "Ana counts · 2 so far"


def test_registry():
    game = register(Counting())
    try:
        assert get_engine("counting") is game
    finally:
        del REGISTRY["counting"]
    with pytest.raises(OptionsError) as caught:
        get_engine("counting")
    assert caught.value.code == "unknown_game"


def test_replay_yields_every_step_and_stops_at_a_refusal():
    game = Counting()
    log = [("0", {"type": "count"}), ("1", {"type": "count"}), (HOST, {"type": "count"})]
    steps = list(replay(game, {"count": 0}, log))
    assert [(s.index, s.actor, s.before["count"], s.after["count"]) for s in steps] == [
        (1, 0, 0, 1), (2, 1, 1, 2), (3, HOST, 2, 3)
    ]
    assert final_state(game, {"count": 0}, log) == {"count": 3}
    assert final_state(game, {"count": 0}, []) == {"count": 0}
    seen = []
    with pytest.raises(IllegalMove, match="Only count."):
        for step in replay(game, {"count": 0}, [*log[:2], ("0", {"type": "skip"})]):
            seen.append(step.index)
    assert seen == [1, 2]


def test_parse_actor():
    assert (parse_actor("3"), parse_actor("host"), parse_actor("system")) == (3, HOST, SYSTEM)


def test_option_parsers():
    label = part("The bank")
    assert whole_number({"bank": " 36 "}, "bank", label) == 36
    assert whole_number({"bank": ""}, "bank", label) is None
    assert whole_number({}, "bank", label) is None
    for bad in (True, "many", 3.5):
        with pytest.raises(OptionsError, match="The bank must be a whole number"):
            whole_number({"bank": bad}, "bank", label)
    assert on_off({"x": "On"}, "x", label) is True
    assert on_off({"x": 0}, "x", label) is False
    assert on_off({}, "x", label, default=True) is True
    assert on_off({"x": None}, "x", label, default=True) is True
    with pytest.raises(OptionsError, match="must be on or off"):
        on_off({"x": "perhaps"}, "x", label)


def test_the_dice_mode_and_who_draws_by_default():
    assert [dice_mode(raw) for raw in ({}, {"dice": None}, {"dice": " "}, {"dice": " Physical"}, {"dice": "app"})] == [
        "app", "app", "app", "physical", "app"]
    for bad in ("loaded", 1, True, ["app"]):
        with pytest.raises(OptionsError, match='Dice must be "app"'):
            dice_mode({"dice": bad})
    engine = Counting()  # the kit's default: the app draws unless the table's dice are typed in
    assert engine.app_draws({}) and engine.app_draws({"dice": "app"})
    assert not engine.app_draws({"dice": "physical"})
    for slug in ("sixdice", "runbuster"):  # both games parse it with the kit and take its default
        game = get_engine(slug)
        assert game.clean_options({"dice": " PHYSICAL "}, players=2)["dice"] == "physical"
        assert type(game).app_draws is GameEngine.app_draws
        with pytest.raises(OptionsError, match='Dice must be "app"'):
            game.clean_options({"dice": "loaded"}, players=2)



def test_signed_numbers_carry_a_real_minus_sign():
    assert [signed(v) for v in (4, -3, 0, 1.5, -0.5)] == ["+4", "\u22123", "0", "+1.5", "\u22120.5"]


def test_the_time_limit_is_the_games_to_say():
    assert Counting().time_limit({"time_limit_minutes": 5}) is None  # the kit knows no option of that name
    sixdice, runbuster = get_engine("sixdice"), get_engine("runbuster")
    assert sixdice.time_limit(sixdice.clean_options({"time_limit_minutes": "45"}, players=2)) == 45
    assert sixdice.time_limit(sixdice.clean_options({}, players=2)) is None
    assert runbuster.time_limit(runbuster.clean_options({}, players=2)) is None


def test_every_option_a_game_cleans_has_a_label_in_its_presentation_or_the_tables():
    from sixdice.review.wording import TABLE_OPTION_LABELS

    for slug in ("sixdice", "runbuster"):
        engine = get_engine(slug)
        cleaned = engine.clean_options({"rules": "custom", "refill": 1, "threes_dice": 5, "first_bonus": 1,
                                        "last_turn_score": "on", "reverse_last_round": "on", "no_flip_back": "on"}
                                       if slug == "sixdice" else {}, players=3)
        unlabelled = set(cleaned) - set(engine.presentation.option_labels) - set(TABLE_OPTION_LABELS)
        assert unlabelled == set(), slug
