"""In-process micro-benchmark of a refused stale action: what one costs the server.

    python -m tests.load.stalebench [--actions 400 --reconnect [--same-session] [--no-recall] --profile]

A throwaway SQLite database (WAL, as the server runs it) with one Run Buster
table, its game a few moves in.  A seat's socket (the real consumer, through
Channels' test communicator) sends an action with an old ``seq`` and a new
``action_id`` each time, as a phone that keeps tapping on a stale screen, and
waits for the refusal.  ``--reconnect``: it also opens a new socket for each
one (the welcome) and closes it after, as the flooder of the hostile case
(``tests/load/hostile.py --hostile-stale``) does.

Printed: this process's CPU time per refused action (``time.process_time``,
every thread: the consumer and its database thread; waiting does not count),
median and p90 over all of them.  ``--profile``: the functions that cost most
(cProfile, cumulative).  Compare within one run, or two runs on a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.load.infra import base_env, migrate


def _stats(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return f"median {1000 * statistics.median(ordered):.3f} ms, p90 {1000 * p90:.3f} ms"


def _setup() -> tuple[str, str]:
    """A Run Buster table whose game is a few moves in; its code and a seat's secret."""
    from sixdice.gamekit.engine import get_engine
    from sixdice.tables.core.keys import Credentials
    from sixdice.tables.models import Game
    from sixdice.tables.writes import checked_path, services
    from tests.load.clients import next_action

    table, _host = services.create_table(game="runbuster", options={"dice": "app"}, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    rng = random.Random(5)
    services.start_game(table=table, rng=rng)
    engine = get_engine("runbuster")
    for _ in range(4):
        game = Game.objects.get(table=table)
        seat = min(engine.actors(game.state))
        checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                                  action=next_action(engine.view(game.state, seat), rng), expected_seq=game.seq,
                                  rng=rng)
    return table.code, secrets[0]


async def _same_session(code: str, session: str) -> Any:
    """The table's socket opened with the session ``session`` (as one browser reconnecting); it and its welcome."""
    from channels.testing import WebsocketCommunicator

    from sixdice.asgi import application

    comm = WebsocketCommunicator(application, f"/ws/t/{code}/",
                                 headers=[(b"host", b"testserver"), (b"cookie", f"sessionid={session}".encode())])
    connected, _ = await comm.connect()
    assert connected
    return comm, await comm.receive_json_from()


async def _refusals(code: str, secret: str, count: int, reconnect: bool, profile: cProfile.Profile | None,
                    session: str | None = None) -> list[float]:
    from tests.live_client import connect, receive_until

    async def opened() -> Any:
        return await (_same_session(code, session) if session else connect(code, seat=secret))

    times: list[float] = []
    comm, welcome = await opened()
    action = {"type": "roll"}
    stale = welcome["game"]["seq"] - 1
    for k in range(count):
        if profile is not None:
            profile.enable()
        t0 = time.process_time()
        if reconnect:
            comm, _welcome = await opened()
        await comm.send_json_to({"type": "action", "seq": stale, "action": action, "action_id": f"tap-{k}", "id": k})
        error = await receive_until(comm, "error")
        if reconnect:
            await comm.disconnect()
        times.append(time.process_time() - t0)
        if profile is not None:
            profile.disable()
        assert error["code"] == "stale", error
    if not reconnect:
        await comm.disconnect()
    return times


IN_THREAD: dict[str, list[float]] = {"apply_once": [], "snapshot": []}
"""CPU time of the database thread's two calls per refused action (``time.thread_time``)."""


def _time_in_thread() -> None:
    """Time the two calls the consumer runs off the event loop for a refused action: the refusal, its snapshot."""
    from sixdice.tables.reads import selectors
    from sixdice.tables.writes import action_receipts

    for module, name in ((action_receipts, "apply_once"), (selectors, "snapshot")):
        real = getattr(module, name)

        def timed(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            t0 = time.thread_time()
            try:
                return _real(*args, **kwargs)
            finally:
                IN_THREAD[_name].append(time.thread_time() - t0)

        setattr(module, name, timed)


def _profile_in_thread(profile: cProfile.Profile) -> None:
    """Profile what the consumer runs off the event loop for a refused action (cProfile sees one thread)."""
    from sixdice.tables.reads import selectors
    from sixdice.tables.writes import action_receipts

    for module, name in ((action_receipts, "apply_once"), (selectors, "snapshot")):
        real = getattr(module, name)

        def profiled(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
            profile.enable()
            try:
                return _real(*args, **kwargs)
            finally:
                profile.disable()

        setattr(module, name, profiled)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--reconnect", action="store_true", help="a new socket for each refused action")
    parser.add_argument("--profile", action="store_true", help="print the costliest functions (cProfile)")
    parser.add_argument("--same-session", dest="same_session", action="store_true",
                        help="with --reconnect: every socket with one browser's session, as the hostile case's "
                             "stale flooder (its welcome may then come from the recalled arrival, live/connect.py)")
    parser.add_argument("--no-recall", dest="recall", action="store_false",
                        help="never recall an arrival: every connect takes the database trip (for comparison)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sixdice-stalebench-") as tmp:
        env = base_env(Path(tmp), ALLOWED_HOSTS="testserver")  # the test communicator's host
        migrate(env)
        os.environ.update(env)
        import django

        django.setup()
        from django.conf import settings

        # Measured here: the refusal's own cost, one action after another, not the flood limit (its own tests).
        settings.SIXDICE_WS_RATE = settings.SIXDICE_WS_BURST = 10**9
        settings.SIXDICE_WS_REFUSED_VISITS = 10**9  # nor the cool-down of a client that comes back only to be refused

        code, secret = _setup()
        session = None
        if args.same_session:
            from tests.live_client import make_session

            session = make_session(code, seat=secret)
        if not args.recall:
            from sixdice.tables.live.connect import recall

            recall.welcome = lambda *args, **kwargs: None  # type: ignore[method-assign]
        profile = cProfile.Profile() if args.profile else None
        in_thread = cProfile.Profile() if args.profile else None
        if in_thread is not None:  # the database thread's part: the refusal and its snapshot
            _profile_in_thread(in_thread)
        _time_in_thread()
        warm: Any = asyncio.run(_refusals(code, secret, 20, args.reconnect, None, session))  # imports, caches
        assert warm
        for spent in IN_THREAD.values():
            spent.clear()
        times = asyncio.run(_refusals(code, secret, args.actions, args.reconnect, profile, session))
        what = "a new socket each (welcome, refusal, close)" if args.reconnect else "on one socket"
        what += ", one browser's session" if session else ""
        what += "" if args.recall else ", no arrival recalled"
        print(f"{len(times)} refused stale actions, {what}")
        print(f"  CPU per refused action: {_stats(times)}")
        for name, spent in IN_THREAD.items():
            if spent:
                print(f"    of which the database thread's {name + ':':12} {_stats(spent)}")
        if profile is not None and in_thread is not None:
            print("\n-- the event loop's part")
            pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
            print("\n-- the database thread's part")
            pstats.Stats(in_thread).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
