"""Review pages: the replay viewer, a game's JSON export, the CSV game list, statistics."""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode

from sixdice.gamekit.engine import REGISTRY, get_engine
from sixdice.gamekit.errors import GameError
from sixdice.players.selectors import mask_hidden, parse_season
from sixdice.tables.core.keys import normalise_code
from sixdice.tables.models import Game, Table
from sixdice.tables.reads.table_frame import table_info

from . import bgstats, exchange, stats
from .decisions import bots_of, who_began
from .downloads import attachment, game_filename, games_filename
from .local_time import spoken
from .models import note_of
from .steps import replay_steps, step_payloads
from .tablelog import bots_by_event, table_log


def _game_or_404(code: str, number: int) -> Game:
    table = Table.objects.filter(code=normalise_code(code)).first()
    if table is None:
        raise Http404("There is no such table.")
    game = table.games.filter(number=number).select_related("table").first()
    if game is None:
        raise Http404("There is no such game at this table.")
    return game


def replay(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """The public replay of a finished or abandoned game: anyone with the table code may watch it again.

    An abandoned game (its table was closed mid-game) replays up to where it
    stopped.  Staff also see the reviewer's note and the "disputed" flag.
    """
    game = _game_or_404(code, number)
    table = game.table
    try:
        engine = get_engine(game.engine)
    except GameError:
        raise Http404("This game's engine is not installed.") from None
    if game.status == Game.Status.PLAYING:
        return render(request, "review/not_finished.html", {"game": game, "table": table, "engine": engine},
                      status=409)
    events = list(game.events.order_by("seq"))
    steps = replay_steps(game, events)
    bots = bots_of(game)
    info = table_info(table)
    info["game"] = game.engine
    info["status"] = table.status
    info["seats"] = [{"position": i, "name": name, "bot": bots[i], "vacant": False}
                     for i, name in enumerate(game.players)]
    began, why = who_began(engine, steps, game.first)
    payload = {
        "game": {"id": game.pk, "number": game.number, "status": game.status, "players": game.players},
        "table": info,
        "steps": step_payloads(game, steps, bots_by_event(game, events)),
        "turns": steps[-1].turn,
    }
    payload = mask_hidden(game, payload)  # a hidden profile is "a player" in public replays
    staff = request.user.is_active and request.user.is_staff
    return render(request, "review/replay.html", {
        "game": game, "table": table, "engine": engine, "payload": payload, "last": len(steps) - 1,
        "turns": steps[-1].turn, "game_template": [f"{engine.slug}/table.html", "tables/no_board.html"],
        "rules_template": [f"{engine.slug}/_game_rules.html", "tables/no_board.html"],  # a game's own rules in force
        "export_url": reverse("review:export", args=[table.code, game.number])
        if game.status == Game.Status.FINISHED or can_view_games(request) else "",  # see export()
        "abandoned": game.status == Game.Status.ABANDONED,
        "finished_when": spoken(game.finished_at),  # the club's clock, in the reader's format, with its zone
        "began": payload["game"]["players"][began] if began < len(game.players) else "",
        "began_why": mask_hidden(game, why),
        "note": note_of(game) if staff else None, "staff": staff,
        "table_log": mask_hidden(game, [{"step": c.step, "kind": c.kind, "text": c.text}
                                        for c in table_log(game, events)]),
        "note_url": reverse("admin:tables_game_change", args=[game.pk]) if staff else "",
        "bgstats_url": bgstats.link(game),  # "" unless finished; names as public pages show them
    })


def export(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """A game as one JSON document.

    A finished game's export is public, as its replay is.  Any other game's
    (still being played, or abandoned when its table was closed) is for staff
    with the admin's view permission on games, as the admin's game list is:
    staff without it, and the public, get 403 (the public gets 409 for a game
    still being played: its file will be public once it ends).
    """
    game = _game_or_404(code, number)
    if game.status != Game.Status.FINISHED and not can_view_games(request):
        if game.status == Game.Status.PLAYING and not request.user.is_staff:
            return render(request, "review/not_finished.html",
                          {"game": game, "table": game.table, "engine": REGISTRY.get(game.engine)}, status=409)
        raise PermissionDenied
    document = exchange.export_game(game)
    if not (request.user.is_active and request.user.is_staff):
        document = exchange.sign(mask_hidden(game, document))  # a hidden profile is "a player" in public downloads
    response = HttpResponse(exchange.dumps(document), content_type="application/json")
    response["Content-Disposition"] = attachment(game_filename(game))  # sixdice-887PK-2026-12-01.json
    return response


def filtered_games(request: HttpRequest):
    games = Game.objects.select_related("table").order_by("started_at", "pk")
    if slug := request.GET.get("game"):
        games = games.filter(engine=slug)
    if status := request.GET.get("status"):
        games = games.filter(status=status)
    if reason := request.GET.get("end_reason"):
        games = games.filter(end_reason=reason)
    if code := request.GET.get("table"):
        games = games.filter(table__code=normalise_code(code))
    return games


def can_view_games(request: HttpRequest) -> bool:
    """Staff with the admin's view permission on games: as the admin's game list asks (issue 15)."""
    user = request.user
    return bool(user.is_active and user.is_staff and user.has_perm("tables.view_game"))


@staff_member_required
def games_csv(request: HttpRequest) -> HttpResponse:
    """Every game (filters: ?game=, ?status=, ?end_reason=, ?table=) as CSV, one row per game."""
    if not can_view_games(request):
        raise PermissionDenied
    games = list(filtered_games(request))
    response = HttpResponse(exchange.games_csv(games), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = attachment(games_filename(games, "csv") if games else "games-none.csv")
    return response


def statistics(request: HttpRequest) -> HttpResponse:
    """Public, aggregated statistics over finished games (?game= for one game)."""
    slug = request.GET.get("game") or None
    if slug is not None and slug not in REGISTRY:
        raise Http404("There is no such game.")
    imported = request.GET.get("imported") != "0"  # ?imported=0: only games played here
    season, season_error = parse_season(request.GET.get("from"), request.GET.get("to"))  # ?from=&to=, days included
    figures = stats.compute(slug, imported=imported, since=season.since, until=season.until)
    dates = [(key, value.isoformat()) for key, value in (("from", season.start), ("to", season.end)) if value]
    return render(request, "review/stats.html", {
        "stats": figures, "charts": stats.charts(figures), "slug": slug, "imported": imported,
        "games": list(REGISTRY.values()), "season": season, "season_error": season_error,
        "keep": [(key, value) for key, value in (("game", slug), ("imported", "" if imported else "0")) if value],
        "dates": urlencode(dates),
    })
