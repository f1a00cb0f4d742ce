from django.urls import path

from . import views

app_name = "review"

urlpatterns = [
    path("t/<str:code>/replay/<int:number>/", views.replay, name="replay"),
    path("t/<str:code>/export/<int:number>.json", views.export, name="export"),
    path("review/games.csv", views.games_csv, name="games_csv"),
    path("stats/", views.statistics, name="stats"),
]
