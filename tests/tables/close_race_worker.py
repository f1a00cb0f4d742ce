"""A separate process on PostgreSQL (run by test_close_race_postgres.py): a move held between its read and
its write while the host closes the table on another connection.

For each ``--target`` (2: the held move would end the game; 10: the game would
go on) a tiny-game table of two profiles' seats is opened and started.  A
thread applies a move whose save waits (a monkeypatched ``ledger.save``) until
the main thread, on its own connection, has closed the table and committed;
then the move goes on.  Prints, as JSON, per target: how the move ended, the
game, the table, the events, the broadcasts of the move and the ratings.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
from typing import Any


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sixdice.settings")
    import django

    django.setup()
    from django.db import connection

    from sixdice.gamekit.engine import register
    from tests.tinygame import TINY

    register(TINY)
    from sixdice.players import services as players
    from sixdice.players.models import RatingUpdate
    from sixdice.tables.core.keys import Credentials
    from sixdice.tables.models import Event, Game, Table
    from sixdice.tables.writes import after_commit, checked_path, ledger, services

    parser = argparse.ArgumentParser()
    parser.add_argument("--target", type=int, action="append", required=True)
    args = parser.parse_args(argv)
    assert connection.vendor == "postgresql", connection.vendor

    read, closed = threading.Event(), threading.Event()
    real_save = ledger.save
    broadcasts: list[int] = []
    real_game_written = after_commit.game_written

    def held_save(*a: Any, **k: Any) -> None:
        read.set()  # the move has read the game and checked it: hold it before its UPDATE
        assert closed.wait(60), "the close never came"
        real_save(*a, **k)

    def counted_game_written(code: str, game: Any, events: Any, **k: Any) -> None:
        broadcasts.append(len(events))
        real_game_written(code, game, events, **k)

    report: dict[str, Any] = {}
    for target in args.target:
        table, _host = services.create_table(game="tiny", options={"target": target}, capacity=2)
        for name in (f"Ana{target}", f"Bo{target}"):
            players.join_with_profile(table=table, profile=players.create_profile(name=name)[0])
        game = services.start_game(table=table, rng=random.Random(3)).game
        seq, seat = game.seq, game.state["current"]
        read.clear()
        closed.clear()
        broadcasts.clear()
        outcome: dict[str, str] = {}

        def move(code: str = table.code, seq: int = seq, seat: int = seat, outcome: dict[str, str] = outcome) -> None:
            try:
                checked_path.apply_action(table_code=code, credentials=Credentials(), action={"type": "add", "n": 2},
                                          expected_seq=seq, bot_seat=seat, rng=random.Random(1))
                outcome["result"] = "applied"
            except Exception as exc:
                outcome["result"] = getattr(exc, "code", type(exc).__name__)
            finally:
                connection.close()  # this thread's own connection

        ledger.save = held_save  # type: ignore[assignment]
        after_commit.game_written = counted_game_written  # type: ignore[assignment]
        try:
            mover = threading.Thread(target=move)
            mover.start()
            assert read.wait(60), "the move never reached its write"
            services.close_table(table=Table.objects.get(pk=table.pk))  # this thread's connection: committed now
            closed.set()
            mover.join(60)
            assert not mover.is_alive(), "the move never ended"
        finally:
            ledger.save = real_save  # type: ignore[assignment]
            after_commit.game_written = real_game_written  # type: ignore[assignment]
        game = Game.objects.get(pk=game.pk)
        report[str(target)] = {
            "move": outcome.get("result"),
            "seq_before": seq,
            "seq": game.seq,
            "events": Event.objects.filter(game=game).count(),
            "status": game.status,
            "end_reason": game.end_reason,
            "winners": game.winners,
            "table": Table.objects.get(pk=table.pk).status,
            "broadcasts": list(broadcasts),
            "ratings": RatingUpdate.objects.filter(game=game).count(),
        }
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1:])
