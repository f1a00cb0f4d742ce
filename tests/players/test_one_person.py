"""One person, one row: staff link a person's earlier guest seats to their profile (after seeing the list), the
statistics then count that person once; a host's seat taken under the host's profile is linked from the start."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from sixdice.players import guests
from sixdice.players import services as players
from sixdice.players.models import Participant, Rating, SeatProfile
from sixdice.review import exchange, stats
from sixdice.tables.models import Game, Table

from .helpers import play, table_with

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    client.force_login(get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-for-tests-1"))
    return client


@pytest.fixture
def guest_nights(db):
    """Hana played as a guest at three tables ("Hana", "hana", "Hána"); then she made a profile ("Hanna", renamed
    "Hana" later) and played on it at a fourth table beside a guest called Hana (so that guest is someone else)."""
    rng = random.Random(3)
    bo = players.create_profile(name="Bo")[0]
    nights = [play(table_with("tiny", [name, bo], {"target": 3}), rng) for name in ("Hana", "hana", "Hána")]
    hana = players.create_profile(name="Hanna")[0]
    with_her = table_with("tiny", [hana, "HANA"], {"target": 3})
    play(with_her, rng)
    players.update_profile(profile=hana, name="Hana")
    hana.refresh_from_db()
    return hana, bo, nights, with_her


def _rows(figures: stats.Statistics, name: str) -> list[stats.PlayerStats]:
    return [p for p in figures.players if p.name.split(" (")[0].casefold() in {name.casefold(), "hána"}]


def test_the_statistics_count_guests_per_table_until_their_seats_are_linked(staff, guest_nights):
    hana, _bo, nights, with_her = guest_nights
    before = _rows(stats.compute("tiny"), "Hana")
    assert len(before) == 5  # three guests, the other guest "HANA", and the profile

    url = reverse("admin:players_profile_link_guests", args=[hana.pk])
    preview = staff.get(url)
    assert preview.status_code == 200
    page = preview.content.decode()
    linkable = page[page.index('id="linkable"'):page.index("</table>", page.index('id="linkable"'))]
    refused = page[page.index('id="refused"'):]
    assert [code for code in re.findall(r">(\w{5}) · \d+</a>", linkable)] == [g.table.code for g in nights]
    assert linkable.count('type="checkbox"') == 3 and linkable.count("checked") == 3
    assert with_her.code in refused and "Hana already played this game on the profile." in refused
    assert Participant.objects.filter(profile=hana).count() == 1  # nothing linked by looking

    keys = [s.key for s in guests.guest_seats(hana) if not s.refused]
    forged = [s.key for s in guests.guest_seats(hana) if s.refused]
    response = staff.post(url, {"link": "1", "name": "Hana", "seat": keys + forged})
    assert response.status_code == 302
    assert Participant.objects.filter(profile=hana).count() == 4  # the three guest seats and her own game
    assert not Participant.objects.filter(profile=hana, game__table=with_her).exclude(position=0).exists()
    assert SeatProfile.objects.filter(profile=hana).count() == 4
    after = _rows(stats.compute("tiny"), "Hana")
    mine = [p for p in after if p.url]
    assert len(mine) == 1 and mine[0].games == 4 and mine[0].name == "Hana"
    assert len(after) == 2  # Hana once, and the other guest called HANA
    assert Rating.objects.get(profile=hana, engine="tiny").games == 3  # rebuilt: the three games with Bo's profile
    assert "Linked 3 guest seats to Hana" in staff.get(response["Location"]).content.decode()


def test_linking_needs_a_chosen_seat_and_one_profile(staff, guest_nights):
    hana, bo, _nights, _with_her = guest_nights
    url = reverse("admin:players_profile_link_guests", args=[hana.pk])
    response = staff.post(url, {"link": "1", "name": "Hana"})
    assert response.status_code == 400 and "No guest seat was chosen that can be linked." in response.content.decode()
    assert Participant.objects.filter(profile=hana).count() == 1
    changelist = reverse("admin:players_profile_changelist")
    both = staff.post(changelist, {"action": "link_guests", "_selected_action": [hana.pk, bo.pk]}, follow=True)
    assert "Select exactly one profile to link guest seats to." in both.content.decode()
    one = staff.post(changelist, {"action": "link_guests", "_selected_action": [hana.pk]})
    assert one.status_code == 302 and one["Location"] == url
    assert staff.get(reverse("admin:players_profile_link_guests", args=[999999])).status_code == 404
    other = staff.get(url, {"name": "Nobody"}).content.decode()
    assert "No guest seat with this name can be linked." in other


def test_a_game_without_participant_rows_gets_them_when_a_guest_seat_is_linked(staff, db):
    rng = random.Random(5)
    game = play(table_with("tiny", ["Renée", "Zoë"], {"target": 3}), rng)
    doc = exchange.export_game(game)
    game.table.delete()
    [imported] = exchange.import_documents([doc])
    Participant.objects.filter(game=imported).delete()  # as a game finished before profiles existed
    renee = players.create_profile(name="RENEE")[0]
    [seat] = guests.guest_seats(renee)
    assert seat.game == imported and seat.name == "Renée" and not seat.refused
    guests.link_guest_seats(renee, [seat.key])
    rows = list(Participant.objects.filter(game=imported).order_by("position").values_list("name", "profile_id"))
    assert rows == [("Renée", renee.pk), ("Zoë", None)]


def test_a_host_with_a_profile_takes_a_seat_linked_to_it_and_is_recorded_as_the_host():
    client = Client()
    client.post(reverse("players:me"), {"action": "create", "name": "Hana"})  # this phone makes a profile
    client.post(reverse("tables:new", args=["runbuster"]), {"players": "2"})
    table = Table.objects.get()
    host_page = client.get(reverse("tables:host", args=[table.code])).content.decode()
    assert reverse("players:host_sit", args=[table.code]) in host_page and "Take a seat as Hana" in host_page
    response = client.post(reverse("players:host_sit", args=[table.code]))
    assert response.status_code == 302
    table.refresh_from_db()
    link = SeatProfile.objects.get(seat__table=table)
    assert table.host_seat == link.seat.position == 0 and link.profile.display_name == "Hana"
    assert Client().post(reverse("players:host_sit", args=[table.code])).status_code == 403  # not the host


def test_the_new_table_form_offers_the_profiles_name_as_the_host(client):
    client.post(reverse("players:me"), {"action": "create", "name": "Hana"})
    page = client.get(reverse("tables:new", args=["sixdice"])).content.decode()
    assert re.search(r'<input id="host_name" name="host_name"[^>]*value="Hana"', page)
    assert Game.objects.count() == 0
