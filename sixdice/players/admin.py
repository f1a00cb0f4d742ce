"""Staff pages for profiles: search in every script, their games, and merging two profiles."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from sixdice.tables.core.errors import ServiceError

from . import services
from .models import Participant, Profile, ProfileMerge, Rating
from .text import search_key


class RatingInline(admin.TabularInline):
    model = Rating
    fields = ("engine", "mu", "sigma", "games")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("display_name", "public_id", "hidden", "games_played", "created_at")
    list_filter = ("hidden",)
    search_fields = ("search_key",)
    readonly_fields = ("public_id", "search_key", "created_at", "games")
    fields = ("display_name", "colour", "emoji", "hidden", "public_id", "search_key", "created_at", "games")
    inlines = [RatingInline]
    actions = ["merge_selected"]

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str):
        """Search the stored normalised key, so that ``олена`` finds Олена and ``ines`` finds Inês."""
        return super().get_search_results(request, queryset, search_key(search_term))

    @admin.display(description="games")
    def games_played(self, obj: Profile) -> int:
        return obj.participations.count()

    @admin.display(description="games played")
    def games(self, obj: Profile) -> SafeString:
        rows = Participant.objects.filter(profile=obj).select_related("game", "game__table").order_by(
            "-game__finished_at")[:100]
        if not rows:
            return format_html("{}", "–")
        return format_html("<ul>{}</ul>", format_html_join(
            "", '<li><a href="{}">{} #{}</a> ({}) place {} — <a href="{}">replay</a></li>',
            ((reverse("admin:tables_game_change", args=[r.game_id]), r.game.table.code, r.game.number,
              r.game.engine, r.rank, reverse("review:replay", args=[r.game.table.code, r.game.number]))
             for r in rows)))

    @admin.action(description="Merge the selected profiles into the oldest one")
    def merge_selected(self, request: HttpRequest, queryset: QuerySet) -> None:
        profiles = list(queryset.order_by("created_at", "pk"))
        if len(profiles) != 2:
            self.message_user(request, "Select exactly two profiles to merge.", messages.ERROR)
            return
        keep, remove = profiles
        try:
            record = services.merge_profiles(keep=keep, remove=remove, by=request.user)
        except ServiceError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return
        self.message_user(request, f"{record.removed_name} merged into {record.kept_name} "
                                   f"({record.games_moved} games moved).", messages.SUCCESS)


@admin.register(ProfileMerge)
class ProfileMergeAdmin(admin.ModelAdmin):
    list_display = ("removed_name", "kept_name", "games_moved", "merged_by", "merged_at")
    readonly_fields = ("kept", "kept_name", "removed_public_id", "removed_name", "games_moved", "merged_by",
                       "merged_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
