"""News on a phone says what is true now and never covers the prompt (issue 39), at two moments the whole-game
test (tests/e2e/test_news_lifetime.py) does not stop at:

- **A Run Buster bust**, on the phones of the player busted and of the one whose roll busted them (360×740),
  from a scripted position (tests/e2e/positions.py: every die typed, nothing left to luck).  At the bust the
  busted player reads it about their own hand ("Ben's roll busted your 3-4-5-6: it went back into your cup"),
  the roller reads the names ("Ben's roll busts Cleo's 3-4-5-6"); each notice describes the board shown (its
  ``data-about`` is the page's ``data-seq``), covers neither a control of the prompt nor the player's own hand,
  and those are on the first screen.  The next move (a straight taken, or the full straight that wins) ends the
  news on both phones without anyone tapping Close; the move log keeps it.
- **Six-Dice with everything open at once** on one phone asked to act (a coached table: hints on, the coach's
  one-line tip): the notice of the player's own take-back ("Taken back: …"), the tip and the hint, while the
  phone flips (down to the list of the other players' dice) or groups ("Others (1)").  At 360×740 and 320×640
  every control of the prompt and the player's own dice are on the first screen and no notice covers one.

Screenshots: docs/screens/news-runbuster-bust-*.png, docs/screens/news-fold-all-open-*.png (the flip's also as
the whole page, ``-page.png``).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e import positions
from tests.e2e import runbuster_helpers as rb
from tests.e2e.conftest import PHONE, shoot
from tests.e2e.harness import wait_ready, wait_seq
from tests.e2e.sixdice_helpers import tap_flip

pytestmark = pytest.mark.browser

SMALL = {"width": 320, "height": 640}

# What a phone shows now, measured at the top of the page: every notice (the news cards, Run Buster's bust line,
# the coach's tip, the hint), every control of the prompt, the player's own hand, and the board's other dice
# buttons (Six-Dice lights the other players' dice a flip may take; the prompt's panel lists the same choices).
LAYOUT = """() => {
  window.scrollTo(0, 0);
  const shown = (n) => { const r = n.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && n.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true}); };
  const box = (n) => { const r = n.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, id: n.id, cls: n.className,
            about: n.dataset.about ?? null, text: (n.innerText || n.getAttribute('aria-label') || '').trim()}; };
  const all = (css) => [...document.querySelectorAll(css)].filter(shown);
  const act = '#board [data-region="act"]', me = '#board [data-region="me"]';
  const prompt = all(`${act} button:not(:disabled), ${act} input, ${act} select, ${act} summary, ` +
    `${me} button.die:not(:disabled), #take-back:not(:disabled), #board .rb-me button.rb-cup`);
  const elsewhere = all('#board button.die:not(:disabled)').filter((n) => !n.closest(`${act}, ${me}`));
  return {seq: Number(document.documentElement.dataset.seq), height: window.innerHeight, width: window.innerWidth,
          notices: all('#news .card, .rb-flash, [data-region="tip"], #coach-note').map(box),
          controls: prompt.map(box),
          own: all(`${me}, ${me} .die, ${me} .rb-slot`).map(box),
          lit: elsewhere.map((n) => ({...box(n), choice: n.dataset.seat + ':' + n.innerText.trim()})),
          listed: all('#board .sd-cands .sd-cand').map((n) =>
            n.dataset.cand.split(':')[0] + ':' + n.querySelector('.die').innerText.trim())};
}"""


def _overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def _fold(page: Page, who: str) -> dict[str, Any]:
    """The page's notices describe the board it shows and cover no control of its prompt, its own hand nor a die
    to tap; the controls and the own hand are on the first screen.  Returns the measures."""
    wait_ready(page)
    m = page.evaluate(LAYOUT)
    assert m["controls"], (who, "no control measured: the page is not asked anything")
    for n in m["notices"]:
        if n["about"] is not None:
            assert int(n["about"]) == m["seq"], (who, "a notice about another board", n, m["seq"])
        for c in m["controls"] + m["own"] + m["lit"]:
            assert not _overlap(n, c), (who, "a notice over a control or the player's own hand", n, c)
    low = [(c["text"] or c["cls"], c["bottom"]) for c in m["controls"] + m["own"] if c["bottom"] > m["height"] + 0.5]
    assert not low, (who, "below the first screen", low, m["height"])
    wide = [(c["text"] or c["cls"], c["right"]) for c in m["controls"] + m["own"] if c["right"] > m["width"] + 0.5]
    assert not wide, (who, "past the right edge", wide, m["width"])
    # A die lit on another player's hand is a second way to a choice the prompt's own list offers (on the first
    # screen): every one of them is in the list.  The others' hands may go past the fold (8 players do).
    assert {d["choice"] for d in m["lit"]} <= set(m["listed"]), (who, m["lit"], m["listed"])
    return m


def _shot(page: Page, name: str, *, whole: bool = False) -> None:
    """The first screen (``whole``: and the whole page too, as ``<name>-page.png``)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    shoot(page, name)
    if whole:
        shoot(page, f"{name}-page", full_page=True)


