"""The offline page's "Try again now" is answered even when the page's own retry is on its way.

The offline page asks the server again by itself (after 1, 2, 3, then every 5 seconds).  A tap on "Try again
now" that came while one of those tries was waiting for its answer did nothing at all: no "Trying…", and no
"Still no answer" after it (the flake hunt found it in the reload test of ``test_installable.py``, where a tap
landed on a slow try).  Here the page's own try is held on its way by the test, the tap comes, and then the try
fails: the tap is answered by it.
"""

from __future__ import annotations

import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, shoot

pytestmark = pytest.mark.browser


def test_a_tap_while_the_pages_own_try_is_on_its_way_is_answered(browser, server):
    # A context of its own: no service worker (the test holds the page's requests itself), closed at the end.
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block")
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        held = []  # the page's tries ("is the server back?"), kept waiting for an answer

        def hold(route):
            if route.request.method == "HEAD":
                held.append(route)
            else:
                route.continue_()

        page.route(lambda url: urllib.parse.urlsplit(url).path == "/", hold)
        with page.expect_request(lambda r: r.method == "HEAD"):  # its first try, a second after it opened
            page.goto(server.url + "/offline/")
        status = page.locator("#offline-status")
        expect(status).to_have_text("")
        page.get_by_role("button", name="Try again now").click()  # while that try waits for its answer
        expect(status).to_have_text("Trying…")
        held[0].abort()  # the server is away: the try fails
        expect(status).to_have_text("Still no answer. Trying again shortly.")
        shoot(page, "offline-tap-answered-360")
    finally:
        context.close()
