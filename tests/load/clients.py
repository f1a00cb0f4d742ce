"""WebSocket clients that play Run Buster the way the browser does (static/js/live.js).

A :class:`SeatClient` keeps ``seq`` per game, applies an update only when its
first new event is ``seq + 1``, asks for a ``resync`` on a gap, ignores
duplicates, and (optionally) reconnects by itself with backoff and jitter,
saying where it was (``?game=ID&since=SEQ``) so the welcome carries what it
missed.  It records what it received so a test or the benchmark can check
that every event arrived once and in order.

``python -m tests.load.clients setup ...`` creates tables, seats, games and
Django sessions in the database named by the environment (as the server
sees it) and writes a plan (JSON) for the clients.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import websockets

from tests.load.infra import cpu_sample, cpu_shares, no_collector

# ---------------------------------------------------------------- set-up (Django side)


def setup_tables(n_tables: int, seats: int, game: str = "runbuster") -> list[dict[str, Any]]:
    """Tables with ``seats`` seats each and a started game; one session cookie per seat.

    Seat 0's session also holds the host secret, so it can start a rematch.
    """
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore

    from sixdice.tables.writes import services

    plan = []
    for _ in range(n_tables):
        table, host_secret = services.create_table(game=game, options={"dice": "app"}, capacity=seats)
        cookies = []
        for k in range(seats):
            _seat, secret = services.join_table(table=table, name=f"P{k + 1}")
            store = SessionStore()
            held = {"seat": secret}
            if k == 0:
                held["host"] = host_secret
            store["tables"] = {table.code: held}
            store.create()
            cookies.append(store.session_key)
        services.start_game(table=table)
        plan.append({"code": table.code, "sessions": cookies})
    return plan


# ---------------------------------------------------------------- one seat


def next_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal Run Buster move for the seat whose turn it is, read from its view."""
    if view["phase"] == "roll":
        return {"type": "roll"}
    if view["phase"] == "choose":
        return {"type": "choose", "straight": rng.choice(view["hand_options"])}
    return {"type": "end_turn"}


@dataclass
class GameLog:
    seqs: list[int] = field(default_factory=list)  # applied, in the order applied
    pushed: set[int] = field(default_factory=set)  # arrived in a broadcast update
    known: set[int] = field(default_factory=set)  # from any source
    initial: set[int] = field(default_factory=set)  # already played when this seat first saw the game


