"""The load benchmark: tables of WebSocket clients playing Run Buster against real servers.

    python -m tests.load.bench [--tables 200 --seats 5 --rate 1 --duration 30]
                               [--mode single|multi|both] [--idle 2000 --idle-hold 60]

single: one daphne process with the embedded defaults (SQLite, in-memory layer).
multi:  two daphne processes sharing PostgreSQL and Redis (started here on loopback);
        the seats of every table are spread over both processes.
Each case also runs the baseline (tests/load/baseline.py: a bare consumer relaying a
message to a group of the same size) with the same clients and prints our p99 over its.
idle:   N idle connections to one process, held, then one move per table must reach all.
hostile: one table's move times alone, then while a socket at another table floods (tests/load/hostile.py).
The clients run in their own process; the servers in theirs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.load import connects, hostile
from tests.load.infra import ROOT, Daphne, Postgres, Redis, base_env, migrate, raise_fd_limit

TARGET_RATIO = 2.0


def _clients(command: str, env: dict[str, str], *args: str) -> dict[str, Any] | list[Any]:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        out = fh.name
    try:
        subprocess.run([sys.executable, "-m", "tests.load.clients", command, *args, "--out", out],
                       cwd=ROOT, env=env, check=True)
        with open(out) as fh:
            return json.load(fh)
    finally:
        os.unlink(out)


def _write_plan(workdir: Path, plan: list[Any]) -> str:
    path = workdir / f"plan-{len(plan)}-{os.getpid()}-{id(plan)}.json"
    path.write_text(json.dumps(plan))
    return str(path)


def _serve_and_play(workdir: Path, env: dict[str, str], app: str, processes: int, plan_path: str,
                    args: argparse.Namespace, baseline: bool) -> dict[str, Any]:
    servers = [Daphne(workdir, env, app=app, name=("baseline" if baseline else "app") + str(k))
               for k in range(processes)]
    try:
        for server in servers:
            server.start()
        ports = ",".join(str(s.port) for s in servers)
        extra = ["--baseline"] if baseline else []
        result = _clients("play", env, "--plan", plan_path, "--ports", ports, "--rate", str(args.rate),
                          "--duration", str(args.duration), *extra)
        rss = [s.peak_rss_kib() for s in servers]
        result["peak_rss_mib"] = [round(r / 1024, 1) if r else None for r in rss]
        return result
    finally:
        for server in servers:
            server.stop()


def run_case(mode: str, args: argparse.Namespace) -> dict[str, Any]:
    processes = 1 if mode == "single" else 2
    with tempfile.TemporaryDirectory(prefix=f"sixdice-bench-{mode}-") as tmp:
        workdir = Path(tmp)
        redis = postgres = None
        try:
            extra: dict[str, str] = {}
            if mode == "multi":
                redis = Redis(workdir).start()
                postgres = Postgres().start()
                extra = {"REDIS_URL": redis.url, "DATABASE_URL": postgres.url}
            env = base_env(workdir, **extra)
            migrate(env)
            plan = _clients("setup", env, "--tables", str(args.tables), "--seats", str(args.seats))
            ours = _serve_and_play(workdir, env, "sixdice.asgi:application", processes,
                                   _write_plan(workdir, plan), args, baseline=False)
            fake = [{"code": f"B{t:05d}", "sessions": [None] * args.seats} for t in range(args.tables)]
            base = _serve_and_play(workdir, env, "tests.load.baseline:application", processes,
                                   _write_plan(workdir, fake), args, baseline=True)
        finally:
            if redis:
                redis.stop()
            if postgres:
                postgres.stop()
    ratio = ours["p99_ms"] / base["p99_ms"] if ours["p99_ms"] and base["p99_ms"] else None
    return {"mode": mode, "processes": processes, "ours": ours, "baseline": base, "p99_ratio": ratio}


def run_idle(args: argparse.Namespace) -> dict[str, Any]:
    tables = -(-args.idle // args.seats)
    with tempfile.TemporaryDirectory(prefix="sixdice-bench-idle-") as tmp:
        workdir = Path(tmp)
        env = base_env(workdir)
        migrate(env)
        plan = _clients("setup", env, "--tables", str(tables), "--seats", str(args.seats))
        server = Daphne(workdir, env, name="idle").start()
        try:
            result = _clients("idle", env, "--plan", _write_plan(workdir, plan), "--ports", str(server.port),
                              "--hold", str(args.idle_hold))
            rss = server.peak_rss_kib()
            result["peak_rss_mib"] = round(rss / 1024, 1) if rss else None
        finally:
            server.stop()
    return result


def _row(name: str, r: dict[str, Any]) -> str:
    return (f"  {name:<9} p50 {r['p50_ms']} ms  p95 {r['p95_ms']} ms  p99 {r['p99_ms']} ms  max {r['max_ms']} ms  "
            f"| {r['actions_per_s']:.1f} actions/s ({r['actions']} done, {r['skipped_ticks']} ticks skipped)  "
            f"| lost {r['lost']} missing {r['missing']} dup {r['duplicated']} gaps {r['gaps']} "
            f"refused {r['refused']} errors {r['errors']}  | peak RSS {r['peak_rss_mib']} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description="Six-Dice load benchmark")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--rate", type=float, default=1.0, help="actions per second per table")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of play")
    parser.add_argument("--mode", choices=["single", "multi", "both", "none"], default="both")
    parser.add_argument("--idle", type=int, default=2000, help="idle connections (0: skip)")
    parser.add_argument("--idle-hold", type=float, default=60.0, help="seconds to hold them")
    parser.add_argument("--hostile", action=argparse.BooleanOptionalAction, default=True,
                        help="run the hostile-neighbour case (flood from one socket)")
    hostile.add_arguments(parser)
    parser.add_argument("--connects", action=argparse.BooleanOptionalAction, default=True,
                        help="run the connect benchmark (tests/load/connects.py) with its defaults")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    raise_fd_limit()  # the servers and the clients inherit it

    print(f"machine: {platform.node()} {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"load: {args.tables} tables x {args.seats} seats, {args.rate} action/s per table, {args.duration} s")
    results: dict[str, Any] = {"args": vars(args), "cases": []}
    modes = {"both": ["single", "multi"], "none": []}.get(args.mode, [args.mode])
    ok = True
    for mode in modes:
        case = run_case(mode, args)
        results["cases"].append(case)
        label = "one process, SQLite, in-memory layer" if mode == "single" else "two processes, PostgreSQL, Redis"
        print(f"\n{mode}: {label}")
        print(_row("ours", case["ours"]))
        print(_row("baseline", case["baseline"]))
        ratio = case["p99_ratio"]
        met = ratio is not None and ratio <= TARGET_RATIO
        lost_ok = case["ours"]["lost"] == 0 and case["ours"]["duplicated"] == 0 and case["ours"]["missing"] == 0
        ok &= met and lost_ok
        print(f"  p99 ours / baseline = {ratio:.2f} (target <= {TARGET_RATIO}: {'met' if met else 'MISSED'}); "
              f"lost/duplicated 0: {'met' if lost_ok else 'MISSED'}" if ratio else "  no ratio")
    if args.idle:
        idle = run_idle(args)
        results["idle"] = idle
        held_ok = idle["held"] == idle["connections"] == idle["received_broadcast"]
        ok &= held_ok
        print(f"\nidle: {idle['connections']} connections opened in {idle['connect_s']} s, held {idle['held_s']} s: "
              f"{idle['held']} still open, {idle['received_broadcast']} received the broadcast "
              f"({'met' if held_ok else 'MISSED'}); peak RSS {idle['peak_rss_mib']} MiB")
    if args.hostile:
        case = hostile.run(args)
        results["hostile"] = case
        ok &= hostile.report(case)
    if args.connects:
        print()
        results["connects"], met = connects.run(connects.defaults())
        ok &= met
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
