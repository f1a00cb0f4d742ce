"""Staff pages for profiles: search in every script, their games, and merging two profiles."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from sixdice.tables.core.errors import ServiceError

from . import guests, services
from .models import COLOURS, EMOJIS, Participant, Profile, ProfileMerge, Rating, colour_names
from .selectors import engine_label, leaderboard_place
from .text import search_key
from .views import MIN_GAMES


def _zoned(label: str) -> Any:
    """A column heading naming the club's time zone (``TIME_ZONE``), as the review desk's headings do."""
    return lazy(lambda: gettext("%(label)s (%(zone)s)") % {
        "label": gettext(label), "zone": timezone.get_current_timezone_name().replace("/", "/\u200b")}, str)()


def _local(value: datetime | None) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if value is not None else "–"


class RatingInline(admin.TabularInline):
    """A profile's ratings as the public pages give them: the game, the rating, the place on the leaderboard."""

    model = Rating
    fields = ("game_label", "rating", "place", "games")
    readonly_fields = fields
    extra = 0
    can_delete = False
    verbose_name = _("rating")
    verbose_name_plural = _("ratings")

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description=_("game"))
    def game_label(self, obj: Rating) -> str:
        return engine_label(obj.engine)

    @admin.display(description=_("rating"))
    def rating(self, obj: Rating) -> str:
        return number_format(obj.ordinal, 1)

    @admin.display(description=_("place on the leaderboard"))
    def place(self, obj: Rating) -> str:
        if obj.games < MIN_GAMES:
            return ngettext("not on the leaderboard yet: %(n)s of %(min)s rated game",
                            "not on the leaderboard yet: %(n)s of %(min)s rated games", MIN_GAMES) % {
                "n": obj.games, "min": MIN_GAMES}
        place = leaderboard_place(obj.engine, obj.profile_id, min_games=MIN_GAMES)
        if place is None:  # pragma: no cover - a rating the board does not hold
            return "–"
        return gettext("%(place)s of %(count)s") % {"place": place[0], "count": place[1]}


class ProfileForm(forms.ModelForm):
    """The avatar is one of the colours and emojis the profile page offers, shown by name, not as a code."""

    colour = forms.ChoiceField(label=_("Colour"), choices=[])
    emoji = forms.ChoiceField(label=_("Emoji"), choices=[(e, e) for e in EMOJIS])

    class Meta:
        model = Profile
        fields = ("display_name", "colour", "emoji", "hidden")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        colour = self.fields["colour"]
        assert isinstance(colour, forms.ChoiceField)
        colour.choices = list(zip(COLOURS, colour_names(), strict=True))


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    form = ProfileForm

    class Media:
        css = {"all": ("review/admin.css",)}  # the review desk's style sheet: links in text underlined
    list_display = ("display_name", "public_id", "hidden", "games_played", "created_local")
    list_filter = ("hidden",)
    search_fields = ("search_key",)
    readonly_fields = ("public_id", "search_key", "created_local", "guest_link", "games")
    fields = ("display_name", "colour", "emoji", "hidden", "public_id", "search_key", "created_local", "guest_link",
              "games")
    inlines = [RatingInline]
    actions = ["merge_selected", "link_guests"]

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.link_guests_view)
        return [path("<int:pk>/link-guests/", view, name="players_profile_link_guests"), *super().get_urls()]

    @admin.display(description=_zoned(gettext_noop("made")), ordering="created_at")
    def created_local(self, obj: Profile) -> str:
        return _local(obj.created_at)

    @admin.display(description=_("earlier guest seats"))
    def guest_link(self, obj: Profile) -> SafeString:
        if obj.pk is None:
            return format_html("{}", "–")
        url = reverse("admin:players_profile_link_guests", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, gettext("Find this person's earlier guest seats and link "
                                                                "them to the profile…"))

    @admin.action(description=_("Link earlier guest seats to the selected profile…"), permissions=("change",))
    def link_guests(self, request: HttpRequest, queryset: QuerySet) -> HttpResponseRedirect | None:
        profiles = list(queryset[:2])
        if len(profiles) != 1:
            self.message_user(request, gettext("Select exactly one profile to link guest seats to."), messages.ERROR)
            return None
        return HttpResponseRedirect(reverse("admin:players_profile_link_guests", args=[profiles[0].pk]))

    def link_guests_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The guest seats a profile would get, each with its game, table and day; staff tick and confirm."""
        profile = Profile.objects.filter(pk=pk).first()
        if profile is None:
            raise Http404(gettext("There is no such player."))
        if not self.has_change_permission(request, profile):
            raise PermissionDenied
        name = (request.POST.get("name") if request.method == "POST" else request.GET.get("name")) or ""
        name = " ".join(name.split())[:24] or profile.display_name
        error = ""
        if request.method == "POST" and "link" in request.POST:
            try:
                linked = guests.link_guest_seats(profile, request.POST.getlist("seat"), name)
            except guests.NothingToLink as exc:
                error = str(exc)
            else:
                n = len(linked)
                self.message_user(request, ngettext(
                    "Linked %(n)s guest seat to %(name)s; the statistics count it as theirs.",
                    "Linked %(n)s guest seats to %(name)s; the statistics count them as theirs.", n)
                    % {"n": n, "name": profile.display_name}, messages.SUCCESS)
                self.log_change(request, profile, [{"changed": {"fields": [gettext("earlier guest seats")]}}])
                return HttpResponseRedirect(reverse("admin:players_profile_change", args=[profile.pk]))
        seats = guests.guest_seats(profile, name)
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta, "original": profile,
            "title": gettext("Link earlier guest seats to %(name)s") % {"name": profile.display_name},
            "profile": profile, "name": name, "error": error,
            "linkable": [s for s in seats if not s.refused], "refused": [s for s in seats if s.refused],
            "zone": timezone.get_current_timezone_name(),
        }
        return TemplateResponse(request, "admin/players/profile/link_guests.html", context,
                                status=400 if error else 200)

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str):
        """Search the stored normalised key, so that ``олена`` finds Олена and ``ines`` finds Inês."""
        return super().get_search_results(request, queryset, search_key(search_term))

    @admin.display(description=_("games"))
    def games_played(self, obj: Profile) -> int:
        return obj.participations.count()

    @admin.display(description=_("games played"))
    def games(self, obj: Profile) -> SafeString:
        """The profile's games, latest first: table and game, the game's name, the place, the replay."""
        rows = Participant.objects.filter(profile=obj).select_related("game", "game__table").order_by(
            "-game__finished_at")[:100]
        if not rows:
            return format_html("{}", "–")
        return format_html('<ul class="profile-games">{}</ul>', format_html_join(
            "", '<li><a href="{}">{}</a> ({}) {} — <a href="{}">{}</a></li>',
            ((reverse("admin:tables_game_change", args=[r.game_id]),
              gettext("%(code)s · game %(n)s") % {"code": r.game.table.code, "n": r.game.number},
              engine_label(r.game.engine), gettext("place %(n)s") % {"n": r.rank},
              reverse("review:replay", args=[r.game.table.code, r.game.number]), gettext("replay"))
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
    list_display = ("removed_name", "kept_name", "games_moved", "merged_by", "merged_local")
    readonly_fields = ("kept", "kept_name", "removed_public_id", "removed_name", "games_moved", "merged_by",
                       "merged_local")

    @admin.display(description=_zoned(gettext_noop("merged")), ordering="merged_at")
    def merged_local(self, obj: ProfileMerge) -> str:
        return _local(obj.merged_at)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
