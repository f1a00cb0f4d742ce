from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class TablesConfig(AppConfig):
    """Shared live-table machinery: tables, seats, games, the event log, the live connection."""

    name = "sixdice.tables"
    label = "tables"
    verbose_name = "Tables"

    def ready(self) -> None:
        post_migrate.connect(_create_cache_table, sender=self)
        # The drivers register what wakes them with after_commit (whichever entry point makes a write).
        from sixdice.tables.core import clock
        from sixdice.tables.policies import bots, turn_timers  # noqa: F401

        clock.install()  # a test server's time is its test clock's (SIXDICE_TEST_CLOCK)


def _create_cache_table(using: str = "default", **kwargs: Any) -> None:
    """``migrate`` also creates the database cache's table (settings.CACHES), so ``make run`` needs no extra step."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)
