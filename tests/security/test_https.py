"""SIXDICE_HTTPS=1: one setting serves the site over HTTPS only, behind a TLS proxy or not.

``manage.py check --deploy`` finds nothing to warn about with it, and the four
warnings it gives without it (HSTS, the SSL redirect, two cookies) are what the
setting turns on.  Without it the app still serves plain HTTP (a home network).
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client, override_settings

from sixdice.asgi import application
from sixdice.serve import plan
from sixdice.tables.transport.origins import socket_scheme
from tests.load.infra import ROOT

PROXIED = "dice.example.org"


def _check_deploy(tmp_path: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIXDICE_", "DJANGO_"))}
    env.update(SECRET_KEY=secrets.token_urlsafe(60), SIXDICE_VAR_DIR=str(tmp_path), ALLOWED_HOSTS=PROXIED,
               STATIC_ROOT=str(tmp_path / "static"), **extra)
    env.pop("SQLITE_PATH", None)
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_check_deploy_warns_about_nothing_with_https(tmp_path):
    done = _check_deploy(tmp_path, SIXDICE_HTTPS="1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout, done.stdout


def test_check_deploy_without_https_warns_of_exactly_what_the_setting_turns_on(tmp_path):
    done = _check_deploy(tmp_path)
    assert done.returncode != 0
    found = sorted({word.strip("():") for word in (done.stdout + done.stderr).split() if word.startswith("(security.")})
    assert found == ["security.W004", "security.W008", "security.W012", "security.W016"], done.stderr


@pytest.mark.django_db
def test_without_https_plain_http_is_served():
    response = Client().get("/")
    assert response.status_code == 200
    assert "Strict-Transport-Security" not in response.headers


@pytest.mark.django_db
@override_settings(SIXDICE_HTTPS=True, SECURE_SSL_REDIRECT=True, SECURE_HSTS_SECONDS=31536000,
                   SECURE_HSTS_INCLUDE_SUBDOMAINS=True, SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
                   SESSION_COOKIE_SECURE=True, CSRF_COOKIE_SECURE=True, ALLOWED_HOSTS=[PROXIED])
def test_behind_a_tls_proxy_pages_are_secure_and_plain_http_is_redirected():
    client = Client(HTTP_HOST=PROXIED)
    plain = client.get("/")
    assert plain.status_code == 301 and plain["Location"] == f"https://{PROXIED}/"
    proxied = client.get("/new/sixdice/", HTTP_X_FORWARDED_PROTO="https")
    assert proxied.status_code == 200
    assert proxied.headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    created = client.post("/new/sixdice/", {"players": "2"}, HTTP_X_FORWARDED_PROTO="https")
    assert created.status_code == 302
    assert created.cookies["sessionid"]["secure"]


def test_the_served_command_passes_proxy_headers_only_with_https():
    assert "--proxy-headers" in plan(host="127.0.0.1", port=8000, lan=False, env={"SIXDICE_HTTPS": "1"}).argv
    assert "--proxy-headers" not in plan(host="127.0.0.1", port=8000, lan=False, env={}).argv


def _handshake(headers: list[tuple[bytes, bytes]]) -> bool:
    async def run() -> bool:
        comm = WebsocketCommunicator(application, "/ws/t/NOSUCH/", headers=headers)
        comm.scope.pop("scheme", None)  # as daphne gives it: a WebSocket's scope has no scheme
        connected, _ = await comm.connect()
        await comm.disconnect()
        return connected

    return async_to_sync(run)()


def test_socket_scheme_comes_from_the_proxy_header_with_https():
    proxy = ("HTTP_X_FORWARDED_PROTO", "https")
    with override_settings(SECURE_PROXY_SSL_HEADER=proxy, SIXDICE_HTTPS=True):
        assert socket_scheme({"headers": [(b"x-forwarded-proto", b"https")]}) == "wss"
        assert socket_scheme({"headers": [(b"x-forwarded-proto", b"http")]}) == "ws"
        assert socket_scheme({"headers": []}) == "wss"  # daphne serving TLS itself: every page is https
    with override_settings(SIXDICE_HTTPS=False):
        assert socket_scheme({"headers": [(b"x-forwarded-proto", b"https")]}) == "ws"  # not trusted without it
        assert socket_scheme({"scheme": "wss", "headers": []}) == "wss"


@pytest.mark.django_db(transaction=True)
def test_wss_from_the_proxied_host_passes_the_origin_check():
    proxied = [(b"host", PROXIED.encode()), (b"origin", f"https://{PROXIED}".encode()),
               (b"x-forwarded-proto", b"https"), (b"x-forwarded-for", b"192.0.2.7")]
    with override_settings(ALLOWED_HOSTS=[PROXIED], SIXDICE_HTTPS=True,
                           SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https")):
        assert _handshake(proxied)
        foreign = [(b"host", PROXIED.encode()), (b"origin", b"https://evil.example"), (b"x-forwarded-proto", b"https")]
        assert not _handshake(foreign)
    with override_settings(ALLOWED_HOSTS=[PROXIED], SIXDICE_HTTPS=False):
        assert not _handshake(proxied)  # an https page, a socket that is not wss as far as the app can tell
