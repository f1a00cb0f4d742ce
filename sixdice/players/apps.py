from typing import Any

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Player profiles without passwords, their ratings and histories across tables."""

    name = "sixdice.players"
    label = "players"
    verbose_name = "Players"

    def ready(self) -> None:
        from sixdice.tables.core.signals import game_finished

        game_finished.connect(_record_result, dispatch_uid="players.results")


def _record_result(sender: Any, *, game: Any, **kwargs: Any) -> None:
    """The tables' ``game_finished`` signal: fix who played the game and update the ratings, in its transaction."""
    from .services import record_result

    record_result(game)
