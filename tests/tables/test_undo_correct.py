"""The host's correction of a typed roll refuses bad values with a clear message and changes nothing (issue 14)."""

from __future__ import annotations

import random

import pytest

from sixdice.tables.core.errors import ServiceError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.reads import table_frame
from sixdice.tables.writes import checked_path, services

pytestmark = pytest.mark.django_db


def _typed_roll(slug: str):
    table, host = services.create_table(game=slug, options={"dice": "physical"}, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    services.start_game(table=table, rng=random.Random(3))
    game = table_frame.current_game(table)
    from sixdice.gamekit.engine import get_engine

    engine = get_engine(slug)
    seat = min(engine.actors(game.state))
    count = engine.view(game.state, seat)["pending"]["count"] if slug == "sixdice" else 6
    values = [1, 2, 3, 1, 2, 3][:count]
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                          action={"type": "roll", "values": values}, expected_seq=game.seq)
    game.refresh_from_db()
    roll = game.events.filter(action__type="roll").order_by("-seq").first()
    return table, host, game, roll, count


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
@pytest.mark.parametrize("values", ["too few", "out of range", "not numbers"])
def test_bad_values_get_a_clear_refusal_and_change_nothing(slug, values):
    table, host, game, roll, count = _typed_roll(slug)
    bad = {"too few": [1], "out of range": [9] * count, "not numbers": ["+1"] * count}[values]
    seq = game.seq
    with pytest.raises(ServiceError) as exc:
        host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="correct",
                              fields={"expected_seq": table_frame.current_game(table).seq, "seq": roll.seq, "values": bad})
    message = exc.value.message
    assert message and "Traceback" not in message and len(message) < 200
    assert exc.value.code in {"bad_field", "illegal", "not_allowed"}
    game.refresh_from_db()
    assert game.seq == seq and game.events.count() == seq
