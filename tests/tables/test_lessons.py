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
    assert refused["met"] and refused["refused"] and "face" in refused["refused"].lower()
    assert client.get("/learn/sixdice/").status_code == 200
    assert client.get("/learn/runbuster/").status_code == 200
