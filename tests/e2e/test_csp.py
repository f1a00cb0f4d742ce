"""Issue 15, item 9: every page sends a Content-Security-Policy, and no page breaks it (browser console)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, screenshot

pytestmark = pytest.mark.browser

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));
"""


def _watched(page):
    """Record console messages, page errors and CSP violation events of ``page``."""
    seen: list[str] = []
    page.on("console", lambda msg: seen.append(f"{msg.type}: {msg.text}"))
    page.on("pageerror", lambda exc: seen.append(f"pageerror: {exc}"))
    page.add_init_script(WATCH)
    return seen


def _check(page, seen: list[str], url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.status < 400, url
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "default-src 'self'" in policy, url
    page.wait_for_load_state("networkidle")
    violations = page.evaluate("window.__csp || []")
    assert violations == [], (url, violations)
    assert not [m for m in seen if "Content Security Policy" in m or m.startswith("pageerror")], (url, seen)


def test_main_pages_have_a_policy_and_break_none_of_it(server, phone):
    host = phone(viewport=DESKTOP, bypass_csp=False)
    seen_host = _watched(host)
    _check(host, seen_host, server.url + "/")
    _check(host, seen_host, server.url + "/new/runbuster/")
    host.get_by_label("Players").select_option("2")
    host.locator("input[type=checkbox][name=coach]").uncheck()  # a plain table: no coaching
    host.get_by_role("button", name="Create the table").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]{5}/host/$"))
    host_url = host.url
    code = host_url.rstrip("/").split("/")[-2]
    join_url = host.locator("#join-link").get_attribute("href")
    _check(host, seen_host, host_url)
    expect(host.locator("#seats")).to_be_attached()

    ana = phone(bypass_csp=False)
    seen_ana = _watched(ana)
    _check(ana, seen_ana, join_url)
    ana.get_by_label("Your name").fill("Ana")
    ana.get_by_role("button", name="Take a seat").click()
    expect(ana.locator("#app")).to_have_attribute("data-role", "seat")
    bo = phone(bypass_csp=False)
    seen_bo = _watched(bo)
    _check(bo, seen_bo, f"{server.url}/t/{code}/")  # by code: the PIN form
    bo.get_by_label("Your name").fill("Bo")
    bo.get_by_label("Join PIN").fill(host.locator("#join-pin").inner_text())
    bo.get_by_role("button", name="Take a seat").click()
    expect(bo.locator("#app")).to_have_attribute("data-role", "seat")
    host.get_by_role("button", name="Start").click()
    expect(host.get_by_role("button", name="Pause")).to_be_visible()
    screenshot(host, "csp-host-page")

    watcher = phone(bypass_csp=False)
    seen_watcher = _watched(watcher)
    for path in (f"/t/{code}/?watch", "/rules/sixdice/", "/rules/runbuster/", "/stats/", "/admin/login/"):
        _check(watcher, seen_watcher, server.url + path)
    host.once("dialog", lambda dialog: dialog.accept())
    host.get_by_role("button", name="Close the table").click()
    replay = f"{server.url}/t/{code}/replay/1/"
    expect(host.locator("body")).to_have_class(re.compile(r"\btable-closed\b"))  # the close was applied and sent back
    assert watcher.request.get(replay).status == 200  # the game is kept, abandoned: its replay opens
    _check(watcher, seen_watcher, replay)
    for page, seen in ((host, seen_host), (ana, seen_ana), (bo, seen_bo)):
        violations = page.evaluate("window.__csp || []")
        assert violations == [] and not [m for m in seen if "Content Security Policy" in m], seen
