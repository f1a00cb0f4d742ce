from django.apps import AppConfig


class RunBusterConfig(AppConfig):
    name = "runbuster"
    verbose_name = "Run Buster"

    def ready(self) -> None:
        from . import engine  # noqa: F401  registers the Run Buster engine
