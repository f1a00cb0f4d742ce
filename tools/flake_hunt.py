"""``make flake-hunt``: the browser and multi-process tests, run several times with the cores kept busy.

Each run shuffles the tests in another order (pytest-randomly, seed 1001, 1002, ...) while a load
generator keeps every core busy (a busy loop per core, at a lower priority than the tests), and
this reports every test that failed in any run.  A test it finds is a defect to fix at its cause:
never retried, never marked.

    make flake-hunt                      # 5 runs
    FLAKE_RUNS=2 make flake-hunt         # fewer
    FLAKE_PATHS="tests/e2e/test_timers.py" make flake-hunt
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATHS = ["tests/e2e", "tests/players/test_browser.py", "tests/scale", "tests/security/test_shared_cache.py"]


def _burn() -> None:  # pragma: no cover - a load generator
    os.nice(5)
    x = 0
    while True:
        x = (x * 1103515245 + 12345) % 2**31


def failures_in(report: Path) -> list[str]:
    if not report.exists():
        return ["(no report: pytest did not finish)"]
    failed = []
    for case in ET.parse(report).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed.append(f"{case.get('classname')}::{case.get('name')}")
    return failed


def main() -> int:
    runs = int(os.environ.get("FLAKE_RUNS", "5"))
    paths = os.environ.get("FLAKE_PATHS", "").split() or PATHS
    workers = os.environ.get("TEST_WORKERS", "2")
    seen: dict[str, list[int]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="flake-hunt-") as tmp:
        for run in range(1, runs + 1):
            seed = 1000 + run
            report = Path(tmp) / f"run{run}.xml"
            burners = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(os.cpu_count() or 2)]
            for b in burners:
                b.start()
            started = time.monotonic()
            try:
                cmd = [sys.executable, "-m", "pytest", *paths, "-q",
                       "--randomly-seed", str(seed), f"--junitxml={report}"]
                if workers != "0":
                    cmd += ["-n", workers, "--dist", "loadfile"]
                code = subprocess.run(cmd, cwd=ROOT).returncode
            finally:
                for b in burners:
                    b.terminate()
            failed = failures_in(report)
            for name in failed:
                seen[name].append(run)
            print(f"flake hunt: run {run}/{runs} (seed {seed}) exit {code}, {len(failed)} failed, "
                  f"{time.monotonic() - started:.0f} s", flush=True)
    if not seen:
        print(f"flake hunt: nothing failed in {runs} runs")
        return 0
    print("flake hunt: tests that failed in some run:")
    for name, where in sorted(seen.items()):
        print(f"  {name}  (runs {', '.join(map(str, where))})")
    return 1


if __name__ == "__main__":
    sys.exit(main())
