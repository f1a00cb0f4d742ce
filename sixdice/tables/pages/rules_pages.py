"""The rules of each game, for players, in the reader's language.

One template per game and language (``<rules_template>.<lang>.html``, the
base name given by the game's presentation, e.g. ``rules/mygame``): the texts are
written for each language rather than assembled from sentence-sized strings.
The active language (the switcher's cookie, else ``Accept-Language``) picks
the template; English is the fallback.  A game whose presentation names no
template has no rules page.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import select_template
from django.utils.translation import get_language

from sixdice.gamekit.engine import REGISTRY


def template_names(base: str, language: str | None) -> list[str]:
    names = []
    if language:
        names.append(f"{base}.{language}.html")
        if "-" in language:
            names.append(f"{base}.{language.split('-')[0]}.html")
    names.append(f"{base}.{settings.LANGUAGE_CODE}.html")
    return names


def games_with_rules() -> list[str]:
    """The slugs of the registered games that have a rules page, in the order they were registered."""
    return [slug for slug, engine in REGISTRY.items() if engine.presentation.rules_template]


def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    engine = REGISTRY.get(game)
    if engine is None or not engine.presentation.rules_template:
        raise Http404("There is no such game.")
    template = select_template(template_names(engine.presentation.rules_template, get_language()))
    context = {
        "engine": engine,
        "game": game,
        "other_game": next((g for g in games_with_rules() if g != game), None),
        **engine.presentation.rules_context(),
    }
    return render(request, template.template.name, context)
