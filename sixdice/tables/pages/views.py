"""Pages of a table: home, create, host, join, seat, spectator, hand-over link, QR code."""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any
from urllib.parse import urljoin

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from sixdice.gamekit.engine import REGISTRY, GameEngine, get_engine
from sixdice.gamekit.errors import GameError
from sixdice.tables.core import i18n, keys
from sixdice.tables.core.app_levels import LEVELS, strength_for
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.core.qr import qr_svg
from sixdice.tables.models import Table
from sixdice.tables.policies import turn_timers
from sixdice.tables.reads import timer_clock
from sixdice.tables.transport import guess_limits
from sixdice.tables.writes import checked_path, services


def _held(request: HttpRequest, code: str) -> dict[str, str]:
    return dict(request.session.get("tables", {}).get(code, {}))


def _hold(request: HttpRequest, code: str, **secrets: str) -> None:
    tables = dict(request.session.get("tables", {}))
    held = dict(tables.get(code, {}))
    held.update(secrets)
    tables[code] = held
    request.session["tables"] = tables


def credentials(request: HttpRequest, code: str) -> Credentials:
    held = _held(request, code)
    return Credentials(seat_secret=held.get("seat"), host_secret=held.get("host"))


def _table_or_404(code: str) -> Table:
    try:
        return checked_path.load_table(code, allow_closed=True)
    except ServiceError as exc:
        raise Http404(exc.message) from None


def lan_url(request: HttpRequest) -> str:
    """The local network address to give the phones, for a browser on the serving machine itself.

    Set by ``make run LAN=1`` (``SIXDICE_LAN_URL``); empty otherwise, and for
    any other visitor (a phone that opened the page already knows it).
    """
    if not settings.SIXDICE_LAN_URL:
        return ""
    try:
        here = ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return ""
    return settings.SIXDICE_LAN_URL if here else ""


def home(request: HttpRequest) -> HttpResponse:
    games = list(REGISTRY.values())  # in the order the games registered (INSTALLED_APPS)
    lan = lan_url(request)
    return render(request, "tables/home.html", {
        "games": games, "code_error": request.GET.get("error"), "lan_url": lan,
        "lan_qr": qr_svg(lan) if lan else "",
    })


def join_by_code(request: HttpRequest) -> HttpResponse:
    code = keys.normalise_code(request.GET.get("code", ""))
    if not code or not Table.objects.filter(code=code).exists():
        guess_limits.record_request_miss(request)
        return redirect(reverse("tables:home") + "?error=" + (code or "empty"))
    return redirect("tables:table", code=code)


@require_http_methods(["GET", "POST"])
def new_table(request: HttpRequest, game: str) -> HttpResponse:
    try:
        engine = get_engine(game)
    except GameError:
        raise Http404(_("There is no such game.")) from None
    error = None
    values: dict[str, Any] = {}
    if request.method == "POST":
        values = {key: request.POST.get(key) for key in request.POST if key != "csrfmiddlewaretoken"}
        try:
            capacity = int(values.pop("players", "") or 0)
        except ValueError:
            capacity = 0
        try:
            bots = int(values.get("bots") or 0)
        except ValueError:
            bots = -1
        level = str(values.get("bot_level") or "easy")
        shared = ("turn_timer", "bots", "bot_level", "host_name")  # the table's, not the game's
        options = {key: value for key, value in values.items() if key not in shared}
        try:
            seconds = timer_clock.clean_seconds(values.get("turn_timer"))
            if not 0 <= bots < max(capacity, 1) or (bots and not engine.bot_strengths):
                raise ServiceError(_("The app can play at most every seat but one."))
            table, host_secret = services.create_table(game=engine.slug, options=options, capacity=capacity,
                                                       host_name=str(values.get("host_name") or ""))
            turn_timers.configure(table, seconds)
            for _bot in range(bots):  # the seats the app plays, filled at once
                services.add_bot(table=table, strength=strength_for(engine, level))
        except GameError as exc:
            error = i18n.game_error_message(exc)
        except ServiceError as exc:
            error = str(exc.message)
        else:
            _hold(request, table.code, host=host_secret)
            return redirect("tables:host", code=table.code)
    return render(
        request,
        [f"{engine.slug}/new_table.html", "tables/new_table.html"],  # a game without its own form gets the generic one
        {"engine": engine, "error": error, "values": values, "player_range": range(engine.min_players, engine.max_players + 1),
         "bot_range": range(0, engine.max_players), "levels": LEVELS,
         # after a refused POST, for what the form sent; a fresh form asks dice_needed from its script (the form's
         # defaults are the game's template's)
         "need": _needs(engine, values, capacity) if request.method == "POST" else None,
         "coached": engine.coach_options({})},  # what a coached first game plays: the game's form may say it
        status=400 if error else 200,
    )


