"""The "hostile neighbour" load case (issue 15): one socket floods, another table keeps playing.

    python -m tests.load.hostile [--hostile-rounds 6 --hostile-quiet 10 --hostile-flood 10 --hostile-rate 10]
                                 [--hostile-new-session | --hostile-stale]
    python -m tests.load.hostile --all [--json hostile.json]     # the three floods, and a summary

One daphne process (SQLite, in-memory layer, as ``make run``).  A quiet Run
Buster table with two seats plays ``--hostile-rate`` moves a second; each move's time
is from sending the action to receiving the ``update`` that carries it.
``--hostile-rounds`` times: ``--hostile-quiet`` seconds alone (the baseline), then
``--hostile-flood`` seconds while a spectator socket at another table sends malformed
frames as fast as it can, reconnecting whenever the server closes it.  The quiet
reference is measured in the same run as the flood, interleaved with it, over 600
moves by default (so a p99 is the 6th slowest move, not decided by two).  Printed: the
quiet table's p50 / p95 / p99 in both phases and their ratio (target: flood p99 <= 2x quiet p99), the
server's RSS before and after the flood (target: growth <= 32 MiB), how many
frames the flooder sent and how often the server closed it (4008), and the
time the server needs to answer a ping once the flood stops.

``--hostile-new-session``: each flood socket carries a new made-up ``sessionid``
cookie (32 characters, as Django's keys, naming no session), as a flooder that
tries to escape the cool-down of its session.  The server must cool it down by
its address (``flood_control.FloodKey``): same targets.

``--hostile-stale``: the flooder is a seat's phone at the other table (its game
is a move in) that sends a well-formed action with an old ``seq`` and a new
``action_id``, is refused ``stale``, closes, and reconnects 50 ms later, again
and again (a phone stuck on an old screen that reconnects on every refusal):
each round costs the server a welcome and a stale refusal.  Same targets.
(``python -m tests.load.stalebench`` measures the refusal's own CPU in process.)

``tests/load/bench.py`` runs it as its "hostile" case, then again with
``--hostile-new-session`` (its "hostile, a new session per socket" case).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

from tests.load.clients import next_action, percentile
from tests.load.infra import ROOT, Daphne, base_env, migrate

TARGET_RATIO = 2.0
TARGET_RSS_GROWTH_MIB = 32.0
FLOOD_FRAME = '{"type": "action", "seq": 0, "action": ' + "[" * 50 + "]" * 50 + "}" + " " * 200  # malformed


def cpu_seconds(pid: int) -> float | None:
    """The process's CPU time so far (user + system)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


# ---------------------------------------------------------------- set-up (Django side, in a child process)


def setup() -> dict[str, Any]:
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore

    from sixdice.tables.writes import services

    quiet, _host = services.create_table(game="runbuster", options={"dice": "app"}, capacity=2)
    sessions = []
    for name in ("Ana", "Bo"):
        _seat, secret = services.join_table(table=quiet, name=name)
        store = SessionStore()
        held = {"seat": secret} if sessions else {"seat": secret, "host": _host}  # Ana also hosts: rematches
        store["tables"] = {quiet.code: held}
        store.create()
        sessions.append(store.session_key)
    services.start_game(table=quiet)
    noisy, _host = services.create_table(game="runbuster", options={"dice": "app"}, capacity=2)
    return {"quiet": quiet.code, "sessions": sessions, "noisy": noisy.code, "noisy_session": _stale_seat(noisy)}


def _stale_seat(table: Any) -> str:
    """Seats at ``table`` and its game a move in (so an old ``seq`` exists); the session of a seat there."""
    from django.contrib.sessions.backends.db import SessionStore

    from sixdice.gamekit.engine import get_engine
    from sixdice.tables.core.keys import Credentials
    from sixdice.tables.writes import checked_path, services

    secrets = [services.join_table(table=table, name=name)[1] for name in ("Cy", "Di")]
    game = services.start_game(table=table, rng=random.Random(15)).game
    seat = min(get_engine(game.engine).actors(game.state))
    checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                              action={"type": "roll"}, expected_seq=game.seq, rng=random.Random(16))
    store = SessionStore()
    store["tables"] = {table.code: {"seat": secrets[0]}}
    store.create()
    return str(store.session_key)


