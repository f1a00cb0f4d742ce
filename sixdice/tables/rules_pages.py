"""The rules of each game, for players, in the reader's language.

One template per game and language (``templates/rules/<game>.<lang>.html``):
the texts are written for each language rather than assembled from
sentence-sized strings.  The active language (the switcher's cookie, else
``Accept-Language``) picks the template; English is the fallback.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import select_template
from django.utils.translation import get_language

from sixdice.gamekit.engine import REGISTRY

GAMES = ("sixdice", "runbuster")
BANK_PER_PLAYER = 12  # the usual bank: 12 dice per player (the rules' default)


def template_names(game: str, language: str | None) -> list[str]:
    names = []
    if language:
        names.append(f"rules/{game}.{language}.html")
        if "-" in language:
            names.append(f"rules/{game}.{language.split('-')[0]}.html")
    names.append(f"rules/{game}.{settings.LANGUAGE_CODE}.html")
    return names


def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAMES or game not in REGISTRY:
        raise Http404("There is no such game.")
    engine = REGISTRY[game]
    template = select_template(template_names(game, get_language()))
    context = {
        "engine": engine,
        "game": game,
        # Bank sizes of the usual game, per number of players (shown with plural forms).
        "bank_examples": [
            {"players": n, "dice": BANK_PER_PLAYER * n} for n in range(engine.min_players, engine.max_players + 1)
        ],
        "other_game": next((g for g in GAMES if g != game), None),
    }
    return render(request, template.template.name, context)
