"""News that says what is true now, never over the controls (issue 39), on four phones and the table screen.

A whole Six-Dice game at a real-dice table, coached as the host's form starts
(hints on, a one-line tip the first time a phone meets a prompt): four phones
type their rolls and tap their moves, the host answers a seat's choice, undoes
a move and corrects a typed roll.  After every move, on every phone, the host's page and the table
screen:

- every notice shown describes the board the page shows (its ``data-about``,
  the server's ``about``, is the page's ``data-seq``), and the news of a moment
  is gone once the board has moved past it (the table screen's too: nobody
  taps it);
- no notice (the undo notice, the hand news, the coach's tip, the hint) overlaps a control of the
  prompt or the player's own dice, and those are on the first screen;
- after an undo or a correction, a phone asked to act again reads its own
  sentence first ("You: …"), naming the move its screen asks for.

The same at 320×640 in Portuguese and Ukrainian, up to the correction.
Screenshots: docs/screens/news-*.png.
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PHONE, shoot
from tests.e2e.harness import form_answered, live_eval, seq, wait_ready, wait_seq
from tests.e2e.sixdice_helpers import tap_flip, type_roll

pytestmark = pytest.mark.browser

NAMES = ("Ana", "Ben", "Chloé", "Dev")
SCREEN = {"width": 1280, "height": 720}
# The words each language begins a phone's own sentence with, and names the moves with (undo_notice.py).
YOU = {"en": "You:", "pt": "Você:", "uk": "Ви:"}
MOVE_WORDS = {"flip": "flip", "group": "grouping", "keep": "choice of groups to keep"}

# Every notice and control of a page, with its box on the page (scrolled to the top).
LAYOUT = """() => {
  window.scrollTo(0, 0);
  const shown = (n) => { const r = n.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && n.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true}); };  // not in a closed <details>
  const box = (n) => { const r = n.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, text: (n.innerText || n.getAttribute('aria-label') || '').slice(0, 60)}; };
  const notices = [...document.querySelectorAll('#news .card, [data-region="tip"], #coach-note')].filter(shown)
    .map((n) => ({...box(n), id: n.id, about: n.dataset.about ?? null, lines: [...n.querySelectorAll('.notice-text p')].map((p) => p.innerText)}));
  const controls = [...document.querySelectorAll('#board [data-region="act"] button:not(:disabled), #board [data-region="act"] input, ' +
    '#board button.die:not(:disabled), #take-back:not(:disabled)')].filter(shown).map(box);
  const dice = [...document.querySelectorAll('#board [data-region="me"] .die')].filter(shown).map(box);
  return {seq: Number(document.documentElement.dataset.seq), height: window.innerHeight, notices, controls, dice,
          close: document.querySelectorAll('#news [data-notice-close], #news [data-mine-close]').length};
}"""


def _layout(page: Page) -> dict:
    wait_ready(page)
    return page.evaluate(LAYOUT)


def _overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def _check(pages: dict[str, Page], at: int, *, screen: Page) -> dict[str, dict]:
    """Every page shows move ``at``; its notices describe it and cover no control, which is on the first screen."""
    seen = {}
    for who, page in pages.items():
        wait_seq(page, at)
        layout = _layout(page)
        assert layout["seq"] == at, (who, layout["seq"], at)
        for n in layout["notices"]:
            if n["about"] is not None:
                assert int(n["about"]) == layout["seq"], (who, "a notice about another board", n)
            for c in layout["controls"] + layout["dice"]:
                assert not _overlap(n, c), (who, "a notice over a control or the player's own dice", n, c)
        low = [c for c in layout["controls"] if c["bottom"] > layout["height"] + 0.5]
        if low:
            page.screenshot(path=f"/tmp/news-fail-{who}.png", full_page=True)
        assert not low, (who, "a control below the first screen", [(c["text"], c["top"]) for c in low], layout["height"])
        if page is screen:
            assert layout["close"] == 0, "the table screen's notices end by themselves: nothing to tap"
        seen[who] = layout
    return seen


def _notice_lines(layout: dict) -> list[str]:
    return next((n["lines"] for n in layout["notices"] if n["id"] == "notice-card"), [])


def _view(page: Page) -> dict:
    return live_eval(page, "live => live.game.view")


def _wrote(host: Page, before: int) -> int:
    """Wait for the write the test just made; the move number after it."""
    return wait_seq(host, before + 1)


def _coached_table(phone, server) -> tuple[Page, str]:
    """The host's form as it starts (a coached first game: hints on, a one-line tip per new prompt), four players,
    one round, real dice typed in; the host page and the join link."""
    host = phone(server.url + "/new/sixdice/")
    host.get_by_label("As written", exact=True).check()
    host.get_by_label("Players").select_option("4")
    host.get_by_label("Rounds").fill("1")
    host.get_by_label("Real dice, typed in").check()
    expect(form_answered(host).locator("input[type=checkbox][name=coach]")).to_be_checked()
    host.get_by_role("button", name="Create the table").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]{5}/host/$"))
    return host, host.locator("#join-link").get_attribute("href")


def _play(server, phone, *, lang: str, viewport: dict[str, int], full: bool, tag: str) -> None:
    host, join_url = _coached_table(phone, server)
    seats = []
    for name in NAMES:
        page = phone(None, viewport=viewport)
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": server.url}])
        page.goto(join_url)
        page.locator("input[name=name]").fill(name)
        page.locator("form button[type=submit]").click()
        expect(page.locator("#app")).to_have_attribute("data-role", "seat")
        seats.append(page)
    code = re.search(r"/t/(\w+)/", host.url).group(1)
    screen = phone(f"{server.url}/t/{code}/screen/", viewport=SCREEN)
    for i in range(len(NAMES)):
        expect(host.locator(f'#seats li[data-seat="{i}"] .dot.on')).to_be_visible()
    host.get_by_role("button", name="Start").click()
    for page in (host, *seats, screen):
        wait_seq(page, 0)  # the game drawn (the lobby has no move number)
    pages = {**{name: page for name, page in zip(NAMES, seats, strict=True)}, "host": host, "screen": screen}
    dice = random.Random(f"news-{lang}")
    done = {"answer": False, "undo": False, "correct": False}
    at = seq(host)
    for _step in range(200):
        _check(pages, at, screen=screen)  # the news of an earlier moment is gone, on every page
        v = _view(host)
        if v.get("over") or live_eval(host, "live => live.game.status") != "playing":
            break
        p = v["pending"]
        seat = p["seat"]
        before = at
        if done["answer"] and not done["undo"] and p["kind"] == "flip" and seq(host) > 4:
            # The host undoes the last move: every phone is told what changed, and who must act again.
            host.once("dialog", lambda d: d.accept())
            host.locator('[data-host="undo"]').click()
            at = _wrote(host, before)
            done["undo"] = True
            _shots(_some(pages, _told(pages, seats, at, lang)), f"news-undo{tag}")
            continue
        if done["undo"] and not done["correct"] and p["kind"] in ("group", "keep", "flip") and live_eval(host, "live => (live.game.corrections || []).length"):
            # The host corrects the latest typed roll: its first die turned over.
            latest = live_eval(host, "live => live.game.corrections[0]")
            values = [-latest["values"][0], *latest["values"][1:]]
            host.locator("#correct-open").click()
            host.locator("#correct-values").fill(" ".join(f"{v:+d}" for v in values))
            host.once("dialog", lambda d: d.accept())
            host.locator("#correct-send").click()
            at = _wrote(host, before)
            done["correct"] = True
            expect(host.locator("#correct-roll")).to_be_hidden()  # the form closes on the server's answer
            _shots(_some(pages, _told(pages, seats, at, lang)), f"news-correct{tag}")
            if not full:
                _check(pages, at, screen=screen)
                return
            continue
        if not done["answer"] and p["kind"] in ("group", "keep"):
            # The host answers for the seat: its phone says so, in its own words, until the next move.
            host.locator('.sd-choice [data-act="accept"]').click()
            at = _wrote(host, before)
            done["answer"] = True
            mine = seats[seat].locator("#mine-note")
            expect(mine).to_be_visible()
            expect(mine).to_have_attribute("data-about", str(at))
            if lang == "en":
                expect(mine).to_contain_text("The host chose for you")
            _shots({NAMES[seat]: seats[seat]}, f"news-host-answer{tag}")
            continue
        page = seats[seat]
        pv = _view(page)
        if p["kind"] == "flip":
            tap_flip(page, pv["legal_flips"][0])
        elif p["kind"] == "roll":
            type_roll(page, [dice.choice((1, 2, 3, -1, -2, -3)) for _ in range(p["count"])])
        else:
            page.locator('.sd-choice [data-act="accept"]').click()
        at = _wrote(host, before)
    else:
        raise AssertionError("the game did not end")
    assert all(done.values()), done
    _shots({"screen": screen, NAMES[0]: pages[NAMES[0]]}, f"news-end{tag}")


def _some(pages: dict[str, Page], addressed: list[str]) -> dict[str, Page]:
    """The pages worth a screenshot after an undo: the phones it addresses, one it does not, the table screen."""
    other = next(name for name in NAMES if name not in addressed)
    return {name: pages[name] for name in [*addressed, other, "screen"]}


def _told(pages: dict[str, Page], seats: list[Page], at: int, lang: str) -> list[str]:
    """After an undo or a correction: every page shows the notice about move ``at``; a phone asked to act again reads
    its own sentence first, and it names the move that phone asks for now.  The names of those phones."""
    for page in pages.values():
        card = page.locator("#notice-card")
        expect(card).to_be_visible()
        expect(card).to_have_attribute("data-about", str(at))
    again = live_eval(seats[0], "(live, at) => (live.log.find((e) => e.seq > 0 && e.about === at && e.notice) || {}).act_again || []", at)
    assert again, "at a real-dice table an undo asks someone to set their dice again"
    for i, page in enumerate(seats):
        lines = _notice_lines(_layout(page))
        assert lines, NAMES[i]
        if i in again:
            assert lines[0].startswith(YOU[lang]), (NAMES[i], lines)
            assert not any(line.startswith(NAMES[i] + ":") for line in lines), (NAMES[i], "told twice", lines)
            p = _view(page)["pending"]
            if lang == "en" and "make your" in lines[0]:
                assert p["seat"] == i and MOVE_WORDS[p["kind"]] in lines[0], (NAMES[i], lines[0], p)
        else:
            assert not lines[0].startswith(YOU[lang]), (NAMES[i], lines)
    return [NAMES[i] for i in again]


def _shots(pages: dict[str, Page], name: str) -> None:
    for who, page in pages.items():
        page.evaluate("() => window.scrollTo(0, 0)")
        shoot(page, f"{name}-{who.lower().replace('é', 'e')}")


# A whole game on purpose (issue 39): no notice outlives its moment at any move of a real game.
def test_a_whole_game_news_says_what_is_true_now_on_every_phone_and_the_table_screen(server, phone, clock):
    _play(server, phone, lang="en", viewport=PHONE, full=True, tag="")


@pytest.mark.parametrize("lang", ["pt", "uk"])
def test_at_320_by_640_in_portuguese_and_ukrainian(server, phone, clock, lang):
    _play(server, phone, lang=lang, viewport={"width": 320, "height": 640}, full=False, tag=f"-{lang}-320")
