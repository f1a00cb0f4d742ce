"""Learn to play: a game's lesson on one phone, no table and no host (``docs/sixdice-table.md``).

The page (``/learn/<game>/``) draws the board with its own script
(``static/js/lesson.js``); every tap goes to the lesson's JSON endpoint,
which applies it to the step's position with the real engine
(:func:`sixdice.gamekit.lesson.tap`) and answers with the new view, the moves
the board offers (the engine's legal moves, :func:`sixdice.gamekit.lesson.offered`),
the lines of what happened, and a refusal in one plain sentence or the step's
own sentence, in the page's language.  Progress (the step, its position) lives in the session, so a
lesson resumes where it was left.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from sixdice.gamekit import lesson as kit
from sixdice.gamekit.engine import REGISTRY, GameEngine, get_engine
from sixdice.gamekit.errors import GameError
from sixdice.tables.core import i18n

SESSION_KEY = "lessons"
MAX_BODY = 4096


def lesson_for(slug: str) -> tuple[GameEngine, kit.Lesson]:
    if slug not in REGISTRY or not get_engine(slug).presentation.lesson:
        raise Http404("No lesson for this game.")
    engine = get_engine(slug)
    module = importlib.import_module(engine.presentation.lesson)
    return engine, module.LESSON


def _progress(request: HttpRequest, slug: str) -> dict[str, Any]:
    return dict(request.session.get(SESSION_KEY, {}).get(slug, {}))


def _save(request: HttpRequest, slug: str, progress: dict[str, Any]) -> None:
    lessons = dict(request.session.get(SESSION_KEY, {}))
    lessons[slug] = progress
    request.session[SESSION_KEY] = lessons


def _begin(engine: GameEngine, lesson: kit.Lesson, index: int) -> dict[str, Any]:
    index = max(0, min(index, len(lesson.steps) - 1))
    state, _lines = kit.step_state(engine, lesson, lesson.steps[index])
    return {"step": index, "state": state, "rolled": 0, "met": False}


def _current(request: HttpRequest, slug: str, engine: GameEngine, lesson: kit.Lesson) -> dict[str, Any]:
    progress = _progress(request, slug)
    index = progress.get("step")
    if not isinstance(index, int) or not 0 <= index < len(lesson.steps) or not isinstance(progress.get("state"), dict):
        progress = _begin(engine, lesson, 0)
        _save(request, slug, progress)
    return progress


def _lines(lines: list[list[dict[str, Any]]]) -> list[str]:
    return [i18n.render_parts(parts) for parts in lines]


def _payload(engine: GameEngine, lesson: kit.Lesson, progress: dict[str, Any], **extra: Any) -> dict[str, Any]:
    index = int(progress["step"])
    step = lesson.steps[index]
    state = progress["state"]
    ask, done = gettext(step.ask), gettext(step.done)
    if step.args:
        ask, done = ask % dict(step.args), done % dict(step.args)
    return {
        "game": lesson.slug,
        "step": index,
        "total": len(lesson.steps),
        "key": step.key,
        "kind": step.kind,
        "title": gettext(step.title),
        "ask": ask,
        "note": gettext(step.note) if step.note else "",
        "quiz": list(step.quiz),
        "offers": [] if progress.get("met") else kit.offered(lesson, step, state),
        "tempting": [dict(a) for a in step.tempting],
        "seat": step.seat,
        "names": kit.names_of(state),
        "view": engine.view(state, step.seat),
        "met": bool(progress.get("met")),
        "done": done if progress.get("met") else "",
        # Which rules the lesson teaches: said on the first step and on every step that states one of their numbers.
        "about": gettext(lesson.about) if lesson.about and (index == 0 or step.args) else "",
        "last": index == len(lesson.steps) - 1,
        **extra,
    }


@never_cache
def learn_page(request: HttpRequest, game: str) -> HttpResponse:
    engine, lesson = lesson_for(game)
    try:  # the game's own aside under the lesson (Six-Dice: ordinary dice), when it has one
        aside = select_template([f"{engine.slug}/_lesson_aside.html"]).template.name
    except TemplateDoesNotExist:
        aside = ""
    return render(request, "tables/learn.html", {"engine": engine, "steps": len(lesson.steps), "aside": aside,
                                                 "lesson_strings": [f"{engine.slug}/_lesson_strings.html", "tables/_none.html"]})


def learn_home(request: HttpRequest) -> HttpResponse:
    games = [e for e in REGISTRY.values() if e.presentation.lesson]
    return render(request, "tables/learn_home.html", {"games": games})


@never_cache
@require_http_methods(["GET", "POST"])
def learn_api(request: HttpRequest, game: str) -> JsonResponse:
    """GET: the current step.  POST ``{"action": ...}``, ``{"roll": true}`` (the lesson rolls the dice the game
    waits for), ``{"answer": ...}`` or ``{"go": "next" | "again" | n}``."""
    engine, lesson = lesson_for(game)
    progress = _current(request, game, engine, lesson)
    if request.method == "GET":
        return JsonResponse(_payload(engine, lesson, progress))
    if len(request.body) > MAX_BODY:
        return JsonResponse({"error": gettext("This request is too large.")}, status=400)
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        return JsonResponse({"error": gettext("This action is not well formed.")}, status=400)
    step = lesson.steps[int(progress["step"])]
    if "go" in body:
        go = body["go"]
        index = int(progress["step"])
        if go == "next":
            index += 1
        elif isinstance(go, int) and not isinstance(go, bool):
            index = go
        progress = _begin(engine, lesson, index)
        _save(request, game, progress)
        return JsonResponse(_payload(engine, lesson, progress))
    if "answer" in body:
        if step.kind != kit.QUIZ:
            return JsonResponse({"error": gettext("This action is not well formed.")}, status=400)
        right = kit.answer(step, str(body["answer"]))
        progress["met"] = progress.get("met") or right
        _save(request, game, progress)
        return JsonResponse(_payload(engine, lesson, progress, wrong="" if right else gettext(step.wrong)))
    action = body.get("action")
    if not isinstance(action, dict) and body.get("roll") is not True:
        return JsonResponse({"error": gettext("This action is not well formed.")}, status=400)
    if progress.get("met"):
        return JsonResponse(_payload(engine, lesson, progress))
    clean: dict[str, Any] | None = None  # {"roll": true}: the lesson rolls the dice the game waits for
    if isinstance(action, dict):
        try:
            clean = engine.clean_action(action)
        except GameError as exc:
            return JsonResponse(_payload(engine, lesson, progress, refused=i18n.game_error_message(exc)))
    tapped, rolled = kit.tap(engine, lesson, step, progress["state"], clean, rolled=int(progress.get("rolled", 0)))
    progress.update(state=tapped.state, rolled=rolled, met=bool(progress.get("met")) or tapped.met)
    _save(request, game, progress)
    refused = ""
    if tapped.why is not None:
        refused = i18n.render_parts([tapped.why])
    elif tapped.refused is not None:
        refused = i18n.game_error_message(tapped.refused)
    return JsonResponse(_payload(engine, lesson, progress, lines=_lines(tapped.lines), refused=refused,
                                 wrong=gettext(tapped.wrong) if tapped.wrong else "", reset=tapped.reset))