class SeatClient:
    """One WebSocket at /ws/t/<code>/ holding a seat's session cookie."""

    def __init__(self, ports: list[int] | int, code: str, session: str | None, *, position: int = 0,
                 reconnect: bool = False, backoff: float = 0.5, backoff_max: float = 15.0,
                 drop: Callable[[dict[str, Any]], bool] | None = None,
                 on_change: Callable[[SeatClient], None] | None = None,
                 ping_every: float | None = None) -> None:
        self.ports = [ports] if isinstance(ports, int) else list(ports)
        self.code = code
        self.session = session
        self.position = position
        self.reconnect = reconnect
        self.backoff, self.backoff_max = backoff, backoff_max
        self.drop = drop  # a test hook: updates it returns True for are discarded, as if lost
        self.on_change = on_change
        self.ping_every = ping_every  # as live.js (every 25 s there): the pong says the table's seq
        self._pinger: asyncio.Task | None = None
        self.ws: Any = None
        self.game: dict[str, Any] | None = None  # id, number, seq, status, view
        self.host = False
        self.version = -1  # the table's version, from the last table frame
        self.table_resyncs = 0
        self.logs: dict[int, GameLog] = {}
        self.duplicates = 0
        self.gaps = 0
        self.resyncs = 0
        self.dropped = 0
        self.connects = 0
        self.retries = 0
        self.errors: list[dict[str, Any]] = []
        self.acks: dict[Any, asyncio.Future] = {}
        self.welcomed = asyncio.Event()
        self.changed = asyncio.Condition()
        self.closed = False
        self._task: asyncio.Task | None = None
        self._next_id = 1
        self._attempt = 0

    # -- connection ------------------------------------------------------
    def url(self) -> str:
        port = self.ports[self.connects % len(self.ports)] if self.reconnect else self.ports[0]
        url = f"ws://127.0.0.1:{port}/ws/t/{self.code}/"
        if self.game:
            url += f"?game={self.game['id']}&since={self.game['seq']}"
        return url

    async def open(self, timeout: float = 60) -> SeatClient:
        """Connect and wait for the welcome; with ``reconnect`` the client keeps itself connected."""
        if self.reconnect:
            self._task = asyncio.get_running_loop().create_task(self._keep_connected())
        else:
            for attempt in range(8):  # a connect storm may outrun daphne's accept timeout: retry, as live.js
                try:
                    await self._connect_once()
                    break
                except (TimeoutError, OSError, websockets.WebSocketException):
                    if attempt == 7:
                        raise
                    self.retries += 1
                    await asyncio.sleep(min(self.backoff_max, self.backoff * 2**attempt) * (0.5 + random.random()))
            self._task = asyncio.get_running_loop().create_task(self._read())
        await asyncio.wait_for(self.welcomed.wait(), timeout)
        if self.ping_every:
            self._pinger = asyncio.get_running_loop().create_task(self._ping())
        return self

    async def _ping(self) -> None:
        while not self.closed:
            await asyncio.sleep(self.ping_every or 25)
            if self.is_open:
                with contextlib.suppress(Exception):
                    await self.send({"type": "ping"})

    async def _connect_once(self) -> None:
        headers = {"Cookie": f"sessionid={self.session}"} if self.session else {}
        self.welcomed.clear()
        self.ws = await websockets.connect(self.url(), additional_headers=headers, open_timeout=60,
                                           ping_interval=20, ping_timeout=120, max_size=2**22,
                                           close_timeout=2)
        self.connects += 1

    async def _keep_connected(self) -> None:
        while not self.closed:
            try:
                await self._connect_once()
                self._attempt = 0
                await self._read()
            except (TimeoutError, OSError, websockets.WebSocketException):
                pass
            if self.closed:
                return
            code = getattr(self.ws, "close_code", None) if self.ws else None
            if code == 4404:
                return
            # As live.js: exponential backoff with jitter.
            delay = min(self.backoff_max, self.backoff * 2**self._attempt) * (0.5 + random.random())
            self._attempt += 1
            await asyncio.sleep(delay)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                await self.receive(json.loads(raw))
        except websockets.ConnectionClosed:
            pass
        finally:
            for fut in self.acks.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("connection closed"))
            self.acks.clear()

    async def close(self) -> None:
        self.closed = True
        if self._pinger is not None:
            self._pinger.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    @property
    def is_open(self) -> bool:
        return self.ws is not None and self.ws.state == websockets.protocol.State.OPEN

    async def send(self, msg: dict[str, Any]) -> asyncio.Future:
        msg = {**msg, "id": self._next_id}
        self._next_id += 1
        fut = asyncio.get_running_loop().create_future()
        self.acks[msg["id"]] = fut
        await self.ws.send(json.dumps(msg))
        return fut

    async def act(self, action: dict[str, Any]) -> asyncio.Future:
        assert self.game is not None
        return await self.send({"type": "action", "seq": self.game["seq"], "action": action})

    # -- the protocol, as live.js ----------------------------------------
    def _log(self, game_id: int) -> GameLog:
        return self.logs.setdefault(game_id, GameLog())

    def _take(self, game_id: int, events: list[dict[str, Any]], *, pushed: bool) -> None:
        log = self._log(game_id)
        for event in events:
            log.seqs.append(event["seq"])
            log.known.add(event["seq"])
            if pushed:
                log.pushed.add(event["seq"])

    def _snapshot(self, s: dict[str, Any], missed: list[dict[str, Any]] | None = None) -> None:
        self.host = bool(s.get("host"))
        if "table" in s:
            self.version = max(self.version, s["table"]["version"])
        g = s.get("game")
        before = self.game
        if g and before and before["id"] == g["id"] and g["seq"] < before["seq"]:
            return  # an older picture (a table frame or an error's snapshot overtaken by updates): keep ours, as live.js
        if not g:
            self.game = None
            return
        self.game = {"id": g["id"], "number": g["number"], "seq": g["seq"], "status": g["status"], "view": g["view"]}
        log = self._log(g["id"])
        last = max(log.known, default=0) if before and before["id"] == g["id"] else 0
        # Events we had not applied yet arrive in the snapshot's log (or the welcome's "missed").
        source = missed if missed is not None else g.get("log", [])
        fresh = [e for e in source if e["seq"] > last]
        if fresh and before and before["id"] == g["id"]:
            self._take(g["id"], fresh, pushed=False)
        else:
            log.known.update(e["seq"] for e in source)
            if not log.seqs:
                log.initial.update(e["seq"] for e in source)
                log.seqs.extend(e["seq"] for e in source)

    async def _resync(self, since: int) -> None:
        self.resyncs += 1
        msg = {"type": "resync", "game": self.game["id"] if self.game else None, "since": since}
        msg["id"] = self._next_id
        self._next_id += 1
        await self.ws.send(json.dumps(msg))

    async def _resync_table(self) -> None:
        """A table change we missed: ask for the table, as live.js."""
        self.table_resyncs += 1
        await self.ws.send(json.dumps({"type": "resync_table"}))

    async def _update(self, u: dict[str, Any], *, pushed: bool) -> None:
        if not self.game or self.game["id"] != u["game"]:
            await self._resync(0)
            return
        fresh = [e for e in u["events"] if e["seq"] > self.game["seq"]]
        if not fresh:
            if pushed:  # a resync reply may well hold nothing new
                self.duplicates += 1
            return
        if fresh[0]["seq"] != self.game["seq"] + 1:  # a gap: ask for what was missed
            self.gaps += 1
            await self._resync(self.game["seq"])
            return
        self._take(u["game"], fresh, pushed=pushed)
        self.game.update(seq=u["seq"], status=u["status"], view=u["view"])

    async def receive(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "update" and self.drop is not None and self.drop(msg):
            self.dropped += 1
            return
        if kind == "snapshot" and msg["table"]["version"] < self.version:
            pass  # an older table frame overtaken by a newer one
        elif kind in {"welcome", "snapshot", "revoked"}:
            self._snapshot(msg, msg.get("missed"))
            if kind == "welcome":
                self.welcomed.set()
        elif kind == "update":
            if msg.get("version", -1) > self.version:
                await self._resync_table()
            await self._update(msg, pushed=msg.get("ref") is None)
        elif kind == "pong" and msg.get("version", -1) > self.version:
            await self._resync_table()
        elif kind == "pong" and self.game is not None:
            if msg.get("game") != self.game["id"] or msg.get("seq", 0) > self.game["seq"]:
                await self._resync(self.game["seq"])  # broadcasts were lost: catch up, as live.js
        elif kind == "error":
            self.errors.append(msg)
            if msg.get("snapshot"):
                self._snapshot(msg["snapshot"])
        ref = msg.get("ref")
        if ref is not None and ref in self.acks and kind in {"ack", "error", "update", "snapshot", "pong"}:
            fut = self.acks.pop(ref)
            if not fut.done():
                fut.set_result(msg)
        if self.on_change is not None:
            self.on_change(self)
        async with self.changed:
            self.changed.notify_all()

    async def wait_for(self, predicate: Callable[[SeatClient], bool], timeout: float = 30) -> None:
        async def waiting() -> None:
            async with self.changed:
                await self.changed.wait_for(lambda: predicate(self))

        await asyncio.wait_for(waiting(), timeout)


# ---------------------------------------------------------------- a table driven at a rate


class TableDriver:
    """The seats of one table; the seat whose turn it is moves at ``rate`` actions per second."""

    def __init__(self, code: str, seats: list[SeatClient], *, baseline: bool = False, seed: int = 0) -> None:
        self.code = code
        self.seats = seats
        self.baseline = baseline
        self.rng = random.Random(seed)
        self.pending: tuple[int, int, float] | None = None  # game, target seq, sent at
        self.latencies: list[float] = []
        self.sent = 0
        self.done = 0
        self.skipped = 0
        self.refused = 0
        self.send_failed = 0
        self.rematches = 0
        self.stuck = 0  # moves that never reached every seat within the settle time
        for seat in seats:
            seat.on_change = self._check

    def reset(self) -> None:
        """Start a new point of the sweep: latency and counts from zero (the game goes on)."""
        self.latencies = []
        self.sent = self.done = self.skipped = self.refused = self.send_failed = 0

    def _check(self, _seat: SeatClient) -> None:
        if self.pending is None:
            return
        game_id, target, t0 = self.pending
        if all(s.game and s.game["id"] == game_id and s.game["seq"] >= target for s in self.seats):
            self.latencies.append(time.perf_counter() - t0)
            self.done += 1
            self.pending = None

    def _mover(self) -> SeatClient | None:
        games = {(s.game["id"], s.game["seq"]) if s.game else None for s in self.seats}
        if len(games) != 1 or None in games:
            return None  # seats disagree for a moment (an update on its way)
        if self.baseline:
            return self.seats[self.seats[0].game["seq"] % len(self.seats)]
        for seat in self.seats:
            if seat.game["view"].get("your_turn"):
                return seat
        return None

    async def tick(self) -> None:
        if self.pending is not None:
            self.skipped += 1
            return
        first = self.seats[0]
        if not self.baseline and first.game and first.game["status"] == "finished":
            if all(s.game and s.game["id"] == first.game["id"] and s.game["status"] == "finished" for s in self.seats):
                self.rematches += 1
                with contextlib.suppress(OSError, websockets.WebSocketException):
                    await first.send({"type": "host", "command": "rematch"})
            self.skipped += 1
            return
        mover = self._mover()
        if mover is None:
            self.skipped += 1
            return
        action = {"type": "relay"} if self.baseline else next_action(mover.game["view"], self.rng)
        self.pending = (mover.game["id"], mover.game["seq"] + 1, time.perf_counter())
        self.sent += 1
        try:
            fut = await mover.act(action)
        except (OSError, websockets.WebSocketException):  # the server closed this connection
            self.send_failed += 1
            self.pending = None
            return
        fut.add_done_callback(self._acked)

    def _acked(self, fut: asyncio.Future) -> None:
        if fut.cancelled() or fut.exception() is not None:
            return
        reply = fut.result()
        if reply.get("type") == "error":
            self.refused += 1
            self.pending = None

    async def run(self, rate: float, duration: float) -> None:
        loop = asyncio.get_running_loop()
        interval = 1.0 / rate
        await asyncio.sleep(self.rng.uniform(0, interval))
        start = loop.time()
        n = 0
        while loop.time() - start < duration:
            await self.tick()
            n += 1
            await asyncio.sleep(max(0.0, start + n * interval - loop.time()))


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def _connect_all(clients: list[SeatClient], concurrency: int = 20) -> None:
    sem = asyncio.Semaphore(concurrency)

    async def one(c: SeatClient) -> None:
        async with sem:
            await c.open(timeout=120)

    await asyncio.gather(*(one(c) for c in clients))


def _accounting(drivers: list[TableDriver]) -> dict[str, int]:
    lost = missing = dup = gaps = 0
    for d in drivers:
        for game_id in {g for s in d.seats for g in s.logs}:
            final = max((max(s.logs[game_id].known, default=0) for s in d.seats if game_id in s.logs), default=0)
            expected = set(range(1, final + 1))
            for s in d.seats:
                log = s.logs.get(game_id, GameLog())
                lost += len(expected - log.pushed - log.initial)
                missing += len(expected - log.known)
                dup += len(log.seqs) - len(set(log.seqs))
        for s in d.seats:
            dup += s.duplicates
            gaps += s.gaps
    return {"lost": lost, "missing": missing, "duplicated": dup, "gaps": gaps}


def _point(drivers: list[TableDriver], elapsed: float, before: dict[str, Any], after: dict[str, Any],
           groups: dict[str, list[int]]) -> dict[str, Any]:
    """One point of the sweep: latency, throughput and where the machine's CPU went meanwhile."""
    latencies = [x for d in drivers for x in d.latencies]
    done = sum(d.done for d in drivers)
    shares = cpu_shares(before, after, groups, ignore=[os.getppid()])
    return {
        "actions": done,
        "sent": sum(d.sent for d in drivers),
        "refused": sum(d.refused for d in drivers),
        "send_failed": sum(d.send_failed for d in drivers),
        "skipped_ticks": sum(d.skipped for d in drivers),
        "unfinished": sum(1 for d in drivers if d.pending is not None),
        "seconds": round(elapsed, 2),
        "actions_per_s": done / elapsed if elapsed else 0.0,
        "p50_ms": _ms(percentile(latencies, 0.50)),
        "p95_ms": _ms(percentile(latencies, 0.95)),
        "p99_ms": _ms(percentile(latencies, 0.99)),
        "max_ms": _ms(max(latencies) if latencies else None),
        # CPU per applied move (ms): the server processes' utime + stime over the moves that reached every seat.
        "server_cpu_ms_per_move": round(1000 * shares["cpu_s"]["server"] / done, 3) if done else None,
        **shares,
    }


async def _settle(drivers: list[TableDriver], timeout: float = 5.0) -> None:
    """Let the moves in flight land; a table whose move never completes resyncs and moves on."""
    deadline = time.perf_counter() + timeout
    while any(d.pending is not None for d in drivers) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    for d in drivers:
        if d.pending is not None:
            d.stuck += 1
            d.pending = None
            for s in d.seats:
                if s.game and s.is_open:
                    with contextlib.suppress(OSError, websockets.WebSocketException):
                        await s._resync(s.game["seq"])


async def play(plan: list[dict[str, Any]], ports: list[int], rates: list[float], duration: float,
               baseline: bool, *, repeats: int = 1, groups: dict[str, list[int]] | None = None,
               max_other: float = 0.1, reruns: int = 2) -> dict[str, Any]:
    """Connect every seat once, then play a sweep of per-table rates, ``duration`` seconds each.

    Each point is measured on its own (latency, moves, CPU of each process
    group in ``groups`` from /proc); a point where processes outside the
    benchmark (niced or not) took more than ``max_other`` of the machine's CPU is played
    again, up to ``reruns`` times, and kept marked ``disturbed`` if it
    never ran undisturbed.
    """
    groups = {**(groups or {}), "clients": [os.getpid()]}
    drivers = []
    clients = []
    for t, table in enumerate(plan):
        seats = [SeatClient([ports[(t + k) % len(ports)]], table["code"], session, position=k)
                 for k, session in enumerate(table["sessions"])]
        clients += seats
        drivers.append(TableDriver(table["code"], seats, baseline=baseline, seed=t))
    t0 = time.perf_counter()
    await _connect_all(clients)
    connect_s = time.perf_counter() - t0
    await asyncio.sleep(2.0)  # let the presence messages of the connect storm settle
    # The clients' own garbage collector must not add to the latencies (infra.no_collector): the seats'
    # state out of every collection, none during a point.
    gc.collect()
    gc.freeze()
    points = []
    for repeat in range(repeats):
        for rate in rates:
            for attempt in range(reruns + 1):
                for d in drivers:
                    d.reset()
                with no_collector():
                    before = cpu_sample()
                    t0 = time.perf_counter()
                    await asyncio.gather(*(d.run(rate, duration) for d in drivers))
                    elapsed = time.perf_counter() - t0
                    await _settle(drivers)
                after = cpu_sample()
                point = {"rate": rate, "offered_per_s": rate * len(drivers), "repeat": repeat, "attempt": attempt,
                         **_point(drivers, elapsed, before, after, groups)}
                # Niced processes count too: with the kernel's autogroups (one per session) nice only ranks
                # processes within their own group, so another session's niced job competes as an equal.
                point["disturbed"] = point["other_share"] + point["niced_share"] > max_other
                if not point["disturbed"]:
                    break
                await asyncio.sleep(1.0)
            points.append(point)
    await asyncio.sleep(2.0)  # the last moves land
    for s in clients:  # a final resync: whatever a seat still lacks would show up as missing
        if s.game:
            await s._resync(s.game["seq"])
    await asyncio.sleep(2.0)
    result = {
        "connections": len(clients),
        "connect_s": round(connect_s, 2),
        "connect_retries": sum(c.retries for c in clients),
        "closed_by_server": sum(1 for c in clients if not c.is_open),
        "rematches": sum(d.rematches for d in drivers),
        "stuck": sum(d.stuck for d in drivers),
        "points": points,
        **_accounting(drivers),
        "errors": sum(len(s.errors) for s in clients),
    }
    await asyncio.gather(*(s.close() for s in clients))
    return result


async def idle(plan: list[dict[str, Any]], ports: list[int], hold: float) -> dict[str, Any]:
    """Open every seat, hold them ``hold`` seconds without traffic, then one move per table."""
    drivers, clients = [], []
    for t, table in enumerate(plan):
        seats = [SeatClient([ports[(t + k) % len(ports)]], table["code"], session, position=k)
                 for k, session in enumerate(table["sessions"])]
        clients += seats
        drivers.append(TableDriver(table["code"], seats, seed=t))
    t0 = time.perf_counter()
    await _connect_all(clients)
    connect_s = time.perf_counter() - t0
    await asyncio.sleep(hold)
    held = sum(1 for c in clients if c.is_open)
    before = {id(c): c.game["seq"] for c in clients}
    for d in drivers:
        await d.tick()

    def got(c: SeatClient) -> bool:
        return c.game["seq"] > before[id(c)]

    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(_all(clients, got), 60)
    received = sum(1 for c in clients if got(c))
    await asyncio.gather(*(c.close() for c in clients))
    return {"connections": len(clients), "connect_s": round(connect_s, 1), "held_s": hold, "held": held,
            "connect_retries": sum(c.retries for c in clients),
            "received_broadcast": received}


async def _all(clients: list[SeatClient], predicate: Callable[[SeatClient], bool]) -> None:
    while not all(predicate(c) for c in clients):
        await asyncio.sleep(0.2)


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_setup = sub.add_parser("setup")
    p_setup.add_argument("--tables", type=int, required=True)
    p_setup.add_argument("--seats", type=int, required=True)
    p_setup.add_argument("--out", required=True)
    p_play = sub.add_parser("play")
    p_idle = sub.add_parser("idle")
    for p in (p_play, p_idle):
        p.add_argument("--plan", required=True)
        p.add_argument("--ports", required=True)
        p.add_argument("--out", required=True)
    p_play.add_argument("--rates", default="1.0", help="actions/s per table, comma-separated: a sweep")
    p_play.add_argument("--duration", type=float, default=30.0, help="seconds per point")
    p_play.add_argument("--repeats", type=int, default=1)
    p_play.add_argument("--baseline", action="store_true")
    p_play.add_argument("--groups", default="{}", help='JSON {"server": [pid, ...], ...}: CPU accounted per group')
    p_play.add_argument("--max-other", type=float, default=0.1)
    p_play.add_argument("--reruns", type=int, default=2)
    p_idle.add_argument("--hold", type=float, default=60.0)
    args = parser.parse_args()

    from tests.load.infra import raise_fd_limit

    raise_fd_limit()
    if args.command == "setup":
        plan = setup_tables(args.tables, args.seats)
        with open(args.out, "w") as fh:
            json.dump(plan, fh)
        return
    with open(args.plan) as fh:
        plan = json.load(fh)
    ports = [int(p) for p in args.ports.split(",")]
    if args.command == "play":
        rates = [float(r) for r in args.rates.split(",")]
        result = asyncio.run(play(plan, ports, rates, args.duration, args.baseline, repeats=args.repeats,
                                  groups=json.loads(args.groups), max_other=args.max_other, reruns=args.reruns))
    else:
        result = asyncio.run(idle(plan, ports, args.hold))
    with open(args.out, "w") as fh:
        json.dump(result, fh)


if __name__ == "__main__":
    main()
