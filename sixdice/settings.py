"""Settings for Six-Dice, read from the environment with embedded defaults.

Defaults: SQLite in WAL mode and the in-memory channel layer, for one process.
``DATABASE_URL`` selects PostgreSQL and ``REDIS_URL`` selects channels_redis.
``SIXDICE_DEV=1`` turns on development mode (DEBUG).
"""

from __future__ import annotations

import os
import secrets
import zoneinfo
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("SIXDICE_VAR_DIR", BASE_DIR / "var"))


def _env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _secret_key() -> str:
    """SECRET_KEY from the environment, else one made for this install and kept in var/."""
    if key := os.environ.get("SECRET_KEY"):
        return key
    path = VAR_DIR / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(key)
        return key


DEBUG = _env_flag("SIXDICE_DEV")
SECRET_KEY = _secret_key()
ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS", "")

# SIXDICE_HTTPS=1: the site is served over HTTPS only, by a TLS proxy in front (which must set
# X-Forwarded-Proto, overwriting the client's; daphne then runs with --proxy-headers, as `make run`
# does) or by daphne itself.  Plain HTTP is redirected, cookies are sent over HTTPS only, and
# browsers are told to come back over HTTPS only (HSTS).  Off by default: a home network serves
# plain HTTP.
SIXDICE_HTTPS = _env_flag("SIXDICE_HTTPS")
if SIXDICE_HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SIXDICE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Asking to be on the browsers' preload list is the domain owner's choice for the whole
    # domain (made at hstspreload.org), not an app's: the header does not ask, and the check
    # that suggests it is silenced.
    SECURE_HSTS_PRELOAD = False
    SILENCED_SYSTEM_CHECKS = ["security.W021"]

# SIXDICE_LAN_URL: the address phones on the local network open, set by `make run LAN=1`
# (sixdice/serve.py); the home page shows it, with a QR code, to a browser on this machine.
SIXDICE_LAN_URL = os.environ.get("SIXDICE_LAN_URL", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "sixdice.tables",
    "sixdice.review",
    "sixdice.players",
    "sixdice",
    "runbuster",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "sixdice.tables.transport.guess_limits.CodeGuessMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

# Content-Security-Policy on every page (django-csp): scripts and style sheets only from this site, no
# inline scripts anywhere (the pages load theirs from /static/; JSON data rides in
# <script type="application/json">, which never runs).  Style *attributes* stay allowed: the admin and
# the server-drawn dice use them, and they cannot run code.  WebSockets go to this site ('self').
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "media-src": [SELF, "data:"],  # NoSleep.js keeps the screen on with a tiny looping video in a data: URL
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

ROOT_URLCONF = "sixdice.urls"
ASGI_APPLICATION = "sixdice.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

if database_url := os.environ.get("DATABASE_URL"):
    # No health check: Channels closes old connections around every database
    # call, so a check would add a round trip to each of them.  A connection
    # that died fails one call, is then closed, and the next call reconnects.
    DATABASES = {"default": dj_database_url.parse(database_url, conn_max_age=60, conn_health_checks=False)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(VAR_DIR / "sixdice.sqlite3")),
            # Keep each thread's connection: opening one (and its PRAGMAs) for every
            # database call of a WebSocket took a quarter of the server's time under load.
            "CONN_MAX_AGE": None,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # A file, not shared-cache memory: concurrent writers must meet SQLite's real locking.
            "TEST": {"NAME": os.environ.get("SQLITE_TEST_PATH", str(VAR_DIR / f"test-{os.getpid()}.sqlite3"))},
        }
    }

# A phone stays in its table's group as long as its socket is open: the layers'
# default of one day would silently stop broadcasts to a page left open longer.
GROUP_EXPIRY = 60 * 60 * 24 * 30

redis_url = os.environ.get("REDIS_URL")
REDIS_READ_TIMEOUT = 30  # seconds; longer than channels-redis' 5 s wait for a message (see below)
if redis_url:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py's pool refuses a 101st concurrent command ("Too many connections"),
            # which a burst of connects (group_add) or broadcasts reaches under load.
            # socket_timeout: a consumer waits for its next message with BZPOPMIN for 5 s
            # (channels-redis' brpop_timeout), and redis-py 8 reads every reply with a 5 s
            # timeout by default: the two raced, and a connection whose table was quiet for
            # 5 s could die with "Timeout reading" (close 1011).  The read waits longer now.
            "CONFIG": {
                "hosts": [{"address": redis_url, "max_connections": 1000, "socket_timeout": REDIS_READ_TIMEOUT}],
                "capacity": 1500,
                "expiry": 30,
                "group_expiry": GROUP_EXPIRY,
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "sixdice.tables.transport.memory_channel_layer.InMemoryChannelLayer",
            "CONFIG": {"capacity": 1000, "group_expiry": GROUP_EXPIRY},
        }
    }

# The cache holds what every server process must agree on: the code-guessing counters
# (sixdice/tables/transport/guess_limits.py) and the flood cool-downs (sixdice/tables/transport/flood_control.py).  Shared by
# all processes: Redis when REDIS_URL is set (several processes), else a table in the database
# (created by `migrate`, see sixdice/tables/apps.py), never a per-process memory cache.
CACHES: dict[str, dict[str, object]]
if redis_url:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "sixdice",
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "sixdice_cache",
            "OPTIONS": {"MAX_ENTRIES": 50_000},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

