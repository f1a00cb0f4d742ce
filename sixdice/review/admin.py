"""The Django admin for tables, seats, games and their event logs (staff only).

Games and events are read-only here: the log is append-only everywhere, and
a game's snapshot must stay the replay of its log.  A game's page shows its
options, players (bots marked), who began and why, winners, end reason (in
words), final hands as dice, the whole log with who decided each move and the
engine's default beside a choice, and links to its replay and export.  The
one thing staff can change there is the game's reviewer note and its
"disputed" flag (an inline).
"""

from __future__ import annotations

import io
import zipfile
from typing import TYPE_CHECKING, TypedDict

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from sixdice.gamekit.engine import REGISTRY
from sixdice.gamekit.replay import undone_by
from sixdice.tables.models import Event, Game, Seat, Table
from sixdice.tables.writes import services

from . import exchange
from .decisions import bots_of, decisions, who_began
from .dice import hands_html
from .hints import hint_lines
from .models import ImportMark, ReviewNote
from .stats import end_reason_label
from .steps import actor_name, replay_steps, undone_text
from .tablelog import bots_by_event, table_log

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


class EngineFilter(admin.SimpleListFilter):
    """The game, by its name (not its slug); ``field`` is the lookup that holds the slug."""

    title = "game"
    parameter_name = "engine"
    field = "engine"

    def lookups(self, request: HttpRequest, model_admin):
        return [(slug, engine.label) for slug, engine in sorted(REGISTRY.items())]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        return queryset.filter(**{self.field: self.value()}) if self.value() else queryset


class TableGameFilter(EngineFilter):
    parameter_name = field = "game"


class SeatGameFilter(EngineFilter):
    parameter_name = field = "table__game"


class EventGameFilter(EngineFilter):
    parameter_name = field = "game__engine"


