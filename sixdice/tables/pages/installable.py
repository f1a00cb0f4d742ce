"""What makes the app installable and keeps a page when the server is unreachable.

- ``/manifest.webmanifest``: the web app manifest (name, icons, colours).
- ``/sw.js``: the service worker, served at the root so its scope is the whole
  site.  It precaches the offline page and the static files that page needs,
  answers navigations network-first and falls back to the offline page, and
  serves static files from its cache first (their names are hashed when served).
- ``/offline/``: "No connection to the table, retrying…", which retries by itself
  (static/js/offline.js) and shows the page again when the server answers.

Browsers run service workers only on HTTPS or on this machine (127.0.0.1,
localhost): over plain HTTP on a LAN a phone gets neither install nor the
offline page.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, get_language_bidi
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

THEME_COLOR = "#1b1b1f"  # the header's colour (static/css/app.css, --top)
BACKGROUND_COLOR = "#f4f1ea"  # the page's (--bg)
# What the offline page needs, and the icons: precached, so the page draws with no server.
PRECACHE = ("css/app.css", "js/theme.js", "js/language_menu.js", "js/install_worker.js", "js/offline.js",
            "icons/die.svg", "icons/icon-192.png")


def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "id": "/",
        "name": _("Six-Dice"),
        "short_name": _("Six-Dice"),
        "description": _("Dice games for a real table: everyone follows on their own phone."),
        "lang": get_language(),
        "dir": "rtl" if get_language_bidi() else "ltr",
        "start_url": reverse("tables:home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
            {"src": static("icons/die.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@lru_cache(maxsize=1)
def _version() -> str:
    """Changes whenever a precached file, the offline page, the worker or a translation changes.

    A new version makes the browser install the new worker, which fills a new cache.
    """
    digest = hashlib.sha256()
    for path in PRECACHE:
        digest.update(static(path).encode())
        found = finders.find(path)
        if isinstance(found, str):
            with open(found, "rb") as fh:
                digest.update(fh.read())
    for name in ("tables/offline.html", "tables/sw.js", "base.html"):
        origin = get_template(name).origin.name  # type: ignore[attr-defined]
        with open(origin, "rb") as fh:
            digest.update(fh.read())
    for locale in sorted(settings.BASE_DIR.glob("locale/*/LC_MESSAGES/django.mo")):
        digest.update(locale.read_bytes())
    # Served with hashed names (make run): any changed static file makes a new worker, whose new
    # cache replaces the old one and the old names in it.
    digest.update(repr(sorted(getattr(staticfiles_storage, "hashed_files", {}).items())).encode())
    return digest.hexdigest()[:16]


@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    context = {
        "version": _version(),
        "offline_url": json.dumps(reverse("tables:offline")),
        "precache": json.dumps([static(path) for path in PRECACHE]),
        "static_prefix": json.dumps(settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/" + settings.STATIC_URL),
        # hashed names never change content, so they come from the cache first; plain names
        # (tests, runserver) from the network first, else the cache
        "hashed": json.dumps(bool(settings.STATIC_MANIFEST)),
    }
    response = render(request, "tables/sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/offline.html", {"home_url": reverse("tables:home")})
