from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from sixdice.players.services import rebuild_ratings


class Command(BaseCommand):
    help = "Recompute every profile's ratings from the finished games, in the order they were rated."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--replay", action="store_true",
                            help="Take each game's ranks from a replay of its event log, not its saved outcome.")

    def handle(self, *args: Any, replay: bool = False, **options: Any) -> None:
        rated = rebuild_ratings(replay=replay)
        self.stdout.write(f"Rated {rated} games.")
