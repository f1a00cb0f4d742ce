"""The Django admin for tables, seats, games and their event logs (staff only).

Games and events are read-only here: the log is append-only everywhere, and
a game's snapshot must stay the replay of its log.  A game's page shows its
options, players, winners, end reason, final hands as dice, the whole log,
and links to its replay and export.
"""

from __future__ import annotations

import io
import zipfile
from typing import TYPE_CHECKING, TypedDict

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from sixdice.tables.models import Event, Game, Seat, Table

from . import exchange
from .dice import hands_html
from .steps import actor_name

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class _TableCounts(TypedDict):
    """What :meth:`TableAdmin.get_queryset` adds to each table row."""

    _seats: int
    _games: int


class ReadOnlyMixin:
    """No adding, changing or deleting: the page is for looking."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class PlayerCountFilter(admin.SimpleListFilter):
    title = "number of players"
    parameter_name = "players"

    def lookups(self, request: HttpRequest, model_admin):
        return [(str(n), f"{n} players") for n in range(2, 9)]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if not value or not value.isdigit():
            return queryset
        return queryset.annotate(_players=Count("table__seats", distinct=True)).filter(_players=int(value))


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    fields = ("position", "name", "is_bot", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False


class GameInline(ReadOnlyMixin, admin.TabularInline):
    model = Game
    fields = ("number", "engine", "status", "end_reason", "started_at", "finished_at", "links")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    @admin.display(description="Review")
    def links(self, game: Game) -> SafeString:
        return _links(game)


def _links(game: Game) -> SafeString:
    replay = reverse("review:replay", args=[game.table.code, game.number])
    export = reverse("review:export", args=[game.table.code, game.number])
    if game.status != Game.Status.FINISHED:
        return format_html('<a href="{}">export</a> (replay once finished)', export)
    return format_html('<a href="{}">replay</a> · <a href="{}">export</a>', replay, export)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "game", "status", "capacity", "seat_count", "game_count", "paused", "created_at")
    list_filter = ("game", "status", "created_at")
    search_fields = ("code", "seats__name")
    readonly_fields = ("code", "game", "options", "capacity", "created_at", "updated_at")
    fields = ("code", "game", "options", "capacity", "status", "paused", "created_at", "updated_at")
    inlines = (SeatInline, GameInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(
            _seats=Count("seats", distinct=True), _games=Count("games", distinct=True)
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tables are opened by hosts (or by import_game)

    @admin.display(description="seats", ordering="_seats")
    def seat_count(self, table: WithAnnotations[Table, _TableCounts]) -> int:
        return table._seats

    @admin.display(description="games", ordering="_games")
    def game_count(self, table: WithAnnotations[Table, _TableCounts]) -> int:
        return table._games


@admin.register(Seat)
class SeatAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("name", "position", "table", "is_bot", "joined_at")
    list_filter = ("is_bot", "table__game")
    search_fields = ("name", "table__code")
    fields = ("table", "position", "name", "is_bot", "joined_at")
    readonly_fields = fields
    list_select_related = ("table",)


@admin.register(Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("__str__", "engine", "status", "player_names", "winner_names", "end_reason", "started_at",
                    "finished_at", "review_links")
    list_filter = ("engine", "status", "end_reason", "started_at", PlayerCountFilter)
    search_fields = ("table__code", "players")
    date_hierarchy = "started_at"
    list_select_related = ("table",)
    actions = ("export_json", "export_zip", "export_csv")
    fields = ("table_link", "number", "engine", "status", "review_links", "options_html", "player_names",
              "first", "winner_names", "end_reason", "places_html", "started_at", "finished_at", "seq",
              "final_hands", "event_log")
    readonly_fields = fields

    @admin.display(description="table")
    def table_link(self, game: Game) -> SafeString:
        url = reverse("admin:tables_table_change", args=[game.table_id])
        return format_html('<a href="{}">{}</a>', url, game.table.code)

    @admin.display(description="review")
    def review_links(self, game: Game) -> SafeString:
        return _links(game)

    @admin.display(description="options")
    def options_html(self, game: Game) -> SafeString:
        if not game.options:
            return format_html("{}", "—")
        rows = format_html_join("", "<tr><th style='text-align:left;padding-right:8px'>{}</th><td>{}</td></tr>",
                                ((key, "—" if value in (None, "", []) else value) for key, value in game.options.items()))
        return format_html('<table class="options">{}</table>', rows)

    @admin.display(description="players")
    def player_names(self, game: Game) -> str:
        return ", ".join(f"{seat + 1}. {name}" for seat, name in enumerate(game.players))

    @admin.display(description="winners")
    def winner_names(self, game: Game) -> str:
        return ", ".join(actor_name(str(seat), game.players) for seat in game.winners) or "—"

    @admin.display(description="places")
    def places_html(self, game: Game) -> str:
        places = [actor_name(str(seat), game.players) for seat in game.places or []]
        text = ", ".join(f"{i}. {name}" for i, name in enumerate(places, start=1)) or "—"
        if game.loser is not None:
            text += f" (lost: {actor_name(str(game.loser), game.players)})"
        return text

    @admin.display(description="final hands")
    def final_hands(self, game: Game) -> SafeString:
        return hands_html(game.engine, game.state, game.players)

    @admin.display(description="event log")
    def event_log(self, game: Game) -> SafeString:
        events = game.events.order_by("seq")
        rows = format_html_join(
            "",
            '<tr><td>{}</td><td>{}</td><td style="white-space:nowrap">{}</td><td>{}</td></tr>',
            ((e.seq, actor_name(e.actor, game.players), e.created_at.strftime("%Y-%m-%d %H:%M:%S"), e.text)
             for e in events),
        )
        return format_html(
            '<table class="event-log"><thead><tr><th>seq</th><th>actor</th><th>time (UTC)</th>'
            "<th>notation</th></tr></thead><tbody>{}</tbody></table>",
            rows,
        )

    @admin.action(description="Export selected games (JSON list of documents)")
    def export_json(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse:
        docs = [exchange.export_game(g) for g in queryset.select_related("table").order_by("started_at", "pk")]
        response = HttpResponse(exchange.dumps(docs), content_type="application/json")
        response["Content-Disposition"] = 'attachment; filename="games.json"'
        return response

    @admin.action(description="Export selected games (zip, one JSON file per game)")
    def export_zip(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for game in queryset.select_related("table"):
                archive.writestr(exchange.export_filename(game), exchange.dumps(exchange.export_game(game)))
        response = HttpResponse(buffer.getvalue(), content_type="application/zip")
        response["Content-Disposition"] = 'attachment; filename="games.zip"'
        return response

    @admin.action(description="Export selected games as CSV (one row per game)")
    def export_csv(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse:
        games = queryset.select_related("table").order_by("started_at", "pk")
        response = HttpResponse(exchange.games_csv(games), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="games.csv"'
        return response


@admin.register(Event)
class EventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The log is append-only: events can be looked at, never added, changed or deleted."""

    list_display = ("seq", "game", "actor_label", "text", "created_at")
    list_filter = ("game__engine", "actor", "created_at")
    search_fields = ("game__table__code", "text")
    list_select_related = ("game", "game__table")
    fields = ("game", "seq", "actor_label", "text", "action", "created_at")
    readonly_fields = fields

    @admin.display(description="actor")
    def actor_label(self, event: Event) -> str:
        return actor_name(event.actor, event.game.players)