def _needs(engine: GameEngine, values: dict[str, Any], players: int) -> dict[str, Any] | None:
    """What the form says of the dice a table with these options uses (the game's ``dice_needed``), or why it
    cannot say (``{"error": ...}``: the options are refused, and creating the table would say so too)."""
    options = {key: value for key, value in values.items() if key not in ("turn_timer", "bots", "bot_level", "host_name")}
    try:
        need = engine.presentation.dice_needed(options, players=players)
    except GameError as exc:
        return {"error": i18n.game_error_message(exc)}
    return need


@require_http_methods(["GET"])
def dice_needed(request: HttpRequest, game: str) -> HttpResponse:
    """The new-table form's "how many dice" for the options it holds now (a GET of the form's fields)."""
    try:
        engine = get_engine(game)
    except GameError:
        raise Http404(_("There is no such game.")) from None
    values = {key: request.GET.get(key) for key in request.GET}
    try:
        players = int(values.pop("players", "") or 0)
    except ValueError:
        players = 0
    need = _needs(engine, values, players)
    html = render_to_string(f"{engine.slug}/_dice_needed.html", {"need": need}, request) if need else ""
    return JsonResponse({"html": html})


def _join_url(request: HttpRequest, table: Table) -> str:
    """The link (and QR code) that lets a phone take a seat: it carries the table's join key."""
    path = reverse("tables:table", args=[table.code]) + "?k=" + keys.join_key(table)
    if lan := lan_url(request):  # a host on the serving machine: the phones need its network address
        return urljoin(lan, path)
    return request.build_absolute_uri(path)


def _invited(request: HttpRequest, table: Table) -> bool:
    """This browser opened the join link (or QR code): it may take a seat without the PIN."""
    return _held(request, table.code).get("invited") == keys.join_key(table)


def _join_form(request: HttpRequest, table: Table, *, status: int = 200, **extra: Any) -> HttpResponse:
    return render(request, "tables/join.html", {
        "table": table, "engine": get_engine(table.game), "seats": table.seats.order_by("position"),
        "need_pin": not _invited(request, table), "turn_timer": timer_clock.label(table), **extra,
    }, status=status)


