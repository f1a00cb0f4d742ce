"""Player pages: my profile, carrying it to another phone, a player's page, leaderboards."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from sixdice.gamekit.engine import REGISTRY
from sixdice.tables.core.errors import BadAction, ServiceError
from sixdice.tables.core.qr import qr_svg
from sixdice.tables.writes import checked_path
from sixdice.tables.writes import services as tables

from . import selectors, services
from .charts import rating_chart
from .models import COLOURS, EMOJIS, Profile


class NoProfile(ServiceError):
    """The phone holds no profile."""

    code = "no_profile"


class NotConfirmed(ServiceError):
    """A deletion that was not confirmed."""

    code = "confirm"

SESSION_KEY = "profile"
MIN_GAMES = 3


def device_profile(request: HttpRequest) -> Profile | None:
    """The profile this browser holds, if any."""
    return services.profile_for(request.session.get(SESSION_KEY))


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return None


def _me_context(request: HttpRequest, profile: Profile | None, **extra: Any) -> dict[str, Any]:
    return {"me": profile, "colours": COLOURS, "emojis": EMOJIS, "next": _safe_next(request), **extra}


@never_cache
@require_http_methods(["GET", "POST"])
def me(request: HttpRequest) -> HttpResponse:
    """Create, rename, hide, carry or delete the profile this browser holds."""
    profile = device_profile(request)
    if request.method == "GET":
        return render(request, "players/me.html", _me_context(request, profile))
    action = request.POST.get("action", "")
    post = request.POST
    try:
        if action == "create" and profile is None:
            profile, secret = services.create_profile(name=post.get("name", ""), colour=post.get("colour"),
                                                      emoji=post.get("emoji"))
            request.session[SESSION_KEY] = secret
            return redirect(_safe_next(request) or reverse("players:me"))
        if profile is None:
            raise NoProfile(_("This phone holds no profile."))
        if action == "update":
            services.update_profile(profile=profile, name=post.get("name", ""), colour=post.get("colour"),
                                    emoji=post.get("emoji"))
        elif action in ("hide", "show"):
            services.update_profile(profile=profile, hidden=action == "hide")
        elif action == "carry":
            token = services.issue_transfer(profile=profile)
            link = request.build_absolute_uri(reverse("players:carry", args=[token]))
            qr = qr_svg(link)
            return render(request, "players/me.html", _me_context(request, profile, carry_link=link, carry_qr=qr))
        elif action == "forget":
            services.forget_device(secret=request.session.pop(SESSION_KEY, ""))
            return redirect("players:me")
        elif action == "delete":
            if post.get("confirm") != "yes":
                raise NotConfirmed(_("Tick the box to confirm that the profile should be deleted."))
            services.delete_profile(profile=profile)
            request.session.pop(SESSION_KEY, None)
            return render(request, "players/deleted.html")
        else:
            raise BadAction(_("Unknown request."))
    except ServiceError as exc:
        return render(request, "players/me.html", _me_context(request, device_profile(request), error=exc.message,
                                                              name=post.get("name", "")), status=400)
    return redirect("players:me")


@never_cache
@require_http_methods(["GET", "POST"])
def carry(request: HttpRequest, token: str) -> HttpResponse:
    """A profile link: GET asks to confirm (link previews must not use it up), POST takes the profile."""
    if request.method == "GET":
        target = services.transfer_target(token)
        return render(request, "players/carry.html", {"target": target}, status=200 if target else 410)
    try:
        _profile, secret = services.claim_transfer(token=token)
    except ServiceError as exc:
        return render(request, "players/carry.html", {"target": None, "error": exc.message}, status=410)
    if old := request.session.get(SESSION_KEY):  # this phone held another profile: it lets go of it
        services.forget_device(secret=old)
    request.session[SESSION_KEY] = secret
    return redirect("players:me")


@require_POST
def join_as_profile(request: HttpRequest, code: str) -> HttpResponse:
    """One tap: take a seat under this browser's profile name, linked to the profile."""
    from sixdice.tables.pages.views import _hold, _invited, credentials

    try:
        table = checked_path.load_table(code, allow_closed=True)
    except ServiceError as exc:
        raise Http404(exc.message) from None
    profile = device_profile(request)
    if profile is None or not _invited(request, table):  # by the code alone: the join form with its PIN
        return redirect("tables:table", code=table.code)
    if tables.seat_for(table, credentials(request, table.code)) is None:
        try:
            seat, secret = services.join_with_profile(table=table, profile=profile)
        except ServiceError as exc:
            return render(request, "players/join_refused.html", {"table": table, "error": exc.message}, status=400)
        _hold(request, table.code, seat=secret)
    return redirect("tables:table", code=table.code)


@require_POST
def host_sit_as_profile(request: HttpRequest, code: str) -> HttpResponse:
    """The host takes a seat on the host's own phone under this phone's profile: the seat is linked to the
    profile from the start (its games count on it), and the table records it as the host's seat."""
    from sixdice.tables.core import keys
    from sixdice.tables.pages.views import _hold, credentials

    try:
        table = checked_path.load_table(code, allow_closed=True)
    except ServiceError as exc:
        raise Http404(exc.message) from None
    creds = credentials(request, table.code)
    if not keys.is_host(table, creds):
        return render(request, "tables/not_host.html", {"table": table}, status=403)
    profile = device_profile(request)
    if profile is None:  # the phone let go of its profile meanwhile: the plain "Take a seat" is on the host page
        return redirect("tables:host", code=table.code)
    if tables.seat_for(table, creds) is None:
        try:
            _seat, secret = services.join_with_profile(table=table, profile=profile, host=True)
        except ServiceError as exc:
            return render(request, "players/join_refused.html", {"table": table, "error": exc.message}, status=400)
        _hold(request, table.code, seat=secret)
    return redirect("tables:host", code=table.code)


def player(request: HttpRequest, public_id: str) -> HttpResponse:
    profile = Profile.objects.filter(public_id=public_id).first()
    own = profile is not None and device_profile(request) == profile
    if profile is None or (profile.hidden and not own):
        raise Http404(_("There is no such player."))
    season, season_error = selectors.parse_season(request.GET.get("from"), request.GET.get("to"))
    page = selectors.player_page(profile, season, min_games=MIN_GAMES)
    charts = [(rec, rating_chart(rec.history, title=_("%(game)s rating after each game") % {"game": rec.label},
                                 colour=profile.colour)) for rec in page.engines]
    return render(request, "players/player.html", {
        "profile": profile, "page": page, "charts": charts, "season": season, "season_error": season_error,
        "own": own,
    })


def leaderboard(request: HttpRequest) -> HttpResponse:
    slug = request.GET.get("game") or next(iter(REGISTRY), "")
    if slug not in REGISTRY:
        raise Http404(_("There is no such game."))
    season, season_error = selectors.parse_season(request.GET.get("from"), request.GET.get("to"))
    try:
        min_games = max(1, min(1000, int(request.GET.get("min") or MIN_GAMES)))
    except ValueError:
        min_games = MIN_GAMES
    query = (request.GET.get("q") or "").strip()
    return render(request, "players/leaderboard.html", {
        "slug": slug, "label": selectors.engine_label(slug),
        "games": list(REGISTRY.values()),  # in the order the games registered
        "standings": selectors.leaderboard(slug, season=season, min_games=min_games),
        "season": season, "season_error": season_error, "min_games": min_games,
        "keep": [("game", slug), ("min", min_games)],
        "query": query, "found": selectors.search_profiles(query) if query else None,
    })
