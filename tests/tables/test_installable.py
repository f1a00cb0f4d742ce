"""What makes the app installable, seen from the server: manifest, service worker, offline page, favicon."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.test import Client

from sixdice.tables.pages import installable

pytestmark = pytest.mark.django_db


def test_every_page_links_the_manifest_a_real_favicon_and_the_worker():
    page = Client().get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'href="data:,"' not in page
    assert re.search(r'<link rel="icon" href="/static/icons/die[^"]*\.svg" type="image/svg\+xml">', page)
    assert re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}">', page)
    assert 'data-sw="/sw.js"' in page


def test_manifest_is_served_as_a_manifest_in_the_readers_language():
    response = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["lang"] == "fr" and "dés" in data["description"]
    assert data["theme_color"] == installable.THEME_COLOR


def test_service_worker_is_served_at_the_root_uncached_and_precaches_the_offline_page():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert 'const OFFLINE = "/offline/";' in body
    precache = json.loads(re.search(r"const PRECACHE = (\[.*\]);", body).group(1))
    assert "/static/js/offline.js" in precache and "/static/css/app.css" in precache
    assert re.search(r'const VERSION = "[0-9a-f]{16}";', body)
    assert "&quot;" not in body and "&#x27;" not in body  # nothing HTML-escaped in the script


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "No connection to the table, retrying…"),
    ("uk", "Немає з’єднання зі столом, пробуємо знову…"),
    ("pt", "Sem conexão com a mesa, tentando de novo…"),
    ("fr", "Pas de connexion avec la table, nouvel essai…"),
    ("nl", "Geen verbinding met de tafel, opnieuw proberen…"),
])
def test_offline_page_in_every_language_with_its_retry_script_as_a_file(lang, text):
    response = Client(HTTP_ACCEPT_LANGUAGE=lang).get("/offline/")
    page = response.content.decode()
    assert response["Content-Language"] == lang
    assert f"<h1>{text}</h1>" in page
    assert '<script type="module" src="/static/js/offline.js"></script>' in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)  # no inline script (CSP)
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_offline_page_needs_nothing_but_the_precached_files():
    """Every script the offline page loads is precached, and none of them loads another (an ES module's
    ``import`` would be fetched from a server that cannot be reached)."""
    page = Client().get("/offline/").content.decode()
    scripts = re.findall(r'<script[^>]* src="/static/([^"]+)"', page)
    assert "js/offline.js" in scripts and "js/theme.js" in scripts
    for name in scripts:
        assert name in installable.PRECACHE, name
        source = (settings.BASE_DIR / "static" / name).read_text()
        assert not re.search(r"^\s*(import|export)\b.*\bfrom\b", source, re.M), name


def test_precached_files_exist():
    from django.contrib.staticfiles import finders

    assert all(finders.find(path) for path in installable.PRECACHE)
    assert settings.STATIC_URL.strip("/") == "static"