# ---------------------------------------------------------------- the clients


class Seat:
    def __init__(self, port: int, code: str, session: str) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws/t/{code}/"
        self.headers = {"Cookie": f"sessionid={session}"}
        self.view: dict[str, Any] = {}
        self.seq = 0
        self.game: int | None = None
        self.ws: Any = None
        self.waiters: dict[int, asyncio.Future[float]] = {}

    async def open(self) -> None:
        self.ws = await websockets.connect(self.url, additional_headers=self.headers, max_size=2**22)
        welcome = json.loads(await self.ws.recv())
        self.view, self.seq, self.game = welcome["game"]["view"], welcome["game"]["seq"], welcome["game"]["id"]
        asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                frame = json.loads(raw)
                if frame.get("type") == "update" and (frame["seq"] > self.seq or frame["game"] != self.game):
                    self.view, self.seq, self.game = frame["view"], frame["seq"], frame["game"]
                    now = time.perf_counter()
                    for target in [s for s in self.waiters if s <= self.seq]:
                        fut = self.waiters.pop(target)
                        if not fut.done():
                            fut.set_result(now)
                elif frame.get("type") in {"snapshot", "welcome"} and frame.get("game"):
                    game = frame["game"]
                    if game["id"] != self.game or game["seq"] >= self.seq:
                        self.view, self.seq, self.game = game["view"], game["seq"], game["id"]

    async def move(self, rng: random.Random) -> float | None:
        """Send this seat's next move; seconds until its update arrives (None: refused or timed out)."""
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiters[self.seq + 1] = fut
        sent = time.perf_counter()
        await self.ws.send(json.dumps({"type": "action", "seq": self.seq, "action": next_action(self.view, rng)}))
        try:
            return (await asyncio.wait_for(fut, timeout=10)) - sent
        except TimeoutError:
            return None


async def play_quiet(seats: list[Seat], rate: float, seconds: float, rng: random.Random,
                     when: list[float] | None = None) -> list[float]:
    """Moves at ``rate`` a second for ``seconds``: each move's time; ``when`` gets each move's start (wall clock)."""
    times: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        tick = time.perf_counter()
        turn = next((s for s in seats if s.view.get("your_turn")), None)
        if turn is None:  # the round is over: Ana (the host) starts the next one, not timed
            await seats[0].ws.send(json.dumps({"type": "host", "command": "rematch"}))
            for _ in range(200):
                await asyncio.sleep(0.05)
                if any(s.view.get("your_turn") for s in seats):
                    break
            continue
        started = time.time()
        took = await turn.move(rng)
        if took is not None:
            times.append(took)
            if when is not None:
                when.append(started)
        await asyncio.sleep(max(0.0, 1 / rate - (time.perf_counter() - tick)))
    return times


POLITE_PAUSE = 10.0
"""Seconds between the polite client's visits: the flood cool-down, so it connects when the flooder would."""


async def visit(port: int, code: str, stop: asyncio.Event, stats: dict[str, Any]) -> None:
    """The control (``--hostile-polite``): a spectator that opens the page, pings once and leaves, every 10 s."""
    url = f"ws://127.0.0.1:{port}/ws/t/{code}/"
    while not stop.is_set():
        async with websockets.connect(url, max_size=2**22) as ws:
            stats["connections"] += 1
            stats["opened"].append(time.time())
            await ws.recv()  # the welcome
            await ws.send(json.dumps({"type": "ping", "id": 1}))
            while json.loads(await ws.recv()).get("type") != "pong":
                pass
        stats["closed"].append(time.time())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), POLITE_PAUSE)


