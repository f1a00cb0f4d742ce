"""The app installs, and a phone that loses the server gets the app's own offline page, then the page back.

At 360×740 in Chromium: its own installability check (``Page.getInstallabilityErrors``,
which answers only in a persistent context) finds nothing missing on
http://127.0.0.1 and http://localhost, and the browser refuses a worker on a
plain-HTTP LAN name; a reload while the server is stopped, or while the phone is
offline, shows "No connection to the table, retrying…" (in the phone's
language), which shows the page again by itself once the server answers.
Screenshots at 360×740 go to docs/screens/; axe finds no serious or critical
violation on the offline page nor on the home page with the LAN address.
"""

from __future__ import annotations

import re
import shutil
import tempfile

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import (
    BROWSER_ARGS,
    BROWSERS,
    CHROMIUM,
    LAN_HOST,
    PHONE,
    Server,
    keep,
)
from tests.e2e.test_access import axe_check

pytestmark = pytest.mark.browser

LAN_URL = "http://192.168.1.20:8000/"  # only shown on the home page: nothing is ever sent there
OFFLINE = {"en": "No connection to the table, retrying…", "fr": "Pas de connexion avec la table, nouvel essai…"}
CONTROLLED = """() => new Promise((resolve) => {
  if (navigator.serviceWorker.controller) return resolve(true);
  navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true));
})"""


@pytest.fixture(scope="module")
def server_env() -> dict[str, str]:
    # A server of its own: SIXDICE_LAN_URL as `make run LAN=1` sets it, so the home page shows the
    # LAN address on this machine (no other test's home page should), and a stopped server (the offline tests).
    return {"SIXDICE_LAN_URL": LAN_URL}


@pytest.fixture(scope="module")
def browser():
    """A Chromium context with a profile on disk for the module: the installability check needs one."""
    profile = tempfile.mkdtemp(prefix="sixdice-profile-")
    try:
        context = BROWSERS.start().chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, viewport=PHONE, has_touch=True, is_mobile=True,
            args=[*BROWSER_ARGS, f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1"],
        )
        context.set_default_timeout(15_000)
        yield context
        context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def controlled_page(browser, url: str) -> Page:
    """A page opened at ``url`` once the service worker is installed and looks after it."""
    page = browser.new_page()
    page.goto(url)
    assert page.evaluate(CONTROLLED) is True
    return page


def test_chromium_finds_the_app_installable(browser, server: Server):
    local = controlled_page(browser, server.url.replace("127.0.0.1", "localhost") + "/")
    errors = browser.new_cdp_session(local).send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], ("localhost", errors)
    local.close()
    page = controlled_page(browser, server.url + "/")
    cdp = browser.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert manifest["url"] == server.url + "/manifest.webmanifest"
    icon = page.request.get(server.url + page.locator('link[rel="icon"][type="image/png"]').get_attribute("href"))
    assert icon.ok and icon.headers["content-type"] == "image/png"
    sw = page.request.get(server.url + "/sw.js")
    assert sw.headers["service-worker-allowed"] == "/" and "no-cache" in sw.headers["cache-control"]
    assert sw.headers["content-type"].startswith("text/javascript")
    page.close()


def test_over_plain_http_on_a_lan_there_is_no_worker_and_no_install(browser, server: Server):
    page = browser.new_page()
    page.goto(server.url.replace("127.0.0.1", LAN_HOST) + "/")
    expect(page.get_by_role("heading", name="Join a table")).to_be_visible()  # the app itself works
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'serviceWorker' in navigator") is False
    errors = browser.new_cdp_session(page).send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors != []  # what README and docs say: browsers refuse it there
    page.close()


def test_home_page_on_this_machine_gives_the_lan_address(browser, server: Server):
    page = browser.new_page()
    page.goto(server.url + "/")
    expect(page.locator("#lan-url")).to_have_text(LAN_URL)
    expect(page.locator("#lan svg")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    keep(page, "install-home-lan-360")
    assert axe_check(page, "home page with the LAN address") == []
    page.close()


def test_a_reload_without_the_server_shows_the_offline_page_then_the_page_again(browser, server: Server):
    page = controlled_page(browser, server.url + "/new/sixdice/")
    expect(page.get_by_role("button", name="Create the table")).to_be_visible()
    server.stop()
    try:
        page.reload()
        expect(page.get_by_role("heading", name=OFFLINE["en"])).to_be_visible()
        expect(page).to_have_url(re.compile(r"/new/sixdice/$"))  # in place of the page asked for
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        keep(page, "install-offline-360")
        assert axe_check(page, "offline page") == []
        page.get_by_role("button", name="Try again now").click()  # the server is still away: it stays
        expect(page.locator("#offline-status")).to_have_text("Still no answer. Trying again shortly.")
    finally:
        server.start()  # same port
    # back by itself, without a tap: the offline page keeps asking the server
    expect(page.get_by_role("button", name="Create the table")).to_be_visible(timeout=30_000)
    page.close()


def test_offline_phone_gets_the_offline_page_in_its_language_and_the_page_back_online(browser, server: Server):
    page = controlled_page(browser, server.url + "/")
    page.locator("#lang-select").select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.goto(server.url + "/rules/sixdice/")  # a page in French: the worker fetches the offline page in French
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    cached_in_french = page.evaluate("""async () => {  // the worker keeps the offline page in French now
      for (let i = 0; i < 300; i++) {
        for (const name of await caches.keys()) {
          const cached = await (await caches.open(name)).match("/offline/");
          if (cached && cached.headers.get("Content-Language") === "fr") return true;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return false;
    }""")
    assert cached_in_french
    browser.set_offline(True)
    try:
        page.reload()
        expect(page.get_by_role("heading", name=OFFLINE["fr"])).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        keep(page, "install-offline-fr-360")
    finally:
        browser.set_offline(False)
    expect(page.get_by_role("heading", level=1)).to_contain_text("les règles", timeout=30_000)
    page.locator("#lang-select").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.close()
