"""Learn by playing, in a phone-sized browser: each lesson played through by tapping (English and another
language), a wrong tap explained, screenshots of every step; and "Play against the app" from the home page to
the end of a game with no other phone.  axe finds no serious or critical violation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ROOT, Server
from tests.e2e.test_access import axe_check

pytestmark = pytest.mark.browser

SHOTS = ROOT / "docs" / "screens"


@pytest.fixture(scope="module")
def server_env() -> dict[str, str]:
    return {"SIXDICE_BOT_DELAY": "0.05"}


def _open(phone, server: Server, path: str, lang: str) -> Page:
    page = phone()
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": server.url}])
    page.goto(server.url + path)
    return page


def _step(page: Page, n: int) -> None:
    expect(page.locator(f'#lesson[data-step="{n}"]')).to_be_attached()


def _fold(page: Page, selector: str) -> None:
    """What the learner must tap is above the fold at 360×740."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740, (selector, box)


def _shot(page: Page, game: str, lang: str, key: str) -> None:
    if lang == "en":
        page.screenshot(path=str(SHOTS / f"learn-{game}-{key}-360.png"))


def _next(page: Page) -> None:
    expect(page.locator(".lesson-say.good")).to_be_visible()
    _fold(page, "#lesson-next")
    page.locator("#lesson-next").click()


def _die(page: Page, seat: int, i: int):
    return page.locator(f'#lesson-board [data-seat="{seat}"] .die[data-i="{i}"]')


def _flip(page: Page, own: int, face: str, other: int) -> None:
    _fold(page, f'#lesson-board [data-seat="0"] .die[data-i="{own}"]')
    _die(page, 0, own).click()
    page.locator(".lesson-faces button.die", has_text=re.compile("^" + re.escape(face) + "$")).click()
    _die(page, 1, other).click()


def _play_sixdice(page: Page, lang: str) -> None:
    g = "sixdice"
    _step(page, 1)
    _shot(page, g, lang, "1-value")
    page.locator(".lesson-quiz button", has_text="+6").click()  # a wrong answer: one sentence on why
    expect(page.locator(".lesson-say.bad")).to_be_visible()
    page.locator(".lesson-quiz button", has_text="+4").click()
    _next(page)
    _step(page, 2)
    _shot(page, g, lang, "2-flip")
    _flip(page, 2, "+3", 0)
    _next(page)
    _step(page, 3)
    _flip(page, 2, "+3", 2)  # +1 to +3 against −2: refused by the engine, with its reason
    expect(page.locator(".lesson-say.why")).to_be_visible()
    _shot(page, g, lang, "3-refused")
    _next(page)
    _step(page, 4)
    _shot(page, g, lang, "4-draw")
    _fold(page, "#lesson-roll")
    page.locator("#lesson-roll").click()
    _next(page)
    _step(page, 5)
    _shot(page, g, lang, "5-zero")
    page.locator(".lesson-groupings button", has_text=re.compile(r"^\(\+3 −3\) \(\+2 −1\) \(\+1 −1\)$")).click()
    expect(page.locator(".lesson-say.bad")).to_be_visible()  # fewer zero-sum groups: the rules refuse it
    page.locator(".lesson-groupings button", has_text=re.compile(r"^\(\+3 −3\) \(\+1 −1\) \(\+2 −1\)$")).click()
    _next(page)
    _step(page, 6)
    _shot(page, g, lang, "6-pairs")
    page.locator(".lesson-groupings button", has_text=re.compile(r"\(\+3 −1\)")).click()
    _next(page)
    _step(page, 7)
    _shot(page, g, lang, "7-keep")
    page.locator(".lesson-keep").nth(0).click()
    page.locator(".lesson-keep").nth(1).click()
    _next(page)
    _step(page, 8)
    _shot(page, g, lang, "8-pair")
    page.locator("#lesson-roll").click()
    _next(page)
    _step(page, 9)
    _shot(page, g, lang, "9-bank")
    _flip(page, 2, "+3", 0)
    _next(page)
    _step(page, 10)
    _shot(page, g, lang, "10-threes")
    _flip(page, 1, "+3", 2)
    expect(page.locator(".lesson-say.good")).to_be_visible()
    _next(page)
    _step(page, 11)
    _shot(page, g, lang, "11-last")
    _flip(page, 3, "+3", 3)  # a legal flip that loses: explained, and the position is set back
    expect(page.locator(".lesson-say.bad")).to_be_visible()
    _flip(page, 3, "−3", 3)
    expect(page.locator(".lesson-say.good")).to_be_visible()
    expect(page.locator(".lesson-finished")).to_be_visible()
    _shot(page, g, lang, "12-finished")


def _take(page: Page, straight: str) -> None:
    page.locator(".rb-take", has_text=re.compile(r"(^|\s)" + re.escape(straight) + r"$")).click()


