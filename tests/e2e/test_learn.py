"""Learn by playing, in a phone-sized browser: each lesson played through by tapping (English and another
language), a wrong tap explained, screenshots of every step; and "Play against the app" from the home page to
the end of a game with no other phone.  axe finds no serious or critical violation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Clock, Server, shoot
from tests.e2e.harness import live_eval, settled, wait_live
from tests.e2e.test_access import axe_check

pytestmark = pytest.mark.browser


# This phone's move was applied and the app's players have moved (at once, on the shared server): this
# phone is to act again ({mine}), with nothing on its way, or the game is over.
MY_TURN_AGAIN = ("(live, at) => live.game.status === 'finished'"
                 " || (live.game.seq > at && !live.pending && {mine})")

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


SHOT_LANGS = ("en", "fr")  # screenshots of every step in English and one other language

# Every lesson text box: nothing cut (no box wider inside than out) and no word broken across two lines.
FITS_JS = """() => {
  const bad = [];
  const boxes = document.querySelectorAll('#lesson p, #lesson h1, #lesson h2, #lesson li, #lesson button, #lesson .lesson-note');
  for (const b of boxes) {
    if (!b.getClientRects().length) continue;
    if (b.scrollWidth > b.clientWidth + 1 || b.getBoundingClientRect().right > window.innerWidth + 1) bad.push('cut: ' + b.textContent.trim().slice(0, 60));
    const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(t.data))) {
        const r = document.createRange(); r.setStart(t, m.index); r.setEnd(t, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
        if (tops.size > 1) bad.push('broken: ' + m[0]);
      }
    }
  }
  return bad;
}"""


def _fits(page: Page) -> None:
    assert page.evaluate(FITS_JS) == [], page.url


def _shot(page: Page, game: str, lang: str, key: str) -> None:
    _fits(page)
    if lang in SHOT_LANGS:
        suffix = "" if lang == "en" else "-" + lang
        shoot(page, f"learn-{game}-{key}-360{suffix}")


def _next(page: Page) -> None:
    expect(page.locator(".lesson-say.good")).to_be_visible()
    _fold(page, "#lesson-next")
    page.locator("#lesson-next").click()


def _die(page: Page, seat: int, i: int):
    return page.locator(f'#lesson-board [data-seat="{seat}"] .die[data-i="{i}"]')


def _flip(page: Page, own: int, face: str, other: int, *, illegal: bool = True) -> None:
    """Tap your die, its new face, then (first) one of Bea's dice the flip cannot reach: it does not glow and
    tapping it applies nothing; then the victim asked for."""
    _fold(page, f'#lesson-board [data-seat="0"] .die[data-i="{own}"]')
    _die(page, 0, own).click()
    page.locator(".lesson-faces button.die", has_text=re.compile("^" + re.escape(face) + "$")).click()
    if illegal:
        dark = page.locator('#lesson-board [data-seat="1"] .die:not(.lit)')
        assert dark.count() >= 1
        assert page.locator('#lesson-board [data-seat="1"] .die.lit').count() >= 1
        said, lines = page.locator("#lesson-feedback").inner_text(), page.locator("#lesson-lines").inner_text()
        dark.first.click(force=True)
        settled(page)  # the tap was handled (a dark die sends nothing)
        assert page.locator("#lesson-feedback").inner_text() == said  # nothing applied, nothing said
        assert page.locator("#lesson-lines").inner_text() == lines
        expect(page.locator('#lesson-board [data-seat="1"] .die.lit').first).to_be_visible()  # still choosing
    _die(page, 1, other).click()


def _play_sixdice(page: Page, lang: str) -> None:
    g = "sixdice"
    _step(page, 1)
    assert page.locator("#lesson-board button").count() == 0  # a counting step takes no flip
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
    _shot(page, g, lang, "3-refused-ask")
    _flip(page, 2, "+3", 2, illegal=False)  # +1 to +3 against −2: refused, in one plain sentence
    expect(page.locator(".lesson-say")).to_have_count(1)
    say = page.locator(".lesson-say.why").inner_text()
    assert "−4" in say and "is not a face" not in say and "-4" not in say and say.count(".") == 1
    _shot(page, g, lang, "3-refused")
    _next(page)
    _step(page, 4)
    _shot(page, g, lang, "4-draw")
    _fold(page, "#lesson-roll")
    page.locator("#lesson-roll").click()
    expect(page.locator(".lesson-say.good")).to_be_visible()
    _shot(page, g, lang, "4-draw-done")
    _next(page)
    _step(page, 5)
    _shot(page, g, lang, "5-zero")
    assert page.locator(".lesson-groupings button").count() == 2  # two groupings: no look-alike options
    page.locator(".lesson-groupings button").first.click()
    _next(page)
    _step(page, 6)
    _shot(page, g, lang, "6-pairs")
    page.locator(".lesson-groupings button", has_text=re.compile(r"\(\+3 −1\)")).click()
    _next(page)
    _step(page, 7)
    _shot(page, g, lang, "7-keep")
    page.locator(".lesson-keep").nth(0).click()
    page.locator(".lesson-keep").nth(1).click()
    expect(page.locator(".lesson-say.good")).to_be_visible()
    _shot(page, g, lang, "7-keep-done")
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
    _next(page)
    _step(page, 12)
    _shot(page, g, lang, "12-rounds")
    page.locator(".lesson-quiz button", has_text="Cai").click()
    expect(page.locator(".lesson-say.bad")).to_be_visible()
    page.locator(".lesson-quiz button", has_text="Bea").click()
    expect(page.locator(".lesson-finished")).to_be_visible()
    _shot(page, g, lang, "13-finished")


def _cup(page: Page) -> None:
    expect(page.locator(".rb-me button.rb-cup")).to_be_visible()
    _fold(page, ".rb-me button.rb-cup")
    page.locator(".rb-me button.rb-cup").click()


def _tap_dice(page: Page, values: list[int], straight: str) -> None:
    for v in values:
        page.locator(f'.rb-roll button.rb-die[data-value="{v}"]:not([disabled])').first.click()
    expect(page.locator(".rb-take")).to_have_text(re.compile(r"(^|\s)" + re.escape(straight) + r"$"))
    page.locator(".rb-take").click()
    expect(page.locator(".rb-roll button.rb-die")).to_have_count(0)  # taken: the dice are tapped no more


def _play_runbuster(page: Page, lang: str) -> None:
    g = "runbuster"
    _step(page, 1)
    _shot(page, g, lang, "1-straight")
    _cup(page)
    expect(page.locator(".rb-roll button.rb-die").first).to_be_visible()
    _shot(page, g, lang, "1-straight-rolled")
    page.locator('.rb-roll button.rb-die[data-value="5"]').first.click()  # shorter than the longest:
    page.locator('.rb-roll button.rb-die[data-value="6"]').first.click()
    page.locator(".rb-take").click()
    expect(page.locator(".lesson-say.bad")).to_be_visible()  # explained, and the position set back
    _cup(page)
    _tap_dice(page, [4, 5, 6], "4-5-6")
    expect(page.locator(".rb-me button.rb-cup[data-state=yellow]")).to_be_visible()
    _shot(page, g, lang, "1-straight-taken")
    _cup(page)  # the cup ends the turn
    _next(page)
    _step(page, 2)
    _shot(page, g, lang, "2-extend")
    _cup(page)
    _tap_dice(page, [3, 6], "3-4-5-6")
    _cup(page)
    _next(page)
    _step(page, 3)
    _shot(page, g, lang, "3-bust")
    _cup(page)
    _tap_dice(page, [5, 6], "5-6")
    _cup(page)
    expect(page.locator(".lesson-say.good")).to_be_visible()
    _shot(page, g, lang, "3-bust-done")
    _next(page)
    _step(page, 4)
    _shot(page, g, lang, "4-win")
    _cup(page)
    _tap_dice(page, [6], "1-2-3-4-5-6")
    expect(page.locator(".lesson-finished")).to_be_visible()
    _shot(page, g, lang, "5-finished")


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
def test_sixdice_lesson_played_through_by_tapping(phone, server: Server, lang: str):
    page = _open(phone, server, "/", lang)
    page.locator('a[href="/learn/sixdice/"]').click()
    _play_sixdice(page, lang)
    if lang == "en":
        assert axe_check(page, "lesson") == []
    # Resumable: a reload keeps the last step.
    page.reload()
    _step(page, 12)


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_runbuster_lesson_played_through_by_tapping_then_the_same_taps_play_a_turn_at_a_table(
        phone, server: Server, lang: str):
    page = _open(phone, server, "/", lang)
    page.locator('a[href="/learn/runbuster/"]').click()
    _play_runbuster(page, lang)
    if lang == "en":
        assert axe_check(page, "lesson") == []
    if lang != "en":
        return
    # The same taps at a table against the app: the green cup rolls, the dice are tapped, Take, the cup ends the turn.
    page.locator(".lesson-controls a.button").click()
    page.locator("#play-now").click()
    page.wait_for_url(re.compile(r"/t/\w+/$"))
    wait_live(page, "live => (live && live.game && live.game.view)")
    cup = page.locator(".rb-me button.rb-cup")
    expect(cup).to_have_attribute("data-state", "green", timeout=15000)
    cup.click()
    expect(cup).to_have_attribute("data-state", "yellow")
    if live_eval(page, "live => (live.game.view.phase)") == "choose":
        take = page.locator(".rb-take")
        for _ in range(6):
            if take.is_enabled():
                break
            page.locator(".rb-roll button.rb-die.cand").first.click()
        take.click()
    if live_eval(page, "live => (live.game.view.phase)") == "end_turn":
        expect(cup).to_contain_text("Tap to end the turn")
        cup.click()
        expect(cup).not_to_have_attribute("data-state", "yellow")


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "pt", "uk"])
def test_no_lesson_text_is_cut_or_broken_mid_word_at_360(phone, server: Server, lang: str):
    for game in ("sixdice", "runbuster"):
        page = _open(phone, server, f"/learn/{game}/", lang)
        _step(page, 1)
        total = int(page.evaluate("document.getElementById('lesson-progress').textContent.match(/\\d+/g)[1]"))
        for n in range(1, total + 1):
            if n > 1:  # step 1 is on screen: going there again would race the next step's answer
                page.evaluate("(n) => document.getElementById('lesson').dispatchEvent(new CustomEvent('lesson-go', {detail: n}))", n - 1)
            _step(page, n)
            _fits(page)
        page.context.close()


# A whole game on purpose: a new player's path from the home page to the end.
def test_play_against_the_app_from_the_home_page_to_the_end(phone, server: Server):
    page = _open(phone, server, "/", "en")
    _fold(page, 'a[href="/learn/sixdice/"]')  # a new player finds both doors without scrolling
    _fold(page, 'a[href="/play/sixdice/"]')
    shoot(page, "home-learn-and-play-360")
    page.locator('a[href="/play/runbuster/"]').click()
    _fold(page, "#play-now")
    shoot(page, "play-against-app-360")
    assert axe_check(page, "play against the app") == []
    page.locator("#play-now").click()
    page.wait_for_url(re.compile(r"/t/\w+/$"))
    wait_live(page, "live => (live && live.game && live.game.view)")
    for _ in range(200):
        g = live_eval(page, "live => ({status: live.game.status, seq: live.game.seq, view: live.game.view})")
        if g["status"] == "finished":
            break
        view = g["view"]
        if view.get("your_turn"):
            if view.get("phase") == "roll":
                live_eval(page, "live => live.act({type: 'roll'})")
            elif view.get("phase") == "choose":
                live_eval(page, "(live, s) => live.act({type: 'choose', straight: s})", max(view["hand_options"], key=len))
            elif view.get("phase") == "end_turn":
                live_eval(page, "live => live.act({type: 'end_turn'})")
        # This phone's move applied and the app's players moved (at once): this phone's turn again, or the end.
        wait_live(page, MY_TURN_AGAIN.format(mine="live.game.view.your_turn"), arg=g["seq"], timeout=30_000)
    assert live_eval(page, "live => (live.game.status)") == "finished"
    shoot(page, "play-against-app-finished-360")


# A whole game on purpose: a coach's note at each new kind of prompt as it first comes.
def test_a_coached_first_game_against_the_app_with_ranks_and_why_the_winner_won(phone, server: Server, clock: Clock):
    """Six-Dice against the app, coached: a one-line note at each new kind of prompt (once per phone), hints in
    words, a rank on every hand and the leader marked, and an end screen that says why the winner won."""
    # The ranks are read on the opening deal (seeded): the app's player waits until they are read, else its first
    # move may land before the first frame and leave the two hands level (both lead, no "2nd" to read).
    clock.hold_bots()
    page = _open(phone, server, "/play/sixdice/", "en")
    page.locator("#play-now").click()
    page.wait_for_url(re.compile(r"/t/\w+/$"))
    wait_live(page, "live => (live && live.game && live.game.view && live.table)")
    assert live_eval(page, "live => (live.table.options.coach)") is True
    # The app's player makes its own choices: held at one, the host's phone offers no answer for it.
    pending = live_eval(page, "live => (live.game.view.pending)")
    assert pending["kind"] in ("group", "keep") and pending["seat"] != live_eval(page, "live => (live.seat)")
    expect(page.locator(".sd-host-badge")).to_have_count(0)
    note = page.locator("#coach-note")
    expect(note).to_be_visible()
    kinds_seen = {note.get_attribute("data-kind")}
    expect(page.locator(".rank-badge").first).to_be_visible()
    expect(page.locator(".rank-badge.leader").first).to_be_visible()
    # every other hand's place reads as a place ("2nd"), for the eye as for a screen reader ("Place 2")
    others = page.locator(".rank-badge:not(.leader)").all()
    assert others, "a two-player game has a hand that is not in the lead"
    for badge in others:
        expect(badge.locator("span[aria-hidden]")).to_have_text(re.compile(r"^\d+(st|nd|rd|th)$"))
        expect(badge.locator("span.sr")).to_have_text(re.compile(r"^Place \d+$"))
    shoot(page, "coached-first-game-360")
    assert axe_check(page, "coached game") == []
    # The host's row is wider than the phone: its end fades while a button waits past the edge, and scrolling it
    # sideways brings "End the game now" fully into view (then nothing waits past the edge: no fade).
    row, end = page.locator("#host-controls"), page.locator('#host-controls [data-host="end"]')
    expect(end).to_be_visible()
    expect(row).to_have_class(re.compile(r"\bmore\b"))
    row.evaluate("(r) => r.scrollTo({left: r.scrollWidth})")
    expect(row).not_to_have_class(re.compile(r"\bmore\b"))
    box = end.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    row.evaluate("(r) => r.scrollTo({left: 0})")
    # "Got it" puts this note away for good on this phone.  The app's player is still held, so the prompt (and the
    # note's kind) cannot change between reading the kind and tapping: the tap dismisses the kind just read.
    _fold(page, "#coach-note button")
    first_kind = note.get_attribute("data-kind")
    note.locator("button").click()
    expect(note).to_be_hidden()
    assert page.evaluate("(k) => localStorage.getItem('coach:sixdice:' + k)", first_kind) == "1"
    clock.free_bots()  # the app's player moves at once from here
    shot_hint = False
    for _ in range(400):
        g = live_eval(page, "live => ({status: live.game.status, seq: live.game.seq, view: live.game.view})")
        if g["status"] == "finished":
            break
        v = g["view"]
        p = v.get("pending") or {}
        if note.is_visible():
            kinds_seen.add(note.get_attribute("data-kind"))
            # The bots keep moving, so the board above the note keeps growing and the note never holds still for a
            # pointer click: the tap is the button's own click event.
            note.locator("button").dispatch_event("click")
        if p.get("seat") == v.get("you"):
            if v.get("hint") and not shot_hint and p.get("kind") == "flip":
                expect(page.locator(".sd-hint-move")).to_contain_text(re.compile(r"you (gain|drop) \d"))
                shoot(page, "coached-first-game-hint-360")
                shot_hint = True
            if p.get("kind") == "flip" and v.get("legal_flips"):
                f = v["legal_flips"][0]
                live_eval(page, "(live, f) => live.act({type: 'flip', victim: f[0], own: f[1], own_to: f[2], other: f[3], other_to: f[4]})", f)
            elif p.get("kind") == "group" and v.get("groupings"):
                live_eval(page, "(live, g) => live.act(Object.assign({type: 'group'}, g))", v["groupings"][0])
            elif p.get("kind") == "keep" and v.get("keep_options"):
                live_eval(page, "(live, k) => live.act({type: 'keep', keep: k})", v["keep_options"][0])
        wait_live(page, MY_TURN_AGAIN.format(mine="(live.game.view.pending || {}).seat === live.game.view.you"),
                  arg=g["seq"], timeout=30_000)
    assert live_eval(page, "live => (live.game.status)") == "finished"
    assert len(kinds_seen - {None}) >= 2  # each new kind of prompt had its note
    expect(page.locator(".why-won")).to_contain_text("won")
    shoot(page, "coached-first-game-end-360")
    # A note is shown once per phone: a new game on the same phone shows none for the kinds already met.
    seen = page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('coach:sixdice:'))")
    assert seen
