"""Every phone says who decided: a choice the host or the app made for a seat never reads as the seat's own.

The log line says it in every language ("The host chose for Ivo: keeps …",
"The app chose for Ivo (automatic balancing): …", "The app played for Ivo
(time ran out): …"), the event carries it as data (``decided``), and the
seat's own phone gets the same news in the second person (the event's
``yours``, which that phone shows once).  A move the app made for a seat is
never offered to its player to take back, "I'm back" or not.
"""

from __future__ import annotations

import json
import random

import pytest

from sixdice.gamekit.engine import get_engine
from sixdice.tables.core import i18n
from sixdice.tables.core.errors import CannotTakeBack
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Event
from sixdice.tables.policies import bots, undo
from sixdice.tables.reads import selectors, table_frame
from sixdice.tables.wire import outgoing
from sixdice.tables.writes import after_commit, checked_path, services

pytestmark = pytest.mark.django_db

SIXDICE = get_engine("sixdice")
# Ana's six dice allow two groupings (the game waits for her choice); Bo's only one.
ANA_ROLL = [3, -3, 2, -1, -1, 1]
BO_ROLL = [3, -3, 2, -2, 1, -1]


def _waiting_for_anas_grouping(**options):
    table, host = services.create_table(game="sixdice", options={"dice": "physical", **options}, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    services.start_game(table=table)
    as_host = Credentials(host_secret=host)
    for values in (ANA_ROLL, BO_ROLL):
        game = table_frame.current_game(table)
        checked_path.apply_action(table_code=table.code, credentials=as_host, action={"type": "roll", "values": values},
                                  expected_seq=game.seq, as_host=True)
    game = table_frame.current_game(table)
    return table, host, secrets, game


def _localized(event: Event, lang: str) -> dict:
    return i18n.localize_events([outgoing.event_payload(event)], lang)[0]


def test_the_hosts_answer_for_a_seat_says_so_on_every_phone_and_in_every_language():
    table, host, _secrets, game = _waiting_for_anas_grouping()
    assert game.state["pending"] == {**game.state["pending"], "kind": "group", "seat": 0}
    grouping = SIXDICE.view(game.state, 0)["groupings"][0]
    checked_path.apply_action(table_code=table.code, credentials=Credentials(host_secret=host),
                              action={"type": "group", **grouping}, expected_seq=game.seq, as_host=True)
    event = Event.objects.get(game=game, seq=game.seq + 1)
    assert event.actor == "host"
    assert event.text.startswith("The host chose for Ana: groups (")  # never "Ana groups …", as if her own
    en = _localized(event, "en")
    assert en["decided"] == {"seat": 0, "by": "host", "why": "host"}
    assert en["yours"]["0"].startswith("The host chose for you: groups (")  # Ana's own phone: once, in her words
    said = {lang: _localized(event, lang)["text"] for lang in ("fr", "uk", "pt", "nl")}
    assert said["fr"].startswith("L’hôte a choisi pour Ana\u00a0: groupe (")
    assert said["uk"].startswith("Ведучий вибрав за гравця Ana: групує (")
    assert said["pt"].startswith("O anfitrião escolheu por Ana: agrupa (")
    assert said["nl"].startswith("De gastheer koos voor Ana: groepeert (")
    # Every connection's update carries it: the line for all, the second-person news for Ana's phone.
    message = outgoing.events_message(engine="sixdice", game=game.pk, number=1, seq=game.seq + 1, status="playing",
                                      events=[outgoing.event_payload(event)], state=game.state, version=1)
    for seat in (None, 0, 1):
        update = json.loads(outgoing.update_text(message, seat, "en"))
        assert update["events"][0]["text"] == event.text and update["events"][0]["decided"]["by"] == "host"


def test_the_undo_button_names_the_seat_the_host_answered_for():
    table, host, _secrets, game = _waiting_for_anas_grouping()
    grouping = SIXDICE.view(game.state, 0)["groupings"][0]
    checked_path.apply_action(table_code=table.code, credentials=Credentials(host_secret=host),
                              action={"type": "group", **grouping}, expected_seq=game.seq, as_host=True)
    offer = selectors.snapshot(table.pk, seat=None, host=True)["game"]["undo"]
    assert offer == {"seq": game.seq + 1, "actor": "host", "seat": 0, "kind": "grouping"}  # "Undo Ana's grouping"


def test_automatic_balancing_says_the_app_chose_and_why():
    table, host, _secrets, game = _waiting_for_anas_grouping(auto_balance="on")
    balanced = [e for e in Event.objects.filter(game=game, actor="system").order_by("seq")
                if e.action["type"] in ("group", "keep")]
    assert balanced
    for event in balanced:
        name = game.players[_localized(event, "en")["decided"]["seat"]]
        assert event.text.startswith(f"The app chose for {name} (automatic balancing): ")
        assert _localized(event, "en")["decided"]["why"] == "default"
        assert "yours" not in _localized(event, "en")  # the table chose it, every turn: the line says it, no note
        assert _localized(event, "fr")["text"].startswith(f"L’application a choisi pour {name} (équilibre automatique)")
    app_rolls = Event.objects.filter(game=game, action__type="roll")  # dice are no one's choice: no "chose"
    assert all("chose" not in e.text and "played for" not in e.text for e in app_rolls)


def test_a_time_out_stand_in_says_the_app_played_for_the_seat():
    table, _host, secrets, game = _waiting_for_anas_grouping()
    action = SIXDICE.bot_action(game.state, 0, random.Random(1))
    checked_path.apply_action(table_code=table.code, credentials=Credentials(), action=action,
                              expected_seq=game.seq, bot_seat=0, stand_in="timeout")
    event = Event.objects.get(game=game, seq=game.seq + 1)
    assert event.text.startswith("The app played for Ana (time ran out): groups (")
    payload = _localized(event, "en")
    assert payload["stand_in"] == "timeout" and payload["decided"] == {"seat": 0, "by": "app", "why": "timeout"}
    assert payload["yours"]["0"].startswith("The app played for you (time ran out): ")
    assert selectors.snapshot(table.pk, seat=0, host=False)["game"]["take_back"] is None


def _bot_moves(table, n: int) -> None:
    for _ in range(n):
        with after_commit.collect():
            if not bots.step(table.code):
                return


def test_the_app_playing_an_away_seat_says_so_and_its_moves_are_never_offered_back():
    """After "I'm back" (the seat given back), the flip the app made is not "Take back your flip"."""
    table, host = services.create_table(game="sixdice", options={"dice": "app"}, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    services.start_game(table=table, rng=random.Random(4))
    game = table_frame.current_game(table)
    seat = min(SIXDICE.actors(game.state))
    services.set_bot(table=table, position=seat, is_bot=True)  # the host lets the app play the seat (parked)
    _bot_moves(table, 1)
    game.refresh_from_db()
    made = Event.objects.filter(game=game, actor=str(seat)).order_by("-seq").first()
    assert made is not None and made.stand_in == "away"
    name = game.players[seat]
    assert made.text.startswith(f"The app played for {name} (away): ")
    assert _localized(made, "en")["decided"] == {"seat": seat, "by": "app", "why": "away"}
    services.set_bot(table=table, position=seat, is_bot=False)  # the seat is the player's again
    last = Event.objects.filter(game=game).exclude(actor="system").order_by("-seq").first()
    assert last.pk == made.pk  # only the app's own steps since: a take-back would reach the app's move
    table_frame.FRAMES.clear()
    frame = selectors.snapshot(table.pk, seat=seat, host=False)
    assert frame["role"] == "seat" and frame["game"]["take_back"] is None
    with pytest.raises(CannotTakeBack):
        undo.take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                       expected_seq=frame["game"]["seq"])


def test_a_bots_own_seat_reads_as_itself_but_is_the_apps():
    table, host = services.create_table(game="sixdice", options={"dice": "app"}, capacity=2)
    services.join_table(table=table, name="Ana")
    services.join_table(table=table, name="Bot 1", is_bot=True)
    services.start_game(table=table, rng=random.Random(4))
    for _ in range(12):
        game = table_frame.current_game(table)
        if 1 in SIXDICE.actors(game.state):
            break
        action = SIXDICE.bot_action(game.state, 0, random.Random(3))
        checked_path.apply_action(table_code=table.code, credentials=Credentials(), action=action,
                                  expected_seq=game.seq, bot_seat=0)
    _bot_moves(table, 1)
    made = Event.objects.filter(game__table=table, actor="1").order_by("-seq").first()
    assert made is not None and made.stand_in == "bot"
    assert made.text.startswith("Bot 1") and "played for" not in made.text  # every move of a bot is its own line
    assert _localized(made, "en")["decided"] == {"seat": 1, "by": "app", "why": "bot"}
    assert "stand_in" not in _localized(made, "en")  # only a time-out is a "stand-in" on the wire


def test_run_buster_time_out_rolls_say_the_app_played():
    table, _host = services.create_table(game="runbuster", options={"dice": "app"}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    services.start_game(table=table, rng=random.Random(2))
    game = table_frame.current_game(table)
    seat = game.state["current"]
    checked_path.apply_action(table_code=table.code, credentials=Credentials(), action={"type": "roll"},
                              expected_seq=game.seq, bot_seat=seat, stand_in="timeout", rng=random.Random(5))
    event = Event.objects.get(game=game, seq=game.seq + 1)
    assert event.text.startswith(f"The app played for {game.players[seat]} (time ran out): rolls ")
    assert _localized(event, "nl")["text"].startswith(f"De app speelde voor {game.players[seat]} (tijd om): gooit ")
