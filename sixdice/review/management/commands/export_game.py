"""Export one game as a JSON document: ``export_game CODE [NUMBER] [-o FILE]``."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sixdice.review import exchange
from sixdice.tables.core.keys import normalise_code
from sixdice.tables.models import Game


class Command(BaseCommand):
    help = "Export a game (by table code and game number, default the latest) as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("code", help="The table code.")
        parser.add_argument("number", nargs="?", type=int, help="The game number at the table (default: the latest).")
        parser.add_argument("-o", "--output", help="Write to this file instead of standard output.")

    def handle(self, *args, code: str, number: int | None, output: str | None, **options) -> None:
        games = Game.objects.filter(table__code=normalise_code(code)).select_related("table")
        game = games.filter(number=number).first() if number is not None else games.order_by("-number").first()
        if game is None:
            raise CommandError(f"There is no game {number or ''} at table {code!r}.".replace("  ", " "))
        text = exchange.dumps(exchange.export_game(game))
        if output:
            try:
                Path(output).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"Cannot write {output}: {exc.strerror}.") from None
            self.stderr.write(f"Exported {game} to {output}.")
        else:
            self.stdout.write(text, ending="")
