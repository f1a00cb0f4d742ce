"""Profiles without passwords: making one, joining with it, carrying it, merging, hiding, deleting."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sixdice.players import services as players
from sixdice.players.models import DeviceKey, Participant, Profile, ProfileMerge, Rating, SeatProfile
from sixdice.players.selectors import search_profiles
from sixdice.players.text import search_key
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import join_key
from sixdice.tables.models import Game, Seat
from sixdice.tables.writes import services

from .helpers import table_with

pytestmark = pytest.mark.django_db


def make_profile(client: Client, name: str, **extra: str) -> Profile:
    response = client.post(reverse("players:me"), {"action": "create", "name": name, **extra})
    assert response.status_code == 302
    return Profile.objects.get(display_name=name)


def test_a_phone_makes_a_profile_and_only_the_secret_hash_is_stored():
    client = Client()
    profile = make_profile(client, "Олена", colour="#2e9e5b", emoji="🦊")
    secret = client.session["profile"]
    assert (profile.colour, profile.emoji) == ("#2e9e5b", "🦊")
    key = DeviceKey.objects.get(profile=profile)
    assert key.secret_hash != secret and len(key.secret_hash) == 64
    assert players.profile_for(secret) == profile
    assert players.profile_for("not-the-secret") is None


def test_a_bad_name_or_avatar_is_refused_or_replaced_without_a_traceback():
    client = Client()
    response = client.post(reverse("players:me"), {"action": "create", "name": "   "})
    assert response.status_code == 400 and b"Please type a name." in response.content
    assert not Profile.objects.exists()
    profile = make_profile(client, "Bo", colour="javascript:alert(1)", emoji="<b>")
    assert profile.colour.startswith("#") and "<" not in profile.emoji


def test_joining_stays_one_tap_for_a_guest_and_one_tap_with_a_profile():
    table, _host = services.create_table(game="tiny", options={}, capacity=3)
    link = reverse("tables:table", args=[table.code]) + "?k=" + join_key(table)  # the host's join link / QR
    guest = Client()
    page = guest.get(link)
    assert b"Make a profile" in page.content  # offered, never required
    guest.post(reverse("tables:join", args=[table.code]), {"name": "Guest"})
    assert not SeatProfile.objects.exists()

    phone = Client()
    profile = make_profile(phone, "Inês")
    page = phone.get(link)
    assert "Take a seat as Inês".encode() in page.content
    response = phone.post(reverse("players:join", args=[table.code]))
    assert response.status_code == 302
    seat = Seat.objects.get(table=table, name="Inês")
    assert SeatProfile.objects.get(seat=seat).profile == profile
    assert phone.get(reverse("tables:table", args=[table.code])).templates[0].name == "tables/live.html"


def test_a_profile_takes_one_seat_per_table():
    profile, _secret = players.create_profile(name="Ana")
    table = table_with("tiny", [profile, "Bo"])
    with pytest.raises(ServiceError) as refused:
        players.join_with_profile(table=table, profile=profile)
    assert refused.value.code in ("profile_seated", "table_full")
    other = table_with("tiny", ["Cy", "Di", "Ed"])
    seat = other.seats.get(name="Cy")
    players.link_seat(seat=seat, profile=profile)
    with pytest.raises(ServiceError):
        players.link_seat(seat=other.seats.get(name="Di"), profile=profile)


def test_carrying_a_profile_to_another_phone_uses_the_link_once():
    first, second, third = Client(), Client(), Client()
    profile = make_profile(first, "Joost")
    page = first.post(reverse("players:me"), {"action": "carry"})
    link = page.context["carry_link"]
    assert "<svg" in page.context["carry_qr"]
    path = link.split("testserver", 1)[1]
    assert second.get(path).status_code == 200  # a preview does not use the link up
    assert second.post(path).status_code == 302
    assert players.profile_for(second.session["profile"]) == profile
    assert players.profile_for(first.session["profile"]) == profile  # the first phone keeps it
    assert third.post(path).status_code == 410
    assert "profile" not in third.session
    other = make_profile(third, "Someone Else")  # a phone that held another profile swaps to the carried one
    link = third.post(reverse("players:me"), {"action": "carry"}).context["carry_link"]
    fourth = Client()
    make_profile(fourth, "Fourth")
    fourth.post(link.split("testserver", 1)[1])
    assert players.profile_for(fourth.session["profile"]) == other
    assert DeviceKey.objects.filter(profile__display_name="Fourth").count() == 0


def test_a_new_link_replaces_the_old_one_and_links_expire():
    profile, _secret = players.create_profile(name="Ana")
    old = players.issue_transfer(profile=profile)
    new = players.issue_transfer(profile=profile)
    assert players.transfer_target(old) is None
    later = timezone.now() + players.TRANSFER_LIFETIME + timedelta(seconds=1)
    with pytest.raises(ServiceError):
        players.claim_transfer(token=new, now=later)
    claimed, secret = players.claim_transfer(token=new)
    assert claimed == profile and players.profile_for(secret) == profile


def test_renaming_and_the_avatar():
    client = Client()
    profile = make_profile(client, "Francoise")
    client.post(reverse("players:me"), {"action": "update", "name": "Françoise", "colour": "#c23b3b", "emoji": "🐝"})
    profile.refresh_from_db()
    assert (profile.display_name, profile.colour, profile.emoji) == ("Françoise", "#c23b3b", "🐝")
    assert profile.search_key == "francoise"


@pytest.mark.parametrize(("query", "name"), [
    ("олена", "Олена"), ("ОЛЕНА", "Олена"), ("ines", "Inês"), ("INÊS", "Inês"), ("francois", "François"),
    ("héloïse", "Heloise"), ("ijsbrand", "Ĳsbrand"), ("van der", "Joost van der Berg"), ("ÿ", "Ÿvonne"),
])
def test_search_matches_names_in_every_script(query, name):
    for other in ("Олег", "Inge", "Frans", "Bob"):
        players.create_profile(name=other)
    wanted, _secret = players.create_profile(name=name)
    found = search_profiles(query)
    assert wanted in found
    assert all(search_key(query) in p.search_key for p in found)


def test_admin_search_is_accent_and_case_blind(admin_client):
    players.create_profile(name="Олена")
    players.create_profile(name="Inês")
    players.create_profile(name="Bob")
    page = admin_client.get(reverse("admin:players_profile_changelist"), {"q": "олена"})
    assert "Олена" in page.content.decode() and "Inês" not in page.content.decode()
    page = admin_client.get(reverse("admin:players_profile_changelist"), {"q": "INES"})
    assert "Inês" in page.content.decode() and "Олена" not in page.content.decode()


def _finished_games(profile_a: Profile, profile_b: Profile, n: int) -> None:
    rng = random.Random(5)
    from .helpers import play

    table = table_with("tiny", [profile_a, profile_b, "Guest"])
    for _ in range(n):
        play(table, rng)


def test_staff_merge_two_profiles_in_the_admin_and_the_merge_is_recorded(admin_client):
    ana, _s1 = players.create_profile(name="Ana")
    ana2, s2 = players.create_profile(name="ana")
    bo, _s3 = players.create_profile(name="Bo")
    _finished_games(ana, bo, 2)
    _finished_games(ana2, bo, 3)
    response = admin_client.post(reverse("admin:players_profile_changelist"), {
        "action": "merge_selected", "_selected_action": [ana.pk, ana2.pk]})
    assert response.status_code == 302
    assert not Profile.objects.filter(pk=ana2.pk).exists()
    assert Participant.objects.filter(profile=ana).count() == 5
    assert players.profile_for(s2) == ana  # the merged profile's phone now holds the kept one
    record = ProfileMerge.objects.get()
    assert (record.kept, record.removed_name, record.games_moved) == (ana, "ana", 3)
    assert record.merged_by == User.objects.get(username="admin")
    assert Rating.objects.get(profile=ana, engine="tiny").games == 5
    live = sorted(Rating.objects.values_list("profile_id", "engine", "mu", "sigma", "games"))
    players.rebuild_ratings()
    assert sorted(Rating.objects.values_list("profile_id", "engine", "mu", "sigma", "games")) == live


def test_two_profiles_that_played_each_other_are_not_merged():
    ana, _s1 = players.create_profile(name="Ana")
    bo, _s2 = players.create_profile(name="Bo")
    _finished_games(ana, bo, 1)
    with pytest.raises(ServiceError) as refused:
        players.merge_profiles(keep=ana, remove=bo)
    assert refused.value.code == "played_together"
    assert Profile.objects.count() == 2 and not ProfileMerge.objects.exists()
    with pytest.raises(ServiceError):
        players.merge_profiles(keep=ana, remove=ana)


def test_a_hidden_profile_is_a_player_on_public_pages():
    client = Client()
    hidden = make_profile(client, "Secret Name")
    bo, _s = players.create_profile(name="Bo")
    _finished_games(hidden, bo, 3)
    client.post(reverse("players:me"), {"action": "hide"})
    hidden.refresh_from_db()
    assert hidden.hidden
    public = Client()
    assert public.get(reverse("players:player", args=[hidden.public_id])).status_code == 404
    assert client.get(reverse("players:player", args=[hidden.public_id])).status_code == 200  # its own phone
    for page in (reverse("players:leaderboard") + "?game=tiny&min=1",
                 reverse("players:player", args=[bo.public_id]),
                 reverse("review:stats") + "?game=tiny"):
        html = public.get(page).content.decode()
        assert "Secret Name" not in html, page
        assert "a player" in html, page
    game = Participant.objects.filter(profile=hidden).first().game
    for page in (reverse("review:replay", args=[game.table.code, game.number]),
                 reverse("review:export", args=[game.table.code, game.number])):
        html = public.get(page).content.decode()
        assert "Secret Name" not in html and "a player" in html and "Bo" in html, page
    assert hidden not in search_profiles("secret")
    client.post(reverse("players:me"), {"action": "show"})
    assert "Secret Name" in public.get(reverse("players:leaderboard") + "?game=tiny&min=1").content.decode()


def test_deleting_a_profile_turns_its_seats_into_guests_and_keeps_the_games():
    client = Client()
    gone = make_profile(client, "Gone")
    bo, _s = players.create_profile(name="Bo")
    cy, _s = players.create_profile(name="Cy")
    rng = random.Random(2)
    from .helpers import play

    table = table_with("tiny", [gone, bo, cy])
    games = [play(table, rng) for _ in range(3)]
    events = [list(g.events.values_list("seq", "action")) for g in games]
    refused = client.post(reverse("players:me"), {"action": "delete"})  # not confirmed
    assert refused.status_code == 400 and Profile.objects.filter(pk=gone.pk).exists()
    response = client.post(reverse("players:me"), {"action": "delete", "confirm": "yes"})
    assert response.status_code == 200 and b"Profile deleted" in response.content
    assert not Profile.objects.filter(pk=gone.pk).exists()
    assert "profile" not in client.session
    assert not SeatProfile.objects.filter(seat__table=table, seat__name="Gone").exists()
    rows = Participant.objects.filter(game__in=games, position=0)
    assert rows.count() == 3 and all(r.profile is None and r.name == "Gone" for r in rows)
    for game, log in zip(games, events, strict=True):
        game.refresh_from_db()
        assert list(game.events.values_list("seq", "action")) == log
        assert game.players[0] == "Gone"
    # Bo and Cy are now rated as if they had played with a guest; a rebuild agrees.
    live = sorted(Rating.objects.values_list("profile_id", "engine", "mu", "sigma", "games"))
    assert {pid for pid, *_rest in live} == {bo.pk, cy.pk}
    players.rebuild_ratings()
    assert sorted(Rating.objects.values_list("profile_id", "engine", "mu", "sigma", "games")) == live


def test_forgetting_the_profile_on_one_phone():
    client = Client()
    profile = make_profile(client, "Ana")
    client.post(reverse("players:me"), {"action": "forget"})
    assert "profile" not in client.session
    assert Profile.objects.filter(pk=profile.pk).exists() and not DeviceKey.objects.filter(profile=profile).exists()


def test_an_abandoned_game_of_a_hidden_profile_replays_without_its_name():
    hidden, _s = players.create_profile(name="Quiet One")
    players.update_profile(profile=hidden, hidden=True)
    table = table_with("tiny", [hidden, "Bo"])
    game = services.start_game(table=table, rng=random.Random(1)).game
    services.close_table(table=table)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    html = Client().get(reverse("review:replay", args=[table.code, game.number])).content.decode()
    assert "Quiet One" not in html and "a player" in html


def test_admin_lists_a_profile_s_games_with_links_to_their_replays(admin_client):
    ana, _s = players.create_profile(name="Ana")
    bo, _s = players.create_profile(name="Bo")
    _finished_games(ana, bo, 2)
    page = admin_client.get(reverse("admin:players_profile_change", args=[ana.pk])).content.decode()
    for row in Participant.objects.filter(profile=ana).select_related("game__table"):
        assert reverse("review:replay", args=[row.game.table.code, row.game.number]) in page
    listing = admin_client.get(reverse("admin:players_profile_changelist")).content.decode()
    assert "Ana" in listing and "Bo" in listing
    one = admin_client.post(reverse("admin:players_profile_changelist"),
                            {"action": "merge_selected", "_selected_action": [ana.pk]}, follow=True)
    assert "Select exactly two profiles" in one.content.decode() and Profile.objects.count() == 2


def test_a_profile_made_from_the_join_page_leads_back_to_the_table():
    table, _host = services.create_table(game="tiny", options={}, capacity=3)
    phone = Client()
    back = reverse("tables:table", args=[table.code])
    page = phone.get(back + "?k=" + join_key(table)).content.decode()  # by the join link (issue 15)
    assert f'{reverse("players:me")}?next={back}' in page
    response = phone.post(reverse("players:me"), {"action": "create", "name": "Noor", "next": back})
    assert response.status_code == 302 and response["Location"] == back
    elsewhere = Client().post(reverse("players:me"), {"action": "create", "name": "Eve",
                                                      "next": "https://evil.example/"})
    assert elsewhere["Location"] == reverse("players:me")  # never sent to another site
