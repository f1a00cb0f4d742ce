"""Real servers on loopback for the load benchmark and the scale tests.

A throwaway ``redis-server``, a throwaway PostgreSQL cluster (Debian's
programs in /usr/lib/postgresql/<v>/bin; as root they run as the ``postgres``
user) and daphne processes, each in a directory of its own.  Every server
binds to 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import gc
import glob
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def raise_fd_limit() -> int:
    """Raise the soft RLIMIT_NOFILE to the hard limit (children inherit it); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen | None = None, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before listening on {port}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listened on {port} within {timeout}s")


def peak_rss_kib(pid: int) -> int | None:
    """VmHWM of a live process, in KiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


# ---------------------------------------------------------------- Redis


def redis_binary() -> str | None:
    return shutil.which("redis-server")


class Redis:
    """``redis-server`` on a loopback port, without persistence."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.workdir = workdir
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        binary = redis_binary()
        assert binary, "redis-server is not installed"
        log = open(self.workdir / f"redis-{self.port}.log", "ab")  # noqa: SIM115 - open while it runs
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir), "--maxclients", "10000"],
            stdout=log, stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, self.proc)
        return self

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# ---------------------------------------------------------------- PostgreSQL


def postgres_bindir() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return os.path.dirname(found[-1])
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


class Postgres:
    """A throwaway PostgreSQL cluster on a loopback port, trust auth, database ``sixdice``."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.bindir = postgres_bindir()
        assert self.bindir, "PostgreSQL's server programs are not installed"
        self.dir = Path(tempfile.mkdtemp(prefix="sixdice-pg-"))
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: run the cluster as the postgres user
            shutil.chown(self.dir, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.data = self.dir / "data"
        self.started = False

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/sixdice"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([*self.as_user, *args], check=check, capture_output=True, cwd=self.dir)

    def start(self) -> Postgres:
        self._run(f"{self.bindir}/initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8")
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c max_connections=200 -c shared_buffers=64MB")
        self._run(f"{self.bindir}/pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.dir / "pg.log"),
                  "-w", "start")
        self.started = True
        self._run(f"{self.bindir}/createdb" if os.path.exists(f"{self.bindir}/createdb") else "createdb",
                  "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "sixdice")
        return self

    @property
    def pid(self) -> int | None:
        """The postmaster's pid (its backends are its children)."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        if self.started:
            self._run(f"{self.bindir}/pg_ctl", "-D", str(self.data), "-m", "immediate", "stop", check=False)
            self.started = False
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------- daphne


def base_env(workdir: Path, **extra: str) -> dict[str, str]:
    """The environment of every process sharing one deployment (same DB, layer, secret)."""
    env = {
        **os.environ,
        "SIXDICE_VAR_DIR": str(workdir),
        "SQLITE_PATH": str(workdir / "db.sqlite3"),
        "STATIC_ROOT": str(workdir / "static"),
        "SECRET_KEY": "load-" + workdir.name,
        "DJANGO_SETTINGS_MODULE": "sixdice.settings",
        "PYTHONPATH": str(ROOT),
    }
    env.update(extra)
    return env


def migrate(env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)


class Daphne:
    """One daphne process serving ``app`` on a loopback port; restartable on the same port."""

    def __init__(self, workdir: Path, env: dict[str, str], app: str = "sixdice.asgi:application",
                 port: int | None = None, name: str = "daphne") -> None:
        self.workdir = workdir
        self.env = env
        self.app = app
        self.port = port or free_port()
        self.name = name
        self.proc: subprocess.Popen | None = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def start(self) -> Daphne:
        log = open(self.workdir / f"{self.name}-{self.port}.log", "ab")  # noqa: SIM115 - open while it runs
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), self.app],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, self.proc)
        return self

    def peak_rss_kib(self) -> int | None:
        return peak_rss_kib(self.proc.pid) if self.proc and self.proc.poll() is None else None

    def stop(self, sig: int | None = None) -> None:
        if self.proc and self.proc.poll() is None:
            if sig is None:
                self.proc.terminate()
            else:
                self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# ---------------------------------------------------------------- CPU accounting from /proc

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[int, int, int]]:
    """Every process now: pid -> (parent pid, utime + stime in ticks, nice)."""
    out: dict[int, tuple[int, int, int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        f = stat[stat.rindex(")") + 2 :].split()  # f[0] is field 3 of stat(5): state
        out[int(entry)] = (int(f[1]), int(f[11]) + int(f[12]), int(f[16]))
    return out


def descendants(pids: list[int], procs: dict[int, tuple[int, int, int]]) -> set[int]:
    """These processes and all their descendants (PostgreSQL's backends)."""
    children: dict[int, list[int]] = {}
    for pid, (ppid, _ticks, _nice) in procs.items():
        children.setdefault(ppid, []).append(pid)
    seen: set[int] = set()
    todo = list(pids)
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.add(pid)
            todo.extend(children.get(pid, []))
    return seen


def machine_ticks() -> dict[str, int]:
    """The first line of /proc/stat: the whole machine's ticks by kind (all CPUs)."""
    names = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"]
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:9]]
    return dict(zip(names, values, strict=True))


def cpu_sample() -> dict[str, Any]:
    """Ticks now: of every process, and of the machine (busy, interrupts, total of all CPUs)."""
    machine = machine_ticks()
    return {"procs": _processes(), "total": sum(machine.values()), "irq": machine["irq"] + machine["softirq"]}


def cpu_shares(before: dict[str, Any], after: dict[str, Any], groups: dict[str, list[int]],
               ignore: Sequence[int] = ()) -> dict[str, Any]:
    """Where the CPU went between two samples: seconds per group (with descendants), and shares of the
    machine for each group, for other processes at normal priority and for niced ones.

    ``ignore``: processes of the benchmark itself that are neither server nor clients (the launcher).
    """
    procs_a, procs_b = before["procs"], after["procs"]
    total = max(1, after["total"] - before["total"])

    def delta(pid: int) -> int:
        old = procs_a.get(pid)
        return procs_b[pid][1] - (old[1] if old else 0)

    claimed: set[int] = set()
    ticks: dict[str, int] = {}
    for name, pids in groups.items():
        members = descendants(pids, procs_b) - claimed
        claimed |= members
        ticks[name] = sum(delta(pid) for pid in members if pid in procs_b)
    claimed |= set(ignore)
    normal = niced = 0
    for pid, (_ppid, _t, nice) in procs_b.items():
        if pid in claimed:
            continue
        if nice > 0:
            niced += delta(pid)
        else:
            normal += delta(pid)
    return {
        "cpu_s": {name: round(t / CLOCK_TICKS, 3) for name, t in ticks.items()},
        "share": {name: round(t / total, 3) for name, t in ticks.items()},
        "other_share": round(normal / total, 3),
        "niced_share": round(niced / total, 3),
        "irq_share": round((after["irq"] - before["irq"]) / total, 3),
    }


@contextlib.contextmanager
def no_collector() -> Iterator[None]:
    """The clients' own garbage collector off while they measure, collected before and after (untimed).

    The clients are the measuring instrument: a full collection of a
    thousand seats' state took 60-320 ms and stalled every seat at once (a
    table's phones are separate devices), which counted as the server's time.
    """
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
