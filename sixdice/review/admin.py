"""The review desk: the Django admin for tables, seats, games and their event logs (staff only).

Games and events are read-only here: the log is append-only everywhere, and
a game's snapshot must stay the replay of its log.  A game's page opens on
its summary (:mod:`sixdice.review.summary`: the result and why, who hosted,
who decided and how often against the engine's default, every undo,
take-back and correction, the reviewer's note), each with a link to that
moment of the replay; then the note's editor, the game's details (options in
words, hands signed, seats counted from 1) and the log, a page at a time,
each row linking to its replay step.  The one thing staff can change there
is the reviewer note and its "disputed" flag.

Times are in the club's time zone and say so (:mod:`sixdice.review.local_time`);
searches over names ignore case and accents (:mod:`sixdice.review.search`);
games are imported from an upload as ``import_game`` imports a file
(:mod:`sixdice.review.downloads`), and downloads are named for their table
and day.  No Delete is offered where it would be refused.
"""

from __future__ import annotations

import io
import zipfile
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from sixdice.gamekit.engine import REGISTRY
from sixdice.gamekit.replay import is_undo, undone_by
from sixdice.tables.models import Event, Game, Seat, Table
from sixdice.tables.writes import services

from . import exchange, limits
from .decisions import bots_of, decisions, who_began
from .dice import hands_html
from .downloads import UploadRefused, attachment, documents, games_filename
from .hints import hint_lines
from .local_time import LocalDateFilter, heading, labelled, local
from .models import ImportMark, ReviewNote, note_of, save_note
from .search import FoldedSearchMixin
from .stats import end_reason_label
from .steps import actor_name, replay_steps, undone_text
from .summary import host_of, step_url, summarise
from .tablelog import bots_by_event, table_log
from .wording import option_rows

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

admin.site.site_header = _("Six-Dice administration")
admin.site.site_title = _("Six-Dice administration")
admin.site.index_title = _("The review desk")

LOG_PAGE = 25
"""Events per page of a game's log on its admin page (the whole log: the Events list, filtered to the game)."""


def _zoned(label: str) -> Any:
    """A column heading naming the club's time zone, worked out when shown (the language and zone of the request)."""
    return lazy(lambda: heading(gettext(label)), str)()


class _TableCounts(TypedDict):
    """What :meth:`TableAdmin.get_queryset` adds to each table row."""

    _seats: int
    _games: int


class DeskMedia:
    """The review desk's style sheet (summary, paged log, options in words, a list that fits)."""

    class Media:
        css = {"all": ("review/admin.css",)}


class ReadOnlyMixin:
    """No adding, changing or deleting: the page is for looking."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


def game_title(game: Game) -> str:
    """"887PK · game 1": the table and the game's number (the kind of game has its own column)."""
    return gettext("%(code)s · game %(n)s") % {"code": game.table.code, "n": game.number}


def seat_number(position: int | None) -> str:
    """Seats are counted from 1 everywhere a person reads them."""
    return "—" if position is None else str(position + 1)


# ---------------------------------------------------------------- filters


class PlayerCountFilter(admin.SimpleListFilter):
    title = _("number of players")
    parameter_name = "players"

    def lookups(self, request: HttpRequest, model_admin):
        return [(str(n), ngettext("%(n)s player", "%(n)s players", n) % {"n": n}) for n in range(2, 9)]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if not value or not value.isdigit():
            return queryset
        return queryset.annotate(_players=Count("table__seats", distinct=True)).filter(_players=int(value))


class EngineFilter(admin.SimpleListFilter):
    """The game, by its name (not its slug); ``field`` is the lookup that holds the slug."""

    title = _("game")
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
    title = _("kind of game")
    parameter_name = field = "game__engine"


class OneGameFilter(admin.SimpleListFilter):
    """The events of one game (``?game=<id>``), as the game's page links to its whole log."""

    title = _("one game")
    parameter_name = "game"

    def lookups(self, request: HttpRequest, model_admin):
        value = self.value()
        if value and value.isdigit():
            game = Game.objects.select_related("table").filter(pk=int(value)).first()
            if game is not None:
                return [(str(game.pk), game_title(game))]
        return []

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        return queryset.filter(game_id=int(value)) if value and value.isdigit() else queryset


