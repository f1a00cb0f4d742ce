from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Shared live-table machinery: tables, seats, games, the event log, the live connection."""

    name = "sixdice.tables"
    label = "tables"
    verbose_name = "Tables"
