"""Run Buster's own read-only URLs; included from the project's urls with
``path("", include("runbuster.urls"))``."""

from django.urls import path

from . import views

app_name = "runbuster"

urlpatterns = [
    path("t/<str:code>/tally.json", views.tally, name="tally"),
]
