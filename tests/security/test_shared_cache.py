"""Issue 15, item 8: the code-guessing counters and flood cool-downs hold across server processes.

Each check runs two separate Python processes with the served app's settings (no test
overrides): one counts a client's unknown table codes, the other, a different process,
must then refuse that client.  Once with the embedded defaults (the database's cache
table, which ``migrate`` creates), once with Redis (``REDIS_URL``, as several daphne
processes are run).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require_binary
from tests.load.infra import ROOT, Redis, base_env, migrate

# One process of the app: count ``misses`` unknown codes from ``addr`` and set a flood cool-down for ``flooder``,
# then say what this process sees of each address: blocked, cooling down.
CLIENT = """
import json, sys
import django
django.setup()
from django.conf import settings
from django.core.cache import cache
from sixdice.tables.transport import flood_control, guess_limits
addr, misses, flooder, addresses = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
for _ in range(misses):
    guess_limits.record_miss(addr, None)
if flooder != "-":
    cache.set(flood_control.cooldown_key({"client": [flooder, 1234]}), 1, 60)
print(json.dumps({"backend": settings.CACHES["default"]["BACKEND"],
                  "blocked": [a for a in addresses if guess_limits.is_blocked(a, None)],
                  "cooling": [a for a in addresses if cache.get(flood_control.cooldown_key({"client": [a, 1234]}))]}))
"""
ADDRESSES = ["198.51.100.7", "198.51.100.8", "198.51.100.9"]


def _process(env: dict[str, str], addr: str, misses: int, flooder: str = "-") -> dict:
    out = subprocess.run([sys.executable, "-c", CLIENT, addr, str(misses), flooder, *ADDRESSES],
                         cwd=ROOT, env=env, check=True, capture_output=True, text=True, timeout=120).stdout
    return json.loads(out.strip().splitlines()[-1])


def _check_shared(env: dict[str, str], backend: str) -> None:
    limit = 20  # settings.SIXDICE_GUESS_LIMIT
    first = _process(env, ADDRESSES[0], misses=limit - 1, flooder=ADDRESSES[2])
    assert first == {"backend": backend, "blocked": [], "cooling": [ADDRESSES[2]]}
    # Another process adds the last miss: it sees the first one's 19, so this client is blocked now (and no other
    # one), and it sees the cool-down the first process set.
    second = _process(env, ADDRESSES[0], misses=1)
    assert second == {"backend": backend, "blocked": [ADDRESSES[0]], "cooling": [ADDRESSES[2]]}


def test_the_database_cache_is_shared_by_two_processes_and_migrate_creates_it(tmp_path: Path):
    env = base_env(tmp_path)
    env.pop("REDIS_URL", None)
    env.pop("DATABASE_URL", None)
    migrate(env)  # as `make run`: no createcachetable step of its own
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "sixdice_cache" in tables
    _check_shared(env, "django.core.cache.backends.db.DatabaseCache")


@pytest.mark.server
def test_redis_is_the_shared_cache_when_redis_url_is_set(tmp_path: Path):
    require_binary("redis-server", "several processes share the guessing counters through Redis")
    redis = Redis(tmp_path).start()
    try:
        env = base_env(tmp_path, REDIS_URL=redis.url)
        env.pop("DATABASE_URL", None)
        _check_shared(env, "django.core.cache.backends.redis.RedisCache")
    finally:
        redis.stop()


def test_a_cache_that_cannot_be_reached_blocks_nobody(settings):
    """With the shared cache down (Redis stopped), pages and sockets still open: the counters fail open."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    from sixdice.tables.transport import guess_limits

    settings.SIXDICE_GUESS_LIMIT = 1  # one counted miss would block
    guess_limits.record_miss("198.51.100.20", "s")
    assert guess_limits.is_blocked("198.51.100.20", "s") is True  # as counted by a cache that answers
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:9/0"}}  # the discard port: nothing answers
    assert isinstance(caches["default"], RedisCache)
    guess_limits.record_miss("198.51.100.21", "s2")  # not counted, and no error
    assert guess_limits.is_blocked("198.51.100.21", "s2") is False


def test_the_shared_cache_is_one_instance_per_thread_whatever_the_context(settings):
    """Issue 19: Django's ``caches`` built a cache object per asyncio context, i.e. per WebSocket connect."""
    import contextvars
    import threading

    from django.core.cache.backends.locmem import LocMemCache

    from sixdice.tables.transport import guess_limits

    first = contextvars.Context().run(guess_limits.shared_cache)  # a connect's context
    assert contextvars.Context().run(guess_limits.shared_cache) is first  # the next connect's: the same object
    elsewhere: list = []
    worker = threading.Thread(target=lambda: elsewhere.append(guess_limits.shared_cache()))
    worker.start()
    worker.join()
    assert elsewhere[0] is not first  # each thread its own, as Django keeps them
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "other"}}
    changed = guess_limits.shared_cache()
    assert changed is not first and isinstance(changed, LocMemCache)
    changed.set("sixdice:guess:addr:192.0.2.1", 7)
    assert guess_limits.lookup(["sixdice:guess:addr:192.0.2.1"]) == {"sixdice:guess:addr:192.0.2.1": 7}
    assert first.get("sixdice:guess:addr:192.0.2.1") is None  # the old settings' cache is not the one read


@pytest.mark.django_db(transaction=True)
def test_a_connects_lookup_in_the_database_cache_reads_what_django_reads(settings):
    """``guess_limits.lookup`` reads the database cache in one statement of its own: the same entries as Django's."""
    from django.core.cache.backends.db import DatabaseCache
    from django.core.management import call_command

    from sixdice.tables.transport import guess_limits

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "sixdice_cache"}}
    call_command("createcachetable", verbosity=0)
    backend = guess_limits.shared_cache()
    assert type(backend) is DatabaseCache
    backend.clear()
    backend.set("sixdice:guess:addr:192.0.2.7", 3, 60)
    backend.set("sixdice:flooded:session:abc", 1, 60)
    backend.set("sixdice:guess:session:abc", {"odd": ["value"]}, 60)
    backend.set("sixdice:guess:addr:192.0.2.8", 5, 0)  # already expired
    keys = ["sixdice:flooded:session:abc", "sixdice:guess:addr:192.0.2.7", "sixdice:guess:session:abc",
            "sixdice:guess:addr:192.0.2.8", "sixdice:guess:addr:192.0.2.9"]
    found = guess_limits.lookup(keys)
    assert found == {"sixdice:flooded:session:abc": 1, "sixdice:guess:addr:192.0.2.7": 3,
                     "sixdice:guess:session:abc": {"odd": ["value"]}}
    assert found == backend.get_many(keys)
