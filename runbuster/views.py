"""Read-only pages of a Run Buster table: the running tally of its rounds (B3)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from runbuster.rules import Tally
from sixdice.tables.models import Game, Table
from sixdice.tables.services import normalise_code


def _rounds(table: Table) -> list[Game]:
    games = table.games.filter(engine="runbuster", status=Game.Status.FINISHED).order_by("number")
    return [g for g in games if g.state.get("over") and g.state.get("loser") is not None]


@never_cache
def tally(request: HttpRequest, code: str) -> JsonResponse:
    """Places and rounds lost per seat over every finished round at the table.

    ``{"rounds": 2, "seats": [{"position": 0, "name": "Ana", "places": [1, 0, 1],
    "losses": 1}, ...], "results": [{"number": 1, "first": 2, "places": [2, 0, 1]}, ...]}``
    where ``places[k]`` counts the rounds the seat ended in place ``k + 1`` and a
    round's ``places`` run from 1st to the loser.
    """
    table = Table.objects.filter(code=normalise_code(code), game="runbuster").first()
    if table is None:
        raise Http404("There is no such Run Buster table.")
    seats = list(table.seats.order_by("position"))
    rounds = _rounds(table)
    players = len(seats) or (len(rounds[0].players) if rounds else 0)
    result = Tally(players=players) if players else None
    results = []
    for game in rounds:
        state = game.state
        order = [int(s) for s in state["finished"]] + [int(state["loser"])]
        if result is not None and len(order) == players:
            result = result.record(order)
        results.append({"number": game.number, "first": game.first, "places": order})
    names = [s.name for s in seats]
    return JsonResponse(
        {
            "rounds": len(results),
            "seats": [
                {
                    "position": k,
                    "name": names[k],
                    "places": list(result.places[k]) if result else [],
                    "losses": result.losses[k] if result else 0,
                }
                for k in range(len(names))
            ],
            "results": results,
        }
    )
