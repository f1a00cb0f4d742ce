"""A real server (daphne on a free loopback port) and Chromium through Playwright.

One server and one Chromium per test module: the database is migrated and the
static files collected once per session, and each module's server starts from
a copy of that database.  Tests in a module share the server, so each makes
its own tables and asserts only about them.  The server's dice are seeded
(``SIXDICE_DICE_SEED``, test-only): a game played by the same taps gets the
same dice every run, in any order of tests.

Outside CI these skip, saying why, when Chromium is missing; in CI they must run.
"""

from __future__ import annotations

import os
import shutil
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
DICE_SEED = "e2e-1"  # the browser tests' servers roll seeded dice (test-only setting)
DB_NAME = "db.sqlite3"


def site_env(workdir: Path, site: Path, **extra: str) -> dict[str, str]:
    """A server's environment: its own directory and database, the session's static files, seeded dice."""
    return base_env(
        workdir,
        SECRET_KEY="e2e-" + os.urandom(8).hex(),
        SQLITE_PATH=str(workdir / DB_NAME),
        STATIC_ROOT=str(site / "static"),
        SIXDICE_STATIC_MANIFEST="1",
        SIXDICE_TESTING="1",
        SIXDICE_DICE_SEED=DICE_SEED,
        **extra,
    )


def prepare_site(site: Path) -> None:
    """Migrate a database and collect the static files once (``make run`` does the same)."""
    env = site_env(site, site)
    migrate(env)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env,
                   check=True)


class Server(Daphne):
    """The app in its own daphne process and SQLite file, as `make run` serves it.

    ``site`` holds a migrated database (copied, so each server starts empty)
    and the collected static files (shared, read-only).
    """

    def __init__(self, workdir: Path, site: Path, env: dict[str, str] | None = None) -> None:
        super().__init__(workdir, site_env(workdir, site, **(env or {})), name="server")
        for suffix in ("", "-wal", "-shm"):
            if (site / (DB_NAME + suffix)).exists():
                shutil.copyfile(site / (DB_NAME + suffix), workdir / (DB_NAME + suffix))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("site")
    prepare_site(path)
    return path


@pytest.fixture(scope="module")
def server_env() -> dict[str, str]:
    """Extra environment for this module's server; a module overrides it to change a setting."""
    return {}


@pytest.fixture(scope="module")
def server(site: Path, server_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for all the tests of a module."""
    srv = Server(tmp_path_factory.mktemp("server"), site, server_env).start()
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

    def open_phone(url: str | None = None, viewport: dict[str, int] = PHONE, bypass_csp: bool = True):
        # Playwright's wait_for_function compiles its predicate in the page, which the app's
        # Content-Security-Policy (no eval) forbids; tests/e2e/test_csp.py opens pages with the policy on.
        context = browser.new_context(viewport=viewport, has_touch=viewport is PHONE, is_mobile=viewport is PHONE,
                                      bypass_csp=bypass_csp)
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