# ---------------------------------------------------------------- Run Buster: a bust on the phones

RB_NAMES = ["Ana", "Ben", "Cleo"]
ROLLER, VICTIM = 1, 2  # Ben's roll busts Cleo's 3-4-5-6
BUST = [1, 2, 3, 4, 5]  # holds 1 and 2, Cleo's buster, not 6 (Ana's 1 stays); extends Ben's 6 up to 1-2-3-4-5-6


def _roll(*values: int) -> dict[str, Any]:
    return {"type": "roll", "values": list(values)}


def _take(*values: int) -> dict[str, Any]:
    return {"type": "choose", "straight": list(values)}


END = {"type": "end_turn"}
# Real dice typed in, three players: Ana holds 1, Ben 6, Cleo 3-4-5-6; Ben is to roll his five dice.
BEFORE_BUST = [(0, _roll(1, 1, 1, 1, 1, 1)), (0, _take(1)), (0, END),
               (1, _roll(6, 6, 6, 6, 6, 6)), (1, _take(6)), (1, END),
               (2, _roll(3, 4, 5, 6, 6, 6)), (2, _take(3, 4, 5, 6)), (2, END),
               (0, _roll(1, 1, 1, 1, 1)), (0, END)]


def _bust(server, phone) -> tuple[Page, Page, int]:
    """Ben's and Cleo's phones at the scripted position; Ben types the roll that busts Cleo.  At that moment both
    phones say it, each in its own words, beside the board it describes.  The phones and the move number."""
    recorded = positions.scripted(server, "runbuster", RB_NAMES, {"dice": "physical"}, BEFORE_BUST)
    position = positions.table_at(server, recorded)
    ben, cleo = (positions.open_as(phone, server, position, seat) for seat in (ROLLER, VICTIM))
    for page in (ben, cleo):
        wait_seq(page, position.seq)
    assert rb.view(ben)["hands"] == [[1], [6], [3, 4, 5, 6]] and rb.view(ben)["your_turn"]
    rb.type_roll(ben, BUST)
    at = wait_seq(cleo, position.seq + 1)
    assert rb.view(cleo)["busted"] == [VICTIM] and rb.view(cleo)["hands"][VICTIM] == []

    # Cleo reads it about her own hand, once, under her cup; not her own name in the third person.
    note = cleo.locator("#mine-note")
    expect(note.locator(".mine-text")).to_have_text("Ben's roll busted your 3-4-5-6: it went back into your cup")
    expect(note).to_have_attribute("data-about", str(at))
    expect(cleo.locator(".rb-flash")).to_have_count(0)
    expect(cleo.locator("#news")).not_to_contain_text("Cleo")
    # Her hand is empty now, and her phone is here: no "away" mark beside it, on her phone or Ben's (Ana's is away).
    expect(cleo.locator(".rb-me .away-mark")).to_have_count(0)
    expect(ben.locator(f'.rb-player[data-seat="{VICTIM}"] .away-mark')).to_have_count(0)
    expect(ben.locator('.rb-player[data-seat="0"] .away-mark')).to_have_text("away")
    # Ben reads the names: whose roll, whose straight; nothing addressed to him as the one busted.
    flash = ben.locator(".rb-flash")
    expect(flash).to_have_text("Ben's roll busts Cleo's 3-4-5-6")
    expect(flash).to_have_attribute("data-about", str(at))
    expect(ben.locator("#news .card")).to_have_count(0)
    expect(ben.locator("#board")).not_to_contain_text("your 3-4-5-6")
    expect(ben.locator(".rb-roll.choosing button.rb-die")).to_have_count(len(BUST))  # Ben's prompt: pick from the roll
    for who, page in (("Cleo", cleo), ("Ben", ben)):
        m = _fold(page, who)
        assert m["seq"] == at and any(n["about"] == str(at) for n in m["notices"]), (who, m["notices"])
    _shot(cleo, "news-runbuster-bust-victim-360")
    _shot(ben, "news-runbuster-bust-buster-360")
    return ben, cleo, at