def made_up_session() -> dict[str, str]:
    """A cookie naming a session that does not exist, new each time (shaped as Django's session keys)."""
    return {"Cookie": f"sessionid={secrets.token_hex(16)}"}


async def flood(port: int, code: str, stop: asyncio.Event, stats: dict[str, Any], new_session: bool = False) -> None:
    url = f"ws://127.0.0.1:{port}/ws/t/{code}/"
    while not stop.is_set():
        try:
            headers = made_up_session() if new_session else None
            async with websockets.connect(url, max_size=2**22, additional_headers=headers) as ws:
                stats["connections"] += 1
                stats["opened"].append(time.time())
                while not stop.is_set():
                    await ws.send(FLOOD_FRAME)
                    stats["frames"] += 1
                    if stats["frames"] % 64 == 0:
                        await asyncio.sleep(0)  # let the client read (and notice a close)
        except websockets.ConnectionClosed as exc:
            stats["closed"].append(time.time())
            if exc.rcvd is not None and exc.rcvd.code == 4008:
                stats["closed_4008"] += 1
        except (OSError, websockets.InvalidStatus, websockets.InvalidHandshake):  # refused for a while
            stats["refused"] = stats.get("refused", 0) + 1
            await asyncio.sleep(0.05)


STALE_PAUSE = 0.05
"""Seconds the stale flooder waits after a refusal before it reconnects."""


async def flood_stale(port: int, code: str, session: str, stop: asyncio.Event, stats: dict[str, Any]) -> None:
    """A seat's phone on an old screen: connect, send an action with an old ``seq``, be refused, close, 50 ms, again."""
    url = f"ws://127.0.0.1:{port}/ws/t/{code}/"
    headers = {"Cookie": f"sessionid={session}"}
    while not stop.is_set():
        try:
            async with websockets.connect(url, max_size=2**22, additional_headers=headers) as ws:
                stats["connections"] += 1
                stats["opened"].append(time.time())
                welcome = json.loads(await ws.recv())
                old = welcome["game"]["seq"] - 1  # the game is a move in: seq - 1 is an old screen's
                await ws.send(json.dumps({"type": "action", "seq": old, "action": {"type": "roll"},
                                          "action_id": secrets.token_hex(8), "id": stats["frames"]}))
                stats["frames"] += 1
                while (frame := json.loads(await ws.recv())).get("type") != "error":
                    pass
                stats["stale"] += frame.get("code") == "stale"
            stats["closed"].append(time.time())
        except websockets.ConnectionClosed as exc:
            stats["closed"].append(time.time())
            if exc.rcvd is not None and exc.rcvd.code == 4008:
                stats["closed_4008"] += 1
        except (OSError, websockets.InvalidStatus, websockets.InvalidHandshake):  # refused for a while
            stats["refused"] = stats.get("refused", 0) + 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), STALE_PAUSE)


def _ms(values: list[float], q: float) -> float | None:
    p = percentile(values, q / 100)
    return round(p * 1000, 1) if p is not None else None


async def _flood_window(plan: dict[str, Any], port: int, args: argparse.Namespace, seats: list[Seat],
                        rng: random.Random, stats: dict[str, Any]) -> tuple[list[float], list[float]]:
    """One flood window: the flooders start, the quiet table plays ``--hostile-flood`` seconds, they stop."""
    # The flooders run in their own processes: a flood in this one would slow the quiet clients, not the server.
    stale = ["--hostile-stale", "--flooder-session", plan["noisy_session"]] if getattr(args, "hostile_stale", False) else []
    flooders = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.load.hostile", "--flooder", str(port), plan["noisy"], str(args.hostile_flood + 1),
        *(["--hostile-polite"] if args.hostile_polite else []), *stale,
        *(["--hostile-new-session"] if getattr(args, "hostile_new_session", False) else []), cwd=ROOT,
        stdout=asyncio.subprocess.PIPE) for _ in range(args.hostile_flooders)]
    await asyncio.sleep(0.5)
    starts: list[float] = []
    flooded = await play_quiet(seats, args.hostile_rate, args.hostile_flood, rng, starts)
    for proc in flooders:
        out, _err = await proc.communicate()
        for key, value in json.loads(out.decode().strip().splitlines()[-1]).items():
            stats[key] += value
    return flooded, starts


