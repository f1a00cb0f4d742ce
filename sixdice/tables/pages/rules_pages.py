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
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.template.loader import select_template
from django.utils.translation import get_language
from django.utils.translation import gettext as _

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


STICKER_PAPERS = ("a4", "letter")
STICKER_TYPES = {"pdf": "application/pdf", "svg": "image/svg+xml"}


def sticker_sheet(request: HttpRequest, game: str, fmt: str) -> HttpResponse:
    """The game's printable sticker sheet (``?paper=a4|letter&size=<mm>``), drawn by the game's presentation."""
    engine = REGISTRY.get(game)
    sizes = engine.presentation.sticker_sizes if engine is not None else ()
    if engine is None or not sizes or fmt not in STICKER_TYPES:
        raise Http404("There is no such sticker sheet.")
    paper = request.GET.get("paper") or STICKER_PAPERS[0]
    size = request.GET.get("size") or str(sizes[0])
    if paper not in STICKER_PAPERS or size not in {str(z) for z in sizes}:
        return HttpResponseBadRequest(
            _("The sticker sheet is printed on A4 or Letter paper, for dice of %(sizes)s mm.")
            % {"sizes": ", ".join(str(z) for z in sizes)}, content_type="text/plain; charset=utf-8")
    body = engine.presentation.sticker_sheet(paper, int(size), fmt)
    if body is None:
        raise Http404("There is no such sticker sheet.")
    response = HttpResponse(body, content_type=STICKER_TYPES[fmt])
    name = f"{game}-stickers-{size}mm-{paper}.{fmt}"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    response["Cache-Control"] = "public, max-age=86400"
    return response
