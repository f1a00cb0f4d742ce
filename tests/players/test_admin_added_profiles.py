"""Profiles added by staff in the admin: each gets its public id, and nothing staff do there makes a public page
fail (issue 39: a profile added in the admin had an empty public id, a second one was a Server Error, and once
guest seats were linked to it the statistics, the leaderboard and the player pages answered 500)."""

from __future__ import annotations

import importlib
import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from sixdice.players import guests
from sixdice.players import services as players
from sixdice.players.models import COLOURS, EMOJIS, Participant, Profile
from sixdice.tables.models import Game

from .helpers import play, table_with

pytestmark = pytest.mark.django_db
MENDING = importlib.import_module("sixdice.players.migrations.0002_mend_empty_public_ids")


@pytest.fixture
def staff(client):
    client.force_login(get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-for-tests-1"))
    return client


def _add_in_admin(staff, name: str, colour: str = COLOURS[1], emoji: str = EMOJIS[1]) -> Profile:
    """Staff fill in the admin's add form for a profile, as they would in the browser."""
    form = staff.get(reverse("admin:players_profile_add"))
    assert form.status_code == 200
    prefix = re.search(r'name="([\w-]+)-TOTAL_FORMS"', form.content.decode()).group(1)
    response = staff.post(reverse("admin:players_profile_add"), {
        "display_name": name, "colour": colour, "emoji": emoji,
        f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0", f"{prefix}-MAX_NUM_FORMS": "1000",
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    return Profile.objects.get(display_name=name)


def _public_pages(client, profiles: list[Profile]) -> list[str]:
    urls = [reverse("review:stats"), reverse("players:leaderboard")]
    urls += [reverse("players:leaderboard") + f"?game={slug}" for slug in ("sixdice", "runbuster", "tiny")]
    urls += [reverse("players:player", args=[p.public_id]) for p in profiles]
    urls += [reverse("review:replay", args=[g.table.code, g.number]) for g in Game.objects.all()]
    urls += [reverse("review:stats") + f"?game={slug}" for slug in ("sixdice", "runbuster", "tiny")]
    return urls


def test_two_profiles_added_in_the_admin_get_public_ids_and_every_public_page_still_answers(staff, client):
    rng = random.Random(11)
    ines = players.create_profile(name="Inês")[0]
    nights = [play(table_with("tiny", [ines, "João"], {"target": 3}), rng) for _ in range(2)]
    nights.append(play(table_with("tiny", ["Olena", ines], {"target": 3}), rng))

    joao = _add_in_admin(staff, "João")
    olena = _add_in_admin(staff, "Olena", COLOURS[2], EMOJIS[2])  # the second one used to be a Server Error
    assert joao.public_id and olena.public_id and joao.public_id != olena.public_id
    assert re.fullmatch(r"[\w-]{6,12}", joao.public_id)

    for profile in (joao, olena):
        keys = [s.key for s in guests.guest_seats(profile) if not s.refused]
        assert keys
        response = staff.post(reverse("admin:players_profile_link_guests", args=[profile.pk]),
                              {"link": "1", "name": profile.display_name, "seat": keys})
        assert response.status_code == 302
    assert Participant.objects.filter(profile=joao).count() == 2
    assert Participant.objects.filter(profile=olena).count() == 1

    client.logout()
    for url in _public_pages(client, [ines, joao, olena]):
        response = client.get(url)
        assert response.status_code == 200, url
    board = client.get(reverse("players:leaderboard") + "?game=tiny&min=1").content.decode()
    assert reverse("players:player", args=[joao.public_id]) in board


def test_a_profile_saved_without_a_public_id_gets_one_and_an_old_empty_one_is_mended(staff, client):
    first = Profile.objects.create(display_name="Ana")
    second = Profile.objects.create(display_name="Bo")
    assert first.public_id and second.public_id and first.public_id != second.public_id
    Profile.objects.filter(pk=first.pk).update(public_id="")  # as the admin left it before the fix
    assert MENDING.give_public_ids(Profile) == 1
    first.refresh_from_db()
    assert first.public_id and first.public_id != second.public_id


def test_the_admin_offers_the_avatar_colours_and_emojis_and_refuses_others(staff):
    form = staff.get(reverse("admin:players_profile_add")).content.decode()
    assert '<select name="colour"' in form and '<select name="emoji"' in form
    response = staff.post(reverse("admin:players_profile_add"), {
        "display_name": "Eve", "colour": "red;background:url(x)", "emoji": "x" * 8,
        "ratings-TOTAL_FORMS": "0", "ratings-INITIAL_FORMS": "0"})
    assert response.status_code == 200 and not Profile.objects.filter(display_name="Eve").exists()


def test_the_admins_profile_page_reads_as_a_person_would_a_rating_a_place_a_colour_by_name(staff):
    rng = random.Random(2)
    people = [players.create_profile(name=n)[0] for n in ("Ana", "Bo")]
    table = table_with("tiny", people, {"target": 3})
    for _ in range(3):
        play(table, rng)
    ana = Profile.objects.get(display_name="Ana")
    page = staff.get(reverse("admin:players_profile_change", args=[ana.pk])).content.decode()
    rating = ana.ratings.get(engine="tiny")
    assert f"{rating.ordinal:.1f}" in page
    assert re.search(r"<p>[12] of 2</p>", page), "the place on the leaderboard"
    assert "mu" not in re.findall(r"<th[^>]*>\s*([^<]*?)\s*</th>", page.lower())
    assert str(rating.mu) not in page and str(rating.sigma) not in page and "±" not in page
    assert f"{rating.mu:.2f}" not in page and "(tiny)" not in page  # the game by its name, not its code
    assert len(re.findall(r"\) place [12] — <a ", page)) == 3
    assert ">blue</option>" in page and 'value="#2f6fdf" selected' in page
    newcomer = players.create_profile(name="Cy")[0]
    newcomer_page = staff.get(reverse("admin:players_profile_change", args=[newcomer.pk])).content.decode()
    assert "not on the leaderboard" not in newcomer_page  # no rating yet: no row at all


def test_hiding_renaming_merging_and_deleting_profiles_in_the_admin_leave_every_public_page_answering(staff, client):
    rng = random.Random(5)
    ana, bo, cy = (players.create_profile(name=n)[0] for n in ("Ana", "Bo", "Cy"))
    play(table_with("tiny", [ana, bo, "Guest"], {"target": 3}), rng)
    play(table_with("tiny", [cy, "Dee"], {"target": 3}), rng)
    dee = _add_in_admin(staff, "Dee")
    staff.post(reverse("admin:players_profile_link_guests", args=[dee.pk]),
               {"link": "1", "name": "Dee", "seat": [s.key for s in guests.guest_seats(dee) if not s.refused]})
    change = reverse("admin:players_profile_change", args=[bo.pk])
    prefix = re.search(r'name="([\w-]+)-TOTAL_FORMS"', staff.get(change).content.decode()).group(1)
    management = {f"{prefix}-TOTAL_FORMS": "1", f"{prefix}-INITIAL_FORMS": "1", f"{prefix}-MIN_NUM_FORMS": "0",
                  f"{prefix}-MAX_NUM_FORMS": "1000", f"{prefix}-0-id": str(bo.ratings.get().pk),
                  f"{prefix}-0-profile": str(bo.pk)}
    hidden = staff.post(change, {"display_name": "Bô ", "colour": COLOURS[3], "emoji": EMOJIS[3], "hidden": "on",
                                 **management})
    assert hidden.status_code == 302, hidden.content.decode()[:2000]
    bo.refresh_from_db()
    assert bo.hidden and bo.display_name == "Bô"
    changelist = reverse("admin:players_profile_changelist")
    eve = _add_in_admin(staff, "Eve", COLOURS[4], EMOJIS[4])
    merged = staff.post(changelist, {"action": "merge_selected", "_selected_action": [cy.pk, eve.pk]}, follow=True)
    assert merged.status_code == 200 and not Profile.objects.filter(pk=eve.pk).exists()
    deleted = staff.post(reverse("admin:players_profile_delete", args=[ana.pk]), {"post": "yes"})
    assert deleted.status_code == 302 and not Profile.objects.filter(pk=ana.pk).exists()

    client.logout()
    for url in _public_pages(client, [cy, dee]):
        assert client.get(url).status_code == 200, url
    assert client.get(reverse("players:player", args=[bo.public_id])).status_code == 404  # hidden: no page
    board = client.get(reverse("players:leaderboard") + "?game=tiny&min=1").content.decode()
    assert "Bô" not in board
