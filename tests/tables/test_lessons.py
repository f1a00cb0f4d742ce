"""The lessons: every position is a legal engine state, every step can be met by the engine's own legal moves,
and the endpoint applies taps with the real engine (refusals in the page's language, progress in the session)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from runbuster.engine import ENGINE as RUNBUSTER
from runbuster.lesson import LESSON as RUNBUSTER_LESSON
from sixdice.engine import ENGINE as SIXDICE
from sixdice.gamekit import lesson as kit
from sixdice.lesson import FLIP_AGAINST_MINUS_TWO
from sixdice.lesson import LESSON as SIXDICE_LESSON

LESSONS = [(SIXDICE, SIXDICE_LESSON), (RUNBUSTER, RUNBUSTER_LESSON)]


def _engine_actions(engine, state, seat):
    """Every action the learner can tap in ``state``, from the engine's own view (nothing copied)."""
    view = engine.view(state, seat)
    out = []
    for flip in view.get("legal_flips") or []:
        out.append(dict(zip(["victim", "own", "own_to", "other", "other_to"], flip, strict=True), type="flip"))
    for grouping in view.get("groupings") or []:
        out.append({"type": "group", **grouping})
    for keep in view.get("keep_options") or []:
        out.append({"type": "keep", "keep": keep})
    for straight in view.get("hand_options") or []:
        out.append({"type": "choose", "straight": straight})
    if view.get("phase") == "end_turn" and view.get("current") == seat and not view.get("over"):
        out.append({"type": "end_turn"})  # the cup, tapped again
    return out


def _meets(engine, lesson, step, state, rolled=0, depth=4):
    """Some sequence of legal taps (rolls by the lesson) meets the step."""
    if depth == 0:
        return False
    tries = [None] if lesson.roll_for(state, None, __import__("random").Random(0)) is not None else []
    tries += _engine_actions(engine, state, step.seat)
    for action in tries:
        tapped, used = kit.tap(engine, lesson, step, state, action, rolled=rolled)
        if tapped.met:
            return True
        if not tapped.reset and tapped.refused is None and _meets(engine, lesson, step, tapped.state, used, depth - 1):
            return True
    return False


@pytest.mark.parametrize(("engine", "lesson"), LESSONS, ids=["sixdice", "runbuster"])
def test_every_position_is_legal_and_every_step_can_be_met(engine, lesson):
    assert len({s.key for s in lesson.steps}) == len(lesson.steps)
    for step in lesson.steps:
        state, _ = kit.step_state(engine, lesson, step)
        # The engine's own parser takes the position back, and the learner is to act in it.
        assert engine.view(state, step.seat)
        assert engine.outcome(state) is None, step.key
        if step.kind == kit.QUIZ:
            assert step.answer in step.quiz
            continue
        assert step.seat in engine.actors(state), step.key
        if step.kind == kit.REFUSAL:
            continue
        assert _meets(engine, lesson, step, state), step.key
        for tempting in step.tempting:  # the tempting choices are refused by the rules, with their reason
            tapped, _ = kit.tap(engine, lesson, step, state, tempting)
            assert tapped.refused is not None and not tapped.met, step.key


def test_sixdice_quiz_answer_is_the_engine_value():
    step = kit.find(SIXDICE_LESSON, "value")
    state, _ = kit.step_state(SIXDICE, SIXDICE_LESSON, step)
    value = SIXDICE.view(state, 0)["values"][0]
    assert step.answer == f"{value:+d}"


def test_sixdice_impossible_flip_is_refused_by_the_engine_and_a_possible_one_is_explained():
    step = kit.find(SIXDICE_LESSON, "refused")
    state, _ = kit.step_state(SIXDICE, SIXDICE_LESSON, step)
    tapped, _ = kit.tap(SIXDICE, SIXDICE_LESSON, step, state, FLIP_AGAINST_MINUS_TWO)
    assert tapped.met and tapped.refused is not None
    legal = _engine_actions(SIXDICE, state, 0)[0]
    tapped, _ = kit.tap(SIXDICE, SIXDICE_LESSON, step, state, legal)
    assert not tapped.met and tapped.reset and tapped.wrong == step.wrong


@pytest.mark.django_db
def test_the_endpoint_applies_taps_with_the_engine_and_keeps_progress_in_the_session():
    client = Client()
    api = "/learn/sixdice/api/"
    first = client.get(api).json()
    assert first["step"] == 0 and first["kind"] == "quiz" and first["total"] == len(SIXDICE_LESSON.steps)
    wrong = client.post(api, json.dumps({"answer": "+6"}), content_type="application/json").json()
    assert wrong["wrong"] and not wrong["met"]
    right = client.post(api, json.dumps({"answer": "+4"}), content_type="application/json").json()
    assert right["met"] and right["done"]
    nxt = client.post(api, json.dumps({"go": "next"}), content_type="application/json").json()
    assert nxt["key"] == "flip"
    assert client.get(api).json()["key"] == "flip"  # resumes where it was left
    client.post(api, json.dumps({"go": 2}), content_type="application/json")
    client.cookies["django_language"] = "fr"
    refused = client.post(api, json.dumps({"action": FLIP_AGAINST_MINUS_TWO}), content_type="application/json",
                          HTTP_ACCEPT_LANGUAGE="fr").json()
    # One plain sentence about the position, with the typographic minus: never the engine's "is not a face".
    assert refused["met"] and "Bea" in refused["refused"] and "−4" in refused["refused"]
    assert "-4" not in refused["refused"] and "face" not in refused["refused"] and refused["refused"].count(".") == 1
    assert client.get("/learn/sixdice/").status_code == 200
    assert client.get("/learn/runbuster/").status_code == 200


