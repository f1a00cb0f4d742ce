"""In CI a skipped test fails the run (tests/ci_skips.py); outside CI a skip is only reported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run_pytest(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess:
    (tmp_path / "conftest.py").write_text(
        "from tests.ci_skips import pytest_runtest_logreport, pytest_sessionfinish, pytest_terminal_summary\n"
    )
    (tmp_path / "test_one.py").write_text(
        "import pytest\n\n"
        "def test_runs():\n    assert True\n\n"
        "@pytest.mark.skipif(True, reason='no widget here')\n"
        "def test_skips():\n    pass\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "DJANGO_SETTINGS_MODULE")}
    env["PYTHONPATH"] = str(ROOT)
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), "-c", "/dev/null",
         str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )


def test_a_skip_fails_the_run_in_ci(tmp_path):
    result = _run_pytest(tmp_path, ci=True)
    assert result.returncode == 1, result.stdout
    assert "skipped in CI (fails the run)" in result.stdout
    assert "test_one.py::test_skips: Skipped: no widget here" in result.stdout


def test_a_skip_outside_ci_is_reported_and_passes(tmp_path):
    result = _run_pytest(tmp_path, ci=False)
    assert result.returncode == 0, result.stdout
    assert "1 passed, 1 skipped" in result.stdout
    assert "skipped in CI" not in result.stdout
