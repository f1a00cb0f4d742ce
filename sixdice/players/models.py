"""Profiles (no passwords), their link to seats and games, and their ratings.

A profile is bound to a browser by a secret kept in its session, as a seat is
(only the hash is stored).  A seat links to a profile while the table plays
(:class:`SeatProfile`); when a game ends, who sat where is fixed for good in
:class:`Participant` rows, so handing a seat over later never rewrites history.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from sixdice.gamekit.engine import REGISTRY
from sixdice.tables.models import Game, Seat

from .text import search_key

COLOURS = ("#2f6fdf", "#d9822b", "#2e9e5b", "#b04ac2", "#c23b3b", "#0f7c86", "#6b5a2e", "#4a4f9c")
# The colours' names, in the order of COLOURS, for staff pages (the phones show the swatches themselves).
COLOUR_NAMES = (_("blue"), _("orange"), _("green"), _("purple"), _("red"), _("teal"), _("brown"), _("indigo"))
EMOJIS = ("🎲", "🦊", "🐢", "🦉", "🐙", "🌵", "🍀", "⭐", "🔥", "🌊", "🍒", "🚀", "🎩", "🐝", "🌙", "⚓")


def colour_names() -> list[str]:
    """The avatar colours' names in the reader's language, in the order of :data:`COLOURS`."""
    return [str(name) for name in COLOUR_NAMES]


def new_public_id(taken: models.QuerySet | None = None) -> str:
    """A fresh public id (the player page's address): 8 URL-safe characters no profile in ``taken`` holds."""
    taken = Profile.objects.all() if taken is None else taken
    while True:  # 2^48 ids: a clash is rare, and each try is a fresh draw
        candidate = secrets.token_urlsafe(6)[:8]
        if not taken.filter(public_id=candidate).exists():
            return candidate


class Profile(models.Model):
    """A person who plays across tables: a display name and an avatar, no password."""

    public_id = models.CharField(max_length=12, unique=True, help_text="Used in the player page's address.")
    display_name = models.CharField(max_length=24)
    search_key = models.CharField(max_length=100, db_index=True, editable=False,
                                  help_text="The name without case or accents, for search in every script.")
    colour = models.CharField(max_length=7, default=COLOURS[0])
    emoji = models.CharField(max_length=8, default=EMOJIS[0])
    hidden = models.BooleanField(default=False, help_text="Shown as 'a player' on public pages.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["search_key", "pk"]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args, **kwargs) -> None:
        """Also gives a profile made without one (in the admin, by a script) its public id."""
        self.search_key = search_key(self.display_name)
        if not self.public_id:
            self.public_id = new_public_id()
        super().save(*args, **kwargs)


class DeviceKey(models.Model):
    """One browser that holds the profile (the hash of the secret in its session)."""

    profile = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="devices")
    secret_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"device of {self.profile}"


class TransferLink(models.Model):
    """A one-use link (or QR code) that carries a profile to another browser."""

    profile = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="transfer_links")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"transfer link of {self.profile}"


class SeatProfile(models.Model):
    """The profile that sits in a seat now (a seat without one is a guest's)."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="profile_link")
    profile = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="seat_links")

    def __str__(self) -> str:
        return f"{self.profile} in {self.seat}"


class Participant(models.Model):
    """Who played a seat of a finished game: a profile, a guest (no profile) or a bot.

    Written in the transaction that ends the game.  Deleting a profile leaves
    its rows as guests' (``profile`` becomes null).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="participants")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=24, help_text="The name typed at the table.")
    profile = models.ForeignKey(Profile, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="participations")
    is_bot = models.BooleanField(default=False)
    bot_strength = models.CharField(max_length=20, blank=True)
    rank = models.PositiveSmallIntegerField(
        help_text="1 for the winners; equal ranks are ties, and the places they share are used up (1, 1, 3).")

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="participant_unique_position"),
            models.UniqueConstraint(fields=["game", "profile"], name="participant_unique_profile"),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.game}"


class Rating(models.Model):
    """A profile's current OpenSkill (Plackett-Luce) rating for one game."""

    profile = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="ratings")
    engine = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0, help_text="Rated games (with at least one other profile).")

    class Meta:
        ordering = ["engine", "-mu"]
        constraints = [models.UniqueConstraint(fields=["profile", "engine"], name="rating_unique_engine")]

    def __str__(self) -> str:
        engine = REGISTRY.get(self.engine)  # the game by its name; the rating itself is a number and a place
        return f"{self.profile} · {engine.label if engine is not None else self.engine}"

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown on leaderboards: mu − 3 sigma."""
        return self.mu - 3 * self.sigma


class RatingUpdate(models.Model):
    """One profile's rating change from one game: at most one per (game, profile).

    ``rated_at`` is taken after the ratings of every profile in the game are
    locked, so two games that share a profile are always ordered as they were
    rated; ``rebuild_ratings`` replays them in that order.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_updates")
    profile = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="rating_updates")
    engine = models.CharField(max_length=20)
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rated_at = models.DateTimeField()

    class Meta:
        ordering = ["rated_at", "game_id"]
        constraints = [models.UniqueConstraint(fields=["game", "profile"], name="rating_update_once")]
        indexes = [models.Index(fields=["profile", "engine", "rated_at"])]

    def __str__(self) -> str:
        return f"{self.profile} in {self.game}: {self.mu_before:.2f} → {self.mu_after:.2f}"


class ProfileMerge(models.Model):
    """A record of staff merging one profile into another."""

    kept = models.ForeignKey(Profile, null=True, on_delete=models.SET_NULL, related_name="merges")
    kept_name = models.CharField(max_length=24)
    removed_public_id = models.CharField(max_length=12)
    removed_name = models.CharField(max_length=24)
    games_moved = models.PositiveIntegerField(default=0)
    merged_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    merged_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-merged_at"]

    def __str__(self) -> str:
        return f"{self.removed_name} merged into {self.kept_name}"
