"""The review desk's browser tests share these: a night's games seeded in the server's own database, and a reviewer
logged in to the admin on a laptop.  Each test file keeps its own ``server_env`` (its time zone) and seed script."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import ROOT

LAPTOP = {"width": 1366, "height": 768}
REVIEWER = ("reviewer", "pw-for-tests-1")
"""The account each seed script makes: ``create_superuser("reviewer", ..., "pw-for-tests-1", first_name="Rita")``."""


def seed(server: Any, script: str, *, timeout: int) -> dict:
    """Run ``script`` in ``manage.py shell`` against the server's database; what its last line prints, as JSON."""
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT, env=server.env, check=True,
                         capture_output=True, text=True, timeout=timeout).stdout
    return json.loads(out.strip().splitlines()[-1])


@contextmanager
def reviewer_page(browser: Any, server: Any) -> Iterator[Page]:
    """A laptop's page logged in to the admin as the seeded reviewer (Rita)."""
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{server.url}/admin/login/")
    page.fill("#id_username", REVIEWER[0])
    page.fill("#id_password", REVIEWER[1])
    page.click("input[type=submit]")
    expect(page.locator("#user-tools")).to_contain_text("Rita")
    try:
        yield page
    finally:
        context.close()
