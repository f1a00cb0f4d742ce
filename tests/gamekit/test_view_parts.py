"""Every engine's view is its shared part and the seat's own part (``GameEngine.view_parts``),
and the ``update`` frame built from the parts carries that view."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from sixdice.gamekit.engine import SYSTEM, get_engine
from sixdice.tables.wire.outgoing import PreparedUpdate, events_message


def _states(engine_name: str, seats: int, options: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The states of a seeded bot game, from the start to the end (or the first action no bot makes)."""
    engine = get_engine(engine_name)
    rng = random.Random(5)
    cleaned = engine.clean_options(options, players=seats)
    state = engine.start(players=[f"P{k}" for k in range(seats)], options=cleaned)
    for _ in range(400):
        yield state
        if engine.outcome(state) is not None:
            return
        action = engine.system_action(state, cleaned, rng)  # the app's rolls
        if action is None:
            actors = engine.actors(state)
            action = engine.bot_action(state, min(actors), rng) if actors else None
        if action is None:
            return
        state = json.loads(json.dumps(engine.apply(state, action, actor=SYSTEM)))


CASES = [("runbuster", 3, {}), ("runbuster", 2, {"hints": True}), ("sixdice", 3, {}), ("sixdice", 2, {"hints": True})]


@pytest.mark.parametrize(("engine_name", "seats", "options"), CASES)
def test_shared_and_own_parts_make_the_view_with_no_key_in_both(engine_name, seats, options):
    engine = get_engine(engine_name)
    count = 0
    for state in _states(engine_name, seats, options):
        shared, own = engine.view_parts(state)
        for seat in [None, *range(seats)]:
            mine = own(seat)
            assert not set(shared) & set(mine)
            assert {**shared, **mine} == engine.view(state, seat)
        count += 1
    assert count > 10  # a real game was walked, not just its start


@pytest.mark.parametrize(("engine_name", "seats", "options"), CASES)
def test_the_prepared_update_carries_each_seats_view(engine_name, seats, options):
    engine = get_engine(engine_name)
    for n, state in enumerate(_states(engine_name, seats, options)):
        if n % 7:
            continue
        message = events_message(engine=engine_name, game=1, number=1, seq=n, status="playing", events=[],
                                 state=state, version=3)
        prepared = PreparedUpdate(message)
        for seat in [None, *range(seats)]:
            frame = json.loads(prepared.text(seat, "en"))
            assert frame["view"] == json.loads(json.dumps(engine.view(state, seat)))
            assert (frame["type"], frame["seq"], frame["version"], frame["events"]) == ("update", n, 3, [])
