"""Every screen says what is true now (issue 39, "one truth per fact", the table screen, the host's tools):

- the lesson teaches the recommended rules (the numbers of the preset the new-table form starts on) and says a
  table may choose otherwise; a try that is set back is marked so in its log;
- Run Buster's cup says what the next tap does; one button starts the next round; the keypad's Delete names
  the die it deletes;
- Take back is offered only when there is something to take back (before anyone moves: here; right after a
  roll: tests/e2e/test_undo_browser.py);
- the host's name is asked once; "End the game now" at a table without a time limit, said in the log;
- the table screen (1280×720, nobody taps it) shows who has joined and the QR code before the start, and the
  winner, why and the standings at the end without scrolling.

Written the harness's way (tests/e2e/harness.py): the page's readiness signal, then what a person sees.
Screenshots go to docs/screens/ (truths-*.png).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import shoot
from tests.e2e.harness import form_answered, live_eval, seq, wait_live, wait_ready, wait_seq
from tests.e2e.test_access import axe_check

pytestmark = pytest.mark.browser

TV = {"width": 1280, "height": 720}


def in_view(page: Page, selector: str) -> None:
    """The first match is wholly inside the viewport (no scrolling needed to read it)."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (selector, box)


def new_table(phone, server, game: str, *, players: int, host_name: str = "", bots: int = 0,
              dice: str = "The app rolls them", viewport: dict[str, int] | None = None) -> tuple[Page, str]:
    """The host fills in the new-table form (the rules it starts on); returns the host page and the join link."""
    host = phone(server.url + f"/new/{game}/", **({"viewport": viewport} if viewport else {}))
    if host_name:
        host.get_by_label("Your name, as the host (optional)").fill(host_name)
    host.get_by_label("Players").select_option(str(players))
    if bots:
        host.get_by_label("Seats the app plays").select_option(str(bots))
    host.get_by_label(dice).check()
    coach = host.locator("input[type=checkbox][name=coach]")
    if coach.count():
        coach.uncheck()  # a plain table: no coaching
    host.get_by_role("button", name="Create the table").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]{5}/host/$"))
    wait_ready(host)
    return host, host.locator("#join-link").get_attribute("href") or ""


def join(phone, link: str, name: str) -> Page:
    page = phone(link)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#app")).to_have_attribute("data-role", "seat")
    return wait_ready(page)


def start(host: Page, pages: list[Page]) -> None:
    host.get_by_role("button", name="Start", exact=True).click()
    for page in (host, *pages):
        wait_live(page, "live => !!(live.game && live.game.view)")


# ---------------------------------------------------------------- the lesson


def _go(page: Page, server, step: int) -> None:
    """Open the lesson at ``step`` (1-based): the lesson keeps its place in the session, as a reload shows."""
    token = page.locator("#lesson input[name=csrfmiddlewaretoken]").get_attribute("value") or ""
    page.request.post(server.url + "/learn/sixdice/api/", data=json.dumps({"go": step - 1}),
                      headers={"Content-Type": "application/json", "X-CSRFToken": token})
    page.reload()
    expect(page.locator(f'#lesson[data-step="{step}"]')).to_be_attached()


def test_the_lesson_teaches_the_rules_a_new_table_starts_on_and_its_log_says_only_what_happened(phone, server):
    from sixdice.lesson import LESSON, RULES

    page = phone(server.url + "/learn/sixdice/")
    expect(page.locator("#lesson-about")).to_have_text(
        "This lesson teaches the recommended rules, those a new table starts on; at your table the host may "
        "choose otherwise.")
    keys = [s.key for s in LESSON.steps]
    _go(page, server, keys.index("bank") + 1)
    expect(page.locator("#lesson-title")).to_have_text("An empty bank")
    expect(page.locator("#lesson-ask")).to_contain_text("The bank is empty.")
    _go(page, server, keys.index("threes") + 1)
    expect(page.locator("#lesson-ask")).to_contain_text(
        f"Under the recommended rules, {RULES.threes_dice} or more dice that are all +3 (or all −3) win at once.")
    assert page.locator('#lesson-board [data-seat="0"] .die').count() == RULES.threes_dice  # the position agrees
    shoot(page, "truths-lesson-threes-360")
    # The last round: a flip that lets Bea win is set back, and its lines say they were a try.
    _go(page, server, keys.index("last") + 1)
    expect(page.locator("#lesson-about")).to_be_hidden()  # said on the first step and where a number of the rules is
    page.locator('#lesson-board [data-seat="0"] .die[data-i="3"]').click()
    page.locator(".lesson-faces button.die", has_text=re.compile(r"^\+3$")).click()
    page.locator('#lesson-board [data-seat="1"] .die[data-i="3"]').click()
    expect(page.locator(".lesson-say.bad")).to_be_visible()
    expect(page.locator("#lesson-lines .lesson-tried-head")).to_have_text(
        "What your try did (the board is now set back as it was):")
    expect(page.locator("#lesson-lines .lesson-tried").last).to_contain_text("Bea wins")
    shoot(page, "truths-lesson-try-set-back-360")
    assert axe_check(page, "lesson try set back") == []


