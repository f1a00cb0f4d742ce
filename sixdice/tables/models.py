"""Tables, seats, games and the append-only event log, shared by every game."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext

from sixdice.gamekit.engine import REGISTRY


class Table(models.Model):
    """A real table: one host, its seats, and the games played there in turn."""

    class Status(models.TextChoices):
        LOBBY = "lobby", "Lobby (seats open)"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        CLOSED = "closed", "Closed"

    code = models.CharField(max_length=8, unique=True)
    game = models.CharField(max_length=20, help_text="The engine slug: sixdice or runbuster.")
    options = models.JSONField(default=dict)
    host_secret_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    capacity = models.PositiveSmallIntegerField(default=8, help_text="How many seats the host opened.")
    paused = models.BooleanField(default=False)
    version = models.PositiveIntegerField(
        default=0, help_text="Bumped in the same transaction as every change to the table (see TableChange)."
    )
    host_name = models.CharField(
        max_length=24, blank=True, default="",
        help_text="Who hosts, as the host typed it when making the table (empty: not given).",
    )
    host_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat the host took on the host's own phone (0-based), if any.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        engine = REGISTRY.get(self.game)
        return f"{self.code} ({engine.label if engine else self.game})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, never writing ``version`` back from a copy that may be old: only the services bump it."""
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields if not f.primary_key and f.name != "version"
            ]
        super().save(*args, **kwargs)


class TableChange(models.Model):
    """One change to a table (a seat joined, a pause, a game started...): the append-only table log.

    ``version`` is the table's version after the change; clients use it to
    notice a table frame they missed (``docs/protocol.md``).
    """

    class Kind(models.TextChoices):
        JOIN = "join", "A seat joined"
        CLAIM = "claim", "A hand-over link was used"
        HANDOVER = "handover", "The host handed a seat over"
        BOT_ON = "bot_on", "The app plays a seat"
        BOT_OFF = "bot_off", "The app stopped playing a seat"
        PAUSE = "pause", "Paused"
        RESUME = "resume", "Resumed"
        START = "start", "A game started"
        REMATCH = "rematch", "A rematch started"
        GAME_END = "game_end", "A game ended"
        CLOSE = "close", "The host closed the table"
        TIMER_PAUSE = "timer_pause", "The host paused the turn timer"
        TIMER_RESUME = "timer_resume", "The host resumed the turn timer"
        AWAY = "away", "Time ran out too often: the app plays a seat"
        BACK = "back", "A player came back (I'm back)"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="changes")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    actor = models.CharField(max_length=10, help_text="A seat number, 'host' or 'system'.")
    payload = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "version"]
        constraints = [models.UniqueConstraint(fields=["table", "version"], name="tablechange_unique_version")]

    def __str__(self) -> str:
        return f"{self.table.code} v{self.version} {self.kind}"


class Seat(models.Model):
    """A place at a table, bound to one browser by a secret kept in its session."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="0-based seat order.")
    name = models.CharField(max_length=24)
    secret_hash = models.CharField(max_length=64, blank=True)
    claim_token_hash = models.CharField(max_length=64, blank=True, help_text="A pending hand-over link.")
    parked_secret_hash = models.CharField(
        max_length=64, blank=True, help_text="The phone's secret while the app plays the seat: 'Give the seat back' restores it."
    )
    is_bot = models.BooleanField(default=False)
    bot_strength = models.CharField(
        max_length=16, blank=True, default="", help_text="How the app plays this seat (one of the game's bot strengths; empty: the game's default)."
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(Lower("name"), "table", name="seat_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.position + 1} at {self.table.code})"


class Game(models.Model):
    """One game at a table, with the snapshot of its state at ``seq``."""

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned (the host closed the table)"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(help_text="1 for the first game at the table, then rematches.")
    engine = models.CharField(max_length=20)
    options = models.JSONField(default=dict)
    players = models.JSONField(default=list, help_text="Names in seat order when the game began.")
    first = models.PositiveSmallIntegerField(default=0, help_text="The seat that began (Player 1).")
    initial_state = models.JSONField(default=dict)
    state = models.JSONField(default=dict)
    seq = models.PositiveIntegerField(default=0)
    pinned = models.JSONField(
        default=list, blank=True,
        help_text="Dice values an undo took back, dealt again first (docs/undo.md); worked out again from the log.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    winners = models.JSONField(default=list)
    end_reason = models.CharField(max_length=30, blank=True)
    places = models.JSONField(default=list, help_text="Seats in finishing order, where the game has one.")
    loser = models.PositiveSmallIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="game_unique_number")]

    def __str__(self) -> str:
        """"887PK · game 1 (Six-Dice)", in the reader's language: the game's name, not its slug."""
        title = gettext("%(code)s · game %(n)s") % {"code": self.table.code, "n": self.number}
        engine = REGISTRY.get(self.engine)
        return f"{title} ({engine.label if engine else self.engine})"


class Event(models.Model):
    """One applied action; the log is append-only and replays to the snapshot."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    actor = models.CharField(max_length=10, help_text="A seat number, 'host' or 'system'.")
    action = models.JSONField()
    text = models.CharField(max_length=500, blank=True, help_text="The action in the game's notation.")
    notation = models.JSONField(
        default=list, blank=True, help_text="The same line as structured parts, shown in each reader's language."
    )
    stand_in = models.CharField(
        max_length=10, blank=True, default="",
        help_text="'timeout': the seat's time ran out and the app played this action for it (sixdice.tables.policies.turn_timers).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_unique_seq")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.text}"


class Connection(models.Model):
    """A live WebSocket, for presence across every server process."""

    channel_name = models.CharField(max_length=200, unique=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="connections")
    seat_position = models.PositiveSmallIntegerField(null=True, blank=True)
    is_host = models.BooleanField(default=False)
    last_seen = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["table", "last_seen"])]

    def __str__(self) -> str:
        return self.channel_name


class ActionReceipt(models.Model):
    """The answer a seat (or the host) got for an action frame carrying a client action id.

    A resent frame with the same id (a double tap, a second tab, a resend after
    a reconnect) gets this answer again instead of being applied twice; kept in
    the database so it holds across server processes (``sixdice.tables.writes.action_receipts``).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="receipts")
    sender = models.CharField(max_length=10, help_text="A seat number or 'host'.")
    action_id = models.CharField(max_length=64)
    reply = models.JSONField(help_text="The ack ({'seq': n}) or the refusal ({'code', 'message'}).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "sender", "action_id"], name="receipt_unique_action_id")
        ]

    def __str__(self) -> str:
        return f"{self.table_id} {self.sender} {self.action_id}"


class TurnTimer(models.Model):
    """A table's turn timer (issue 14): the time each seat has per action, and whether the host paused it.

    A table without a row (or with ``seconds`` 0) has no timer.  The deadline
    itself is not stored: it follows from the event log and the table log
    (``sixdice.tables.policies.turn_timers``), so every server process works out the same one.
    """

    table = models.OneToOneField(Table, on_delete=models.CASCADE, primary_key=True, related_name="turn_timer")
    seconds = models.PositiveSmallIntegerField(default=0, help_text="Time per action; 0: no timer.")
    paused = models.BooleanField(default=False, help_text="The host paused the timer (the game goes on).")

    def __str__(self) -> str:
        return f"{self.table_id}: {self.seconds} s{' (paused)' if self.paused else ''}"
