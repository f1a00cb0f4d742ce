"""Slow down guessing: unknown table codes and wrong join PINs, per client address and per session.

Every miss (a page or WebSocket for a table code that does not exist, a
wrong join PIN) adds one to two counters in Django's cache: one for the
client's address, one for its session (when it has one).  When either
reaches :data:`settings.SIXDICE_GUESS_LIMIT` within
:data:`settings.SIXDICE_GUESS_WINDOW` seconds, table pages answer 429 and
WebSocket handshakes get an ``error`` ``rate_limited`` then close with
:data:`CLOSE_GUESSING`, until the window ends.  With the defaults (20 misses
in 10 minutes) one client needs about 10 years to find one of 100 live
tables among 32^5 codes.

The counters live in ``settings.CACHES["default"]``, which every server
process shares: the database's cache table on the embedded defaults (``migrate``
creates it), Redis when ``REDIS_URL`` is set, as for several processes.  So a
client spreading its guesses over several processes is counted once.  With
the database cache two processes counting the same client at the same
instant may lose one count between them (its ``incr`` reads then writes);
Redis counts atomically.
"""

from __future__ import annotations

import base64
import functools
import itertools
import logging
import pickle
import re
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches
from django.core.cache.backends.db import DatabaseCache
from django.core.signals import setting_changed
from django.db import connections, models, router
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

log = logging.getLogger(__name__)

CLOSE_GUESSING = 4429
"""WebSocket close code after too many unknown table codes from one client."""

TABLE_PATH = re.compile(r"^/t/(?P<code>[^/]+)/")
PREFIX = "sixdice:guess:"


_thread = threading.local()
_generation = itertools.count()
_current = next(_generation)  # bumped when a test changes settings.CACHES


def shared_cache() -> BaseCache:
    """The shared cache (``settings.CACHES["default"]``), one instance per thread.

    Django's ``caches`` keeps an instance per asyncio context, and each
    WebSocket connect runs in a context of its own: every connect built a new
    cache object (for the database cache, a model class too), half of what
    its lookup cost.  The backends Django ships are safe to share between
    calls (the database cache holds no state, Redis's keeps a pool); one per
    thread keeps any other backend as safe as Django keeps it.
    """
    held = getattr(_thread, "held", None)
    if held is None or held[0] != _current:
        held = _thread.held = (_current, caches.create_connection(DEFAULT_CACHE_ALIAS))
    backend: BaseCache = held[1]
    return backend


@receiver(setting_changed)
def _settings_changed(*, setting: str, **kwargs: Any) -> None:
    global _current
    if setting == "CACHES":
        _current = next(_generation)


def guess_keys(address: str | None, session_key: str | None) -> list[str]:
    """The cache keys of a client's guess counters: its address's and, when it has one, its session's."""
    keys = [f"{PREFIX}addr:{address or '?'}"]
    if session_key:
        keys.append(f"{PREFIX}session:{session_key}")
    return keys


def _limit() -> int:
    return int(getattr(settings, "SIXDICE_GUESS_LIMIT", 20))


def _window() -> int:
    return int(getattr(settings, "SIXDICE_GUESS_WINDOW", 600))


def lookup(keys: list[str]) -> dict[str, Any]:
    """The shared cache's entries of ``keys``, in one lookup; none while the cache cannot be reached (logged).

    A WebSocket connect reads its guess counters and its flood cool-down
    (``flood_control.py``) together, in one statement on the database cache.
    """
    try:
        backend = shared_cache()
        if type(backend) is DatabaseCache:
            return _database_lookup(backend, keys)
        found: dict[str, Any] = backend.get_many(keys)
    except Exception:
        log.warning("shared cache unavailable: not throttling", exc_info=True)
        return {}
    return found


