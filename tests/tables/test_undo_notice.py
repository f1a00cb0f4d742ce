"""Every phone is told what an undo, a take-back or a correction changed, and at a real-dice table who must act again.

The undo's event carries one notice (``notice``, in each reader's language)
and the seats it asks to act again (``act_again``): what was corrected, what
was made again, whose moves were taken back, how the hands stand now, and
"Jo: make your flip again, then roll 1 die".  The host's correction form is
offered the typed-in rolls latest first, with whose roll each is and its values.
"""

from __future__ import annotations

import json
import random

import pytest

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.replay import undone
from sixdice.rules.dice import FACES
from sixdice.tables.core import i18n
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Event
from sixdice.tables.policies import undo
from sixdice.tables.reads import selectors, table_frame
from sixdice.tables.wire import offers, outgoing
from sixdice.tables.writes import after_commit, checked_path, services

pytestmark = pytest.mark.django_db

SIXDICE = get_engine("sixdice")
NAMES = ("Ivo", "Jo", "Ben")


def _physical_table(*, dice: str = "physical"):
    table, host = services.create_table(game="sixdice", options={"dice": dice}, capacity=3)
    secrets = [services.join_table(table=table, name=n)[1] for n in NAMES]
    services.start_game(table=table, rng=random.Random(7))
    return table, host, secrets


def _play_until(table, secrets, done, *, limit: int = 80) -> None:
    """Each seat plays its own moves (random choices, typed-in rolls from a seeded rng) until ``done(game)``."""
    for i in range(limit):
        game = table_frame.current_game(table)
        if done(game):
            return
        seat = min(SIXDICE.actors(game.state))
        rng = random.Random(f"{i}-{game.seq}")
        action = SIXDICE.bot_action(game.state, seat, rng, strength="random")
        if action is None:  # a physical roll: type in values, as the phone would
            count = SIXDICE.view(game.state, seat)["pending"]["count"]
            action = {"type": "roll", "values": [rng.choice(FACES) for _ in range(count)]}
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                                  action=action, expected_seq=game.seq)
    raise AssertionError("the game never got there")


def _notice(event: Event, lang: str = "en") -> dict:
    return i18n.localize_events([outgoing.event_payload(event)], lang)[0]


def _flip_then_draw(table, secrets):
    """Play on until a seat has flipped and then typed in its draw; the flip's event."""
    def drew_after_flip(game):
        log = list(game.events.order_by("seq"))
        return len(log) >= 2 and log[-1].action["type"] == "roll" and log[-2].action["type"] == "flip" \
            and log[-1].actor == log[-2].actor and game.state["round"] >= 1
    _play_until(table, secrets, drew_after_flip)
    return list(table_frame.current_game(table).events.order_by("seq"))[-2]


def test_an_undo_at_a_real_dice_table_says_who_must_flip_and_roll_again():
    table, host, secrets = _physical_table()
    flip = _flip_then_draw(table, secrets)
    game = table_frame.current_game(table)
    name = game.players[int(flip.actor)]
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="undo",
                 fields={"expected_seq": game.seq, "to": flip.seq - 1})
    game.refresh_from_db()
    said = _notice(game.events.order_by("-seq").first())
    assert said["notice"].startswith(f"Taken back: {name}'s flip and roll.")
    assert f"{name}: set your dice as your phone shows, make your flip again, then roll 1 die." in said["notice"]
    assert int(flip.actor) in said["act_again"]
    victim = flip.action["victim"]  # the other die of the flip changed back too
    assert f"{game.players[victim]}: set your dice as your phone shows" in said["notice"] and victim in said["act_again"]
    assert "Hands now: " in said["notice"]
    for lang, words in (("fr", "lancez 1 dé"), ("uk", "киньте 1 кубик"), ("pt", "role 1 dado"), ("nl", "gooi 1 dobbelsteen")):
        text = _notice(game.events.order_by("-seq").first(), lang)["notice"]
        assert words in text and "Taken back" not in text and "make your" not in text, (lang, text)