SESSION_COOKIE_AGE = 60 * 60 * 24 * 30
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_SAVE_EVERY_REQUEST = False

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("uk", _("Ukrainian")),
    ("pt", _("Portuguese")),
    ("fr", _("French")),
    ("nl", _("Dutch")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]


def _time_zone() -> str:
    """The club's time zone (``TIME_ZONE``, an IANA name such as ``Europe/Lisbon``; default UTC).

    The admin, the review pages and the downloads show times in it; a name
    that is not a time zone stops the server at once, saying so.
    """
    name = os.environ.get("TIME_ZONE", "").strip() or "UTC"
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(
            f"TIME_ZONE={name!r} is not a time zone name; use one such as 'Europe/Lisbon' or 'UTC'."
        ) from None
    return name


TIME_ZONE = _time_zone()
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "staticfiles"))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# The served app (make run) collects static files with hashed names and gzip
# copies; tests and development serve them straight from static/.
STATIC_MANIFEST = _env_flag("SIXDICE_STATIC_MANIFEST")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "sixdice.static_storage.ModuleManifestStorage"  # hashed names, modules' imports too
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
WHITENOISE_MAX_AGE = 3600

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Live tables.
SIXDICE_WS_MAX_FRAME = 64 * 1024  # larger text frames: error too_large, connection kept (daphne closes past 1 MiB)
# Flow control per WebSocket (sixdice/tables/transport/flood_control.py, docs/protocol.md "Limits"):
SIXDICE_WS_RATE = 20  # frames a second ...
SIXDICE_WS_BURST = 40  # ... with this burst; past it: error rate_limited, frames dropped
SIXDICE_WS_FLOOD = 40  # frames dropped in a row after rate_limited before the server closes with 4008
SIXDICE_WS_FLOOD_COOLDOWN = 10  # seconds a client closed for flooding is refused at the handshake
SIXDICE_WS_QUEUE = 64  # frames waiting for the consumer at most ...
SIXDICE_WS_QUEUE_BYTES = 512 * 1024  # ... and bytes
# The cyclic garbage collector of a server process (sixdice/asgi.py, docs/performance.md): the
# objects of start-up are frozen out of it, and collections are made rarer, so a full collection
# (over every connection's objects) does not stall the moves in flight.  SIXDICE_GC=default
# leaves Python's own settings (700, 10, 10), to measure against.
SIXDICE_GC = os.environ.get("SIXDICE_GC", "tuned")
SIXDICE_GC_THRESHOLDS = tuple(
    int(n) for n in os.environ.get("SIXDICE_GC_THRESHOLDS", "50000,20,100").split(",")
)  # SIXDICE_GC_THRESHOLDS="10000,50,100" tries others (the load benchmark passes the environment on)
SIXDICE_RESYNC_MAX_EVENTS = 200  # further behind than this, a client gets a full snapshot
SIXDICE_PRESENCE_TIMEOUT = 75  # seconds without a heartbeat before a connection counts as gone
SIXDICE_GUESS_LIMIT = 20  # unknown table codes or wrong join PINs per client address / session ...
SIXDICE_GUESS_WINDOW = 600  # ... per this many seconds (sixdice/tables/transport/guess_limits.py)
SIXDICE_EXTRA_ORIGINS = _env_list("SIXDICE_EXTRA_ORIGINS", "")
SIXDICE_BOT_DELAY = float(os.environ.get("SIXDICE_BOT_DELAY", "1.0"))  # seconds: bots move at a human pace
# TEST ONLY: turn timers (sixdice/tables/policies/turn_timers.py) run this many times faster, so a
# test's "30 s" timer runs out in 0.3 s with 100.  Refused unless SIXDICE_TESTING=1.
SIXDICE_TIMER_SPEEDUP = float(os.environ.get("SIXDICE_TIMER_SPEEDUP", "1") or "1")
if SIXDICE_TIMER_SPEEDUP != 1 and not _env_flag("SIXDICE_TESTING"):
    raise ImproperlyConfigured("SIXDICE_TIMER_SPEEDUP is for tests only; unset it, or set SIXDICE_TESTING=1.")

# TEST ONLY: the bots and turn timers run on a clock the test moves (sixdice/tables/core/clock.py,
# POST /__test__/clock/): bots move at once unless the test holds them, and time passes for the
# turn timers only as the test advances it.  Refused unless SIXDICE_TESTING=1.
SIXDICE_TEST_CLOCK = _env_flag("SIXDICE_TEST_CLOCK")
if SIXDICE_TEST_CLOCK and not _env_flag("SIXDICE_TESTING"):
    raise ImproperlyConfigured("SIXDICE_TEST_CLOCK is for tests only; unset it, or set SIXDICE_TESTING=1.")

# TEST ONLY: a fixed seed for every die the app rolls and every bot's choice, so
# the browser tests replay the same games whatever the order they run in (see
# system_rng in sixdice/tables/core/rng.py).  A served table must never have it:
# its dice would be known in advance.  So it is refused unless SIXDICE_TESTING=1
# says this process is a test server.
SIXDICE_DICE_SEED: str | None = os.environ.get("SIXDICE_DICE_SEED") or None
if SIXDICE_DICE_SEED is not None and not _env_flag("SIXDICE_TESTING"):
    raise ImproperlyConfigured(
        "SIXDICE_DICE_SEED fixes the app's dice and is for tests only; "
        "unset it, or set SIXDICE_TESTING=1 for a test server."
    )
