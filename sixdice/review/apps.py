from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "sixdice.review"
    label = "review"
    verbose_name = "Review"

    def ready(self) -> None:
        from sixdice.tables.core.signals import seat_moved
        from sixdice.tables.reads import table_frame

        from .bgstats import end_links
        from .hints import seat_moved_receiver

        seat_moved.connect(seat_moved_receiver, dispatch_uid="review.hints")
        from django.db import connections
        from django.db.backends.signals import connection_created

        from .search import register_sqlite_functions

        connection_created.connect(register_sqlite_functions, dispatch_uid="review.search")
        for connection in connections.all(initialized_only=True):  # any opened before this app was ready
            if connection.connection is not None:
                register_sqlite_functions(None, connection)
        if end_links not in table_frame.END_LINKS:  # a finished game's end screen: its replay, "Send to BG Stats"
            table_frame.END_LINKS.append(end_links)