class ActorFilter(admin.SimpleListFilter):
    """Who sent an event, in words: a seat (1-based, as the player lists), the host or the app."""

    title = "actor"
    parameter_name = "actor"

    def lookups(self, request: HttpRequest, model_admin):
        seats = max((engine.max_players for engine in REGISTRY.values()), default=8)
        return [(str(i), f"Seat {i + 1}") for i in range(seats)] + [("host", "Host"), ("system", "App")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        return queryset.filter(actor=self.value()) if self.value() else queryset




class EndReasonFilter(admin.SimpleListFilter):
    """How the game ended, in words."""

    title = "end reason"
    parameter_name = "end_reason"

    def lookups(self, request: HttpRequest, model_admin):
        seen: dict[str, str] = {}
        for engine in REGISTRY.values():
            for code, label in engine.end_reasons.items():
                seen.setdefault(code, gettext(label))
        for code in Game.objects.exclude(end_reason="").values_list("end_reason", flat=True).distinct():
            seen.setdefault(code, end_reason_label("", code))
        return sorted(seen.items(), key=lambda item: item[1])

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        return queryset.filter(end_reason=self.value()) if self.value() else queryset


class DisputedFilter(admin.SimpleListFilter):
    """Games a reviewer flagged as disputed (see the reviewer note)."""

    title = "disputed"
    parameter_name = "disputed"

    def lookups(self, request: HttpRequest, model_admin):
        return [("yes", "Disputed"), ("no", "Not disputed")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "yes":
            return queryset.filter(review_note__disputed=True)
        if self.value() == "no":
            return queryset.exclude(review_note__disputed=True)
        return queryset


class ReviewNoteInline(admin.StackedInline):
    """The note and the "disputed" flag, editable on the (otherwise read-only) game page."""

    model = ReviewNote
    fields = ("note", "disputed", "updated_at")
    readonly_fields = ("updated_at",)
    extra = 1
    max_num = 1
    can_delete = True
    verbose_name = "reviewer note"
    verbose_name_plural = "reviewer note"


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
    if game.status == Game.Status.PLAYING:
        return format_html('<a href="{}">export</a> (replay once finished)', export)
    if game.status == Game.Status.ABANDONED:
        return format_html('<a href="{}">replay</a> · <a href="{}">export</a> (abandoned: up to where it stopped)',
                           replay, export)
    return format_html('<a href="{}">replay</a> · <a href="{}">export</a>', replay, export)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "game", "status", "capacity", "seat_count", "game_count", "paused", "created_at")
    list_filter = (TableGameFilter, "status", "created_at")
    search_fields = ("code", "seats__name")
    fields = ("code", "game", "options", "capacity", "status", "paused", "created_at", "updated_at")
    readonly_fields = fields  # status and paused change only through the services (the actions below)
    inlines = (SeatInline, GameInline)
    actions = ("close_tables", "pause_tables", "resume_tables")

    @admin.action(description="Close selected tables (a game in play is kept, abandoned)",
                  permissions=("change",))
    def close_tables(self, request: HttpRequest, queryset: QuerySet) -> None:
        tables = list(queryset.exclude(status=Table.Status.CLOSED))
        for table in tables:
            services.close_table(table=table)
        self.message_user(request, f"Closed {len(tables)} table(s).", messages.SUCCESS)

    @admin.action(description="Pause selected tables", permissions=("change",))
    def pause_tables(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._set_paused(request, queryset, paused=True)

    @admin.action(description="Resume selected tables", permissions=("change",))
    def resume_tables(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._set_paused(request, queryset, paused=False)

    def _set_paused(self, request: HttpRequest, queryset: QuerySet, *, paused: bool) -> None:
        tables = list(queryset.exclude(status=Table.Status.CLOSED).exclude(paused=paused))
        for table in tables:
            services.set_paused(table=table, paused=paused)
        self.message_user(request, f"{'Paused' if paused else 'Resumed'} {len(tables)} table(s).", messages.SUCCESS)

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
    list_filter = ("is_bot", SeatGameFilter)
    search_fields = ("name", "table__code")
    fields = ("table", "position", "name", "is_bot", "joined_at")
    readonly_fields = fields
    list_select_related = ("table",)


def _mark_of(game: Game) -> ImportMark | None:
    try:
        return game.import_mark
    except ImportMark.DoesNotExist:
        return None


class ImportedFilter(admin.SimpleListFilter):
    title = "origin"
    parameter_name = "imported"

    def lookups(self, request: HttpRequest, model_admin):
        return (("yes", "imported"), ("no", "played here"))

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "yes":
            return queryset.filter(import_mark__isnull=False)
        if self.value() == "no":
            return queryset.filter(import_mark__isnull=True)
        return queryset


@admin.register(Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """A game's page is read-only, except its reviewer note (the inline): saving the page saves only that."""

    list_display = ("__str__", "game_label", "status", "player_names", "winner_names", "end_reason_text",
                    "disputed", "started_at", "finished_at", "imported", "review_links")
    list_filter = (EngineFilter, "status", EndReasonFilter, DisputedFilter, "started_at", PlayerCountFilter, ImportedFilter)
    inlines = (ReviewNoteInline,)
    search_fields = ("table__code", "players")
    date_hierarchy = "started_at"
    list_select_related = ("table", "import_mark")
    actions = ("export_json", "export_zip", "export_csv")
    fields = ("table_link", "number", "game_label", "status", "imported", "review_links", "options_html", "player_names",
              "began", "winner_names", "end_reason_text", "places_html", "started_at", "finished_at", "seq",
              "final_hands", "event_log", "table_changes", "hints_shown")
    readonly_fields = fields

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        # Only the reviewer note can change (every field of the game is read-only).
        return request.user.has_perm("review.change_reviewnote") or request.user.has_perm("review.add_reviewnote")

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("review_note", "import_mark")

    @admin.display(description="game", ordering="engine")
    def game_label(self, game: Game) -> str:
        engine = REGISTRY.get(game.engine)
        return engine.label if engine is not None else game.engine

    @admin.display(description="end reason", ordering="end_reason")
    def end_reason_text(self, game: Game) -> str:
        return end_reason_label(game.engine, game.end_reason)

    @admin.display(description="disputed", boolean=True)
    def disputed(self, game: Game) -> bool:
        try:
            return game.review_note.disputed
        except ReviewNote.DoesNotExist:
            return False

    @admin.display(description="began")
    def began(self, game: Game) -> str:
        """Who began (1-based, as the player list) and why: read from the game's states, not the table's pick."""
        engine = REGISTRY.get(game.engine)
        if engine is None:
            return f"{game.first + 1}. (the table's pick)"
        seat, why = who_began(engine, replay_steps(game), game.first)
        name = game.players[seat] if seat < len(game.players) else "?"
        text = f"{seat + 1}. {name} — {why}"
        if seat != game.first:
            text += f" (the table had picked {game.first + 1})"
        return text

    @admin.display(description="imported")
    def imported(self, game: Game) -> str:
        """Played here ("—") or imported: from which file, and when (UTC)."""
        mark = _mark_of(game)
        if mark is None:
            return "—"
        verified = "" if mark.verified else " (unsigned: not verified)"
        return f"{mark.source or 'a file'}, {mark.imported_at:%Y-%m-%d %H:%M} UTC{verified}"

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
        bots = bots_of(game)
        return ", ".join(f"{seat + 1}. {name}" + (" (bot)" if bots[seat] else "")
                         for seat, name in enumerate(game.players))

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
        """Every event: who decided (a player, a bot, the host, the app's dice, its default, the time limit),
        and for a choice the engine has a default for, that default, marked when the choice differed."""
        events = list(game.events.order_by("seq"))
        engine = REGISTRY.get(game.engine)
        made = decisions(engine, replay_steps(game, events), bots_by_event(game, events), game.players) \
            if engine else []
        rows = []
        gone = undone_by((e.actor, e.action) for e in events)  # taken back by an undo: struck through (issue 14)
        for i, e in enumerate(events):
            d = made[i] if i < len(made) else None
            who = format_html('{} <small class="kind">({})</small>', d.label(game.players), d.kind) if d else \
                actor_name(e.actor, game.players)
            default: SafeString | str = ""
            if d is not None and d.default is not None:
                default = format_html('<strong class="differs">≠ {}</strong>', d.default_text) if d.differs else \
                    mark_safe('<span class="same">= default</span>')
            rows.append(format_html(
                '<tr data-seq="{}"><td>{}</td><td>{}</td><td style="white-space:nowrap">{}</td><td>{}</td><td>{}</td></tr>',
                e.seq, e.seq, who, e.created_at.strftime("%Y-%m-%d %H:%M:%S"),
                format_html('<s>{}</s> <small class="undone">({})</small>', e.text,
                            undone_text(events[gone[e.seq] - 1].actor, events[gone[e.seq] - 1].action, gone[e.seq],
                                        game.players))
                if e.seq in gone else e.text, default))
        differed = sum(1 for d in made if d.differs)
        choices = sum(1 for d in made if d.default is not None)
        summary = format_html("<p>{} of {} choices with an engine default differed from it.</p>", differed, choices) \
            if choices else ""
        return format_html(
            '{}<table class="event-log"><thead><tr><th>seq</th><th>decided by</th><th>time (UTC)</th>'
            "<th>notation</th><th>engine default</th></tr></thead><tbody>{}</tbody></table>",
            summary, format_html_join("", "{}", ((r,) for r in rows)),
        )

    @admin.display(description="table log")
    def table_changes(self, game: Game) -> SafeString:
        """Pauses, seats the app took over, closing the table: each after the move it followed."""
        changes = table_log(game)
        if not changes:
            return format_html("{}", "—")
        rows = format_html_join("", '<tr><td>{}</td><td style="white-space:nowrap">{}</td><td>{}</td></tr>',
                                ((c.step, c.at.strftime("%Y-%m-%d %H:%M:%S"), c.text) for c in changes))
        return format_html('<table class="table-log"><thead><tr><th>after move</th><th>time (UTC)</th>'
                           "<th>what</th></tr></thead><tbody>{}</tbody></table>", rows)

    @admin.display(description="hints shown")
    def hints_shown(self, game: Game) -> SafeString:
        """Which seat's phone showed which suggestion (the table's hints option), and whether the seat followed it."""
        engine = REGISTRY.get(game.engine)
        lines = hint_lines(engine, game, [step.state for step in replay_steps(game)]) if engine else {}
        if not lines:
            return format_html("{}", "—")
        rows = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                                ((line.seq, actor_name(str(line.seat), game.players), line.text())
                                 for line in lines.values()))
        return format_html('<table class="hints-shown"><thead><tr><th>move</th><th>seat</th><th>hint</th></tr>'
                           "</thead><tbody>{}</tbody></table>", rows)

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
    list_filter = (EventGameFilter, ActorFilter, "created_at")
    search_fields = ("game__table__code", "text")
    list_select_related = ("game", "game__table")
    fields = ("game", "seq", "actor_label", "text", "action", "created_at")
    readonly_fields = fields

    @admin.display(description="actor")
    def actor_label(self, event: Event) -> str:
        return actor_name(event.actor, event.game.players)


@admin.register(ReviewNote)
class ReviewNoteAdmin(admin.ModelAdmin):
    list_display = ("game_link", "disputed", "short_note", "updated_at")
    list_filter = ("disputed", "game__engine")
    search_fields = ("note", "game__table__code", "game__players")
    fields = ("game", "note", "disputed", "updated_at")
    readonly_fields = ("updated_at",)
    raw_id_fields = ("game",)
    list_select_related = ("game", "game__table")

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).order_by("-updated_at")

    @admin.display(description="game", ordering="game__started_at")
    def game_link(self, obj: ReviewNote) -> SafeString:
        url = reverse("admin:tables_game_change", args=[obj.game_id])
        return format_html('<a href="{}">{}</a>', url, obj.game)

    @admin.display(description="note")
    def short_note(self, obj: ReviewNote) -> str:
        text = " ".join(obj.note.split())
        return text if len(text) <= 80 else text[:79] + "…"