async def run_clients(plan: dict[str, Any], port: int, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    """``--hostile-rounds`` rounds of a quiet window then a flood window, so both phases meet the same machine.

    The quiet reference and the flooded figures come from the same run,
    interleaved: a busy minute on a shared machine weighs on both alike, and
    each phase has ``rounds x seconds x rate`` moves (600 by default), so its
    p99 is the 6th slowest move, not the 2nd.
    """
    rng = random.Random(15)
    seats = [Seat(port, plan["quiet"], s) for s in plan["sessions"]]
    for seat in seats:
        await seat.open()
    await asyncio.sleep(0.5)
    stats: dict[str, Any] = {"frames": 0, "connections": 0, "closed_4008": 0, "refused": 0, "stale": 0, "opened": [],
                             "closed": []}
    quiet: list[float] = []
    flooded: list[float] = []
    starts: list[float] = []
    cpu = {"quiet": [0.0, 0.0], "flood": [0.0, 0.0]}  # server CPU seconds, wall seconds
    rss_before = rss_during = None
    for _round in range(args.hostile_rounds):
        for phase in ("quiet", "flood"):
            cpu0, wall0 = cpu_seconds(pid), time.perf_counter()
            if phase == "quiet":
                quiet += await play_quiet(seats, args.hostile_rate, args.hostile_quiet, rng)
                rss_before = rss_before or rss_kib(pid)
            else:
                times, began = await _flood_window(plan, port, args, seats, rng, stats)
                flooded += times
                starts += began
                rss_during = max(rss_during or 0, rss_kib(pid) or 0) or None
            cpu1, wall1 = cpu_seconds(pid), time.perf_counter()
            if cpu0 is not None and cpu1 is not None:
                cpu[phase][0] += cpu1 - cpu0
                cpu[phase][1] += wall1 - wall0
        await asyncio.sleep(args.hostile_settle)  # the flood's last sockets close before the next quiet window
    slowest = _slowest(flooded, starts, stats.pop("opened"), stats.pop("closed"))
    stopped = time.perf_counter()
    turn = next((s for s in seats if s.view.get("your_turn")), None)
    took = await turn.move(rng) if turn else None
    recover = None
    if took is not None:
        recover = round((time.perf_counter() - stopped) * 1000, 1)
    await asyncio.sleep(2)
    rss_after = rss_kib(pid)
    for seat in seats:
        await seat.ws.close()
    return {
        "rounds": args.hostile_rounds,
        "quiet": {"moves": len(quiet), "p50_ms": _ms(quiet, 50), "p95_ms": _ms(quiet, 95), "p99_ms": _ms(quiet, 99),
                  "max_ms": _ms(quiet, 100), "server_cpu": _share(cpu["quiet"])},
        "flood": {"moves": len(flooded), "p50_ms": _ms(flooded, 50), "p95_ms": _ms(flooded, 95),
                  "p99_ms": _ms(flooded, 99), "max_ms": _ms(flooded, 100), "server_cpu": _share(cpu["flood"])},
        "flooder": stats,
        "rss_mib": {k: round(v / 1024, 1) if v else None for k, v in
                    (("before", rss_before), ("during", rss_during), ("after", rss_after))},
        "first_move_after_flood_ms": recover,
        "slowest_flooded": slowest,
    }


def _share(marks: list[float]) -> float | None:
    """The server's CPU share (% of one core): CPU seconds over wall seconds."""
    cpu, wall = marks
    return round(100 * cpu / wall, 1) if wall > 0 else None


def _slowest(times: list[float], starts: list[float], opened: list[float], closed: list[float],
             count: int = 3) -> list[dict[str, Any]]:
    """The slowest moves under the flood, each with how long after the flooder's last connect / close it began."""
    out = []
    for took, start in sorted(zip(times, starts, strict=True), reverse=True)[:count]:
        since_open = [start - t for t in opened if t <= start + took]
        since_close = [start - t for t in closed if t <= start + took]
        out.append({"ms": round(took * 1000, 1),
                    "after_connect_ms": round(min(since_open, key=abs) * 1000) if since_open else None,
                    "after_close_ms": round(min(since_close, key=abs) * 1000) if since_close else None})
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="sixdice-bench-hostile-") as tmp:
        workdir = Path(tmp)
        env = base_env(workdir)
        migrate(env)
        out = subprocess.run([sys.executable, "-m", "tests.load.hostile", "--setup"], cwd=ROOT, env=env,
                             check=True, capture_output=True, text=True).stdout
        plan = json.loads(out.strip().splitlines()[-1])
        server = Daphne(workdir, env, name="hostile").start()
        try:
            assert server.pid is not None
            result = asyncio.run(run_clients(plan, server.port, server.pid, args))
            result["polite"] = bool(args.hostile_polite)
            result["new_session"] = bool(getattr(args, "hostile_new_session", False)) and not args.hostile_polite
            result["stale"] = bool(getattr(args, "hostile_stale", False)) and not args.hostile_polite
        finally:
            server.stop()
    q, f = result["quiet"]["p99_ms"], result["flood"]["p99_ms"]
    result["p99_ratio"] = round(f / q, 2) if q and f else None
    before, during = result["rss_mib"]["before"], result["rss_mib"]["during"]
    result["rss_growth_mib"] = round(during - before, 1) if before and during else None
    return result


