"""The language switcher in a real browser: the page changes language and keeps it after a reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import screenshot
from tests.e2e.harness import wait_ready

pytestmark = pytest.mark.browser


def test_switcher_changes_the_language_and_it_stays(server, phone):
    page = phone(server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", name="Join a table")).to_be_visible()

    page.locator("#lang-select").select_option("uk")
    expect(page.locator("html")).to_have_attribute("lang", "uk")
    expect(page.get_by_role("heading", name="Приєднатися до столу")).to_be_visible()
    expect(page.get_by_role("link", name="Правила Run Buster")).to_be_visible()
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "uk")
    expect(page.get_by_role("heading", name="Приєднатися до столу")).to_be_visible()
    screenshot(page, "languages-home-uk")

    page.get_by_role("link", name="Правила Six-Dice").click()
    expect(page).to_have_url(re.compile(r"/rules/sixdice/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("правила")
    expect(page.locator("table.bank-examples")).to_contain_text("Кубиків у грі")  # the dice in the game, per number of players
    expect(page.locator("table.bank-examples")).to_contain_text("336")  # 3 players: 36 dice in the game

    page.locator("#lang-select").select_option("fr")
    expect(page).to_have_url(re.compile(r"/rules/sixdice/$"))
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_contain_text("les règles")
    screenshot(page, "languages-rules-fr")


def test_each_phone_keeps_its_own_language_at_one_table(server, phone):
    host = phone(server.url + "/new/runbuster/")
    host.locator("input[type=checkbox][name=coach]").uncheck()  # a plain table: no coaching
    host.get_by_role("button", name="Create the table").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]{5}/host/$"))
    join_url = host.locator("#join-link").get_attribute("href")

    ana = phone(join_url)
    ana.locator("#lang-select").select_option("nl")
    expect(ana.locator("html")).to_have_attribute("lang", "nl")
    ana.locator("#name").fill("Ana")
    ana.locator("button[type=submit]").last.click()
    expect(ana.locator("#app")).to_have_attribute("data-role", "seat")
    # The seat's page is the server's HTML before its style sheet has loaded: wait until it has drawn its first frame
    # (its scripts run after the style sheet), else the closed help panel's rules link still counts as shown.
    wait_ready(ana)
    expect(ana.get_by_role("link", name="Regels van Run Buster")).to_be_visible()
    expect(ana.get_by_role("heading", name="Plaatsen")).to_be_visible()
    expect(host.locator("html")).to_have_attribute("lang", "en")
    expect(host.get_by_role("heading", name="Seats")).to_be_visible()
