from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "sixdice.review"
    label = "review"
    verbose_name = "Review"
