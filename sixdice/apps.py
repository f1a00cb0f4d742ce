from django.apps import AppConfig


class SixDiceConfig(AppConfig):
    name = "sixdice"
    verbose_name = "Six-Dice"

    def ready(self) -> None:
        from . import engine  # noqa: F401  registers the Six-Dice engine