def report(r: dict[str, Any]) -> bool:
    ratio_ok = r["p99_ratio"] is not None and r["p99_ratio"] <= TARGET_RATIO
    rss_ok = r["rss_growth_mib"] is not None and r["rss_growth_mib"] <= TARGET_RSS_GROWTH_MIB
    if r.get("polite"):
        what = "a spectator at another table connects, pings and leaves every 10 s (the control)"
    elif r.get("stale"):
        what = "a seat at another table sends stale actions, reconnecting 50 ms after each refusal"
    elif r.get("new_session"):
        what = "another table's socket floods, with a new made-up session cookie on each socket"
    else:
        what = "another table's socket floods"
    print(f"\nhostile neighbour: one process; a quiet table plays while {what}")
    print(f"  {r.get('rounds', 1)} rounds of a quiet window then a flood window (the quiet reference in the same run)")
    for label, key in (("quiet  ", "quiet"), ("flooded", "flood")):
        p = r[key]
        slower = (p["moves"] - 1) - round(0.99 * (p["moves"] - 1)) if p["moves"] else None  # moves above the p99
        print(f"  {label}   {p['moves']} moves  p50 {p['p50_ms']} ms  p95 {p.get('p95_ms')} ms  p99 {p['p99_ms']} ms "
              f"({slower} moves slower)  max {p['max_ms']} ms;  server CPU {p['server_cpu']} % of a core")
    fl = r["flooder"]
    print(f"  flooder   {fl['frames']} frames sent over {fl['connections']} connections; closed with 4008 "
          f"{fl['closed_4008']} times; {fl.get('refused', 0)} handshakes refused (cool-down)"
          + (f"; {fl.get('stale', 0)} refused stale" if r.get("stale") else ""))
    rss = r["rss_mib"]
    print(f"  RSS       before {rss['before']} MiB, during {rss['during']} MiB, 2 s after {rss['after']} MiB")
    print(f"  first move after the flood stopped: {r['first_move_after_flood_ms']} ms")
    for slow in r.get("slowest_flooded", []):
        print(f"  slow move under the flood: {slow['ms']} ms, began {slow['after_connect_ms']} ms after the flooder's "
              f"nearest connect, {slow['after_close_ms']} ms after its nearest close")
    print(f"  p99 flooded / quiet = {r['p99_ratio']} (target <= {TARGET_RATIO}: {'met' if ratio_ok else 'MISSED'}); "
          f"RSS growth {r['rss_growth_mib']} MiB (target <= {TARGET_RSS_GROWTH_MIB:.0f}: "
          f"{'met' if rss_ok else 'MISSED'})")
    return ratio_ok and rss_ok


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hostile-quiet", dest="hostile_quiet", type=float, default=10.0,
                        help="seconds of each quiet window")
    parser.add_argument("--hostile-flood", dest="hostile_flood", type=float, default=10.0,
                        help="seconds of each flood window")
    parser.add_argument("--hostile-rounds", dest="hostile_rounds", type=int, default=6,
                        help="rounds of a quiet window then a flood window (the quiet reference in the same run)")
    parser.add_argument("--hostile-settle", dest="hostile_settle", type=float, default=1.0,
                        help="seconds after each flood window before the next quiet one")
    parser.add_argument("--hostile-rate", dest="hostile_rate", type=float, default=10.0, help="quiet table moves per second")
    parser.add_argument("--hostile-flooders", dest="hostile_flooders", type=int, default=1, help="flooding sockets")
    parser.add_argument("--hostile-polite", dest="hostile_polite", action="store_true",
                        help="control: instead of flooding, a spectator connects, pings and leaves every 10 s")
    parser.add_argument("--hostile-new-session", dest="hostile_new_session", action="store_true",
                        help="each flood socket carries a new made-up sessionid cookie (a session that does not exist)")
    parser.add_argument("--hostile-stale", dest="hostile_stale", action="store_true",
                        help="the flooder is a seat at the other table sending stale actions, reconnecting 50 ms "
                             "after each refusal")


