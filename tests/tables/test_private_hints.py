"""Hints are private: only the phone of the seat whose choice it is gets one.

The table screen and spectators (no seat, no host secret), the host's console
(host secret, no seat), every other seat, and a seated host for any seat but
its own get no hint in any frame: not in a snapshot, not in an update's view,
not in any event text.  A host who answers for a seat whose phone is away may
ask for that seat's hint with the host command ``hint``; for a seat whose
phone is here it is refused in words, and nothing changes.
"""

from __future__ import annotations

import json
import random

import pytest

from sixdice.gamekit.engine import get_engine
from sixdice.tables.core.errors import NotAllowed, NotAway, NotHost, ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.models import Connection
from sixdice.tables.reads import selectors, table_frame
from sixdice.tables.transport import presence
from sixdice.tables.wire import outgoing
from sixdice.tables.writes import after_commit, checked_path, services

pytestmark = pytest.mark.django_db(transaction=True)  # real commits: the broadcasts go out after them

HINT_KEY = {"sixdice": "hint", "runbuster": "hints"}


def _tapped(action: dict) -> dict:
    """A bot's move as a phone sends it: an app-dice roll is a tap, its values the app's."""
    return {"type": "roll"} if action["type"] == "roll" else action


def _table(slug: str, *, hints: bool = True):
    """A table with three seats whose game waits for a seat's choice that has a hint; the host holds seat 0."""
    options = {"hints": "on" if hints else "off", "dice": "app"}
    table, host = services.create_table(game=slug, options=options, capacity=3)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo", "Cy")]
    services.start_game(table=table, rng=random.Random(5))
    game = table_frame.current_game(table)
    engine = get_engine(slug)
    rng = random.Random(9)
    for _ in range(40):  # Run Buster: roll until a seat chooses a straight (its hint has a suggestion)
        seat = min(engine.actors(game.state))
        if engine.hint(game.state, seat) is not None and (slug == "sixdice" or game.state["phase"] == "choose"):
            break
        action = _tapped(engine.bot_action(game.state, seat, rng, strength="random"))
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                                  action=action, expected_seq=game.seq, rng=rng)
        game.refresh_from_db()
    seat = min(engine.actors(game.state))
    assert hints is False or engine.hint(game.state, seat) is not None
    return table, host, secrets, game, seat


def _roles(turn: int):
    """(seat, host) of every kind of connection, and whether it may see the hint of ``turn``'s choice."""
    others = [s for s in range(3) if s != turn]
    return [
        ((None, False), False),  # the table screen, a spectator
        ((None, True), False),  # the host's console, no seat of its own
        ((others[0], False), False),  # another seat
        ((others[1], True), False),  # a seated host, whose seat is not in turn
        ((turn, False), True),  # the seat whose choice it is
        ((turn, True), True),  # a seated host whose own seat is in turn
    ]


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_only_the_seat_in_turn_gets_its_hint_in_the_table_frame(slug):
    table, _host, _secrets, game, turn = _table(slug)
    frame = table_frame.table_frame(table.pk)
    key = HINT_KEY[slug]
    hint = get_engine(slug).hint(game.state, turn)
    for (seat, host), sees in _roles(turn):
        view = selectors.for_connection(frame, seat=seat, host=host)["game"]["view"]
        assert (view.get(key) == hint) is sees and (bool(view.get(key)) is sees), (seat, host)


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_no_other_seats_hint_in_any_update_text(slug):
    """The prepared ``update`` of the move that made the choice pending: the hint only in the seat's own view."""
    table, _host, secrets, game, turn = _table(slug)
    engine = get_engine(slug)
    # One more move gives an update whose state waits for a (possibly other) seat's hinted choice.
    with after_commit.collect() as box:
        action = _tapped(engine.bot_action(game.state, turn, random.Random(2), strength="random"))
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[turn]),
                                  action=action, expected_seq=game.seq, rng=random.Random(3))
    message = next(m for _code, m in box if m["type"] == "table.events")
    state = json.loads(message["state"])
    waiting = sorted(engine.actors(state))
    hinted = {s for s in waiting if engine.hint(state, s) is not None}
    assert hinted or slug == "runbuster"  # Run Buster's roll after a straight has chances only for the seat in turn
    key = HINT_KEY[slug]
    for seat in (None, 0, 1, 2):
        for host in (False, True):
            for lang in ("en", "fr"):
                frame = json.loads(outgoing.update_text(message, seat, lang, host))
                got = frame["view"].get(key)
                assert bool(got) is (seat in hinted), (seat, host, lang)
                assert not any("hint" in json.dumps(e).lower() for e in frame["events"])


