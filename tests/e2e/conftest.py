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
from tests.load.infra import free_port, wait_for_port

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS", ROOT / "test-artifacts"))
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 860}
CHROMIUM = "/usr/bin/chromium"


class Server:
    """A daphne process serving the app from its own SQLite file."""

    def __init__(self, workdir: Path, env: dict[str, str] | None = None) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.env = {
            **os.environ,
            "SIXDICE_VAR_DIR": str(workdir),
            "SQLITE_PATH": str(workdir / "db.sqlite3"),
            "STATIC_ROOT": str(workdir / "static"),
            "SECRET_KEY": "e2e-" + os.urandom(8).hex(),
            "DJANGO_SETTINGS_MODULE": "sixdice.settings",
            "SIXDICE_STATIC_MANIFEST": "1",  # served as `make run` serves it: hashed, compressed
            **(env or {}),
        }
        self.proc: subprocess.Popen | None = None
        for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=self.env, check=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        log = open(self.workdir / "server.log", "ab")  # noqa: SIM115 - kept open while the server runs
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "sixdice.asgi:application"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, self.proc)
        return self

    def stop(self, sig: int | None = None) -> None:
        if self.proc and self.proc.poll() is None:
            if sig is None:
                self.proc.terminate()
            else:
                self.proc.send_signal(sig)
            self.proc.wait(timeout=10)


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