class ActorFilter(admin.SimpleListFilter):
    """Who sent an event, in words: a seat (1-based, as the player lists), the host or the app."""

    title = _("actor")
    parameter_name = "actor"

    def lookups(self, request: HttpRequest, model_admin):
        seats = max((engine.max_players for engine in REGISTRY.values()), default=8)
        return [(str(i), gettext("Seat %(n)s") % {"n": i + 1}) for i in range(seats)] + [
            ("host", gettext("Host")), ("system", gettext("App"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        return queryset.filter(actor=self.value()) if self.value() else queryset


class EndReasonFilter(admin.SimpleListFilter):
    """How the game ended, in words."""

    title = _("end reason")
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


class StatusFilter(admin.SimpleListFilter):
    """Whether the game is finished, abandoned or still being played, in words."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin):
        return [(Game.Status.FINISHED, gettext("Finished")), (Game.Status.PLAYING, gettext("Still being played")),
                (Game.Status.ABANDONED, gettext("Abandoned: the table was closed"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        return queryset.filter(status=self.value()) if self.value() else queryset


class DisputedFilter(admin.SimpleListFilter):
    """Games a reviewer flagged as disputed (see the reviewer note)."""

    title = _("disputed")
    parameter_name = "disputed"

    def lookups(self, request: HttpRequest, model_admin):
        return [("yes", gettext("Disputed")), ("no", gettext("Not disputed"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "yes":
            return queryset.filter(review_note__disputed=True)
        if self.value() == "no":
            return queryset.exclude(review_note__disputed=True)
        return queryset


HAS_NOTE = Q(review_note__isnull=False) & ~Q(review_note__note="")


class NoteFilter(admin.SimpleListFilter):
    """Games with a reviewer's written note (an empty note is no note)."""

    title = _("reviewer note")
    parameter_name = "note"

    def lookups(self, request: HttpRequest, model_admin):
        return [("yes", gettext("Has a note")), ("no", gettext("No note"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "yes":
            return queryset.filter(HAS_NOTE)
        if self.value() == "no":
            return queryset.exclude(HAS_NOTE)
        return queryset


class ImportedFilter(admin.SimpleListFilter):
    title = _("origin")
    parameter_name = "imported"

    def lookups(self, request: HttpRequest, model_admin):
        return (("yes", gettext("imported")), ("no", gettext("played here")))

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "yes":
            return queryset.filter(import_mark__isnull=False)
        if self.value() == "no":
            return queryset.filter(import_mark__isnull=True)
        return queryset


# ---------------------------------------------------------------- inlines


class ReviewNoteForm(forms.ModelForm):
    class Meta:
        model = ReviewNote
        fields = ("note", "disputed")
        widgets = {"note": forms.Textarea(attrs={"rows": 3, "cols": 80})}
        labels = {"note": _("Note"), "disputed": _("Disputed")}
        help_texts = {"note": _("Seen by staff only: on this page, the replay and in exports. Leave it empty and "
                                "untick “disputed” to remove the note."),
                      "disputed": _("Someone contests how this game went or ended.")}


class ReviewNoteInline(admin.StackedInline):
    """The note and the "disputed" flag, editable on the (otherwise read-only) game page.

    Drawn by ``admin/review/note_inline.html``: one form titled "Reviewer note"
    (or "Write a reviewer note" while there is none), no "#1", no remove
    button; a note emptied and not disputed is removed (:func:`save_note`).
    """

    model = ReviewNote
    form = ReviewNoteForm
    template = "admin/review/note_inline.html"
    fields = ("note", "disputed")
    extra = 1
    max_num = 1
    can_delete = False
    verbose_name = _("reviewer note")
    verbose_name_plural = _("reviewer note")


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    fields = ("seat", "name", "is_bot", "joined_local")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False
    verbose_name = _("seat")
    verbose_name_plural = _("seats")

    @admin.display(description=_("seat"))
    def seat(self, obj: Seat) -> str:
        return seat_number(obj.position)

    @admin.display(description=_zoned(gettext_noop("joined")))
    def joined_local(self, obj: Seat) -> str:
        return local(obj.joined_at)


class GameInline(ReadOnlyMixin, admin.TabularInline):
    model = Game
    fields = ("number", "game_label", "status", "end_reason_text", "started_local", "finished_local", "links")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    @admin.display(description=_("game"))
    def game_label(self, game: Game) -> str:
        return _label(game)

    @admin.display(description=_("end reason"))
    def end_reason_text(self, game: Game) -> str:
        return end_reason_label(game.engine, game.end_reason) if game.end_reason else "—"

    @admin.display(description=_zoned(gettext_noop("started")))
    def started_local(self, game: Game) -> str:
        return local(game.started_at)

    @admin.display(description=_zoned(gettext_noop("finished")))
    def finished_local(self, game: Game) -> str:
        return local(game.finished_at)

    @admin.display(description=_("review"))
    def links(self, game: Game) -> SafeString:
        return _links(game)


def _label(game: Game) -> str:
    engine = REGISTRY.get(game.engine)
    return engine.label if engine is not None else game.engine


def _links(game: Game) -> SafeString:
    replay = reverse("review:replay", args=[game.table.code, game.number])
    export = reverse("review:export", args=[game.table.code, game.number])
    if game.status == Game.Status.PLAYING:
        return format_html('<a href="{}">{}</a> ({})', export, gettext("export"), gettext("replay once finished"))
    if game.status == Game.Status.ABANDONED:
        return format_html('<a href="{}">{}</a> · <a href="{}">{}</a> ({})', replay, gettext("replay"), export,
                           gettext("export"), gettext("abandoned: up to where it stopped"))
    return format_html('<a href="{}">{}</a> · <a href="{}">{}</a>', replay, gettext("replay"), export,
                       gettext("export"))


def _short_links(game: Game) -> SafeString:
    """The list's links, one a line: the replay (once there is one) and the export."""
    replay = reverse("review:replay", args=[game.table.code, game.number])
    export = reverse("review:export", args=[game.table.code, game.number])
    if game.status == Game.Status.PLAYING:
        return format_html('<a href="{}">{}</a>', export, gettext("export"))
    return format_html('<a href="{}">{}</a><br><a href="{}">{}</a>', replay, gettext("replay"), export,
                       gettext("export"))


# ---------------------------------------------------------------- tables and seats


@admin.register(Table)
class TableAdmin(DeskMedia, FoldedSearchMixin, admin.ModelAdmin):
    list_display = ("code", "game_label", "status", "host", "capacity", "seat_count", "game_count", "paused",
                    "created_local")
    list_filter = (TableGameFilter, "status", ("created_at", LocalDateFilter))
    search_fields = ("code",)
    folded_search_fields = ("code", "host_name", "seats__name")
    fields = ("code", "game_label", "options_text", "host", "capacity", "status", "paused", "created_local",
              "updated_local")
    readonly_fields = fields  # status and paused change only through the services (the actions below)
    inlines = (SeatInline, GameInline)
    actions = ("close_tables", "pause_tables", "resume_tables")
    change_form_template = "admin/tables/table/change_form.html"

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None):
        return super().change_view(request, object_id, form_url, {"title": gettext("Table"), **(extra_context or {})})

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str) -> tuple[QuerySet, bool]:
        found, _dupes = super().get_search_results(request, queryset, search_term)
        return found, bool(search_term.strip())  # a table matches once per seat whose name matches

    @admin.action(description=_("Close selected tables (a game in play is kept, abandoned)"), permissions=("change",))
    def close_tables(self, request: HttpRequest, queryset: QuerySet) -> None:
        tables = list(queryset.exclude(status=Table.Status.CLOSED))
        for table in tables:
            services.close_table(table=table)
        self.message_user(request, ngettext("Closed %(n)s table.", "Closed %(n)s tables.", len(tables))
                          % {"n": len(tables)}, messages.SUCCESS)

    @admin.action(description=_("Pause selected tables"), permissions=("change",))
    def pause_tables(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._set_paused(request, queryset, paused=True)

    @admin.action(description=_("Resume selected tables"), permissions=("change",))
    def resume_tables(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._set_paused(request, queryset, paused=False)

    def _set_paused(self, request: HttpRequest, queryset: QuerySet, *, paused: bool) -> None:
        tables = list(queryset.exclude(status=Table.Status.CLOSED).exclude(paused=paused))
        for table in tables:
            services.set_paused(table=table, paused=paused)
        n = len(tables)
        text = ngettext("Paused %(n)s table.", "Paused %(n)s tables.", n) if paused else \
            ngettext("Resumed %(n)s table.", "Resumed %(n)s tables.", n)
        self.message_user(request, text % {"n": n}, messages.SUCCESS)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(
            _seats=Count("seats", distinct=True), _games=Count("games", distinct=True)
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tables are opened by hosts (or by an import)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # deleting a table would delete its games and their logs, which nobody may delete

    @admin.display(description=_("game"), ordering="game")
    def game_label(self, table: Table) -> str:
        engine = REGISTRY.get(table.game)
        return engine.label if engine is not None else table.game

    @admin.display(description=_("host"))
    def host(self, table: Table) -> str:
        if table.host_seat is not None:
            seat = table.seats.filter(position=table.host_seat).first()
            if seat is not None:
                return gettext("%(name)s (seat %(n)s)") % {"name": seat.name, "n": table.host_seat + 1}
        return table.host_name or "—"

    @admin.display(description=_("options"))
    def options_text(self, table: Table) -> SafeString:
        return _options_html(table.options, table.game)

    @admin.display(description=_("seats"), ordering="_seats")
    def seat_count(self, table: WithAnnotations[Table, _TableCounts]) -> int:
        return table._seats

    @admin.display(description=_("games"), ordering="_games")
    def game_count(self, table: WithAnnotations[Table, _TableCounts]) -> int:
        return table._games

    @admin.display(description=_zoned(gettext_noop("opened")), ordering="created_at")
    def created_local(self, table: Table) -> str:
        return local(table.created_at)

    @admin.display(description=_zoned(gettext_noop("last change")))
    def updated_local(self, table: Table) -> str:
        return local(table.updated_at)


def _options_html(options: Any, slug: str) -> SafeString:
    rows = option_rows(options if isinstance(options, dict) else {}, REGISTRY.get(slug))
    if not rows:
        return format_html("{}", "—")
    return format_html('<dl class="options">{}</dl>',
                       format_html_join("", "<div><dt>{}</dt><dd>{}</dd></div>", rows))


@admin.register(Seat)
class SeatAdmin(DeskMedia, FoldedSearchMixin, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("name", "seat", "table", "is_bot", "joined_local")
    list_filter = ("is_bot", SeatGameFilter)
    search_fields = ("name",)
    folded_search_fields = ("name", "table__code")
    fields = ("table", "seat", "name", "is_bot", "joined_local")
    readonly_fields = fields
    list_select_related = ("table",)

    @admin.display(description=_("seat"), ordering="position")
    def seat(self, obj: Seat) -> str:
        return seat_number(obj.position)

    @admin.display(description=_zoned(gettext_noop("joined")), ordering="joined_at")
    def joined_local(self, obj: Seat) -> str:
        return local(obj.joined_at)


def _mark_of(game: Game) -> ImportMark | None:
    try:
        return game.import_mark
    except ImportMark.DoesNotExist:
        return None


# ---------------------------------------------------------------- games


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Export file (JSON or zip)"),
                           help_text=_("A file made by a game's export, “Export selected games” or "
                                       "manage.py export_game."))
    unsigned = forms.BooleanField(
        required=False, label=_("Also take games this install did not sign"),
        help_text=_("From another install or an older version: who sent each move and the bot flags are then "
                    "taken on trust, and the games are marked not verified (as import_game --unsigned)."))


@admin.register(Game)
class GameAdmin(DeskMedia, FoldedSearchMixin, ReadOnlyMixin, admin.ModelAdmin):
    """A game's page is read-only, except its reviewer note (the inline): saving the page saves only that."""

    list_display = ("table_number", "game_label", "players_list", "winner_names", "ended", "has_note", "disputed",
                    "when", "list_links")
    list_display_links = ("table_number",)
    list_filter = (EngineFilter, StatusFilter, EndReasonFilter, NoteFilter, DisputedFilter, ("started_at", LocalDateFilter),
                   PlayerCountFilter, ImportedFilter)
    inlines = (ReviewNoteInline,)
    search_fields = ("table__code",)
    folded_search_fields = ("table__code",)
    folded_json_fields = ("players",)
    date_hierarchy = "started_at"
    list_select_related = ("table", "import_mark", "review_note")
    list_per_page = 50
    actions = ("export_json", "export_zip", "export_csv")
    change_form_template = "admin/tables/game/change_form.html"
    change_list_template = "admin/tables/game/change_list.html"
    fieldsets = (
        (_("The game"), {"fields": (("table_link", "number_text", "game_label", "status"),
                                    ("host", "imported", "review_links"), "options_html", "player_names", "began",
                                    ("winner_names", "end_reason_text", "places_html"),
                                    ("started_local", "finished_local", "seq"))}),
        (_("Final hands"), {"fields": ("final_hands",), "classes": ("collapse",)}),
        (_("Table log"), {"fields": ("table_changes",), "classes": ("collapse",)}),
        (_("Hints shown"), {"fields": ("hints_shown",), "classes": ("collapse",)}),
    )
    readonly_fields = ("table_link", "number_text", "game_label", "status", "host", "imported", "review_links",
                       "options_html", "player_names", "began", "winner_names", "end_reason_text", "places_html",
                       "started_local", "finished_local", "seq", "final_hands", "table_changes", "hints_shown")

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        # Only the reviewer note can change (every field of the game is read-only).
        return request.user.has_perm("review.change_reviewnote") or request.user.has_perm("review.add_reviewnote")

    def can_import(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tables.add_game")

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("table", "review_note", "import_mark")

    def get_urls(self) -> list[URLPattern]:
        return [path("import/", self.admin_site.admin_view(self.import_view), name="tables_game_import"),
                *super().get_urls()]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None):
        extra = {"can_import": self.can_import(request), "title": gettext("Games: choose one to review"),
                 **(extra_context or {})}
        return super().changelist_view(request, extra)

    # -- the list

    @admin.display(description=_("table · game"), ordering="table__code")
    def table_number(self, game: Game) -> SafeString:
        """"887PK · 1" (the kind of game has its own column); an imported game says so beneath."""
        mark = _mark_of(game)
        imported: SafeString | str = ""
        if mark is not None:
            imported = format_html('<br><small class="imported" title="{}">{}{}</small>', mark.source,
                                   gettext("imported"),
                                   "" if mark.verified else " " + gettext("(unsigned: not verified)"))
        return format_html('<span class="nowrap">{} · {}</span>{}', game.table.code, game.number, imported)

    @admin.display(description=_("game"), ordering="engine")
    def game_label(self, game: Game) -> str:
        return _label(game)

    @admin.display(description=_("players"))
    def players_list(self, game: Game) -> str:
        return ", ".join(game.players)

    @admin.display(description=_("how it ended"), ordering="end_reason")
    def ended(self, game: Game) -> str:
        if game.status == Game.Status.PLAYING:
            return gettext("Still being played")
        return end_reason_label(game.engine, game.end_reason)

    @admin.display(description=_("note"), boolean=True)
    def has_note(self, game: Game) -> bool:
        note = note_of(game)
        return note is not None and bool(note.note.strip())

    @admin.display(description=_("disputed"), boolean=True)
    def disputed(self, game: Game) -> bool:
        note = note_of(game)
        return note is not None and note.disputed

    @admin.display(description=_zoned(gettext_noop("when")), ordering="started_at")
    def when(self, game: Game) -> SafeString:
        """The day, then the start and end times ("2026-12-01" / "21:14–21:40"), on the club's clock."""
        day, start = local(game.started_at, "%Y-%m-%d"), local(game.started_at, "%H:%M")
        if game.finished_at is None:
            return format_html('<span class="nowrap">{}</span><br>{}–', day, start)
        same_day = day == local(game.finished_at, "%Y-%m-%d")
        end = local(game.finished_at, "%H:%M" if same_day else "%Y-%m-%d %H:%M")
        return format_html('<span class="nowrap">{}</span><br><span class="nowrap">{}–{}</span>', day, start, end)

    @admin.display(description=_("review"))
    def list_links(self, game: Game) -> SafeString:
        return _short_links(game)

    @admin.display(description=_("review"))
    def review_links(self, game: Game) -> SafeString:
        return _links(game)

    # -- the page

    @admin.display(description=_("end reason"), ordering="end_reason")
    def end_reason_text(self, game: Game) -> str:
        return end_reason_label(game.engine, game.end_reason) if game.end_reason else "—"

    @admin.display(description=_("began"))
    def began(self, game: Game) -> str:
        """Who began (1-based, as the player list) and why, read from the game's states; the table's own draw
        is named only when the rules overruled it."""
        engine = REGISTRY.get(game.engine)
        names = list(game.players)
        if engine is None:
            return gettext("Seat %(n)s (the table's draw)") % {"n": game.first + 1}
        seat, why = who_began(engine, _replayed(game)[1], game.first)
        name = names[seat] if seat < len(names) else "?"
        text = gettext("%(n)s. %(name)s — %(why)s") % {"n": seat + 1, "name": name, "why": why}
        if seat != game.first and game.first < len(names):
            text += " " + gettext("(the table's random draw had named %(name)s to begin; the game's own rule "
                                  "decided instead)") % {"name": names[game.first]}
        return text

    @admin.display(description=_("imported"))
    def imported(self, game: Game) -> str:
        """Played here ("—") or imported: from which file, and when."""
        mark = _mark_of(game)
        if mark is None:
            return gettext("no, played here")
        text = gettext("from %(file)s, %(when)s") % {"file": mark.source or gettext("a file"),
                                                     "when": labelled(mark.imported_at)}
        return text if mark.verified else text + " " + gettext("(unsigned: not verified)")

    @admin.display(description=_("number at the table"))
    def number_text(self, game: Game) -> int:
        return game.number

    @admin.display(description=_("table"))
    def table_link(self, game: Game) -> SafeString:
        url = reverse("admin:tables_table_change", args=[game.table_id])
        return format_html('<a href="{}">{}</a>', url, game.table.code)

    @admin.display(description=_("host"))
    def host(self, game: Game) -> str:
        return host_of(game)

    @admin.display(description=_("options"))
    def options_html(self, game: Game) -> SafeString:
        return _options_html(game.options, game.engine)

    @admin.display(description=_("players"))
    def player_names(self, game: Game) -> str:
        bots = bots_of(game)
        return ", ".join(f"{seat + 1}. {name}" + (" " + gettext("(bot)") if bots[seat] else "")
                         for seat, name in enumerate(game.players))

    @admin.display(description=_("winners"))
    def winner_names(self, game: Game) -> str:
        return ", ".join(actor_name(str(seat), game.players) for seat in game.winners) or "—"

    @admin.display(description=_("places"))
    def places_html(self, game: Game) -> str:
        places = [actor_name(str(seat), game.players) for seat in game.places or []]
        text = ", ".join(f"{i}. {name}" for i, name in enumerate(places, start=1)) or "—"
        if game.loser is not None:
            text += " " + gettext("(lost: %(name)s)") % {"name": actor_name(str(game.loser), game.players)}
        return text

    @admin.display(description=_zoned(gettext_noop("started")))
    def started_local(self, game: Game) -> str:
        return local(game.started_at, "%Y-%m-%d %H:%M:%S")

    @admin.display(description=_zoned(gettext_noop("finished")))
    def finished_local(self, game: Game) -> str:
        return local(game.finished_at, "%Y-%m-%d %H:%M:%S")

    @admin.display(description=_("final hands"))
    def final_hands(self, game: Game) -> SafeString:
        return hands_html(game.engine, game.state, game.players)

    @admin.display(description=_("table log"))
    def table_changes(self, game: Game) -> SafeString:
        """Pauses, seats the app took over, closing the table: each after the move it followed."""
        changes = table_log(game)
        if not changes:
            return format_html("{}", "—")
        rows = format_html_join("", '<tr><td><a href="{}">{}</a></td><td class="nowrap">{}</td><td>{}</td></tr>',
                                ((step_url(game, c.step), c.step, local(c.at, "%Y-%m-%d %H:%M:%S"), c.text)
                                 for c in changes))
        return format_html('<table class="table-log"><thead><tr><th>{}</th><th>{}</th><th>{}</th></tr></thead>'
                           "<tbody>{}</tbody></table>", gettext("after move"), heading(gettext("time")),
                           gettext("what"), rows)

    @admin.display(description=_("hints shown"))
    def hints_shown(self, game: Game) -> SafeString:
        """Which seat's phone showed which suggestion (the table's hints option), and whether the seat followed it."""
        engine = REGISTRY.get(game.engine)
        lines = hint_lines(engine, game, [step.state for step in _replayed(game)[1]]) if engine else {}
        if not lines:
            return format_html("{}", "—")
        rows = format_html_join("", '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td></tr>',
                                ((step_url(game, line.seq), line.seq, actor_name(str(line.seat), game.players),
                                  line.text()) for line in lines.values()))
        return format_html('<table class="hints-shown"><thead><tr><th>{}</th><th>{}</th><th>{}</th></tr>'
                           "</thead><tbody>{}</tbody></table>", gettext("move"), gettext("seat"), gettext("hint"),
                           rows)

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> Game | None:
        """The same game object for the whole page (its replay is worked out once, see :func:`_replayed`)."""
        cached = getattr(request, "_review_game", None)
        if cached is not None and from_field is None and str(cached.pk) == str(object_id):
            return cached
        game = super().get_object(request, object_id, from_field)
        if game is not None and from_field is None:
            request._review_game = game  # type: ignore[attr-defined]
        return game

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None):
        game = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if game is not None:
            extra.update(review_desk(game, request.GET.get("log")))
            extra["title"] = gettext("Review a game")
            extra["can_edit_note"] = self.has_change_permission(request, game)
        return super().change_view(request, object_id, form_url, extra)

    def get_inline_instances(self, request: HttpRequest, obj=None):
        return super().get_inline_instances(request, obj) if obj is not None else []

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        """Nothing of the game itself is saved: only its note (:meth:`save_formset`)."""

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        """The note is saved through :func:`save_note` with its author; an emptied note is removed."""
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        if formset.model is not ReviewNote:
            return
        game = form.instance
        for note_form in formset.forms:
            if not note_form.has_changed():
                continue
            before = note_of(game)
            saved = save_note(game, note=note_form.cleaned_data.get("note", ""),
                              disputed=bool(note_form.cleaned_data.get("disputed")), author=request.user)
            if saved is None and before is not None:
                formset.deleted_objects.append(before)
            elif saved is not None and before is None:
                formset.new_objects.append(saved)
            elif saved is not None:
                formset.changed_objects.append((saved, note_form.changed_data))
            game._state.fields_cache.pop("review_note", None)  # the next look reads the saved note

    # -- import

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload an export (JSON or zip) and import it as ``import_game`` does; a refusal says why, in words."""
        if not self.can_import(request):
            raise PermissionDenied
        form = ImportForm(request.POST or None, request.FILES or None)
        error = ""
        status = 200
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                games = exchange.import_documents(documents(upload), source=upload.name[:200],
                                                  unsigned=form.cleaned_data["unsigned"])
            except (exchange.ImportRefused, UploadRefused, limits.TooLarge) as exc:
                error = str(exc)
            else:
                n = len(games)
                self.message_user(request, ngettext("Imported %(n)s game: %(games)s.", "Imported %(n)s games: %(games)s.",
                                                    n) % {"n": n, "games": ", ".join(game_title(g) for g in games)},
                                  messages.SUCCESS)
                if n == 1:
                    return HttpResponseRedirect(reverse("admin:tables_game_change", args=[games[0].pk]))
                return HttpResponseRedirect(reverse("admin:tables_game_changelist") + "?imported=yes")
        if request.method == "POST" and (error or not form.is_valid()):
            status = 400
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta, "form": form, "error": error,
            "title": gettext("Import games"), "max_bytes": limits.MAX_FILE_BYTES,
        }
        return TemplateResponse(request, "admin/review/import_games.html", context, status=status)

    # -- downloads

    @admin.action(description=_("Export selected games (JSON list of documents)"))
    def export_json(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse:
        games = list(queryset.select_related("table").order_by("started_at", "pk"))
        response = HttpResponse(exchange.dumps([exchange.export_game(g) for g in games]),
                                content_type="application/json")
        response["Content-Disposition"] = attachment(games_filename(games, "json"))
        return response

    @admin.action(description=_("Export selected games (zip, one JSON file per game)"))
    def export_zip(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse:
        from .downloads import game_filename

        games = list(queryset.select_related("table").order_by("started_at", "pk"))
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for game in games:
                archive.writestr(game_filename(game), exchange.dumps(exchange.export_game(game)))
        response = HttpResponse(buffer.getvalue(), content_type="application/zip")
        response["Content-Disposition"] = attachment(games_filename(games, "zip"))
        return response

    @admin.action(description=_("Export selected games as CSV (one row per game)"))
    def export_csv(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse:
        games = list(queryset.select_related("table").order_by("started_at", "pk"))
        response = HttpResponse(exchange.games_csv(games), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = attachment(games_filename(games, "csv"))
        return response


def _replayed(game: Game) -> tuple[list[Event], list[Any]]:
    """The game's events and replay steps, worked out once per page (kept on the game object the page shows)."""
    cached = vars(game).get("_review_replay")
    if cached is None:
        events = list(game.events.order_by("seq"))
        cached = (events, replay_steps(game, events) if game.engine in REGISTRY else [])
        vars(game)["_review_replay"] = cached
    return cached


def review_desk(game: Game, raw_page: str | None) -> dict[str, Any]:
    """The game page's summary and one page of its log (``?log=<page>``), from one replay of the log."""
    events, steps = _replayed(game)
    engine = REGISTRY.get(game.engine)
    made = decisions(engine, steps, bots_by_event(game, events), game.players) if engine else []
    summary = summarise(game, engine, events, steps, made) if engine else None
    pages = max(1, -(-len(events) // LOG_PAGE))
    page = int(raw_page) if raw_page and raw_page.isdigit() else 1
    page = min(max(page, 1), pages)
    first = (page - 1) * LOG_PAGE
    shown = events[first:first + LOG_PAGE]
    gone = undone_by((e.actor, e.action) for e in events)
    rows = []
    for e in shown:
        d = made[e.seq - 1] if e.seq - 1 < len(made) else None
        default: SafeString | str = ""
        if d is not None and d.default is not None and not is_undo(e.action):
            default = format_html('<strong class="differs">≠ {}</strong>', d.default_text) if d.differs else \
                mark_safe('<span class="same">= {}</span>'.format(gettext("default")))  # noqa: S308 - our words
        line = steps[e.seq].line() if e.seq < len(steps) else e.text
        undo = gone.get(e.seq)
        rows.append({
            "seq": e.seq, "url": step_url(game, e.seq), "line": line, "time": local(e.created_at, "%H:%M:%S"),
            "who": d.label(game.players) if d else actor_name(e.actor, game.players),
            "kind": d.kind if d else "", "default": default,
            "undone": undone_text(events[undo - 1].actor, events[undo - 1].action, undo, game.players) if undo else "",
            "undone_url": step_url(game, undo) if undo else "",
        })
    return {
        "summary": summary,
        "log": {
            "rows": rows, "page": page, "pages": pages, "first": first + 1 if shown else 0,
            "last": first + len(shown), "total": len(events),
            "previous": page - 1 if page > 1 else None, "next": page + 1 if page < pages else None,
            "page_links": _page_links(page, pages),
            "events_url": reverse("admin:tables_event_changelist") + f"?game={game.pk}",
            "time_heading": heading(gettext("time")),
        },
    }


def _page_links(page: int, pages: int) -> list[int | None]:
    """Page numbers to link: the first, the last and two either side of this one (``None``: a gap)."""
    wanted = sorted({1, pages, *range(max(1, page - 2), min(pages, page + 2) + 1)})
    out: list[int | None] = []
    for before, n in zip([None, *wanted], wanted, strict=False):
        if before is not None and n - before > 1:
            out.append(None)
        out.append(n)
    return out


# ---------------------------------------------------------------- events and notes


@admin.register(Event)
class EventAdmin(DeskMedia, FoldedSearchMixin, ReadOnlyMixin, admin.ModelAdmin):
    """The log is append-only: events can be looked at, never added, changed or deleted."""

    list_display = ("seq", "game_link", "actor_label", "text", "time_local", "replay_link")
    list_filter = (OneGameFilter, EventGameFilter, ActorFilter, ("created_at", LocalDateFilter))
    search_fields = ("text",)
    folded_search_fields = ("game__table__code", "text")
    folded_json_fields = ("game__players",)
    list_select_related = ("game", "game__table")
    fields = ("game", "seq", "actor_label", "text", "action", "time_local", "replay_link")
    readonly_fields = fields
    list_per_page = 100

    def get_ordering(self, request: HttpRequest) -> tuple[str, ...]:
        return ("game", "seq") if request.GET.get("game") else ("-created_at", "game", "seq")

    @admin.display(description=_("table · game"), ordering="game")
    def game_link(self, event: Event) -> SafeString:
        url = reverse("admin:tables_game_change", args=[event.game_id])
        return format_html('<a href="{}">{}</a>', url, game_title(event.game))

    @admin.display(description=_("actor"))
    def actor_label(self, event: Event) -> str:
        if event.actor.isdigit() and int(event.actor) < len(event.game.players):
            return gettext("%(name)s (seat %(n)s)") % {"name": event.game.players[int(event.actor)],
                                                      "n": int(event.actor) + 1}
        return {"host": gettext("Host"), "system": gettext("App")}.get(event.actor, event.actor)

    @admin.display(description=_zoned(gettext_noop("time")), ordering="created_at")
    def time_local(self, event: Event) -> str:
        return local(event.created_at, "%Y-%m-%d %H:%M:%S")

    @admin.display(description=_("replay"))
    def replay_link(self, event: Event) -> SafeString:
        return format_html('<a href="{}">{}</a>', step_url(event.game, event.seq),
                           gettext("step %(n)s") % {"n": event.seq})


@admin.register(ReviewNote)
class ReviewNoteAdmin(DeskMedia, FoldedSearchMixin, admin.ModelAdmin):
    list_display = ("game_link", "disputed", "short_note", "written_by", "updated_local")
    list_filter = ("disputed", "game__engine")
    search_fields = ("note",)
    folded_search_fields = ("note", "game__table__code", "author_name")
    folded_json_fields = ("game__players",)
    fields = ("game", "note", "disputed", "written_by", "updated_local")
    readonly_fields = ("written_by", "updated_local")
    raw_id_fields = ("game",)
    list_select_related = ("game", "game__table")

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).order_by("-updated_at")

    def save_model(self, request: HttpRequest, obj: ReviewNote, form: Any, change: bool) -> None:
        """Saved with its author; a note emptied and not disputed is removed, as on the game page."""
        saved = save_note(obj.game, note=obj.note, disputed=obj.disputed, author=request.user)
        if saved is not None:
            obj.pk = saved.pk

    @admin.display(description=_("table · game"), ordering="game__started_at")
    def game_link(self, obj: ReviewNote) -> SafeString:
        url = reverse("admin:tables_game_change", args=[obj.game_id])
        return format_html('<a href="{}">{}</a>', url, game_title(obj.game))

    @admin.display(description=_("written by"), ordering="author_name")
    def written_by(self, obj: ReviewNote) -> str:
        return obj.author_name or gettext("not recorded")

    @admin.display(description=_("note"))
    def short_note(self, obj: ReviewNote) -> str:
        text = " ".join(obj.note.split())
        return text if len(text) <= 80 else text[:79] + "…"

    @admin.display(description=_zoned(gettext_noop("written")), ordering="updated_at")
    def updated_local(self, obj: ReviewNote) -> str:
        return local(obj.updated_at)