def _news_gone(pages: dict[str, Page], at: int) -> None:
    """The bust's news has ended on every phone (nobody tapped Close): no card, no bust line; the log keeps it."""
    for who, page in pages.items():
        wait_seq(page, at)
        expect(page.locator("#news .card")).to_have_count(0)
        expect(page.locator(".rb-flash")).to_have_count(0)
        expect(page.locator("#board")).not_to_contain_text("busted your")
        expect(page.locator("#board")).not_to_contain_text("busts")
        expect(page.locator("#log")).to_contain_text("busts Cleo's 3-4-5-6")
        if who == "Cleo":
            expect(page.locator("#log .log-news").first).to_have_text(
                "Ben's roll busted your 3-4-5-6: it went back into your cup")


def test_run_buster_bust_news_reaches_both_phones_and_ends_with_the_next_move(server, phone, clock):
    ben, cleo, at = _bust(server, phone)
    rb.pick(ben, [4, 5, 6], [6])  # the next move: Ben takes 4-5-6
    _news_gone({"Ben": ben, "Cleo": cleo}, at + 1)
    rb.step(ben)  # Ben ends his turn: Cleo, busted, is asked to type in her six dice
    wait_seq(cleo, at + 2)
    expect(cleo.locator(".rb-keypad .rb-typed")).to_have_count(6)
    _news_gone({"Ben": ben, "Cleo": cleo}, at + 2)
    _fold(cleo, "Cleo")
    _shot(cleo, "news-runbuster-bust-after-360")


def test_run_buster_no_bust_news_is_left_after_the_roller_wins_with_it(server, phone, clock):
    ben, cleo, at = _bust(server, phone)
    rb.pick(ben, [1, 2, 3, 4, 5, 6], [6])  # the same turn busts Cleo and wins (B2)
    _news_gone({"Ben": ben, "Cleo": cleo}, at + 1)
    assert rb.view(cleo)["finished"] == [ROLLER]
    expect(ben.locator(".rb-me .rb-badge.place")).to_have_text("1st")
    expect(cleo.locator(".rb-keypad .rb-typed")).to_have_count(6)  # the round goes on: Cleo's turn
    expect(cleo.locator(".rb-turn")).to_contain_text("Your turn")
    _fold(cleo, "Cleo")
    _shot(cleo, "news-runbuster-bust-won-360")


# ---------------------------------------------------------------- Six-Dice: every notice open at once

SD_NAMES = ["Ana", "Ben", "Cleo"]


@pytest.fixture(scope="module")
def coached_game(server) -> dict[str, Any]:
    """A recorded game of three of the app's players (seeded) at a coached table: hints on, the coach's tips."""
    return positions.record(server, "sixdice", SD_NAMES, {"hints": True, "coach": True, "rounds": 2}, seed=1)


