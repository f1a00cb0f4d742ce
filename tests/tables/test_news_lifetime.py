"""News has a lifetime, decided by the server: each notice says the board it describes and ends with it.

An event that carries news (an undo's ``notice``, the last round announced,
a seat's own ``yours`` line) says which board it is about (``about``: the
game's ``seq`` after the write that made it, whatever app steps followed in
that write) and when it ends (``ends``: ``"next_write"``: the next move by
anyone, an undo, a new round).  A sentence an undo addresses to a seat comes
with that seat's own words ("You: …") and names the move the seat's phone asks
for now.
"""

from __future__ import annotations

import json
import random

import pytest

from sixdice.gamekit.engine import get_engine
from sixdice.tables.core import i18n
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Event
from sixdice.tables.policies.undo_notice import Move, notice
from sixdice.tables.reads import selectors, table_frame
from sixdice.tables.wire import outgoing
from sixdice.tables.writes import checked_path, services
from tests.tables.test_undo_notice import _flip_then_draw, _physical_table, _play_until
from tests.tables.test_who_decided import _waiting_for_anas_grouping

pytestmark = pytest.mark.django_db

SIXDICE = get_engine("sixdice")
RUNBUSTER = get_engine("runbuster")


def _localized(event: Event, lang: str = "en") -> dict:
    return i18n.localize_events([outgoing.event_payload(event)], lang)[0]


def _log(table, seat=None, host=False) -> list[dict]:
    """The log of a table frame (welcome, snapshot) as a connection in English reads it."""
    frame = i18n.localize_frame(selectors.snapshot(table.pk, seat=seat, host=host), "en")
    return frame["game"]["log"]


def test_a_hosts_answer_is_news_about_the_board_after_its_whole_write():
    table, host, secrets, game = _waiting_for_anas_grouping()
    grouping = SIXDICE.view(game.state, 0)["groupings"][0]
    checked_path.apply_action(table_code=table.code, credentials=Credentials(host_secret=host),
                              action={"type": "group", **grouping}, expected_seq=game.seq, as_host=True)
    answered = Event.objects.get(game=game, seq=game.seq + 1)
    game.refresh_from_db()
    en = _localized(answered)
    assert en["yours"]["0"].startswith("The host chose for you:")
    assert en["about"] == game.seq and en["ends"] == "next_write"
    # The table frame says the same: the news describes the board shown now.
    told = [e for e in _log(table, seat=0) if e.get("yours")]
    assert [e["about"] for e in told] == [game.seq]
    # Ana's next move is a write: the board has moved past the news (seq > about), which stays in the log only.
    seat = min(SIXDICE.actors(game.state))
    action = SIXDICE.bot_action(game.state, seat, random.Random(1), strength="random")
    if action is None:
        action = {"type": "roll", "values": [1] * SIXDICE.view(game.state, seat)["pending"]["count"]}
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                              action=action, expected_seq=game.seq)
    game.refresh_from_db()
    assert all(e["about"] < game.seq for e in _log(table, seat=0) if "about" in e)


@pytest.mark.parametrize("dice", ["app", "physical"])
def test_every_news_of_a_game_is_about_the_board_after_its_write(dice):
    """App steps follow a move in the same write (the app's dice, automatic balancing): the news is about the end."""
    table, _host = services.create_table(game="sixdice", options={"dice": dice}, capacity=3)
    secrets = [services.join_table(table=table, name=n)[1] for n in ("Ivo", "Jo", "Ben")]
    services.start_game(table=table, rng=random.Random(5))
    ends: dict[int, int] = {}  # each event's seq: the seq after its write
    later = 0
    for i in range(120):
        game = table_frame.current_game(table)
        if game.status != "playing":
            break
        seat = min(SIXDICE.actors(game.state))
        rng = random.Random(f"{i}-{game.seq}")
        action = SIXDICE.bot_action(game.state, seat, rng, strength="random")
        if action is None:
            action = {"type": "roll", "values": [rng.choice([1, 2, 3, -1, -2, -3])
                                                 for _ in range(SIXDICE.view(game.state, seat)["pending"]["count"])]}
        before = game.seq
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                                  action=action, expected_seq=before)
        game.refresh_from_db()
        ends.update({s: game.seq for s in range(before + 1, game.seq + 1)})
        later += game.seq - before > 1
    news = [(e.seq, _localized(e)) for e in game.events.order_by("seq") if e.seq in ends]
    news = [(seq, said) for seq, said in news if "about" in said]
    assert news, "the game played made no news"
    assert later or dice == "physical", "no write with app steps"  # with real dice, nothing follows a move by itself
    for seq, said in news:
        assert said["about"] == ends[seq] and said["ends"] == "next_write", (seq, said)


def test_a_line_without_news_has_no_lifetime_and_an_old_line_is_about_itself():
    table, _host, _secrets, game = _waiting_for_anas_grouping()
    for event in game.events.all():
        said = _localized(event)
        assert ("about" in said) is bool(said.get("yours") or said.get("notice")), said
    # A line stored before news had a lifetime (no mark): about its own seq, so any later move ends it.
    event = game.events.order_by("seq").first()
    event.notation = [{**event.notation[0], "yours": {"0": {"msg": "Your hand was regrouped", "args": {}}}}]
    said = _localized(event)
    assert said["about"] == event.seq and said["yours"] == {"0": "Your hand was regrouped"}


