"""A real server (daphne on a free loopback port) and Chromium through Playwright.

Outside CI these skip, saying why, when Chromium is missing; in CI they must run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import require_binary
from tests.load.infra import Daphne, base_env, migrate

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS", ROOT / "test-artifacts"))
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 860}
CHROMIUM = "/usr/bin/chromium"


class Server(Daphne):
    """The app in its own daphne process, SQLite file and collected static files, as `make run` serves it."""

    def __init__(self, workdir: Path, env: dict[str, str] | None = None) -> None:
        super().__init__(
            workdir,
            base_env(workdir, SECRET_KEY="e2e-" + os.urandom(8).hex(), SIXDICE_STATIC_MANIFEST="1", **(env or {})),
            name="server",
        )
        migrate(self.env)
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=self.env,
                       check=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    """Chromium for one test module.

    Playwright's sync API keeps an event loop running while it is open; closing
    it after each module lets the asyncio tests that follow run their own loop.
    """
    require_binary(CHROMIUM, "browser tests drive Debian's Chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield b
        b.close()


@pytest.fixture
def phone(browser):
    """Open a new phone-sized browser (own cookies) per call."""
    contexts = []

    def open_phone(url: str | None = None, viewport: dict[str, int] = PHONE):
        context = browser.new_context(viewport=viewport, has_touch=viewport is PHONE, is_mobile=viewport is PHONE)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        if url:
            page.goto(url)
        return page

    yield open_phone
    for context in contexts:
        context.close()


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
