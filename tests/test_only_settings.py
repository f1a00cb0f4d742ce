"""A test-only setting is refused outside a test server: read in a fresh process, as a server would start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TEST_SETTINGS = ("SIXDICE_TEST_CLOCK", "SIXDICE_TIMER_SPEEDUP", "SIXDICE_DICE_SEED", "SIXDICE_TESTING")
"""The environment a server reads its test-only settings from (left out of the fresh process unless given)."""


def setting_in_a_fresh_process(name: str, **env: str) -> subprocess.CompletedProcess:
    """Django's settings loaded in a new process with ``env`` (and none of :data:`TEST_SETTINGS` but those);
    its output is ``settings.<name>``, or the refusal on its standard error."""
    clean = {k: v for k, v in os.environ.items() if k not in TEST_SETTINGS}
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); from django.conf import settings; print(settings.{name})"],
        cwd=ROOT, env={**clean, "DJANGO_SETTINGS_MODULE": "sixdice.settings", **env},
        capture_output=True, text=True, timeout=60,
    )


def check_refused_outside_a_test_server(name: str, value: str, *, refusal: str, shown: str, default: str) -> None:
    """``name=value`` stops a server that is not a test server (``refusal`` on its standard error), is taken by one
    (``settings.<name>`` prints ``shown``), and without it the setting is ``default``."""
    refused = setting_in_a_fresh_process(name, **{name: value})
    assert refused.returncode != 0 and refusal in refused.stderr, refused.stderr
    allowed = setting_in_a_fresh_process(name, **{name: value, "SIXDICE_TESTING": "1"})
    assert allowed.returncode == 0 and allowed.stdout.strip() == shown, allowed.stderr
    assert setting_in_a_fresh_process(name).stdout.strip() == default
