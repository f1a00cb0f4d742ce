"""Import games exported as JSON: ``import_game FILE`` (one document or a list; ``-`` reads stdin)."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sixdice.review import exchange, limits


class Command(BaseCommand):
    help = (
        "Import exported games: every event is replayed through the engine; a file that is malformed "
        "or whose replay does not reach the recorded final state is refused and nothing is written."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The JSON file ('-' for standard input).")
        parser.add_argument(
            "--unsigned", action="store_true",
            help="Also take games this install did not sign (exported by another install or an older version): "
                 "who sent each move and the bot flags are then taken on trust, and the games are marked not verified.",
        )

    def handle(self, *args, file: str, unsigned: bool = False, **options) -> None:
        try:  # the size is checked before the file is read whole, let alone parsed
            raw = limits.read_bounded(sys.stdin.buffer if file == "-" else Path(file))
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}.") from None
        except limits.TooLarge as exc:
            raise CommandError(f"Refused: {exc}") from None
        try:
            games = exchange.import_text(raw, source="stdin" if file == "-" else Path(file).name, unsigned=unsigned)
        except exchange.ImportRefused as exc:
            raise CommandError(f"Refused: {exc}") from None
        for game in games:
            self.stdout.write(
                f"Imported {game.engine} game {game.number} as table {game.table.code} "
                f"({game.seq} events): /t/{game.table.code}/replay/{game.number}/"
            )
