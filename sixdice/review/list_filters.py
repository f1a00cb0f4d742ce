"""The review desk's list filters: each in words (a game's name, an end reason, a player's name), never a code."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from sixdice.gamekit.engine import REGISTRY
from sixdice.players.text import search_key
from sixdice.tables.models import Game

from .stats import end_reason_label
from .summary import game_title


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
    """Who sent an event, by name: the players of the one game shown ("Ana (seat 1)"), else every player's name
    across the games (the names of the :data:`NAMES_LISTED` latest games), then the host and the app."""

    title = _("actor")
    parameter_name = "actor"

    def lookups(self, request: HttpRequest, model_admin):
        one = request.GET.get("game", "")
        game = Game.objects.filter(pk=int(one)).first() if one.isdigit() else None
        if game is not None:
            seats = [(str(i), gettext("%(name)s (seat %(n)s)") % {"name": name, "n": i + 1})
                     for i, name in enumerate(game.players)]
        else:
            names = {str(name) for players in Game.objects.order_by("-pk").values_list("players", flat=True)[
                :NAMES_LISTED] for name in players}
            seats = [(f"@{name}", name) for name in sorted(names, key=lambda n: (search_key(n), n))]
        return [*seats, ("host", gettext("Host")), ("system", gettext("App"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if not value:
            return queryset
        if value.startswith("@"):  # a player's name: their seat in each game
            seats = max((engine.max_players for engine in REGISTRY.values()), default=8)
            by_name = Q(pk__in=[])
            for i in range(seats):
                by_name |= Q(actor=str(i), **{f"game__players__{i}": value[1:]})
            return queryset.filter(by_name)
        return queryset.filter(actor=value)


NAMES_LISTED = 500


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
