"""The record of the hints shown (issue 18): which seat saw which suggestion, beside the game, in the
replay, the admin and the export; never a game event."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse

from sixdice.gamekit.engine import get_engine
from sixdice.review import exchange
from sixdice.review.models import HintShown
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Game
from sixdice.tables.reads import table_frame
from sixdice.tables.writes import checked_path, services

pytestmark = pytest.mark.django_db(transaction=True)  # the hint is recorded once the move commits

NAMES = ("Ana", "Bo")


def _table(hints: bool):
    table, _host = services.create_table(game="sixdice", options={"hints": hints, "rounds": 1}, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in NAMES]
    services.start_game(table=table, rng=random.Random(5))
    return table, secrets


def _play(table, secrets, *, moves: int, follow=lambda n: n % 2 == 0, as_bot: bool = False):
    """Seats move from their phones: every other decision is the hint's suggestion, the rest greedy's choice."""
    engine = get_engine("sixdice")
    made = []
    for n in range(moves):
        game = table_frame.current_game(table)
        if game.status != Game.Status.PLAYING:
            break
        seat = min(engine.actors(game.state))
        hint = engine.hint(game.state, seat) if game.options.get("hints") else None
        if hint and follow(n):
            action = dict(hint["action"])
        else:
            action = engine.bot_action(game.state, seat, random.Random(n), strength="greedy")
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                              action=action, expected_seq=game.seq, bot_seat=seat if as_bot else None)
        made.append((game.seq + 1, seat, hint, action))
    return made


def _finish(table, secrets) -> Game:
    engine = get_engine("sixdice")
    for n in range(2000):
        game = table_frame.current_game(table)
        if game.status != Game.Status.PLAYING:
            return game
        seat = min(engine.actors(game.state))
        checked_path.apply_action(table_code=table.code, credentials=Credentials(), expected_seq=game.seq, bot_seat=seat,
                              action=engine.bot_action(game.state, seat, random.Random(n), strength="greedy"))
    raise AssertionError("the game did not end")


def test_each_seat_move_keeps_the_hint_its_phone_showed_and_the_log_is_unchanged():
    table, secrets = _table(hints=True)
    made = _play(table, secrets, moves=6)
    game = table_frame.current_game(table)
    rows = {h.seq: h for h in HintShown.objects.filter(game=game)}
    hinted = [(seq, seat, hint) for seq, seat, hint, _ in made if hint]
    assert hinted and len(rows) == len(hinted)
    for seq, seat, hint in hinted:
        assert rows[seq].seat == seat and rows[seq].hint == hint  # the very suggestion the view carried
    # Not game events: the log holds only the moves (and the app's dice), and replays to the snapshot.
    assert game.events.count() == game.seq and checked_path.replay(game) == game.state
    assert not game.events.filter(action__type="hint").exists()


def test_no_record_without_hints_or_for_a_bot():
    table, secrets = _table(hints=False)
    _play(table, secrets, moves=4)
    assert not HintShown.objects.exists()
    table, secrets = _table(hints=True)
    _play(table, secrets, moves=4, as_bot=True)  # the app played these seats: no phone showed a hint
    assert not HintShown.objects.exists()


def test_the_replay_the_admin_and_the_export_show_the_hints(client, admin_client):
    table, secrets = _table(hints=True)
    made = _play(table, secrets, moves=6)
    game = _finish(table, secrets)
    followed = [seq for seq, _seat, hint, action in made if hint and action == hint["action"]]
    ignored = [seq for seq, _seat, hint, action in made
               if hint and action != hint["action"] and not _same(game, seq, hint["action"])]
    assert followed

    html = client.get(reverse("review:replay", args=[table.code, game.number])).content.decode()
    start = html.index('id="replay-data" type="application/json">') + len('id="replay-data" type="application/json">')
    steps = json.loads(html[start:html.index("</script>", start)])["steps"]
    for seq in followed:
        assert steps[seq]["hint"].startswith("hint shown: ") and steps[seq]["hint"].endswith("(followed)")
    for seq in ignored:
        assert steps[seq]["hint"].endswith("(not followed)")
    assert sum(1 for s in steps if s.get("hint")) == HintShown.objects.filter(game=game).count()

    page = admin_client.get(reverse("admin:tables_game_change", args=[game.pk])).content.decode()
    assert "hints shown" in page.lower() and page.count("hint shown: ") == HintShown.objects.filter(game=game).count()

    doc = exchange.export_game(game)
    assert [h["seq"] for h in doc["hints"]] == sorted(h.seq for h in HintShown.objects.filter(game=game))
    text = exchange.dumps(doc)
    kept = list(HintShown.objects.filter(game=game).values_list("seq", "seat", "hint"))
    table.delete()
    bad = json.loads(text)
    bad["hints"][0]["seat"] = 1 - bad["hints"][0]["seat"]
    with pytest.raises(exchange.ImportRefused, match="must be the seat that made move"):
        exchange.import_text(json.dumps(bad))
    [copy] = exchange.import_text(text)
    assert list(HintShown.objects.filter(game=copy).values_list("seq", "seat", "hint")) == kept


def _same(game: Game, seq: int, action) -> bool:
    """Whether ``action`` would have led where the move at ``seq`` did (a grouping listed in another order)."""
    engine = get_engine(game.engine)
    events = list(game.events.order_by("seq"))
    before = checked_path.replay(game, events[: seq - 1])
    after = checked_path.replay(game, events[:seq])
    return engine.apply(before, dict(action), actor=int(events[seq - 1].actor)) == after


def test_a_replay_caption_says_a_followed_move_once(client):
    table, secrets = _table(hints=True)
    made = _play(table, secrets, moves=6)
    game = _finish(table, secrets)
    followed = [seq for seq, _seat, hint, action in made if hint and action == hint["action"]]
    assert followed
    html = client.get(reverse("review:replay", args=[table.code, game.number])).content.decode()
    start = html.index('id="replay-data" type="application/json">') + len('id="replay-data" type="application/json">')
    steps = json.loads(html[start:html.index("</script>", start)])["steps"]
    for seq in followed:
        assert steps[seq]["hint_caption"] == "the hint shown was followed"
        assert steps[seq]["text"] not in steps[seq]["hint_caption"]
    for step in steps:
        if step.get("hint") and step["hint"].endswith("(not followed)"):
            assert step["hint_caption"] == step["hint"]  # the other move is named: it is not this one
