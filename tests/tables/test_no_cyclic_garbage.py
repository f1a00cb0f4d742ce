"""A move leaves no reference cycles behind: a busy server's garbage collector finds nothing to do.

Cycles made per move (two closures calling each other in the log-line renderer, once) kept the
collector busy with tens of thousands of objects a second, and its passes were the load
benchmark's worst latencies (docs/performance.md).
"""

from __future__ import annotations

import collections
import copy
import gc
import random

import pytest

from sixdice.gamekit.engine import get_engine
from sixdice.tables.core import keys
from sixdice.tables.models import Game
from sixdice.tables.wire import outgoing
from sixdice.tables.writes import after_commit, checked_path, services
from tests.load.clients import next_action


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["runbuster", "sixdice"])
def test_moves_and_their_update_frames_make_no_cyclic_garbage(game):
    table, _host = services.create_table(game=game, options={"dice": "app"}, capacity=3)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo", "Cy")]
    services.start_game(table=table, rng=random.Random(2))
    rng = random.Random(4)

    def move() -> None:
        current = Game.objects.filter(table=table).order_by("-number").first()
        assert current is not None
        if current.status != "playing":
            services.start_game(table=table, rng=random.Random(5))
            return
        engine = get_engine(current.engine)
        seat = min(engine.actors(current.state))
        view = engine.view(current.state, seat)
        action = next_action(view, rng) if game == "runbuster" else engine.bot_action(current.state, seat, rng)
        with after_commit.collect() as box:
            checked_path.apply_action(table_code=table.code, credentials=keys.Credentials(seat_secret=secrets[seat]),
                                  action=action, expected_seq=current.seq, rng=rng)
        for _code, message in box:
            if message["type"] == "table.events":
                for who in (0, 1, 2, None):
                    for lang in ("en", "uk", "fr"):
                        outgoing.update_text(copy.deepcopy(message), who, lang)

    for _ in range(5):
        move()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(60):
            move()
        found = gc.collect()
        kinds = collections.Counter(getattr(o, "__qualname__", type(o).__qualname__) for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert found == 0, kinds.most_common(10)
