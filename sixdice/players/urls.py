from django.urls import path

from . import views

app_name = "players"

urlpatterns = [
    path("me/", views.me, name="me"),
    path("me/carry/<str:token>/", views.carry, name="carry"),
    path("t/<str:code>/join/profile/", views.join_as_profile, name="join"),
    path("t/<str:code>/host/sit/profile/", views.host_sit_as_profile, name="host_sit"),
    path("players/", views.leaderboard, name="leaderboard"),
    path("players/<str:public_id>/", views.player, name="player"),
]