def test_a_seated_host_sees_only_its_own_seats_hint_while_answering_for_another():
    table, _host, _secrets, game, turn = _table("sixdice")
    host_seat = (turn + 1) % 3
    view = outgoing.seat_view(get_engine("sixdice"), game.state, host_seat, host=True)
    assert "hint" not in view
    # What the host answers for another seat is still offered (a grouping, a keep, a typed roll): only the hint goes.
    assert view["pending"]["seat"] == turn


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_the_host_may_ask_for_the_hint_of_an_away_seat_only(slug):
    table, host, _secrets, game, turn = _table(slug)
    creds = Credentials(host_secret=host)
    hint = get_engine(slug).hint(game.state, turn)
    # Nobody's phone is connected: the seat in turn is away, its hint comes back to the host alone.
    reply = host_command(table_code=table.code, credentials=creds, command="hint", fields={"position": turn})
    assert reply == {"type": "hint", "position": turn, "seq": game.seq, "hint": hint}
    # Its phone connects: the hint is that phone's only, the host is told so in words.
    presence.arrive("phone-of-turn", table_id=table.pk, seat=turn, host=False)
    with pytest.raises(NotAway) as refused:
        host_command(table_code=table.code, credentials=creds, command="hint", fields={"position": turn})
    name = game.players[turn]
    assert refused.value.message == f"{name}'s phone is at the table: only that phone gets the hint."
    # A seat with no choice now, a seat that does not exist, a spectator: refused, nothing changes.
    other = (turn + 1) % 3
    with pytest.raises(NotAllowed) as no_choice:
        host_command(table_code=table.code, credentials=creds, command="hint", fields={"position": other})
    assert no_choice.value.message == f"{game.players[other]} has no choice to make now."
    with pytest.raises(ServiceError) as bad:
        host_command(table_code=table.code, credentials=creds, command="hint", fields={"position": 7})
    assert bad.value.code == "bad_seat"
    with pytest.raises(ServiceError) as bad:
        host_command(table_code=table.code, credentials=creds, command="hint", fields={"position": "1"})
    assert bad.value.code == "bad_field"  # the whole-number rule of every host command
    with pytest.raises(NotHost):
        host_command(table_code=table.code, credentials=Credentials(), command="hint", fields={"position": turn})
    game.refresh_from_db()
    assert Connection.objects.filter(table=table).count() == 1


def test_the_host_gets_no_hint_at_a_table_with_hints_off():
    table, host, _secrets, game, turn = _table("sixdice", hints=False)
    with pytest.raises(NotAllowed) as refused:
        host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="hint",
                     fields={"position": turn})
    assert refused.value.message == "Hints are off at this table."


def test_the_host_may_ask_for_the_hint_of_a_seat_the_app_plays():
    """A seat handed to the app counts as away even while its old phone is still connected (watching)."""
    table, host, _secrets, game, turn = _table("sixdice")
    presence.arrive("phone-of-turn", table_id=table.pk, seat=turn, host=False)
    from sixdice.tables.models import Seat

    Seat.objects.filter(table=table, position=turn).update(is_bot=True)
    reply = host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="hint",
                         fields={"position": turn})
    assert reply["hint"] == get_engine("sixdice").hint(game.state, turn)
