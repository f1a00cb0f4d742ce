"""Every page renders in every language, chosen by the switcher's cookie or by Accept-Language."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from sixdice.tables.core import keys
from sixdice.tables.writes import checked_path, services

pytestmark = pytest.mark.django_db

LANGS = [code for code, _name in settings.LANGUAGES]


def html_lang(response) -> str:
    match = re.search(rb'<html lang="([^"]+)"', response.content)
    assert match, response.content[:200]
    return match.group(1).decode()


def _client(lang: str, how: str) -> Client:
    if how == "cookie":
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        return client
    return Client(HTTP_ACCEPT_LANGUAGE=f"{lang},en;q=0.5")


def _pages(game: str, lang: str, how: str) -> dict[str, tuple[Client, str]]:
    """Every kind of page of one table of ``game``, each with a browser that may open it."""
    host = _client(lang, how)
    response = host.post(f"/new/{game}/", {"players": "3", "dice": "app"})
    assert response.status_code == 302, response.content[:300]
    code = response.url.split("/")[2]
    table = checked_path.load_table(code)
    joiner = _client(lang, how)
    pages = {
        "home": (joiner, "/"),
        "new sixdice": (joiner, "/new/sixdice/"),
        "new runbuster": (joiner, "/new/runbuster/"),
        "join": (joiner, f"/t/{code}/"),
        "host": (host, f"/t/{code}/host/"),
        "rules sixdice": (joiner, "/rules/sixdice/"),
        "rules runbuster": (joiner, "/rules/runbuster/"),
    }
    seat = _client(lang, how)
    assert seat.post(f"/t/{code}/join/", {"name": "Ana", "pin": keys.join_pin(table)}).status_code == 302
    pages["seat"] = (seat, f"/t/{code}/")
    pages["spectator"] = (joiner, f"/t/{code}/?watch")
    token = services.hand_over_seat(table=table, position=0)
    pages["claim"] = (joiner, f"/t/{code}/claim/{token}/")
    return pages


@pytest.mark.parametrize("how", ["cookie", "accept-language"])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ["sixdice", "runbuster"])
def test_every_page_renders_in_every_language(game, lang, how):
    for name, (client, url) in _pages(game, lang, how).items():
        response = client.get(url)
        assert response.status_code == 200, f"{name} {url} in {lang}: {response.status_code}"
        assert html_lang(response) == lang, f"{name} {url}"


@pytest.mark.parametrize(
    ("lang", "title", "word"),
    [
        ("en", "Run Buster: the rules", "straight"),
        ("uk", "Run Buster: правила", "стріт"),
        ("pt", "Run Buster: as regras", "sequência"),
        ("fr", "Run Buster\u00a0: les règles", "suite"),
        ("nl", "Run Buster: de regels", "reeks"),
    ],
)
def test_rules_pages_are_written_in_each_language(lang, title, word):
    page = _client(lang, "cookie").get("/rules/runbuster/").content.decode()
    assert title in page and word in page
    six = _client(lang, "cookie").get("/rules/sixdice/").content.decode()
    assert "(+3 −3)" in six  # the worked examples carry over in every language


def test_the_switcher_overrides_accept_language_and_is_remembered():
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    assert html_lang(client.get("/")) == "fr"
    response = client.post("/i18n/setlang/", {"language": "uk", "next": "/"})
    assert response.status_code == 302
    assert html_lang(client.get("/")) == "uk"
    assert "Приєднатися" in client.get("/").content.decode()


def test_seat_pages_link_to_the_rules(client):
    response = client.post("/new/runbuster/", {"players": "2", "dice": "app"})
    host = client.get(response.url).content.decode()
    assert 'href="/rules/runbuster/"' in host
    assert 'href="/rules/sixdice/"' in client.get("/").content.decode()


def test_the_rules_page_gives_the_dice_in_the_game_not_a_second_bank_figure():
    """The usual game's dice per number of players, labelled as dice in the game: the board's "Bank: n" is what
    the bank holds now.  (The plural forms of a count of dice: tests/i18n/test_po_files.py.)"""
    page = _client("uk", "cookie").get("/rules/sixdice/").content.decode()
    table = page[page.index('class="bank-examples"'):page.index("</table>")]
    assert "Кубиків у грі" in table and "банку" in table  # "… the others wait in the bank"
    for players, dice in ((2, 24), (3, 36), (6, 72), (5, 60)):
        assert f"<tr><td>{players}</td><td>{dice}</td></tr>" in table
