from django.conf import settings
from django.urls import path

from sixdice.tables.pages import installable, lessons, play_against_app, rules_pages, test_clock, views

app_name = "tables"

urlpatterns = [
    path("", views.home, name="home"),
    path("manifest.webmanifest", installable.manifest, name="manifest"),
    path("sw.js", installable.service_worker, name="service_worker"),
    path("offline/", installable.offline, name="offline"),
    path("join/", views.join_by_code, name="join_by_code"),
    path("new/<slug:game>/", views.new_table, name="new"),
    path("t/<str:code>/", views.table_page, name="table"),
    path("t/<str:code>/host/", views.host_page, name="host"),
    path("t/<str:code>/host/sit/", views.host_sit, name="host_sit"),
    path("t/<str:code>/screen/", views.screen_page, name="screen"),
    path("t/<str:code>/join/", views.join, name="join"),
    path("t/<str:code>/claim/<str:token>/", views.claim, name="claim"),
    path("t/<str:code>/qr.svg", views.join_qr_svg, name="qr"),
    path("rules/<slug:game>/", rules_pages.rules_page, name="rules"),
    path("play/<slug:game>/", play_against_app.play_bots, name="play_bots"),
    path("learn/", lessons.learn_home, name="learn_home"),
    path("learn/<slug:game>/", lessons.learn_page, name="learn"),
    path("learn/<slug:game>/api/", lessons.learn_api, name="learn_api"),
]

if settings.SIXDICE_TEST_CLOCK:  # a test server only (settings refuse it otherwise): the test moves its clock
    urlpatterns.append(path("__test__/clock/", test_clock.move_clock, name="test_clock"))
