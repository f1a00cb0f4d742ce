from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Player profiles without passwords, their ratings and histories across tables."""

    name = "sixdice.players"
    label = "players"
    verbose_name = "Players"