def _play_runbuster(page: Page, lang: str) -> None:
    g = "runbuster"
    _step(page, 1)
    _shot(page, g, lang, "1-straight")
    page.locator("#lesson-roll").click()
    _take(page, "5-6")  # shorter than the longest: explained, set back
    expect(page.locator(".lesson-say.bad")).to_be_visible()
    page.locator("#lesson-roll").click()
    _take(page, "4-5-6")
    _next(page)
    _step(page, 2)
    _shot(page, g, lang, "2-extend")
    page.locator("#lesson-roll").click()
    _take(page, "3-4-5-6")
    _next(page)
    _step(page, 3)
    _shot(page, g, lang, "3-bust")
    page.locator("#lesson-roll").click()
    _next(page)
    _step(page, 4)
    _shot(page, g, lang, "4-win")
    page.locator("#lesson-roll").click()
    _take(page, "1-2-3-4-5-6")
    expect(page.locator(".lesson-finished")).to_be_visible()
    _shot(page, g, lang, "5-finished")


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_sixdice_lesson_played_through_by_tapping(phone, server: Server, lang: str):
    page = _open(phone, server, "/", lang)
    page.locator('a[href="/learn/sixdice/"]').click()
    _play_sixdice(page, lang)
    if lang == "en":
        assert axe_check(page, "lesson") == []
    # Resumable: a reload keeps the last step.
    page.reload()
    _step(page, 11)


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_runbuster_lesson_played_through_by_tapping(phone, server: Server, lang: str):
    page = _open(phone, server, "/", lang)
    page.locator('a[href="/learn/runbuster/"]').click()
    _play_runbuster(page, lang)
    if lang == "en":
        assert axe_check(page, "lesson") == []


def test_play_against_the_app_from_the_home_page_to_the_end(phone, server: Server):
    page = _open(phone, server, "/", "en")
    _fold(page, 'a[href="/learn/sixdice/"]')  # a new player finds both doors without scrolling
    _fold(page, 'a[href="/play/sixdice/"]')
    page.screenshot(path=str(SHOTS / "home-learn-and-play-360.png"))
    page.locator('a[href="/play/runbuster/"]').click()
    _fold(page, "#play-now")
    page.screenshot(path=str(SHOTS / "play-against-app-360.png"))
    assert axe_check(page, "play against the app") == []
    page.locator("#play-now").click()
    page.wait_for_url(re.compile(r"/t/\w+/$"))
    page.wait_for_function("window.live && window.live.game && window.live.game.view")
    for _ in range(200):
        if page.evaluate("window.live.game.status") == "finished":
            break
        view = page.evaluate("window.live.game.view")
        if view.get("your_turn"):
            if view.get("phase") == "roll":
                page.evaluate("window.live.act({type: 'roll'})")
            elif view.get("phase") == "choose":
                page.evaluate("(s) => window.live.act({type: 'choose', straight: s})",
                              max(view["hand_options"], key=len))
            elif view.get("phase") == "end_turn":
                page.evaluate("window.live.act({type: 'end_turn'})")
        page.wait_for_timeout(150)
    assert page.evaluate("window.live.game.status") == "finished"
    page.screenshot(path=str(SHOTS / "play-against-app-finished-360.png"))


def test_a_coached_first_game_against_the_app_with_ranks_and_why_the_winner_won(phone, server: Server):
    """Six-Dice against the app, coached: a one-line note at each new kind of prompt (once per phone), hints in
    words, a rank on every hand and the leader marked, and an end screen that says why the winner won."""
    page = _open(phone, server, "/play/sixdice/", "en")
    page.locator("#play-now").click()
    page.wait_for_url(re.compile(r"/t/\w+/$"))
    page.wait_for_function("window.live && window.live.game && window.live.game.view && window.live.table")
    assert page.evaluate("window.live.table.options.coach") is True
    note = page.locator("#coach-note")
    expect(note).to_be_visible()
    kinds_seen = {note.get_attribute("data-kind")}
    expect(page.locator(".rank-badge").first).to_be_visible()
    expect(page.locator(".rank-badge.leader").first).to_be_visible()
    page.screenshot(path=str(SHOTS / "coached-first-game-360.png"))
    assert axe_check(page, "coached game") == []
    _fold(page, "#coach-note button")
    note.locator("button").click()
    expect(note).to_be_hidden()
    shot_hint = False
    for _ in range(400):
        g = page.evaluate("({status: window.live.game.status, view: window.live.game.view})")
        if g["status"] == "finished":
            break
        v = g["view"]
        p = v.get("pending") or {}
        if note.is_visible():
            kinds_seen.add(note.get_attribute("data-kind"))
            note.locator("button").click()
        if p.get("seat") == v.get("you"):
            if v.get("hint") and not shot_hint and p.get("kind") == "flip":
                expect(page.locator(".sd-hint-move")).to_contain_text(re.compile(r"you (gain|drop) \d"))
                page.screenshot(path=str(SHOTS / "coached-first-game-hint-360.png"))
                shot_hint = True
            if p.get("kind") == "flip" and v.get("legal_flips"):
                f = v["legal_flips"][0]
                page.evaluate("(f) => window.live.act({type: 'flip', victim: f[0], own: f[1], own_to: f[2], other: f[3],"
                              " other_to: f[4]})", f)
            elif p.get("kind") == "group" and v.get("groupings"):
                page.evaluate("(g) => window.live.act(Object.assign({type: 'group'}, g))", v["groupings"][0])
            elif p.get("kind") == "keep" and v.get("keep_options"):
                page.evaluate("(k) => window.live.act({type: 'keep', keep: k})", v["keep_options"][0])
        page.wait_for_timeout(200)
    assert page.evaluate("window.live.game.status") == "finished"
    assert len(kinds_seen - {None}) >= 2  # each new kind of prompt had its note
    expect(page.locator(".why-won")).to_contain_text("won")
    page.screenshot(path=str(SHOTS / "coached-first-game-end-360.png"))
    # A note is shown once per phone: a new game on the same phone shows none for the kinds already met.
    seen = page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('coach:sixdice:'))")
    assert seen