def test_a_correction_says_what_it_corrected_made_again_and_took_back():
    table, host, secrets = _physical_table()
    draws: list[int] = []

    def third_draw_and_more(game):
        draws[:] = [e.seq for e in game.events.filter(action__type="roll").order_by("seq")
                    if e.notation and e.notation[0].get("mover", {}).get("kind") == "draw"]
        return len(draws) >= 3 and game.seq >= draws[2] + 5

    _play_until(table, secrets, third_draw_and_more)
    game = table_frame.current_game(table)
    roll = Event.objects.get(game=game, seq=draws[2])
    old = roll.action["values"]
    new = [-old[0]]
    corrections = selectors.snapshot(table.pk, seat=None, host=True)["game"]["corrections"]
    assert corrections[0]["seq"] == max(c["seq"] for c in corrections)  # latest first: the form's default
    assert {"seq": roll.seq, "seat": roll.notation[0]["mover"]["seat"], "kind": "draw", "values": old} in corrections
    before = [(e.seq, e.actor, e.action) for e in game.events.order_by("seq")]
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="correct",
                 fields={"expected_seq": game.seq, "seq": roll.seq, "values": new})
    game.refresh_from_db()
    log = list(game.events.order_by("seq"))
    head = next(e for e in log if e.seq > len(before) and e.action["type"] == "undo")
    said = _notice(head)
    roller = game.players[roll.notation[0]["mover"]["seat"]]
    fmt = lambda v: f"{v:+d}".replace("-", "\u2212")  # noqa: E731
    assert said["notice"].startswith(f"Corrected: {roller}'s roll {fmt(old[0])} → {fmt(new[0])}.")
    remade = [e for e in log if e.seq > head.seq + 1 and e.actor != "system"]
    gone = undone([(e.actor, e.action) for e in log])
    struck = [s for s, actor, _a in before if s in gone and actor != "system" and s != roll.seq]
    assert len(struck) >= len(remade)
    assert ("Made again: " in said["notice"]) is bool(remade)
    assert ("Taken back: " in said["notice"]) is (len(struck) > len(remade))
    assert said["act_again"]  # at least the roller: the hand changed, the real dice must follow the screen
    for seat in said["act_again"]:
        assert f"{game.players[seat]}: " in said["notice"]
    fr = _notice(head, "fr")["notice"]
    assert fr.startswith(f"Corrigé\u00a0: lancer de {roller} ") and "Taken back" not in fr


def test_an_undo_at_an_app_dice_table_asks_nobody_to_roll():
    table, host, secrets = _physical_table(dice="app")
    _play_until(table, secrets, lambda g: g.events.filter(action__type="flip").exists())
    game = table_frame.current_game(table)
    flip = game.events.filter(action__type="flip").order_by("-seq").first()
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="undo",
                 fields={"expected_seq": game.seq})
    game.refresh_from_db()
    said = _notice(game.events.order_by("-seq").first())
    assert said["notice"].startswith(f"Taken back: {game.players[int(flip.actor)]}'s flip")
    assert "act_again" not in said and "set your dice" not in said["notice"] and "roll 1" not in said["notice"]


@pytest.mark.django_db(transaction=True)  # real commits: the broadcasts go out after them
def test_a_players_take_back_tells_every_phone_too():
    table, _host, secrets = _physical_table(dice="app")
    _play_until(table, secrets, lambda g: g.events.exclude(actor="system").exists() and g.events.order_by(
        "-seq").exclude(actor="system").first().action["type"] == "flip")
    game = table_frame.current_game(table)
    flip = game.events.exclude(actor="system").order_by("-seq").first()
    seat = int(flip.actor)
    with after_commit.collect() as box:
        undo.take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]), expected_seq=game.seq)
    message = next(m for _c, m in box if m["type"] == "table.events")
    for phone in (None, 0, 1, 2):
        update = json.loads(outgoing.update_text(message, phone, "en"))
        taken = next(e for e in update["events"] if e["action"]["type"] == "undo")
        assert taken["notice"].startswith(f"Taken back: {game.players[seat]}'s flip.")


@pytest.mark.django_db(transaction=True)  # real commits: the broadcasts go out after them
def test_the_correction_offer_and_its_update_list_the_typed_rolls_latest_first():
    table, host, secrets = _physical_table()
    _play_until(table, secrets, lambda g: g.state["round"] >= 1)
    game = table_frame.current_game(table)
    listed = selectors.snapshot(table.pk, seat=None, host=True)["game"]["corrections"]
    rolls = list(game.events.filter(action__type="roll").order_by("-seq"))
    assert [c["seq"] for c in listed] == [e.seq for e in rolls]  # none undone yet
    assert all(c["kind"] == "start" and c["values"] == e.action["values"] for c, e in zip(listed, rolls, strict=True))
    assert [c["seat"] for c in listed] == [e.notation[0]["mover"]["seat"] for e in rolls]
    assert "corrections" not in selectors.snapshot(table.pk, seat=0, host=False)["game"]  # the host's only
    assert offers.corrections_offer(SIXDICE, [], options={"dice": "app"}) == []
    # A new typed roll comes with its update: the page puts it in front of those it holds.
    _play_until(table, secrets, lambda g: g.state["pending"] and g.state["pending"]["kind"] == "roll")
    game = table_frame.current_game(table)
    seat = game.state["pending"]["seat"]
    with after_commit.collect() as box:
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                                  action={"type": "roll", "values": [2] * game.state["pending"]["count"]},
                                  expected_seq=game.seq)
    message = next(m for _c, m in box if m["type"] == "table.events")
    update = json.loads(outgoing.update_text(message, None, "en", True))
    assert update["corrections"][0]["seq"] == game.seq + 1 and update["corrections"][0]["seat"] == seat
