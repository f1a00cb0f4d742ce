"""The load benchmark: tables of WebSocket clients playing Run Buster against real servers.

    python -m tests.load.bench [--tables 200 --seats 5 --rates 0.1,0.25,0.5,0.75,1 --duration 10 --repeats 2]
                               [--apps ours,naive,relay] [--mode single|multi|both]
                               [--idle 2000 --idle-hold 60] [--no-hostile] [--no-new-session-flood] [--no-stale-flood]

Three servers are driven by the same clients, one after the other, in the same run:
ours (the app), naive (tests/load/naive.py: a tutorial Channels + ORM app doing one INSERT,
one UPDATE and a group_send of a 1.5 KB state per action) and relay (tests/load/baseline.py:
a bare consumer relaying a message to a group; no database).  Each plays a sweep of offered
loads (actions/s per table); per point: latency, moves, and the server's CPU per move
(utime + stime from /proc), the clients' share and other processes' share of the machine.
single: one daphne process with the embedded defaults (SQLite, in-memory layer).
multi:  two daphne processes sharing PostgreSQL and Redis (started here on loopback);
        the seats of every table are spread over both processes.
idle:   N idle connections to one process, held, then one move per table must reach all.
hostile: one table's move times alone, then while a socket at another table floods (tests/load/hostile.py);
        then again with a new made-up session cookie on each flood socket (--hostile-new-session), and with
        a seat there sending stale actions, reconnecting 50 ms after each refusal (--hostile-stale).
The clients run in their own process; the servers in theirs.  Exits non-zero when a target is missed.
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

APPS = {  # name: ASGI application; all three are driven by the same clients in the same run
    "ours": "sixdice.asgi:application",
    "naive": "tests.load.naive:application",
    "relay": "tests.load.baseline:application",
}
RATES = [0.1, 0.25, 0.5, 0.75, 1.0]  # offered actions/s per table: the capacity sweep
P99_MS = 100.0  # capacity: the highest load held with p99 at or under this
CPU_RATIO = 1.5  # target: our server CPU per move at most this times the relay's
CAPACITY_RATIO = 0.9  # target: our capacity at least this times the relay's
MUST_HOLD_PER_S = 100.0  # target: p99 <= P99_MS at this many actions/s, in every repeat
MAX_OTHER = 0.10  # a point where other processes took more than this share of the machine is played again


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


def _serve_and_play(workdir: Path, env: dict[str, str], app: str, name: str, processes: int, plan_path: str,
                    args: argparse.Namespace, infra: list[int]) -> dict[str, Any]:
    servers = [Daphne(workdir, env, app=APPS[app], name=f"{app}{k}") for k in range(processes)]
    try:
        for server in servers:
            server.start()
        ports = ",".join(str(s.port) for s in servers)
        groups = {"server": [s.pid for s in servers], "infra": infra}
        load_before = os.getloadavg()
        result = _clients("play", env, "--plan", plan_path, "--ports", ports, "--rates", ",".join(map(str, args.rates)),
                          "--duration", str(args.duration), "--repeats", str(args.repeats),
                          "--groups", json.dumps(groups), "--max-other", str(args.max_other),
                          "--reruns", str(args.reruns), *(["--baseline"] if app != "ours" else []))
        assert isinstance(result, dict)
        result["loadavg_before"] = [round(x, 2) for x in load_before]
        result["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
        rss = [s.peak_rss_kib() for s in servers]
        result["peak_rss_mib"] = [round(r / 1024, 1) if r else None for r in rss]
        return result
    finally:
        for server in servers:
            server.stop()


def summarise(app: dict[str, Any], tables: int) -> dict[str, Any]:
    """CPU per move pooled over the undisturbed points; capacity; p99 at MUST_HOLD_PER_S in every repeat."""
    points = app["points"]
    clean = [p for p in points if not p["disturbed"]]
    moves = sum(p["actions"] for p in clean)
    cpu = sum(p["cpu_s"]["server"] for p in clean)
    by_rate: dict[float, list[dict[str, Any]]] = {}
    for p in points:
        by_rate.setdefault(p["rate"], []).append(p)

    def holds(rate: float) -> bool | None:
        """p99 <= P99_MS in every repeat at this rate; None when a repeat ran disturbed."""
        runs = by_rate[rate]
        if any(p["disturbed"] for p in runs):
            return None
        return all(p["p99_ms"] is not None and p["p99_ms"] <= P99_MS and p["unfinished"] == 0 for p in runs)

    capacity: float | None = 0.0
    for rate in sorted(by_rate):
        ok = holds(rate)
        if ok is None:
            capacity = None  # cannot say: a point on the way up was disturbed
            break
        if not ok:
            break
        capacity = rate * tables
    must = MUST_HOLD_PER_S / tables
    moves_all = sum(p["actions"] for p in points)
    cpu_all = sum(p["cpu_s"]["server"] for p in points)
    return {
        "cpu_ms_per_move": round(1000 * cpu / moves, 3) if moves else None,
        "cpu_ms_per_move_all": round(1000 * cpu_all / moves_all, 3) if moves_all else None,  # disturbed points too
        "capacity_per_s": capacity,
        "holds_at_must": holds(must) if must in by_rate else None,
        "disturbed_points": sum(1 for p in points if p["disturbed"]),
        "events_ok": app["lost"] == 0 and app["missing"] == 0 and app["duplicated"] == 0,
    }


def run_case(mode: str, args: argparse.Namespace) -> dict[str, Any]:
    processes = 1 if mode == "single" else 2
    apps: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix=f"sixdice-bench-{mode}-") as tmp:
        workdir = Path(tmp)
        redis = postgres = None
        try:
            extra: dict[str, str] = {}
            infra: list[int] = []
            if mode == "multi":
                redis = Redis(workdir).start()
                postgres = Postgres().start()
                extra = {"REDIS_URL": redis.url, "DATABASE_URL": postgres.url}
                infra = [pid for pid in (redis.proc.pid if redis.proc else None, postgres.pid) if pid]
            env = base_env(workdir, SIXDICE_GC=args.gc, **extra)
            migrate(env)
            plan = _clients("setup", env, "--tables", str(args.tables), "--seats", str(args.seats))
            assert isinstance(plan, list)
            plans = {"ours": plan, "relay": [{"code": f"B{t:05d}", "sessions": [None] * args.seats}
                                             for t in range(args.tables)]}
            if "naive" in args.apps:  # tables of its own: it writes its own state into their games
                plans["naive"] = _clients("setup", env, "--tables", str(args.tables), "--seats", str(args.seats))
            for app in args.apps:
                chosen = plans[app]
                apps[app] = _serve_and_play(workdir, env, app, app, processes, _write_plan(workdir, chosen), args, infra)
                apps[app]["summary"] = summarise(apps[app], args.tables)
        finally:
            if redis:
                redis.stop()
            if postgres:
                postgres.stop()
    return {"mode": mode, "processes": processes, "apps": apps}


def _fmt(value: Any, unit: str = "", digits: int = 1) -> str:
    if value is None:
        return "-"
    return f"{value:.{digits}f}{unit}" if isinstance(value, float) else f"{value}{unit}"


def report_case(case: dict[str, Any], args: argparse.Namespace) -> bool:
    """Print the three-way table; True when every target of this case is met."""
    apps = case["apps"]
    names = list(apps)
    print(f"\n{case['mode']}: " + ("one process, SQLite, in-memory layer" if case["mode"] == "single"
                                    else "two processes, PostgreSQL, Redis"))
    for name in names:
        a = apps[name]
        print(f"  {name:<6} {a['connections']} connections in {a['connect_s']} s; load average {a['loadavg_before'][0]} "
              f"-> {a['loadavg_after'][0]}; peak RSS {a['peak_rss_mib']} MiB; lost {a['lost']} missing {a['missing']} "
              f"dup {a['duplicated']} gaps {a['gaps']} stuck {a['stuck']} errors {a['errors']} rematches {a['rematches']}")
    print("  offered/s  app     p50 ms  p99 ms   max ms  done/s  server ms/move  server  clients  infra  other  niced  irq")
    for name in names:
        for p in apps[name]["points"]:
            share = p["share"]
            flag = "  DISTURBED" if p["disturbed"] else (f"  (rerun {p['attempt']})" if p["attempt"] else "")
            print(f"  {p['offered_per_s']:>9.0f}  {name:<6} {_fmt(p['p50_ms']):>7} {_fmt(p['p99_ms']):>7} "
                  f"{_fmt(p['max_ms']):>8} {p['actions_per_s']:>7.1f}  {_fmt(p['server_cpu_ms_per_move'], digits=2):>14}  "
                  f"{share['server']:>6.0%}  {share['clients']:>7.0%}  {share['infra']:>5.0%}  {p['other_share']:>5.0%}"
                  f"  {p['niced_share']:>5.0%}  {p['irq_share']:>3.0%}{flag}")
    print("  summary    " + "  ".join(f"{n}: CPU/move {_fmt(apps[n]['summary']['cpu_ms_per_move'], ' ms', 2)} "
                                      f"(all points {_fmt(apps[n]['summary']['cpu_ms_per_move_all'], ' ms', 2)}), "
                                      f"capacity {_fmt(apps[n]['summary']['capacity_per_s'], '/s', 0)}" for n in names))
    if "relay" in apps and apps["relay"]["summary"]["cpu_ms_per_move_all"]:
        base = apps["relay"]["summary"]["cpu_ms_per_move_all"]
        print("  CPU/move over the relay's, all points (disturbed included, not a claim): "
              + ", ".join(f"{n} {apps[n]['summary']['cpu_ms_per_move_all'] / base:.2f}" for n in names
                          if apps[n]["summary"]["cpu_ms_per_move_all"]))
    if "ours" not in apps or "relay" not in apps:
        print("  targets need ours and relay in the same run")
        return False
    ours, relay = apps["ours"]["summary"], apps["relay"]["summary"]
    ok = True

    def verdict(name: str, met: bool | None, detail: str) -> None:
        nonlocal ok
        ok &= bool(met)
        word = "met" if met else ("NOT MEASURED (disturbed)" if met is None else "MISSED")
        print(f"  target {name}: {detail}: {word}")

    cpu_ratio = ours["cpu_ms_per_move"] / relay["cpu_ms_per_move"] if ours["cpu_ms_per_move"] and relay["cpu_ms_per_move"] else None
    verdict("CPU per move", None if cpu_ratio is None else cpu_ratio <= CPU_RATIO,
            f"ours / relay = {_fmt(cpu_ratio, digits=2)} (<= {CPU_RATIO})")
    if ours["capacity_per_s"] is None or not relay["capacity_per_s"]:
        verdict("capacity", None, f"ours {_fmt(ours['capacity_per_s'])}/s, relay {_fmt(relay['capacity_per_s'])}/s")
    else:
        cap = ours["capacity_per_s"] / relay["capacity_per_s"]
        verdict("capacity", cap >= CAPACITY_RATIO,
                f"at p99 <= {P99_MS:.0f} ms ours {ours['capacity_per_s']:.0f}/s, relay {relay['capacity_per_s']:.0f}/s, "
                f"ratio {cap:.2f} (>= {CAPACITY_RATIO})")
    if MUST_HOLD_PER_S / args.tables in args.rates:
        verdict(f"p99 <= {P99_MS:.0f} ms at {MUST_HOLD_PER_S:.0f}/s", ours["holds_at_must"], f"every repeat ({args.repeats})")
    else:
        verdict(f"p99 <= {P99_MS:.0f} ms at {MUST_HOLD_PER_S:.0f}/s", False, "that load is not in this sweep")
    verdict("events", ours["events_ok"], "0 lost, missing, duplicated")
    return ok


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


def main() -> None:
    parser = argparse.ArgumentParser(description="Six-Dice load benchmark")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--rates", type=lambda v: [float(x) for x in v.split(",")], default=RATES,
                        help="offered actions/s per table, comma-separated (the capacity sweep)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per point of the sweep")
    parser.add_argument("--repeats", type=int, default=2, help="times the whole sweep is played")
    parser.add_argument("--apps", type=lambda v: v.split(","), default=list(APPS),
                        help="comma-separated, of " + ",".join(APPS))
    parser.add_argument("--max-other", type=float, default=MAX_OTHER,
                        help="share of the machine other processes may take before a point is played again")
    parser.add_argument("--reruns", type=int, default=2, help="times a disturbed point is played again")
    parser.add_argument("--gc", choices=["tuned", "default"], default="tuned",
                        help="our servers' garbage collector: frozen start-up and rare collections, or Python's own")
    parser.add_argument("--mode", choices=["single", "multi", "both", "none"], default="both")
    parser.add_argument("--idle", type=int, default=2000, help="idle connections (0: skip)")
    parser.add_argument("--idle-hold", type=float, default=60.0, help="seconds to hold them")
    parser.add_argument("--hostile", action=argparse.BooleanOptionalAction, default=True,
                        help="run the hostile-neighbour case (flood from one socket)")
    parser.add_argument("--new-session-flood", action=argparse.BooleanOptionalAction, default=True,
                        help="with --hostile: run it again with a new made-up session on each flood socket")
    parser.add_argument("--stale-flood", action=argparse.BooleanOptionalAction, default=True,
                        help="with --hostile: run it again with a seat sending stale actions (--hostile-stale)")
    hostile.add_arguments(parser)
    parser.add_argument("--connects", action=argparse.BooleanOptionalAction, default=True,
                        help="run the connect benchmark (tests/load/connects.py) with its defaults")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    raise_fd_limit()  # the servers and the clients inherit it

    print(f"machine: {platform.node()} {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"load: {args.tables} tables x {args.seats} seats; offered {', '.join(f'{r:g}' for r in args.rates)} "
          f"actions/s per table, {args.duration:g} s per point, {args.repeats} repeat(s); apps {', '.join(args.apps)}; "
          f"gc {args.gc}")
    results: dict[str, Any] = {"args": vars(args), "cases": []}
    modes = {"both": ["single", "multi"], "none": []}.get(args.mode, [args.mode])
    ok = True
    for mode in modes:
        case = run_case(mode, args)
        results["cases"].append(case)
        if mode == "single":
            ok &= report_case(case, args)
        else:  # several processes: the figures are printed; the targets are the one-process case's
            report_case(case, args)
            ok &= all(a["summary"]["events_ok"] for a in case["apps"].values())
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
        if args.new_session_flood and not args.hostile_polite and not args.hostile_new_session:
            case = hostile.run(argparse.Namespace(**{**vars(args), "hostile_new_session": True}))
            results["hostile_new_session"] = case
            ok &= hostile.report(case)
        if args.stale_flood and not args.hostile_polite and not args.hostile_stale:
            case = hostile.run(argparse.Namespace(**{**vars(args), "hostile_stale": True}))
            results["hostile_stale"] = case
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