# ---------------------------------------------------------------- Run Buster


def test_run_buster_cup_says_what_the_next_tap_does_and_one_button_starts_the_next_round(phone, server, clock):
    clock.hold_bots()  # the board holds still at our turn
    host, _link = new_table(phone, server, "runbuster", players=2, bots=1, host_name="Hana")
    host.get_by_role("button", name="Take a seat as Hana").click()
    wait_ready(host)
    tv = phone(server.url + (host.locator("#screen-link").get_attribute("href") or ""), viewport=TV)
    wait_ready(tv)
    expect(tv.locator("#screen-seats li")).to_have_text(["Bot 1 (played by the app)", "Hana"])  # in seat order
    start(host, [tv])
    cup = host.locator(".rb-me button.rb-cup")
    for _ in range(20):  # until it is our turn to choose (the bot's turns advanced one second at a time)
        v = live_eval(host, "live => ({mine: !!live.game.view.your_turn, phase: live.game.view.phase, seq: live.game.seq})")
        if v["mine"] and v["phase"] == "choose":
            break
        at = seq(host)
        if not v["mine"]:
            clock.advance(1)
        elif v["phase"] == "roll":
            expect(cup).to_contain_text("Tap to roll")
            cup.click()
        else:
            expect(cup).to_contain_text("Tap to end the turn")
            cup.click()
        wait_seq(host, at + 1)
    else:
        pytest.fail("no choice of a straight came up")
    hand = live_eval(host, "live => live.game.view.hands[live.seat]")
    expected = ("Tap dice of your roll to add to " + "-".join(map(str, hand))) if hand else \
        "Tap dice of your roll to make a straight"
    expect(cup).to_contain_text(expected)  # never "Take a straight first" while a straight is held
    host.locator(".rb-roll button.rb-die.cand").first.click()
    expect(cup).to_contain_text(re.compile(r"^\d+Take \d(-\d)*$"))  # the cup takes the straight picked
    shoot(host, "truths-runbuster-cup-take-360")
    # The host ends the round now: the host bar's button, with the round's words, asks first.
    end = host.locator('#host-controls [data-host="end"]')
    expect(end).to_have_text("End the round now")
    host.once("dialog", lambda d: d.accept())
    end.click()
    expect(host.locator(".rb-end .rb-ended")).to_have_text("The host ended the round: the hands as they stood decided.")
    expect(host.locator("#log li").first).to_contain_text("The host ended the round: the hands as they stand decide")
    # One button starts the next round: the host bar's, named for it; the round's end card has none of its own.
    expect(host.get_by_role("button", name="Start the next round")).to_have_count(1)
    expect(host.locator(".rb-end button")).to_have_count(0)
    expect(host.get_by_role("button", name="Rematch")).to_have_count(0)
    expect(end).to_be_hidden()
    shoot(host, "truths-runbuster-ended-360")
    # The table screen: who came first, why the round ended and the tally, on one screen at 1280×720.
    expect(tv.locator(".rb-end .rb-ended")).to_be_visible()
    shoot(tv, "truths-runbuster-screen-ended-1280")
    for selector in (".why-won", ".rb-end", ".rb-tally"):
        in_view(tv, selector)
    assert tv.evaluate("document.scrollingElement.scrollHeight") <= TV["height"]


def test_the_keypad_delete_button_names_the_die_it_deletes(phone, server):
    host, link = new_table(phone, server, "sixdice", players=2, dice="Real dice, typed in")
    ana, bo = join(phone, link, "Ana"), join(phone, link, "Bo")
    start(host, [ana, bo])
    pad = ana.locator(".sd-roll")
    expect(pad).to_be_visible()  # Ana types in her start roll
    delete = pad.locator('[data-act="undo"]')
    expect(delete).to_have_text("Delete")
    expect(delete).to_be_disabled()
    pad.locator('button[data-key="2"]').click()
    pad.locator('button[data-key="-3"]').click()
    expect(delete).to_have_text("Delete −3")  # the last die typed
    pad.locator('.typed-slot[data-slot="0"]').click()
    expect(delete).to_have_text("Delete +2")  # the die selected
    delete.click()
    expect(pad.locator(".typed-slot")).to_have_count(1)
    expect(delete).to_have_text("Delete −3")
    shoot(ana, "truths-keypad-delete-named-360")


# ---------------------------------------------------------------- the table screen and the host's end