def _flip_undone():
    """A flip and the draw after it, taken back by the host: the table, its seats' secrets, the flip, the game and the undo's event."""
    table, host, secrets = _physical_table()
    flip = _flip_then_draw(table, secrets)
    game = table_frame.current_game(table)
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="undo",
                 fields={"expected_seq": game.seq, "to": flip.seq - 1})
    game.refresh_from_db()
    return table, secrets, flip, game, game.events.filter(action__type="undo").order_by("-seq").first()


def test_an_undo_notice_is_about_the_board_after_the_undo_and_the_next_move_ends_it():
    table, secrets, flip, game, head = _flip_undone()
    said = _localized(head)
    assert said["notice"] and said["about"] == game.seq
    # The update of that write carries it, on every connection.
    message = outgoing.events_message(engine="sixdice", game=game.pk, number=1, seq=game.seq, status="playing",
                                      events=[outgoing.event_payload(head)], state=game.state, version=1)
    for seat in (None, 0, 1, 2):
        update = json.loads(outgoing.update_text(message, seat, "en"))
        assert update["events"][0]["about"] == update["seq"] == game.seq
    # The seat asked to flip again does so: the notice's board is gone.
    seat = int(flip.actor)
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                              action=dict(flip.action), expected_seq=game.seq)
    game.refresh_from_db()
    notices = [e for e in _log(table, seat=seat) if e.get("notice")]
    assert notices and all(e["about"] < game.seq for e in notices)


def test_each_phone_reads_its_own_sentence_in_its_own_words():
    table, secrets, flip, game, head = _flip_undone()
    mover = int(flip.actor)
    lines = _localized(head)["notice_lines"]
    addressed = {line["seat"]: line for line in lines if "seat" in line}
    assert set(addressed) == set(_localized(head)["act_again"])
    own = addressed[mover]
    assert own["text"] == f"{game.players[mover]}: set your dice as your phone shows, make your flip again, then roll 1 die."
    assert own["you"] == "You: set your dice as your phone shows, make your flip again, then roll 1 die."
    assert " ".join(line["text"] for line in lines) == _localized(head)["notice"]  # the table screen's: all, in order
    for lang, you in (("fr", "Vous\u00a0:"), ("nl", "Jij:"), ("pt", "Você:"), ("uk", "Ви:")):
        mine = next(line for line in _localized(head, lang)["notice_lines"] if line.get("seat") == mover)
        assert mine["you"].startswith(you) and game.players[mover] not in mine["you"], (lang, mine)


def test_the_notice_names_the_move_the_phone_asks_for_now():
    """A correction that changes a hand: "make your grouping again" is wrong when the phone asks for a keep."""
    table, _host, secrets = _physical_table()
    _play_until(table, secrets, lambda g: (g.state.get("pending") or {}).get("kind") == "keep")
    game = table_frame.current_game(table)
    seat = game.state["pending"]["seat"]
    players = list(game.players)
    sentences, again = notice(SIXDICE, players=players, options=game.options, before=game.state, after=game.state,
                              taken_back=[Move(game.seq, seat, {"type": "group"})])
    mine = next(s for s in sentences if s.get("seat") == seat)
    assert seat in again
    text = i18n.render_notation([mine], "en")
    assert text == f"{players[seat]}: make your choice of groups to keep."
    assert i18n.render_notation([mine["you"]], "en") == "You: make your choice of groups to keep."
    # The same move taken back as the one asked for: "again".
    sentences, _again = notice(SIXDICE, players=players, options=game.options, before=game.state, after=game.state,
                               taken_back=[Move(game.seq, seat, {"type": "keep"})])
    mine = next(s for s in sentences if s.get("seat") == seat)
    assert i18n.render_notation([mine], "en") == f"{players[seat]}: make your choice of groups to keep again."


def test_run_busters_bust_news_ends_with_the_next_move():
    table, _host = services.create_table(game="runbuster", options={}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    services.start_game(table=table, rng=random.Random(3))
    busted = None
    for i in range(400):
        game = table_frame.current_game(table)
        if game is None or game.status != "playing":
            break
        told = [e for e in game.events.order_by("seq") if _localized(e).get("yours")]
        if told and busted is None:
            busted = told[-1]
            assert _localized(busted)["about"] == game.seq
            assert "busted your" in next(iter(_localized(busted)["yours"].values()))
        if busted is not None and game.seq > _localized(busted)["about"]:
            break
        seat = min(RUNBUSTER.actors(game.state))
        action = RUNBUSTER.bot_action(game.state, seat, random.Random(f"{i}"), strength="random")
        checked_path.apply_action(table_code=table.code, credentials=Credentials(), action=action,  # as the app's bots
                                  expected_seq=game.seq, bot_seat=seat, rng=random.Random(f"dice-{i}"))
    assert busted is not None, "no bust in the game played"
    game = table_frame.current_game(table)
    assert game.seq > _localized(busted)["about"]  # the board moved past it: no phone shows it any more
