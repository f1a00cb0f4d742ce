"""The host ends a game now: the hands as they stand decide (the host's "End the game now", at every table).

The game says how (:meth:`~sixdice.gamekit.engine.GameEngine.end_action`): the action that ends it, or
``None`` when it cannot be ended now.  Once the table's time limit has run out the game may end with its
own reason ("Time is up"); otherwise the end is the host's ("The host ended the game").  The action is a
move of the host's through the checked path, so its log line, the replay and the review desk say it as
every other move: who ended the game, and how the hands decided.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from sixdice.gamekit.errors import GameError
from sixdice.tables.core.keys import Credentials
from sixdice.tables.reads import timer_clock
from sixdice.tables.writes.checked_path import Turn, Write, checked_write, move
from sixdice.tables.writes.ledger import Applied

CANNOT_END = gettext_noop("This game cannot be ended now.")


@transaction.atomic
def end_now(*, table_code: str, credentials: Credentials, expected_seq: int) -> Applied:
    """The host ends the table's current game now; ``expected_seq`` is the seq the host's screen showed."""
    chosen: dict[str, Any] = {}

    def shape(turn: Turn) -> None:
        limit = timer_clock.time_limit_part(turn.table, turn.game)
        action = turn.engine.end_action(turn.game.state, time_up=limit is not None and limit["left_ms"] <= 0)
        if action is None:
            raise GameError(CANNOT_END, code="not_allowed")
        chosen["write"] = move(action)
        if chosen["write"].shape is not None:
            chosen["write"].shape(turn)

    def compose(turn: Turn) -> None:
        chosen["write"].compose(turn)

    return checked_write(table_code=table_code, credentials=credentials, expected_seq=expected_seq,
                         compose=Write(compose, shape), as_host=True, while_paused=True)