async def flood_for(port: int, code: str, seconds: float, polite: bool = False,
                    new_session: bool = False, stale_session: str | None = None) -> dict[str, Any]:
    stop = asyncio.Event()
    stats: dict[str, Any] = {"frames": 0, "connections": 0, "closed_4008": 0, "stale": 0, "opened": [], "closed": []}
    if polite:
        client = visit(port, code, stop, stats)
    elif stale_session is not None:
        client = flood_stale(port, code, stale_session, stop, stats)
    else:
        client = flood(port, code, stop, stats, new_session)
    task = asyncio.get_running_loop().create_task(client)
    await asyncio.sleep(seconds)
    stop.set()
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description="Six-Dice hostile-neighbour benchmark")
    parser.add_argument("--setup", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--flooder", nargs=3, metavar=("PORT", "CODE", "SECONDS"), help=argparse.SUPPRESS)
    parser.add_argument("--flooder-session", dest="flooder_session", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--all", action="store_true", help="the three floods one after the other (stale, malformed, "
                        "made-up sessions), and a summary")
    parser.add_argument("--json", default=None, help="with --all: write the results to this file as they come")
    add_arguments(parser)
    args = parser.parse_args()
    if args.setup:
        print(json.dumps(setup()))
        return
    if args.flooder:
        port, code, seconds = args.flooder
        stale_session = args.flooder_session if args.hostile_stale else None
        print(json.dumps(asyncio.run(flood_for(int(port), code, float(seconds), args.hostile_polite,
                                               args.hostile_new_session, stale_session))))
        return
    if not args.all:
        sys.exit(0 if report(run(args)) else 1)
    results, ok = {}, True
    for name, flags in (("stale", {"hostile_stale": True}), ("malformed", {}), ("new_session", {"hostile_new_session": True})):
        results[name] = run(argparse.Namespace(**{**vars(args), **flags}))
        ok &= report(results[name])
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=1))
    print("\nflood        quiet p99 (moves)   flooded p99 (moves)   ratio")
    for name, r in results.items():
        print(f"{name:<12} {r['quiet']['p99_ms']:>8} ms ({r['quiet']['moves']})   {r['flood']['p99_ms']:>8} ms "
              f"({r['flood']['moves']})   {r['p99_ratio']}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