def test_the_table_screen_invites_the_room_then_shows_the_winner_why_and_the_standings(phone, server):
    host, link = new_table(phone, server, "sixdice", players=3, host_name="Hana")
    screen_url = host.locator("#screen-link").get_attribute("href") or ""
    assert "?k=" in screen_url
    tv = phone(server.url + screen_url, viewport=TV)
    wait_ready(tv)
    lobby = tv.locator("#screen-lobby")
    expect(lobby).to_be_visible()
    expect(lobby.locator(".qr svg")).to_be_visible()
    expect(tv.locator("#screen-join-link")).to_have_text(link)
    expect(tv.locator("#screen-seats li")).to_have_text(["Nobody has joined yet."])
    # The host's name is asked once: her seat is one tap.
    host.get_by_role("button", name="Take a seat as Hana").click()
    wait_ready(host)
    ana, bo = join(phone, link, "Ana"), join(phone, link, "Bo")
    expect(tv.locator("#screen-seats li")).to_have_text(["Hana", "Ana", "Bo"])
    in_view(tv, "#screen-lobby .qr svg")
    shoot(tv, "truths-screen-lobby-1280")
    assert axe_check(tv, "table screen lobby") == []
    # Whoever knows only the code sees who has joined, not the join key.
    watcher = phone(server.url + screen_url.split("?")[0], viewport=TV)
    wait_ready(watcher)
    expect(watcher.locator("#screen-seats li")).to_have_count(3)
    expect(watcher.locator(".qr")).to_have_count(0)
    assert "?k=" not in watcher.content()
    start(host, [ana, bo])
    expect(lobby).to_be_hidden()
    for page in (ana, bo):  # before anyone has moved, Take back is not offered
        expect(page.locator("#take-back-bar")).to_be_hidden()
    # The host ends the game now (no time limit at this table): the hands as they stand decide.
    end = host.locator('#host-controls [data-host="end"]')
    expect(end).to_have_text("End the game now")
    asked: list[str] = []
    host.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    end.click()
    for page in (host, ana, bo, tv):
        expect(page.locator(".sd-why")).to_have_attribute("data-reason", "ended")
    assert asked == ["End the game now? The hands as they stand decide who wins."]
    expect(host.locator("#log li").first).to_contain_text("The host ended the game: the hands as they stand decide")
    expect(tv.locator(".sd-why")).to_have_text("The host ended the game: the largest absolute hand value wins.")
    expect(tv.locator(".sd-end .sd-standings tbody tr")).to_have_count(3)
    expect(host.locator(".sd-status")).not_to_contain_text("Setting up")  # ended during the start rolls: over
    for selector in (".sd-winners", ".sd-why", ".sd-end .sd-standings"):
        in_view(tv, selector)
    assert tv.evaluate("document.scrollingElement.scrollHeight") <= TV["height"]  # nothing to scroll to
    shoot(tv, "truths-screen-end-1280")
    shoot(host, "truths-host-ended-360")


# ---------------------------------------------------------------- the host's hint for an away seat


def _type(page: Page, values: list[int]) -> None:
    pad = page.locator(".sd-roll")
    for v in values:
        pad.locator(f'button[data-key="{v}"]').click()
    at = seq(page)
    pad.locator('[data-act="send-roll"]').click()
    wait_seq(page, at + 1)


def test_the_host_shows_an_away_seats_hint_for_the_choice_she_answers(phone, server):
    host = phone(server.url + "/new/sixdice/")
    host.get_by_label("Players").select_option("2")
    host.get_by_label("Real dice, typed in").check()
    form_answered(host).locator("input[type=checkbox][name=hints]").check()
    host.locator("input[type=checkbox][name=coach]").uncheck()
    host.get_by_role("button", name="Create the table").click()
    wait_ready(host)
    link = host.locator("#join-link").get_attribute("href") or ""
    ana, bo = join(phone, link, "Ana"), join(phone, link, "Bo")
    start(host, [ana, bo])
    bo.close()  # Bo's phone leaves the table: the host answers for Bo
    expect(host.locator('[data-hand="1"] .away-mark')).to_be_visible()
    _type(host, [1, 1, 1, -1, -1, -1])  # Ana's start roll: one way to group it
    _type(host, [1, 3, 1, 1, 1, -3])  # Bo's: (+3 −3) or (+1 +1 +1 −3), Bo's choice
    wait_live(host, "live => live.game.view.pending && live.game.view.pending.kind === 'group'")
    button = host.get_by_role("button", name="Show Bo’s hint")
    expect(button).to_be_visible()
    expect(host.locator(".sd-host-hint")).to_contain_text("Bo’s phone is away")
    expect(ana.locator(".sd-hint")).to_have_count(0)  # not Ana's choice: no hint on her phone
    button.click()
    card = host.locator(".sd-hint")
    expect(card.locator("h2")).to_have_text("Hint for Bo")
    expect(card.locator(".sd-hint-move")).to_contain_text("Group: ")
    expect(card.locator(".sd-hint-value")).to_contain_text(re.compile(r"Bo’s lead|This wins at once"))
    shoot(host, "truths-host-away-hint-360")
    assert axe_check(host, "host away hint") == []
