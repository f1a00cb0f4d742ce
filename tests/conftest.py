"""Shared fixtures: the tiny test game, tables with seats, and browser/server skips."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
from collections.abc import Iterator
from typing import TYPE_CHECKING

import hypothesis
import pytest
from django.conf import settings
from django.utils import translation

from sixdice.gamekit.engine import register
from sixdice.tables.core import keys
from sixdice.tables.writes import services
from tests.ci_skips import (  # noqa: F401 - hooks: a skip fails the run in CI
    pytest_runtest_logreport,
    pytest_sessionfinish,
    pytest_terminal_summary,
)
from tests.tinygame import TINY

if TYPE_CHECKING:
    from tests.load.infra import Postgres

register(TINY)

IN_CI = bool(os.environ.get("CI"))

# Property tests: no deadline (a loaded machine is not a failing rule), and in CI
# the same examples every run (derandomized), so CI never rides on luck.
hypothesis.settings.register_profile("sixdice", deadline=None)
hypothesis.settings.register_profile("sixdice-ci", deadline=None, derandomize=True, print_blob=True)
hypothesis.settings.load_profile("sixdice-ci" if IN_CI else "sixdice")
# Socket tests wait for a frame that must come (channels' test communicator: connect, receive, disconnect)
# up to 10 s, not channels' own 1 s: on a loaded machine a frame may take longer, and a frame that never
# comes still fails the test.  A wait for nothing (receive_nothing) keeps its short bound.
WAIT_FOR_A_FRAME = 10.0


def _bound_the_socket_waits() -> None:
    from channels.testing import WebsocketCommunicator

    WebsocketCommunicator.connect.__defaults__ = (WAIT_FOR_A_FRAME,)
    WebsocketCommunicator.receive_from.__defaults__ = (WAIT_FOR_A_FRAME,)
    WebsocketCommunicator.receive_json_from.__defaults__ = (WAIT_FOR_A_FRAME,)
    WebsocketCommunicator.disconnect.__defaults__ = (1000, WAIT_FOR_A_FRAME)


_bound_the_socket_waits()
TEST_DICE_SEED = "tests"  # the app's dice in every test are seeded: see seeded_app_dice


@pytest.fixture(autouse=True)
def seeded_table_codes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table's code is random (``secrets``) in the app; in a test made here it comes from a generator seeded
    by the test's name, so a test that reads a code in a page gets the same codes every run (one that searched
    for "cy" once failed when a code happened to hold CY).  The browser tests' servers make their own."""
    rng = random.Random(request.node.nodeid)
    monkeypatch.setattr(services, "new_code",
                        lambda: "".join(rng.choice(keys.CODE_ALPHABET) for _ in range(keys.CODE_LENGTH)))


@pytest.fixture(autouse=True, scope="session")
def seeded_app_dice():
    """The app rolls seeded dice in every test (the test-only ``SIXDICE_DICE_SEED``): no test rides on luck.

    Each point of each game gets its own dice (see ``services._system_rng``), so a
    test gets the same game whatever ran before it.  Servers the tests start get
    the same setting through their environment (tests/e2e/conftest.py).
    """
    before = settings.SIXDICE_DICE_SEED
    settings.SIXDICE_DICE_SEED = TEST_DICE_SEED
    yield
    settings.SIXDICE_DICE_SEED = before


def require_binary(path_or_name: str, why: str) -> str:
    """Return the binary's path; skip (outside CI only) when it is missing."""
    found = shutil.which(path_or_name) or (path_or_name if os.path.exists(path_or_name) else None)
    if found:
        return found
    if IN_CI:
        pytest.fail(f"{path_or_name} is missing in CI: {why}")
    message = f"skipped: {path_or_name} is not installed ({why}); CI installs it"
    print(message)
    pytest.skip(message)


