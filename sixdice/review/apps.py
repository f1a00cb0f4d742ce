from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "sixdice.review"
    label = "review"
    verbose_name = "Review"

    def ready(self) -> None:
        from sixdice.tables.signals import seat_moved

        from .hints import seat_moved_receiver

        seat_moved.connect(seat_moved_receiver, dispatch_uid="review.hints")