def _taken_back(server, phone, recorded: dict[str, Any], kind: str) -> tuple[Page, dict[str, Any], int]:
    """The phone of the first seat to make a move of ``kind`` in ``recorded``, at that move: it makes it as
    recorded, then takes it back.  The phone, the move and the seat."""
    number = positions.ends_at(recorded, lambda e: e["actor"].isdigit() and e["action"]["type"] == kind)
    event = recorded["events"][number - 1]
    seat = int(event["actor"])
    position = positions.table_at(server, recorded, number - 1)
    page = positions.open_as(phone, server, position, seat)
    wait_seq(page, position.seq)
    a = event["action"]
    if kind == "flip":
        tap_flip(page, [a["victim"], a["own"], a["own_to"], a["other"], a["other_to"]])
    else:
        page.locator('.sd-choice [data-act="accept"]').click()
    made = wait_seq(page, position.seq + 1)
    page.once("dialog", lambda d: d.accept())
    page.locator("#take-back").click()
    back = wait_seq(page, made + 1)
    name, words = SD_NAMES[seat], {"flip": "flip", "group": "grouping"}[kind]
    card = page.locator("#notice-card")
    expect(card).to_contain_text(f"Taken back: {name}'s {words}.")
    expect(card).to_have_attribute("data-about", str(back))
    expect(page.locator("#coach-note")).to_be_visible()  # the coach's one-line tip for this prompt
    expect(page.locator("#coach-note")).to_have_attribute("data-kind", kind)
    expect(page.locator('#board [data-region="tip"]')).to_be_visible()  # the hint
    expect(page.locator('#board [data-region="tip"] h2')).to_have_text("Hint")
    return page, a, seat


def _all_open(page: Page, who: str) -> dict[str, Any]:
    """:func:`_fold`, with the take-back's notice, the tip and the hint all measured."""
    m = _fold(page, who)
    shown = {n["id"] or n["cls"] for n in m["notices"]}
    assert {"notice-card", "coach-note", "card sd-hint"} <= shown, (who, shown)
    return m


def test_the_flip_prompt_keeps_the_first_screen_with_the_notice_the_tip_and_the_hint_open(server, phone, clock,
                                                                                          coached_game):
    page, a, seat = _taken_back(server, phone, coached_game, "flip")
    _all_open(page, "asked to flip")
    page.locator(f'.sd-hand.me button.die[data-i="{a["own"]}"]').click()  # the die to flip
    _all_open(page, "picking the face")
    page.locator(f'.sd-faces button[data-face="{a["own_to"]}"]').click()  # its new face
    names = page.locator(".sd-cands .sd-cand .sd-cand-name")  # the other players' dice that change the other way
    expect(names.first).to_be_visible()
    assert set(names.all_inner_texts()) == {n for i, n in enumerate(SD_NAMES) if i != seat}
    for viewport, name in ((PHONE, "news-fold-all-open-360"), (SMALL, "news-fold-all-open-320")):
        page.set_viewport_size(viewport)
        m = _all_open(page, f"picking another player's die at {viewport['width']}x{viewport['height']}")
        assert m["height"] == viewport["height"] and m["lit"], m
        _shot(page, name, whole=True)  # the notice, the tip and the hint under the others' hands


def test_the_grouping_prompt_keeps_the_first_screen_with_the_notice_the_tip_and_the_hint_open(server, phone, clock,
                                                                                              coached_game):
    page, _action, _seat = _taken_back(server, phone, coached_game, "group")
    others = page.locator(".sd-alts > summary")
    expect(others).to_have_text("Others (1)")
    for viewport, name in ((PHONE, "news-fold-all-open-group-360"), (SMALL, "news-fold-all-open-group-320")):
        page.set_viewport_size(viewport)
        _all_open(page, f"asked to group at {viewport['width']}x{viewport['height']}")
        _shot(page, name)
    others.click()  # the other grouping, and the builder's summary
    expect(page.locator('.sd-alts [data-act="alt"]')).to_have_count(1)
    for viewport in (PHONE, SMALL):
        page.set_viewport_size(viewport)
        _all_open(page, f"the other grouping open at {viewport['width']}x{viewport['height']}")
