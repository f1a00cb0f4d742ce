"""Play against the app: one tap from the home page, this phone is host and seat, the app plays the others.

A service that creates the table, seats this phone, adds the bots and starts
the game, all through :mod:`~sixdice.tables.writes.services`; the session holds the host secret and
the seat secret, so the phone lands on its seat's page with the host's rights
too (rematch, undo).  No lobby steps.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from sixdice.gamekit.engine import REGISTRY, get_engine
from sixdice.gamekit.errors import GameError
from sixdice.gamekit.options import COACH
from sixdice.tables.core import i18n
from sixdice.tables.core.app_levels import LEVELS, strength_for
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.models import Table
from sixdice.tables.pages.views import _hold
from sixdice.tables.writes import services


@dataclass(frozen=True)
class Started:
    table: Table
    host_secret: str
    seat_secret: str

def start_against_bots(*, game: str, name: str, bots: int, level: str, options: dict[str, Any] | None = None,
                       rng: random.Random | None = None) -> Started:
    """Create a table, seat this phone, add ``bots`` seats the app plays, and start the game.

    ``options``: the table's; by default the first game coaches (a new player's first game against the app).
    """
    engine = get_engine(game)
    chosen = {COACH: True} if options is None else dict(options)
    table, host_secret = services.create_table(game=engine.slug, options=chosen, capacity=bots + 1)
    _seat, seat_secret = services.join_table(table=table, name=name or gettext("Player"))
    for _bot in range(bots):
        services.add_bot(table=table, strength=strength_for(engine, level))
    services.start_game(table=table, rng=rng)
    return Started(table, host_secret, seat_secret)


@require_http_methods(["GET", "POST"])
def play_bots(request: HttpRequest, game: str) -> HttpResponse:
    if game not in REGISTRY or not get_engine(game).bot_strengths:
        raise Http404("No bots for this game.")
    engine = get_engine(game)
    error = ""
    values = {"bots": "1", "level": "easy", "name": ""}
    if request.method == "POST":
        values = {k: str(request.POST.get(k, v)) for k, v in values.items()}
        try:
            bots = int(values["bots"])
        except ValueError:
            bots = 0
        level = values["level"] if values["level"] in dict(LEVELS) else "easy"
        try:
            if not 1 <= bots <= engine.max_players - 1:
                raise ServiceError(str(gettext_lazy("Choose how many players the app plays.")))
            started = start_against_bots(game=engine.slug, name=values["name"], bots=bots, level=level)
        except GameError as exc:
            error = i18n.game_error_message(exc)
        except ServiceError as exc:
            error = str(exc.message)
        else:
            _hold(request, started.table.code, host=started.host_secret, seat=started.seat_secret)
            return redirect("tables:table", code=started.table.code)
    return render(request, "tables/play_bots.html", {
        "engine": engine, "values": values, "levels": LEVELS, "error": error,
        "counts": range(1, min(engine.max_players - 1, 4) + 1),
    }, status=400 if error else 200)