@functools.cache
def _database_query(alias: str, table: str, n: int) -> tuple[str, models.Expression, list[Any]]:
    """The statement of :func:`_database_lookup` for ``n`` keys, and the converters of its ``expires`` column."""
    db = connections[alias]
    quote = db.ops.quote_name
    sql = (f"SELECT {quote('cache_key')}, {quote('value')}, {quote('expires')} FROM {quote(table)} "
           f"WHERE {quote('cache_key')} IN ({', '.join(['%s'] * n)})")
    expression = models.Expression(output_field=models.DateTimeField())
    return sql, expression, db.ops.get_db_converters(expression) + expression.get_db_converters(db)


def _database_lookup(backend: DatabaseCache, keys: list[str]) -> dict[str, Any]:
    """``backend.get_many(keys)`` for Django's database cache, without its fixed costs per call.

    The same statement and decoding as ``DatabaseCache.get_many``, but
    built once: Django's builds a model field and looks up its converters at
    every call, and checks each key character by character for memcached
    (these keys are this module's and ``flood_control.py``'s own).  An expired entry
    is not returned; it is left for the cache's own culling.
    """
    key_map = {backend.make_key(key): key for key in keys}
    db = connections[router.db_for_read(backend.cache_model_class)]
    sql, expression, converters = _database_query(db.alias, backend._table, len(key_map))  # type: ignore[attr-defined]
    with db.cursor() as cursor:
        cursor.execute(sql, list(key_map))
        rows = cursor.fetchall()
    now = timezone.now()
    found: dict[str, Any] = {}
    for key, value, expires in rows:
        for converter in converters:
            expires = converter(expires, expression, db)
        if expires >= now:
            found[key_map[key]] = pickle.loads(base64.b64decode(db.ops.process_clob(value).encode()))
    return found


def blocked_by(counts: dict[str, Any]) -> bool:
    """Whether any guess counter among ``counts`` (from :func:`lookup`) has reached the limit."""
    return any(key.startswith(PREFIX) and int(n) >= _limit() for key, n in counts.items())


def is_blocked(address: str | None, session_key: str | None) -> bool:
    """Whether this client has used up its guesses.  A cache that cannot be reached blocks nobody (logged)."""
    return blocked_by(lookup(guess_keys(address, session_key)))


def record_miss(address: str | None, session_key: str | None) -> None:
    """Count one unknown code or wrong PIN against this address and session (not at all while the cache is down)."""
    try:
        cache = shared_cache()
        for key in guess_keys(address, session_key):
            if not cache.add(key, 1, _window()):
                try:
                    cache.incr(key)
                except ValueError:  # expired between add and incr
                    cache.add(key, 1, _window())
    except Exception:
        log.warning("guess counters unavailable: a miss was not counted", exc_info=True)


def _request_keys(request: HttpRequest) -> tuple[str | None, str | None]:
    session = getattr(request, "session", None)
    return request.META.get("REMOTE_ADDR"), (session.session_key if session is not None else None)


def request_blocked(request: HttpRequest) -> bool:
    return is_blocked(*_request_keys(request))


def record_request_miss(request: HttpRequest) -> None:
    record_miss(*_request_keys(request))


def scope_keys(scope: dict[str, Any]) -> tuple[str | None, str | None]:
    """A WebSocket's client address and session key."""
    client = scope.get("client") or [None]
    session = scope.get("session")
    return client[0], (getattr(session, "session_key", None) if session is not None else None)


def throttled_response(request: HttpRequest) -> HttpResponse:
    response = render(request, "tables/throttled.html", status=429)
    response["Retry-After"] = str(_window())
    return response


class CodeGuessMiddleware:
    """Table pages (``/t/<code>/...``, ``/join/``): 429 while the client is blocked; count 404s of unknown codes."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        match = TABLE_PATH.match(request.path_info)
        if (match or request.path_info == "/join/") and request_blocked(request):
            return throttled_response(request)
        response = self.get_response(request)
        if match and response.status_code == 404 and not _table_exists(match["code"]):
            record_request_miss(request)
        return response


def _table_exists(code: str) -> bool:
    from sixdice.tables.core.keys import normalise_code
    from sixdice.tables.models import Table

    return Table.objects.filter(code=normalise_code(code)).exists()
