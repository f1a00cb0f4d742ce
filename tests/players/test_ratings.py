"""Ratings: ranks per game, who is rated, the update inside the game's transaction, rebuilds."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.db import IntegrityError

from sixdice.players import services as players
from sixdice.players.models import Participant, Rating, RatingUpdate
from sixdice.players.ranking import final_ranks
from sixdice.players.ratings import MU, SIGMA, Skill, rate_match
from sixdice.rules.game import State
from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Event, Game
from sixdice.tables.writes import checked_path, services

from .helpers import BOT, play, table_with

pytestmark = pytest.mark.django_db


def ratings() -> list[tuple]:
    return sorted(Rating.objects.values_list("profile_id", "engine", "mu", "sigma", "games"))


def updates() -> list[tuple]:
    return sorted(RatingUpdate.objects.values_list("game_id", "profile_id", "engine", "rank", "mu_before",
                                                   "sigma_before", "mu_after", "sigma_after", "rated_at"))


def test_final_ranks_asks_the_game_and_refuses_an_unfinished_game():
    from runbuster.engine import ENGINE as RUNBUSTER
    from sixdice.engine import ENGINE as SIXDICE

    over = {**RUNBUSTER.start(players=["A", "B", "C"], options={}), "finished": [2, 0], "loser": 1}
    assert final_ranks(engine="runbuster", state=over, players=3) == RUNBUSTER.final_ranks(over, players=3) == [2, 3, 1]
    with pytest.raises(ValueError, match="not over"):
        final_ranks(engine="sixdice", state=SIXDICE.start(players=["A", "B"], options={}), players=2)
    with pytest.raises(ValueError, match="3 ranks for 4 seats"):
        final_ranks(engine="runbuster", state=over, players=4)


def test_a_real_sixdice_game_ranks_by_its_final_hands(db):
    a, _s = players.create_profile(name="Ana")
    b, _s = players.create_profile(name="Bo")
    c, _s = players.create_profile(name="Cy")
    game = play(table_with("sixdice", [a, b, c], {"rounds": 2, "auto_balance": True}), random.Random(3))
    values = [abs(v) for v in State.from_dict(game.state).values()]
    rows = {r.position: r.rank for r in Participant.objects.filter(game=game)}
    for i in range(3):
        for j in range(3):
            if i in game.winners and j not in game.winners:
                assert rows[i] < rows[j]
            if i not in game.winners and j not in game.winners:
                assert (rows[i] < rows[j]) == (values[i] > values[j])
            if (i in game.winners) == (j in game.winners) and values[i] == values[j]:
                assert rows[i] == rows[j]


def test_rate_match_is_openskill_plackett_luce_and_ties_move_equally():
    after = rate_match({1: Skill(), 2: Skill(), 3: Skill()}, {1: 1, 2: 1, 3: 2})
    assert after[1] == after[2] and after[1].mu > MU > after[3].mu
    assert all(s.sigma < SIGMA for s in after.values())
    assert rate_match({1: Skill()}, {1: 1}) == {1: Skill()}  # alone: nothing to learn


def test_guests_and_bots_are_left_out_of_the_match():
    a, _s = players.create_profile(name="Ana")
    b, _s = players.create_profile(name="Bo")
    rng = random.Random(11)
    game = play(table_with("tiny", [a, "Guest", BOT, b]), rng)
    rows = {r.position: r for r in Participant.objects.filter(game=game)}
    assert rows[1].profile is None and not rows[1].is_bot
    assert rows[2].is_bot and rows[2].profile is None
    rated = {u.profile_id: u for u in RatingUpdate.objects.filter(game=game)}
    assert set(rated) == {a.pk, b.pk}
    # Ana and Bo are rated as a two-player game in their own order, whoever else finished between them.
    expected = rate_match({a.pk: Skill(), b.pk: Skill()}, {a.pk: rows[0].rank, b.pk: rows[3].rank})
    assert (rated[a.pk].mu_after, rated[b.pk].mu_after) == (expected[a.pk].mu, expected[b.pk].mu)


def test_a_game_with_one_profile_rates_nobody():
    a, _s = players.create_profile(name="Ana")
    game = play(table_with("tiny", [a, "Guest", BOT]), random.Random(1))
    assert Participant.objects.filter(game=game).count() == 3
    assert not RatingUpdate.objects.exists() and not Rating.objects.exists()


def test_a_seat_handed_to_a_bot_is_not_the_profile_s_at_the_end():
    a, _s = players.create_profile(name="Ana")
    b, _s = players.create_profile(name="Bo")
    c, _s = players.create_profile(name="Cy")
    table = table_with("tiny", [a, b, c])
    services.set_bot(table=table, position=1)
    game = play(table, random.Random(4))
    row = Participant.objects.get(game=game, position=1)
    assert row.is_bot and row.profile is None
    assert set(RatingUpdate.objects.filter(game=game).values_list("profile_id", flat=True)) == {a.pk, c.pk}


def test_the_update_is_part_of_the_transaction_that_ends_the_game(monkeypatch):
    a, _s = players.create_profile(name="Ana")
    b, _s = players.create_profile(name="Bo")
    table = table_with("tiny", [a, b], {"target": 2})
    game = services.start_game(table=table, rng=random.Random(1)).game

    def broken(*args, **kwargs):
        raise RuntimeError("the rating store failed")

    monkeypatch.setattr(players, "_rate", broken)
    seat = game.state["current"]
    with pytest.raises(RuntimeError):
        checked_path.apply_action(table_code=table.code, credentials=Credentials(), action={"type": "add", "n": 2},
                              expected_seq=game.seq, bot_seat=seat, rng=random.Random(2))
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.seq == 0  # the game did not end without its ratings
    assert not Event.objects.filter(game=game).exists() and not Participant.objects.exists()
    monkeypatch.undo()
    checked_path.apply_action(table_code=table.code, credentials=Credentials(), action={"type": "add", "n": 2},
                          expected_seq=game.seq, bot_seat=seat, rng=random.Random(2))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert RatingUpdate.objects.filter(game=game).count() == 2


def test_a_finished_game_is_never_counted_twice():
    a, _s = players.create_profile(name="Ana")
    b, _s = players.create_profile(name="Bo")
    table = table_with("tiny", [a, b])
    game = play(table, random.Random(8))
    before, rows = ratings(), updates()
    with pytest.raises(IntegrityError):
        players.record_result(game)
    assert ratings() == before and updates() == rows
    with pytest.raises(ServiceError):  # and no action reaches a finished game
        checked_path.apply_action(table_code=table.code, credentials=Credentials(), action={"type": "add", "n": 1},
                              expected_seq=game.seq, bot_seat=0)
    assert ratings() == before


def test_rebuild_ratings_equals_the_live_ratings_after_200_games():
    """200 seeded games over both real games and the test game, with profiles, guests and bots mixed."""
    rng = random.Random(2026)
    people = [players.create_profile(name=n)[0] for n in ("Олена", "Inês", "Joost", "Françoise", "Bram", "Kai")]
    finished = 0
    sixdice = {"rounds": 1, "auto_balance": True}
    shapes = [("runbuster", 2, {}), ("tiny", 3, {}), ("sixdice", 3, sixdice), ("tiny", 4, {}), ("sixdice", 2, sixdice),
              ("tiny", 2, {}), ("sixdice", 3, sixdice), ("tiny", 4, {}), ("sixdice", 2, sixdice), ("tiny", 3, {})]
    tables = 0
    while finished < 200:
        slug, n, options = shapes[tables % len(shapes)]
        sitters: list = rng.sample(people, n)
        if tables % 7 == 3:
            sitters[-1] = "Guest"
        if tables % 11 == 5:
            sitters[0] = BOT
        table = table_with(slug, sitters, options)
        for _ in range(1 + tables % 3):  # rematches now and then, the same seats
            play(table, rng)
            finished += 1
        tables += 1
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == finished >= 200
    live, live_updates = ratings(), updates()
    assert len(live) >= 12 and sum(g for *_r, g in live) > 300
    call_command("rebuild_ratings")
    assert ratings() == live and updates() == live_updates
    call_command("rebuild_ratings", "--replay")  # the outcomes replayed from the event log agree too
    assert ratings() == live and updates() == live_updates
    # Each rated profile's count matches its games with at least one other profile.
    for pid, engine, _mu, _sigma, games in live:
        together = [gid for gid in Participant.objects.filter(profile_id=pid, game__engine=engine)
                    .values_list("game_id", flat=True)
                    if Participant.objects.filter(game_id=gid, profile__isnull=False).count() >= 2]
        assert games == len(together)
