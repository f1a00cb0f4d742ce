"""In-process micro-benchmark of one move: the transaction, then the fan-out to the seats.

    python -m tests.load.movebench [--moves 600 --seats 5 --languages en,uk]

A throwaway SQLite database (WAL, as the server runs it) with one Run Buster
table; each move is the legal move of the seat whose turn it is (seeded).
Prints per move, median and p99 over all moves:

- ``transaction``: :func:`services.apply_action`, as the consumer runs it
  (inside :func:`outbox.collect`);
- ``fan-out``: the channel message copied per seat (the in-memory layer's
  ``deepcopy``) and turned into each seat's ``update`` text, as the
  consumer's ``table_events`` does it now (:func:`selectors.update_text`),
  against the per-seat path it replaced (``update_frame`` +
  ``localize_frame`` + ``json.dumps`` of a dict message), in the same run.

Times are this process's CPU time (``time.process_time``: waiting for a busy machine does not count); compare within one run.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.load.infra import base_env, migrate


def _stats(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"median {1000 * statistics.median(ordered):.3f} ms, p99 {1000 * p99:.3f} ms"


def _old_message(message: dict[str, Any]) -> dict[str, Any]:
    """The dict message the writer sent before: events and state as objects, copied per seat."""
    return {**message, "events": json.loads(message["events"]), "state": json.loads(message["state"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--languages", default="en", help="the seats' languages, comma-separated, dealt in turn")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sixdice-movebench-") as tmp:
        env = base_env(Path(tmp))
        migrate(env)
        os.environ.update(env)
        import django

        django.setup()
        from sixdice.tables.core import i18n, keys
        from sixdice.tables.models import Game
        from sixdice.tables.reads import selectors
        from sixdice.tables.wire import outgoing
        from sixdice.tables.writes import after_commit, checked_path, services
        from tests.load.clients import next_action, setup_tables

        plan = setup_tables(1, args.seats)
        code = plan[0]["code"]
        table = checked_path.load_table(code)
        secrets = []
        from django.contrib.sessions.backends.db import SessionStore

        for key in plan[0]["sessions"]:
            secrets.append(SessionStore(session_key=key)["tables"][code]["seat"])
        languages = args.languages.split(",")
        seat_langs = [(k, languages[k % len(languages)]) for k in range(args.seats)] + [(None, languages[0])]
        rng = random.Random(1)
        tx, new_fan, old_fan, messages = [], [], [], 0
        for _ in range(args.moves):
            game = Game.objects.filter(table=table).order_by("-number").first()
            assert game is not None
            if game.status != "playing":
                services.start_game(table=table, rng=random.Random(len(tx)))
                continue
            seat = game.state["current"]
            view = selectors.get_engine(game.engine).view(game.state, seat)
            t0 = time.process_time()
            with after_commit.collect() as box:
                checked_path.apply_action(table_code=code, credentials=keys.Credentials(seat_secret=secrets[seat]),
                                      action=next_action(view, rng), expected_seq=game.seq)
            tx.append(time.process_time() - t0)
            for _code, message in box:
                if message["type"] != "table.events":
                    continue
                messages += 1
                t0 = time.process_time()
                for who, lang in seat_langs:
                    outgoing.update_text(copy.deepcopy(message), who, lang)
                new_fan.append(time.process_time() - t0)
                old = _old_message(message)
                t0 = time.process_time()
                for who, lang in seat_langs:
                    m = copy.deepcopy(old)
                    frame = outgoing.update_frame(m["engine"], m["game"], m["number"], m["seq"], m["status"],
                                                   m["events"], m["state"], who, m["version"])
                    json.dumps(i18n.localize_frame(frame, lang), separators=(",", ":"))
                old_fan.append(time.process_time() - t0)
        print(f"{len(tx)} moves, {messages} update messages, {args.seats} seats + 1 spectator, languages {languages}")
        print(f"  transaction (apply_action):            {_stats(tx)}")
        print(f"  fan-out, prepared once per view/lang:  {_stats(new_fan)}")
        print(f"  fan-out, per seat (the former path):   {_stats(old_fan)}")


if __name__ == "__main__":
    main()