@never_cache
def host_page(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_or_404(code)
    if not keys.is_host(table, credentials(request, table.code)):
        return render(request, "tables/not_host.html", {"table": table}, status=403)
    return render(request, "tables/live.html", _live_context(request, table, role="host"))


def _host_seat(request: HttpRequest, table: Table) -> int | None:
    seat = services.seat_for(table, credentials(request, table.code))
    return None if seat is None else seat.position


def _live_context(request: HttpRequest, table: Table, *, role: str) -> dict[str, Any]:
    engine = get_engine(table.game)
    return {
        "table": table,
        "engine": engine,
        "role": role,
        "join_url": _join_url(request, table),
        "qr_svg": _qr(request, table, scale=4) if role == "host" else "",
        "join_pin": keys.join_pin(table) if role == "host" else "",
        "host_seat": _host_seat(request, table) if role == "host" else None,
        # The table screen's link from the host's page carries the join key: that screen shows the QR code to join.
        "screen_url": reverse("tables:screen", args=[table.code]) + ("?k=" + keys.join_key(table) if role == "host" else ""),
        "game_template": [f"{engine.slug}/table.html", "tables/no_board.html"],
        "game_help_template": [f"{engine.slug}/help.html", "tables/no_board.html"],
        "coach_template": [f"{engine.slug}/_coach.html", "tables/_none.html"],  # the game's coach notes
        "time_limit": engine.time_limit(table.options or {}),  # the game's own option, in minutes (or None)
    }


@never_cache
def table_page(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_or_404(code)
    creds = credentials(request, table.code)
    if keys.is_host(table, creds):  # the host's page, with the host's buttons, whether it holds a seat or not
        return render(request, "tables/live.html", _live_context(request, table, role="host"))
    if services.seat_for(table, creds) is not None:
        return render(request, "tables/live.html", _live_context(request, table, role="seat"))
    if table.status == Table.Status.LOBBY and request.GET.get("watch") is None:
        key = request.GET.get("k")
        if key is not None and hmac.compare_digest(key, keys.join_key(table)):
            _hold(request, table.code, invited=key)
        full = table.seats.count() >= table.capacity  # say so before the name form, not after it
        return _join_form(request, table, full_message=_("All %(n)s seats are taken.") % {"n": table.capacity} if full else "")
    # A phone whose seat secret no longer matches: its seat was handed over or the app plays it.
    lost_seat = bool(creds.seat_secret)
    if lost_seat and timer_clock.parked_seat(table.pk, creds) is not None:
        lost_seat = False  # the app plays it for this phone: the page offers "I'm back" instead
    return render(request, "tables/live.html", {**_live_context(request, table, role="spectator"), "lost_seat": lost_seat})


@never_cache
def screen_page(request: HttpRequest, code: str) -> HttpResponse:
    """The table screen: a tablet or TV in the middle of the table shows every hand, large, with no controls."""
    table = _table_or_404(code)
    context = _live_context(request, table, role="spectator")
    # Before the start the screen is the room's invitation: who has joined, and (opened from the host's link,
    # which carries the join key) the QR code and the link to join.  Without the key it names the code only:
    # the join key is never shown to whoever merely knows the table's code.
    key = request.GET.get("k") or ""
    invites = hmac.compare_digest(key.encode(), keys.join_key(table).encode())
    context.update(screen_invites=invites, qr_svg=_qr(request, table, scale=6) if invites else "",
                   join_url=context["join_url"] if invites else "")
    return render(request, "tables/screen.html", context)


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_or_404(code)
    if services.seat_for(table, credentials(request, table.code)) is not None:
        return redirect("tables:table", code=table.code)
    name = request.POST.get("name", "")
    if not _invited(request, table):  # came by the code alone: the host's PIN too
        pin = request.POST.get("pin", "").strip()
        if not hmac.compare_digest(pin.encode(), keys.join_pin(table).encode()):
            guess_limits.record_request_miss(request)  # PIN guesses count as code guesses
            return _join_form(request, table, status=403, name=name,
                              error=_("Wrong join PIN: ask the host, it is on the host's screen."))
    try:
        _seat, secret = services.join_table(table=table, name=name)
    except ServiceError as exc:
        return _join_form(request, table, status=400, error=exc.message, name=name)
    _hold(request, table.code, seat=secret)
    return redirect("tables:table", code=table.code)


@require_POST
def host_sit(request: HttpRequest, code: str) -> HttpResponse:
    """The host takes a seat of their own: this phone then holds the seat and the host's rights together."""
    table = _table_or_404(code)
    creds = credentials(request, table.code)
    if not keys.is_host(table, creds):
        return render(request, "tables/not_host.html", {"table": table}, status=403)
    if services.seat_for(table, creds) is None:
        try:
            _seat, secret = services.join_table(table=table, name=request.POST.get("name", ""), between_games=True)
        except ServiceError as exc:
            context = _live_context(request, table, role="host")
            return render(request, "tables/live.html", {**context, "sit_error": exc.message}, status=400)
        Table.objects.filter(pk=table.pk).update(host_seat=_seat.position)  # who hosted, for the review desk
        _hold(request, table.code, seat=secret)
    return redirect("tables:host", code=table.code)


@require_http_methods(["GET", "POST"])
def claim(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """A hand-over link: GET asks to confirm (link previews must not use it up), POST takes the seat."""
    table = _table_or_404(code)
    if request.method == "GET":
        valid = table.seats.filter(claim_token_hash=keys.hash_secret(token)).first()
        return render(request, "tables/claim.html", {"table": table, "seat": valid}, status=200 if valid else 410)
    try:
        _seat, secret = services.claim_seat(table=table, token=token)
    except ServiceError as exc:
        return render(request, "tables/claim.html", {"table": table, "seat": None, "error": exc.message}, status=410)
    _hold(request, table.code, seat=secret)
    return redirect("tables:table", code=table.code)


def _qr(request: HttpRequest, table: Table, *, scale: int) -> str:
    """The join link as an inline SVG QR code."""
    return qr_svg(_join_url(request, table), scale=scale)


def join_qr_svg(request: HttpRequest, code: str) -> HttpResponse:
    return HttpResponse(_qr(request, _table_or_404(code), scale=8), content_type="image/svg+xml")
