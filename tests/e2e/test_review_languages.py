"""Reviewing in a real browser: shareable step links, the replay with no English left in uk, pt, fr and nl,
and screenshots of the replay and the statistics in two languages each (docs/screens/)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import shoot
from tests.e2e.test_replay_browser import _played_on

pytestmark = pytest.mark.browser
LANGS = ("uk", "pt", "fr", "nl")
# Words a language writes as English does (Dutch "Hand", "Bank", "App"; "Bot" and "Replay" are not among them).
SAME = {"nl": {"Hand", "Bank", "App"}, "fr": set(), "pt": set(), "uk": set()}


@pytest.fixture(scope="module")
def games(server):
    return {
        "sixdice": _played_on(server, "sixdice", {"rounds": 1, "auto_balance": True}),
        "runbuster": _played_on(server, "runbuster", {}),
    }


def _open(phone, server, doc, lang: str, step: int):
    page = phone()
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": server.url}])
    page.goto(f"{server.url}/t/{doc['table']['code']}/replay/1/#step-{step}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#board")).not_to_be_empty()
    return page


def _lines(page) -> list[str]:
    text = page.locator("main").inner_text()
    return [line.strip() for line in text.splitlines() if line.strip()]


def _english_only(line: str, doc: dict, lang: str) -> bool:
    """A line with a word of English in it: not a name, a table code, a game's name, a number or a die."""
    rest = line
    for name in [p["name"] for p in doc["players"]] + [doc["table"]["code"], "Six-Dice", "Run Buster", "JSON",
                                                         "Home", "End", *SAME[lang]]:
        rest = rest.replace(name, " ")
    return re.search(r"[A-Za-z]{3,}", rest) is not None


def test_a_step_link_opens_at_that_step_and_follows_the_steps(server, phone, games):
    doc = games["runbuster"]
    last = len(doc["events"])
    page = _open(phone, server, doc, "en", 5)
    label = page.locator("#step-label")
    expect(label).to_have_text(f"Step 5 / {last}")
    page.get_by_role("button", name="Next").click()
    expect(label).to_have_text(f"Step 6 / {last}")
    assert page.evaluate("location.hash") == "#step-6"
    page.keyboard.press("Home")
    assert page.evaluate("location.hash") == "#step-0"
    page.evaluate("location.hash = '#step-3'")  # a link followed on the page itself
    expect(label).to_have_text(f"Step 3 / {last}")
    shared = page.url
    assert shared.endswith("#step-3")
    other = phone(shared)  # someone else opens the shared link
    expect(other.locator("#step-label")).to_have_text(f"Step 3 / {last}")
    expect(other.locator("#step-text")).to_contain_text(doc["events"][2]["text"])


@pytest.mark.parametrize("engine", ["sixdice", "runbuster"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_replay_has_no_english_left(server, phone, games, engine, lang):
    doc = games[engine]
    for step in (len(doc["events"]) // 2, len(doc["events"])):
        english = _lines(_open(phone, server, doc, "en", step))
        page = _open(phone, server, doc, lang, step)
        expect(page.locator("#step-label")).to_contain_text(f"{step} /")
        left = [line for line in _lines(page) if line in english and _english_only(line, doc, lang)]
        assert not left, f"English left in the {lang} replay at step {step}: {left}"
        if lang in ("uk", "pt") and step == len(doc["events"]) and engine == "sixdice":
            shoot(page, f"replay-{engine}-{lang}", full_page=True)


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_statistics_screens(server, phone, games, lang):
    page = phone()
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": server.url}])
    page.goto(f"{server.url}/stats/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    english = {"All games", "2 players", "Wins per player", "full_straight", "rounds", "all_threes", "time"}
    text = page.locator("main").inner_text()
    assert not [w for w in english if re.search(rf"\b{w}\b", text)]
    percentages = re.findall(r"\d+(?:[.,]\d+)?\u202f?%", text)
    assert percentages and not [p for p in percentages if "." in p], ("percentages in the reader's style", percentages)
    if lang == "fr":
        assert all("\u202f" in p for p in percentages), percentages  # French: a narrow space before %
    shoot(page, f"stats-{lang}", full_page=True)
