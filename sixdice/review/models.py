"""What reviewers add to a game: a staff note and a "disputed" flag.

Kept beside the game, never inside it: the game and its log stay exactly what
was played.  One note per game at most; a game without one has no row.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from sixdice.tables.models import Game


class ReviewNote(models.Model):
    """A staff note on a game and whether its result is disputed (shown to staff, kept in exports)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review_note")
    note = models.TextField(blank=True, help_text="Seen by staff only: on the admin page, the replay and in exports.")
    disputed = models.BooleanField(default=False, help_text="Someone contests how this game went or ended.")
    updated_at = models.DateTimeField(auto_now=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+", help_text="The staff account that last wrote the note.")
    author_name = models.CharField(max_length=150, blank=True, default="",
                                   help_text="That account's name when it wrote the note (kept if it goes).")

    class Meta:
        verbose_name = "reviewer note"

    def __str__(self) -> str:
        return f"Note on {self.game}" + (" (disputed)" if self.disputed else "")

    @property
    def is_empty(self) -> bool:
        return not self.note.strip() and not self.disputed


def note_of(game: Game) -> ReviewNote | None:
    """The game's note, or ``None`` (no query when it was prefetched or select_related)."""
    try:
        return game.review_note
    except ReviewNote.DoesNotExist:
        return None


def author_label(user: Any) -> str:
    """How a note's author is shown: the account's full name, else its user name."""
    if user is None or not getattr(user, "pk", None):
        return ""
    return (user.get_full_name() or user.get_username())[:150]


def save_note(game: Game, *, note: str, disputed: bool, author: Any = None) -> ReviewNote | None:
    """Set a game's note and flag, by ``author`` (a staff user, or ``None``: an import); an empty note that is
    not disputed removes the row, so an empty note is never shown as one."""
    if not note.strip() and not disputed:
        ReviewNote.objects.filter(game=game).delete()
        return None
    fields: dict[str, Any] = {"note": note, "disputed": disputed}
    if author is not None:
        fields.update(author=author, author_name=author_label(author))
    obj, _ = ReviewNote.objects.update_or_create(game=game, defaults=fields)
    return obj


class ImportMark(models.Model):
    """A game that came from an export file: where from, when, and the fingerprint of its play.

    Games played here have no mark.  The fingerprint
    (:func:`sixdice.review.limits.content_hash`) is unique: the same game
    cannot be imported twice.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="import_mark")
    source = models.CharField(max_length=200, blank=True, help_text="The file (or stream) it was imported from.")
    imported_at = models.DateTimeField(auto_now_add=True)
    content_hash = models.CharField(max_length=64, unique=True)
    verified = models.BooleanField(
        default=False,
        help_text="The file carried this install's signature and was unchanged (imported without --unsigned).",
    )

    class Meta:
        verbose_name = "import mark"

    def __str__(self) -> str:
        return f"{self.game} imported from {self.source or '?'}"


class HintShown(models.Model):
    """The suggestion a seat's phone showed (the table's hints option) before the seat made the move at ``seq``.

    Kept beside the game, not in its log: a hint changes nothing in the game,
    so it takes no ``seq`` of its own and the replay never applies it.
    Written in the move's own transaction (:mod:`sixdice.review.hints`).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hints_shown")
    seq = models.PositiveIntegerField(help_text="The event the seat sent after seeing the hint.")
    seat = models.PositiveSmallIntegerField(help_text="0-based seat that was shown the hint.")
    hint = models.JSONField(help_text="The engine's hint as the phone got it (e.g. the suggested action).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "hint shown"
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="hintshown_unique_seq")]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq}: hint to seat {self.seat + 1}"