def _key(action):
    """An offered move up to the order of its groups (the same groups in another order are one grouping)."""
    if action["type"] == "group":
        groups = sorted(tuple(sorted(g)) for g in [*action.get("zero_groups", []), *action.get("pairs", [])])
        return ("group", tuple(groups))
    return (action["type"], json.dumps({k: v for k, v in action.items() if k != "type"}, sort_keys=True))


def _positions(engine, lesson, step):
    """The step's position and every position the learner reaches from it by legal taps (rolls by the lesson)."""
    start, _ = kit.step_state(engine, lesson, step)
    out, todo = [], [(start, 0, 0)]
    while todo:
        state, rolled, depth = todo.pop()
        out.append(state)
        if depth == 3 or step.kind == kit.QUIZ:
            continue
        tries = [None] if lesson.roll_for(state, None, __import__("random").Random(0)) is not None else []
        for action in tries + kit.offered(lesson, step, state)[:6]:
            tapped, used = kit.tap(engine, lesson, step, state, action, rolled=rolled)
            if not tapped.met and not tapped.reset and tapped.refused is None:
                todo.append((tapped.state, used, depth + 1))
    return out


@pytest.mark.parametrize(("engine", "lesson"), LESSONS, ids=["sixdice", "runbuster"])
def test_every_step_offers_exactly_the_engines_legal_moves_and_no_grouping_twice(engine, lesson):
    seen_kinds = set()
    for step in lesson.steps:
        for state in _positions(engine, lesson, step):
            offered = kit.offered(lesson, step, state)
            keys = [_key(a) for a in offered]
            assert len(keys) == len(set(keys)), step.key  # no two options are the same grouping
            if step.kind == kit.QUIZ:
                assert offered == [], step.key  # a question about the board takes no move
                continue
            table = {_key(a) for a in _engine_actions(engine, state, step.seat)}
            assert set(keys) == table, step.key  # what a table would offer, nothing more, nothing less
            for action in offered:  # and the engine takes every one of them
                engine.apply(state, action, actor=step.seat)
            seen_kinds |= {a["type"] for a in offered}
    assert seen_kinds >= ({"flip", "group", "keep"} if lesson is SIXDICE_LESSON else {"choose", "end_turn"})


def test_a_counting_step_offers_no_flip_though_the_position_waits_for_one():
    step = kit.find(SIXDICE_LESSON, "value")
    state, _ = kit.step_state(SIXDICE, SIXDICE_LESSON, step)
    assert SIXDICE.view(state, 0)["legal_flips"] and kit.offered(SIXDICE_LESSON, step, state) == []


def test_a_refused_flip_is_explained_in_one_plain_sentence_about_the_position():
    step = kit.find(SIXDICE_LESSON, "flip")
    state, _ = kit.step_state(SIXDICE, SIXDICE_LESSON, step)
    # Ana's grouped +1 two up to +3 would take Bea's −3 two down, to −5: no such face.
    bad = {"type": "flip", "victim": 1, "own": 0, "own_to": 3, "other": 1, "other_to": -5}
    tapped, _ = kit.tap(SIXDICE, SIXDICE_LESSON, step, state, bad)
    assert tapped.refused is not None and not tapped.met and tapped.state == state
    assert tapped.why is not None
    assert tapped.why["args"] == {"name": "Bea", "die": "−3", "face": "−5"}
    assert "opposite amount" in tapped.why["msg"]


def test_every_automatic_step_a_lesson_shows_says_why():
    for key, action in [("draw", None), ("keep", {"type": "keep", "keep": [0, 1]})]:
        step = kit.find(SIXDICE_LESSON, key)
        state, _ = kit.step_state(SIXDICE, SIXDICE_LESSON, step)
        tapped, _ = kit.tap(SIXDICE, SIXDICE_LESSON, step, state, action)
        msgs = [p["msg"] for line in tapped.lines for p in line]
        assert tapped.met and msgs
        assert not set(msgs) & set(kit.Lesson.__dataclass_fields__) and not set(msgs) & set(SIXDICE_LESSON.reasons)
        assert set(msgs) & set(SIXDICE_LESSON.reasons.values()), key


def test_run_buster_steps_play_the_whole_turn_and_end_it_with_the_cup():
    step = kit.find(RUNBUSTER_LESSON, "straight")
    state, _ = kit.step_state(RUNBUSTER, RUNBUSTER_LESSON, step)
    rolled, used = kit.tap(RUNBUSTER, RUNBUSTER_LESSON, step, state, None)
    took, used = kit.tap(RUNBUSTER, RUNBUSTER_LESSON, step, rolled.state, {"type": "choose", "straight": [4, 5, 6]},
                         rolled=used)
    assert not took.met and not took.reset  # taken: the turn is not over until the cup is tapped
    assert kit.offered(RUNBUSTER_LESSON, step, took.state) == [{"type": "end_turn"}]
    ended, _ = kit.tap(RUNBUSTER, RUNBUSTER_LESSON, step, took.state, {"type": "end_turn"}, rolled=used)
    assert ended.met
