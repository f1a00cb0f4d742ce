"""The update frames prepared once per move say exactly what the per-seat path said."""

from __future__ import annotations

import copy
import json
import random

import pytest

from runbuster.engine import RunBusterEngine
from sixdice.tables.core import i18n
from sixdice.tables.core.keys import Credentials
from sixdice.tables.wire import outgoing
from sixdice.tables.writes import after_commit, checked_path, services


def _moves(n: int) -> list[dict]:
    """The table.events messages of ``n`` Run Buster moves at a three-seat table."""
    engine = RunBusterEngine()
    table, _host = services.create_table(game="runbuster", options={"dice": "app"}, capacity=3)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo", "Cy")]
    with after_commit.collect() as box:
        game = services.start_game(table=table, rng=random.Random(7)).game
    rng = random.Random(11)
    for _ in range(n):
        game.refresh_from_db()
        seat = game.state["current"]
        view = engine.view(game.state, seat)
        action = ({"type": "roll"} if view["phase"] == "roll" else
                  {"type": "choose", "straight": view["hand_options"][0]} if view["phase"] == "choose" else
                  {"type": "end_turn"})
        with after_commit.collect() as moved:
            checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                                  action=action, expected_seq=game.seq, rng=rng)
        box += moved
    return [message for _code, message in box if message["type"] == "table.events"]


@pytest.mark.django_db(transaction=True)  # real commits: the broadcasts go out after them
def test_prepared_text_equals_the_per_seat_frame_for_every_seat_and_language():
    messages = _moves(8)
    assert len(messages) >= 8
    for message in messages:
        assert all(isinstance(message[k], str) for k in ("events", "state"))  # the layer copies strings cheaply
        events, state = json.loads(message["events"]), json.loads(message["state"])
        for seat in (0, 1, 2, None):
            for language in ("en", "uk", "fr"):
                expected = i18n.localize_frame(outgoing.update_frame(
                    message["engine"], message["game"], message["number"], message["seq"], message["status"],
                    copy.deepcopy(events), state, seat, message["version"]), language)
                got = json.loads(outgoing.update_text(copy.deepcopy(message), seat, language))
                assert got == expected, (seat, language)


@pytest.mark.django_db(transaction=True)  # real commits: the broadcasts go out after them
def test_each_view_and_language_is_prepared_once_per_move(monkeypatch):
    message = _moves(1)[-1]
    calls = []
    parsed = []
    real = RunBusterEngine.view_parts

    def counted(self, state):
        parsed.append(1)
        shared, own = real(self, state)

        def counted_own(seat):
            calls.append(seat)
            return own(seat)

        return shared, counted_own

    monkeypatch.setattr(RunBusterEngine, "view_parts", counted)
    texts = [outgoing.update_text(copy.deepcopy(message), seat, lang)
             for seat, lang in [(0, "en"), (1, "en"), (None, "en"), (None, "uk"), (0, "fr"), (None, "en")]]
    assert parsed == [1]  # the state is parsed and its shared part built once per move
    assert sorted(calls, key=str) == sorted([0, 1, None], key=str)  # spectators and the host share one view
    assert texts[2] == texts[5]
    assert json.loads(texts[3])["view"] == json.loads(texts[2])["view"]
    assert json.loads(texts[3])["events"] != json.loads(texts[2])["events"] or not message["events"]