@contextlib.contextmanager
def throwaway_postgres(why: str) -> Iterator[Postgres]:
    """A PostgreSQL server of its own in a temporary folder, stopped and removed after; skipped (outside CI)
    where PostgreSQL's programs are not installed, saying ``why`` the test needs it."""
    from tests.load.infra import Postgres, postgres_bindir

    bindir = postgres_bindir()
    require_binary(f"{bindir}/initdb" if bindir else "initdb", why)
    pg = Postgres()
    try:
        pg.start()
        yield pg
    finally:
        pg.stop()


@pytest.fixture(scope="module")
def postgres(request: pytest.FixtureRequest) -> Iterator[Postgres]:
    """A throwaway PostgreSQL server for one test module (fresh for each module); the module says why it needs
    one in ``NEEDS_POSTGRES``."""
    with throwaway_postgres(getattr(request.module, "NEEDS_POSTGRES", "the test needs PostgreSQL")) as pg:
        yield pg


@pytest.fixture(autouse=True)
def english_by_default():
    """Each test starts in English: a page requested in another language leaves it active."""
    translation.activate("en")
    yield
    translation.deactivate()


LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}}


@pytest.fixture(autouse=True, scope="session")
def local_cache():
    """Tests in this process use a memory cache, so a test without the database may clear it.

    The served app shares the database's cache table or Redis between processes
    (settings.CACHES); tests/security/test_shared_cache.py checks those backends
    across two processes, and the servers the browser tests start use them.
    """
    from django.test import override_settings

    with override_settings(CACHES=LOCAL_CACHE):
        yield


QUICK_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def quick_password_hashing():
    """Staff accounts made in this process hash their passwords in microseconds, not a quarter of a second.

    The app's hasher (PBKDF2, a million rounds) is slow on purpose; the eighty or so staff accounts the tests
    make spent some 25 s of processor time on it.  No test here is about the hasher itself.  The servers the
    browser tests start keep the app's hasher.
    """
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=QUICK_HASHERS):
        yield


@pytest.fixture(autouse=True)
def prompt_refusals(settings):
    """A handshake refused for a flood cool-down is answered at once here (the server waits SIXDICE_WS_DENY_DELAY)."""
    settings.SIXDICE_WS_DENY_DELAY = 0


@pytest.fixture(autouse=True)
def fresh_guess_counters(local_cache):
    """Each test starts with no counted guesses (sixdice/tables/transport/guess_limits.py keeps them in the cache)."""
    from django.core.cache import cache

    from sixdice.tables.transport import flood_control

    cache.clear()
    flood_control._LOCAL_COOLDOWNS.clear()  # a process's own note of the flood cool-downs it set
    flood_control._REFUSED_VISITS.clear()  # and of the sockets that were only refused
    from sixdice.tables.live.connect import recall

    recall.clear()  # the seats and hosts this process let in lately
    yield


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)


@pytest.fixture
def tiny_table(db):
    """A tiny-game table with two seats; returns (table, host_secret, [seat secrets])."""
    table, host_secret = services.create_table(game="tiny", options={}, capacity=3)
    secrets = []
    for name in ("Ana", "Bo"):
        _seat, secret = services.join_table(table=table, name=name)
        secrets.append(secret)
    return table, host_secret, secrets


_BROWSER_MODULES: set[str] = set()


def pytest_collection_modifyitems(session, config, items):
    """Note the test files that use a browser (tests/e2e/conftest.py keeps one per process)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            _BROWSER_MODULES.add(item.nodeid.split("::")[0])


def pytest_runtest_setup(item):
    """Close the process's browser before a test file that uses none: its asyncio tests run loops of their own."""
    if item.nodeid.split("::")[0] in _BROWSER_MODULES:
        return
    import sys

    e2e = sys.modules.get("tests.e2e.conftest")
    if e2e is not None and e2e.BROWSERS.open:
        e2e.BROWSERS.close()


@pytest.fixture(scope="session", autouse=True)
def browser_closed_before_the_test_database_goes(django_db_setup):
    """The process's browser closes before the test database is torn down (Playwright's loop would refuse it)."""
    yield
    import sys

    e2e = sys.modules.get("tests.e2e.conftest")
    if e2e is not None and e2e.BROWSERS.open:
        e2e.BROWSERS.close()
