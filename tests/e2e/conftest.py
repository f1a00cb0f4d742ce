"""A real server (daphne on a free loopback port) and Chromium through Playwright.

**One server and one Chromium per test process** (pytest-xdist gives each
process whole test files): the database is migrated and the static files
collected once per process, the server starts on the first browser test and
serves every test file after it.  Tests share it, so each makes its own
tables and asserts only about them.  A file that needs a setting of its own
overrides ``server_env`` and gets its own server, with the reason written
beside it.  The server's dice are seeded (``SIXDICE_DICE_SEED``, test-only):
a game played by the same taps gets the same dice every run, in any order of
tests.

**Phones are contexts from a pool** (``ContextPool``): a test's contexts are
cleared when it ends (cookies, storage, service workers) and the next test
takes them, their HTTP cache warm; a context the test closed, or touched with
a call whose effect lasts (an init script, a route, a listener), is closed.

**Time is the test's** (``SIXDICE_TEST_CLOCK``, sixdice/tables/core/clock.py):
the ``clock`` fixture moves the server's clock.  On the shared server bots
move at once unless a test holds them (``clock.hold_bots()``, then ``clock.advance(1)`` a move);
a turn timer runs out when the test advances its time (``clock.advance(30)``).

**Pages say when they are ready**: ``<html data-live="ready" data-seq=N>``
(docs/scripts.md); ``tests/e2e/harness.py`` waits on it.

Outside CI these skip, saying why, when Chromium is missing; in CI they must run.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
LAN_HOST = "sixdice-table.lan"  # a plain-HTTP name that is not a secure context; Chromium maps it to 127.0.0.1


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
        SIXDICE_TEST_CLOCK="1",  # bots and turn timers on the test's clock (the clock fixture)
        LOG_LEVEL="INFO",  # a bot or timer driver that stops says why in the server log (a stalled test shows it)
        **{"ALLOWED_HOSTS": f"127.0.0.1,localhost,{LAN_HOST}", **extra},
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


@pytest.fixture(scope="session")
def shared_server(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The one server of this test process, started by the first test that needs it."""
    srv = Server(tmp_path_factory.mktemp("server"), site, {"SIXDICE_BOT_DELAY": "0"}).start()  # bots at once
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def server_env() -> dict[str, str]:
    """Extra environment for a module's own server; empty (the default): the process's shared server."""
    return {}


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, site: Path, server_env: dict[str, str],
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The process's shared server, or the module's own when it asks for a setting of its own."""
    if not server_env:
        yield request.getfixturevalue("shared_server")
        return
    srv = Server(tmp_path_factory.mktemp("server"), site, server_env).start()
    yield srv
    srv.stop()


class Clock:
    """The server's test clock, moved through ``POST /__test__/clock/`` (sixdice/tables/core/clock.py)."""

    def __init__(self, server: Server) -> None:
        self.url = server.url + "/__test__/clock/"

    def _post(self, body: dict[str, object]) -> dict[str, object]:
        request = urllib.request.Request(self.url, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def advance(self, seconds: float) -> dict[str, object]:
        """Move time on: turn timers that are due run out; held bots make a move per bot delay (1 s)."""
        return self._post({"advance": seconds})

    def hold_bots(self) -> dict[str, object]:
        """Bots wait for the test: each move waits for a second of advanced time (``advance(1)``)."""
        return self._post({"bots": "held"})

    def free_bots(self) -> dict[str, object]:
        """Bots keep the server's pace: at once on the shared server (every test starts so)."""
        return self._post({"bots": "free"})


@pytest.fixture
def clock(server: Server) -> Iterator[Clock]:
    """The server's clock for this test: bots free at the start and again after it."""
    c = Clock(server)
    c.free_bots()
    yield c
    c.free_bots()


BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Browsers:
    """This process's Playwright and its Chromium browsers (one per set of extra arguments).

    Open from the first browser test until a test file that uses no browser:
    Playwright's sync API keeps an event loop running while it is open, and the
    asyncio tests run loops of their own (tests/conftest.py closes it for them).
    """

    def __init__(self) -> None:
        self._manager: Any = None
        self.playwright: Any = None
        self._browsers: dict[tuple[str, ...], Any] = {}

    def start(self) -> Any:
        if self.playwright is None:
            require_binary(CHROMIUM, "browser tests drive Debian's Chromium")
            from playwright.sync_api import sync_playwright

            self._manager = sync_playwright()
            self.playwright = self._manager.start()
        return self.playwright

    def get(self, *extra_args: str) -> Any:
        key = tuple(extra_args)
        if key not in self._browsers:
            self._browsers[key] = self.start().chromium.launch(executable_path=CHROMIUM,
                                                               args=[*BROWSER_ARGS, *extra_args])
        return self._browsers[key]

    @property
    def open(self) -> bool:
        return self.playwright is not None

    def close(self) -> None:
        POOL.clear()  # its contexts close with their browsers
        for b in self._browsers.values():
            with contextlib.suppress(Exception):
                b.close()
        self._browsers.clear()
        if self._manager is not None:
            self._manager.__exit__(None, None, None)
        self._manager = self.playwright = None


# Calls whose effect outlives the test that made them: a context they touched is closed after the
# test, never handed to another (Playwright cannot take back an init script, a route or a listener).
LASTING = {
    "BrowserContext": ("add_init_script", "route", "route_from_har", "route_web_socket", "expose_binding",
                       "expose_function", "grant_permissions", "set_offline", "set_extra_http_headers",
                       "set_geolocation", "new_cdp_session", "set_default_navigation_timeout", "on", "once"),
    "Page": ("add_init_script", "route", "route_from_har", "route_web_socket", "expose_binding", "expose_function",
             "set_extra_http_headers", "set_viewport_size", "emulate_media", "add_locator_handler",
             "set_default_navigation_timeout", "on", "once"),
}
_ORIGINAL: dict[tuple[str, str], Any] = {}


def _mark_lasting() -> None:
    """Wrap each LASTING call so that it marks the context it touched (once per process)."""
    from playwright.sync_api import BrowserContext, Page

    for cls in (BrowserContext, Page):
        for name in LASTING[cls.__name__]:
            if (cls.__name__, name) in _ORIGINAL:
                continue
            original = _ORIGINAL[cls.__name__, name] = getattr(cls, name)

            def marked(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
                context = self if isinstance(self, BrowserContext) else self.context
                context._impl_obj.sixdice_lasting = True
                return _original(self, *args, **kwargs)

            setattr(cls, name, marked)


class ContextPool:
    """Browser contexts handed from test to test, their cookies and storage cleared between.

    A fresh context costs Chromium about 0.7 s of CPU to open a table page (a
    new renderer, every script fetched and compiled again); a context kept on
    ``about:blank`` opens the next one for about 0.3 s, its HTTP cache warm.
    When a test ends, each context it took is cleared (cookies, permissions,
    and every origin's storage it visited: local and session storage,
    IndexedDB, service workers, caches) and kept for the next test with the
    same viewport.  A context the test closed, or touched with a LASTING call,
    is closed instead.  Only the HTTP cache carries over, as on a real phone.
    """

    KEEP = 10  # idle contexts kept per kind (an 8-seat table, its host and its screen)

    def __init__(self) -> None:
        self._idle: dict[tuple[Any, ...], list[tuple[Any, Any]]] = {}
        self._kind: dict[int, tuple[Any, ...]] = {}

    def take(self, browser: Any, viewport: dict[str, int], bypass_csp: bool) -> tuple[Any, Any]:
        kind = (id(browser), viewport["width"], viewport["height"], viewport is PHONE, bypass_csp)
        idle = self._idle.setdefault(kind, [])
        if idle:
            return idle.pop()
        _mark_lasting()
        context = browser.new_context(viewport=viewport, has_touch=viewport is PHONE, is_mobile=viewport is PHONE,
                                      bypass_csp=bypass_csp, reduced_motion="reduce")
        impl = context._impl_obj
        impl.sixdice_origins = set()
        impl.sixdice_lasting = impl.sixdice_closed = False

        def visited(frame: Any) -> None:
            url = urllib.parse.urlsplit(frame.url)
            if url.scheme in ("http", "https"):
                impl.sixdice_origins.add(f"{url.scheme}://{url.netloc}")

        def closed(_: Any = None) -> None:
            impl.sixdice_closed = True

        _ORIGINAL["BrowserContext", "on"](context, "close", closed)
        _ORIGINAL["BrowserContext", "on"](
            context, "page", lambda page: _ORIGINAL["Page", "on"](page, "framenavigated", visited))
        self._kind[id(context)] = kind
        return context, context.new_page()

    def give_back(self, context: Any) -> None:
        kind = self._kind.pop(id(context), None)
        impl = context._impl_obj
        idle = self._idle.get(kind) if kind else None
        if idle is None or impl.sixdice_lasting or impl.sixdice_closed or len(idle) >= self.KEEP:
            with contextlib.suppress(Exception):
                context.close()
            return
        try:
            pages = context.pages
            for extra in pages[1:]:
                extra.close()
            page = pages[0] if pages else context.new_page()
            if page.url.startswith("http"):  # this tab's session storage (a tab of its own per origin)
                page.evaluate("() => { try { sessionStorage.clear(); } catch (err) { /* none */ } }")
            page.goto("about:blank")
            cdp = _ORIGINAL["BrowserContext", "new_cdp_session"](context, page)
            for origin in sorted(impl.sixdice_origins):
                cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            cdp.detach()
            impl.sixdice_origins.clear()
            context.clear_cookies()
            context.clear_permissions()
        except Exception:  # a page that will not be cleared: the context is not kept
            with contextlib.suppress(Exception):
                context.close()
            return
        self._kind[id(context)] = kind
        idle.append((context, page))

    def clear(self) -> None:
        """Forget every idle context (the browsers are closing)."""
        self._idle.clear()
        self._kind.clear()


POOL = ContextPool()


BROWSERS = Browsers()


@pytest.fixture(scope="module")
def browser():
    """This process's Chromium (opened by the first test that asks for it)."""
    return BROWSERS.get()


@pytest.fixture
def phone(browser):
    """Open a new phone-sized browser (own cookies) per call: a context of this process's pool (below)."""
    taken = []

    def open_phone(url: str | None = None, viewport: dict[str, int] = PHONE, bypass_csp: bool = True):
        # Playwright's wait_for_function compiles its predicate in the page, which the app's
        # Content-Security-Policy (no eval) forbids; tests/e2e/test_csp.py opens pages with the policy on.
        context, page = POOL.take(browser, viewport, bypass_csp)
        taken.append(context)
        page.set_default_timeout(10_000)
        if url:
            page.goto(url)
        return page

    yield open_phone
    for context in taken:
        POOL.give_back(context)


SCREENS = ROOT / "docs" / "screens"
"""The screens kept with the docs, as a player sees them (``docs/screens/``)."""


def shoot(page, name: str, *, full_page: bool = False) -> None:
    """What the page shows in its viewport (``full_page``: the whole page), kept as ``docs/screens/<name>.png``."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=full_page)


def keep(page, name: str) -> None:
    """The whole page, kept in the test artifacts and as ``docs/screens/<name>.png``."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(screenshot(page, name), SCREENS / f"{name}.png")


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
