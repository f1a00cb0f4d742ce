"""Reviewer notes in the admin: edited on a game's own page (an inline), and listed on their own."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from .models import ReviewNote


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
