"""A table people trust, the page half (issue 33), in the browser at 360x740.

A real-dice Six-Dice table of three: the host corrects a typed-in draw from the
console's form (its list is the server's, latest first, in the game's words),
and every phone and the table screen show what the correction changed in a
card above the board, until tapped away, highlighted on the phone whose
player must act again.  Dice are typed in: nothing is left to luck.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e import positions
from tests.e2e import runbuster_helpers as rb
from tests.e2e.conftest import shoot
from tests.e2e.harness import live_eval, next_draw, wait_live
from tests.e2e.sixdice_helpers import create_table, join, seq, start, tap_flip, tap_move, view, wait_seq
from tests.e2e.test_access import axe_check
from tests.e2e.test_host_plays import above_the_fold, host_sits, wait_flip

pytestmark = pytest.mark.browser


def _page_of(pages: list[Page], seat: int) -> Page:
    return next(p for p in pages if live_eval(p, "live => (live.seat)") == seat)


def _corrections(host: Page) -> list[dict[str, Any]]:
    return live_eval(host, "live => (live.game.corrections)")


def test_the_host_corrects_a_draw_and_every_phone_says_who_acts_again(server, phone):
    host, link = create_table(phone, server, players=3, rounds=1, dice="physical")
    seats = [join(phone, link, name) for name in ("Ana", "Bo", "Cy")]
    names = {0: "Ana", 1: "Bo", 2: "Cy"}
    start(host, seats)
    code = re.search(r"/t/([A-Z0-9]{5})/", host.url).group(1)
    screen = phone(f"{server.url}/t/{code}/screen/", viewport={"width": 1280, "height": 720})
    wait_live(screen, "live => live && live.game && live.game.view")
    pages = [host, *seats]
    # Typed-in starting hands with no zero-sum group, then whatever the game waits for, until a flip's draw is typed.
    hands = [[1, 1, 2, 2, 3, 3], [-1, -1, -2, -2, -3, -3], [1, 2, 3, 1, 2, 3]]
    for _ in range(12):
        if any(c["kind"] == "draw" for c in _corrections(host)):
            break
        p = view(host)["pending"]
        at = seq(host)
        page = _page_of(seats, p["seat"]) if p.get("seat") is not None else host
        if p["kind"] == "roll":
            start_roll = not live_eval(host, "live => (live.log.some((e) => e.action && e.action.type === 'flip'))")
            tap_move(page, hands[p["seat"]] if start_roll else [2] * p["count"])
        else:
            tap_move(page)
        wait_seq(pages, at + 1)
    listed = _corrections(host)
    draw = next(c for c in listed if c["kind"] == "draw")
    assert [c["seq"] for c in listed] == sorted((c["seq"] for c in listed), reverse=True)  # latest first
    assert listed[0] == draw
    drawer = names[draw["seat"]]

    # The form opens on the latest roll, named in the game's words.
    host.get_by_role("button", name="Correct a roll").click()
    pick = host.locator("#correct-seq")
    expect(pick).to_have_value(str(draw["seq"]))
    expect(pick.locator("option").first).to_have_text(f"{drawer}\u2019s draw: +2 \u2192 \u2026")
    host.get_by_label("The dice it really showed").fill("-1")
    asked: list[str] = []
    host.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    at = seq(host)
    host.get_by_role("button", name="Correct the roll").click()
    wait_seq([*pages, screen], at + 1)
    assert asked == [f"Correct {drawer}\u2019s draw: +2 \u2192 \u22121? The moves after it are made again while the rules allow them."]

    # Every phone and the table screen: the notice, once, naming who must act again.
    notice = host.locator("#notice-card").inner_text()
    assert f"Corrected: {drawer}'s" in notice, notice
    again = live_eval(host, "live => (live.log.filter((e) => e.notice).pop().act_again)") or []
    for page in [*pages, screen]:
        card = page.locator("#notice-card")
        expect(card).to_be_visible()
        expect(card).to_contain_text(f"Corrected: {drawer}'s")
        for s in again:
            expect(card).to_contain_text(names[s])
        mine = live_eval(page, "live => (live.seat)") in again
        expect(card).to_have_class("card notice-card mine" if mine else "card notice-card")
    for s in again:
        shoot(_page_of(seats, s), "trust-notice-act-again-360")
    shoot(screen, "trust-notice-screen")
    assert axe_check(seats[0], "notice card") == []

    # The keep choice that follows (typed dice: always so) says the hand's value after each keep.
    keeper = _page_of(seats, view(host)["pending"]["seat"])
    v = view(keeper)
    assert v["pending"]["kind"] == "keep" and len(v["keep_values"]) == len(v["keep_options"])
    default = next(c for c in v["keep_choices"] if c.get("default"))
    worth = v["keep_values"][v["keep_options"].index(default["keep"])]
    sign = "+" if worth > 0 else "\u2212" if worth < 0 else ""
    expect(keeper.locator(".sd-option.default .sd-keep-value")).to_have_text(f" Value {sign}{abs(worth)}")  # beside "Default"
    shoot(keeper, "trust-keep-values-360")

    # Tapped away: gone, and a table frame (asked for again) does not bring it back.
    seats[0].locator("#notice-card [data-notice-close]").click()
    expect(seats[0].locator("#notice-card")).to_be_hidden()
    next_draw(seats[0], "live => live.send({type: 'resync_table'})")  # the table frame comes and is drawn
    expect(seats[0].locator("#notice-card")).to_be_hidden()
    seats[0].reload()
    wait_live(seats[0], "live => live && live.game && live.game.view")
    expect(seats[0].locator("#notice-card")).to_have_count(0)


def test_the_seated_hosts_undo_is_on_the_first_screen_and_names_the_seat(server, phone):
    host, link = create_table(phone, server, players=2, rounds=1, auto_balance=True)
    host_sits(host, "Hal")
    ann = join(phone, link, "Ann")
    start(host, [ann])
    pages = [host, ann]
    mover = wait_flip(pages)
    name = {host: "Hal", ann: "Ann"}[mover]
    at = seq(mover)
    tap_flip(mover, view(mover)["legal_flips"][0])
    wait_seq(pages, at + 2)  # the flip and the app's draw after it
    undo = host.locator('[data-host="undo"]')
    expect(undo).to_have_text(f"Undo {name}\u2019s flip")  # the seat whose move it is (game.undo.seat)
    expect(undo).to_be_enabled()
    above_the_fold(host, '[data-host="undo"]')  # no scrolling, no console to open
    shoot(host, "trust-host-undo-first-screen-360")
    at = seq(host)
    asked: list[str] = []
    host.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    undo.click()  # one tap, and its confirm
    wait_seq(pages, at + 1)
    assert asked == [f"Undo {name}\u2019s flip? It stays in the list of moves, struck through."]
    for page in pages:
        expect(page.locator("#notice-card")).to_contain_text(f"Taken back: {name}'s flip.")
    wait_live(mover, "live => { const v = live.game.view; return v.pending && v.pending.kind === 'flip'; }")


def _play_against_the_app(page: Page, move: str, server: Any, phone: Any) -> None:
    """This phone's moves (by ``move``, a page function of the view) until the game is over; the app plays the rest."""
    for _ in range(400):
        g = live_eval(page, "live => (({seq: live.game.seq, status: live.game.status}))")
        if g["status"] == "finished":
            return
        if live_eval(page, move):  # sent: wait for its answer (applied, or refused when the page was behind)
            wait_live(page, "live => !live.pending")
            continue
        try:  # the app's turn: wait for its move
            wait_live(page, "(live, n) => live.game.seq > n || live.game.status === 'finished'", arg=g["seq"],
                      timeout=15_000)
        except PlaywrightTimeout:
            raise AssertionError(_stalled(page, server, phone)) from None
    raise AssertionError("the game did not end")


SHOWN = """live => ({game: live.game.id, number: live.game.number, seq: live.game.seq, status: live.game.status,
  current: live.game.view.current, phase: live.game.view.phase, your_turn: live.game.view.your_turn,
  seat: live.seat, host: live.host, pending: live.pending, socket: live.ws && live.ws.readyState,
  table_version: live.table && live.table.version})"""


def _stalled(page: Page, server: Any, phone: Any) -> str:
    """Why the app's move did not come: what the page shows beside what a fresh screen shows, and the server's log."""
    code = re.search(r"/t/([A-Z0-9]{5})/", page.url).group(1)
    screen = phone(f"{server.url}/t/{code}/screen/")
    log = "".join(line for path in sorted(server.workdir.glob("server-*.log"))
                  for line in path.read_text(errors="replace").splitlines(keepends=True)
                  if " - - [" not in line)  # not the access log
    return (f"no move from the app in 15 s at table {code}\n  this phone: {live_eval(page, SHOWN)}\n"
            f"  a fresh table screen: {live_eval(screen, SHOWN)}\n  server log (not access lines):\n{log[-4000:]}")


# Each move script answers whether it sent a move (the page then waits for its answer): rb.APP_MOVE and this.
SIXDICE_MOVE = """live => { const v = live.game.view, p = v.pending || {}; if (p.seat !== v.you) return false;
  if (p.kind === 'flip' && v.legal_flips) { const f = v.legal_flips[0];
    live.act({type: 'flip', victim: f[0], own: f[1], own_to: f[2], other: f[3], other_to: f[4]}); }
  else if (p.kind === 'group' && v.groupings) live.act(Object.assign({type: 'group'}, v.groupings[0]));
  else if (p.kind === 'keep' && v.keep_options) live.act({type: 'keep', keep: v.keep_options[0]});
  return !!live.pending; }"""


# Whole games on purpose: a game against the app plays on past its end into the next one.
@pytest.mark.parametrize("game", ["runbuster", "sixdice"])
def test_a_game_against_the_app_plays_on_past_the_first(server, phone, game):
    page = phone()
    page.goto(f"{server.url}/play/{game}/")
    page.locator("#play-now").click()
    page.wait_for_url(re.compile(r"/t/\w+/$"))
    wait_live(page, "live => live && live.game && live.game.view && live.table")
    assert live_eval(page, "live => (live.host)") is True  # this phone is host and seat
    _play_against_the_app(page, rb.APP_MOVE if game == "runbuster" else SIXDICE_MOVE, server, phone)
    if game == "runbuster":
        button = page.get_by_role("button", name="Start the next round")
        expect(page.locator(".rb-end")).not_to_contain_text("The host starts the next round.")
    else:
        button = page.locator('#host-controls [data-host="rematch"]')
    expect(button).to_be_visible()
    button.scroll_into_view_if_needed()
    shoot(page, f"trust-against-app-next-{game}-360")
    button.click()
    wait_live(page, "live => live.game.number === 2 && live.game.status === 'playing'")
    _play_against_the_app(page, rb.APP_MOVE if game == "runbuster" else SIXDICE_MOVE, server, phone)  # and the second game plays on too


def test_hints_show_only_on_the_phone_whose_choice_it_is(server, phone):
    host = phone()
    link = rb.create_table(host, server.url, players=3, dice="physical", hints=True)
    code = re.search(r"/t/([A-Z0-9]{5})/", host.url).group(1)
    seats = {}
    for name in ("Ana", "Bo"):
        seats[name] = phone()
        rb.take_seat(seats[name], link, name)
    host_sits(host, "Hal")  # the host plays the third seat on this phone
    host.get_by_role("button", name="Start").click()
    screen = phone(f"{server.url}/t/{code}/screen/", viewport={"width": 1280, "height": 720})
    pages = [host, *seats.values(), screen]
    for page in pages:
        rb.wait_started(page)
    me = live_eval(host, "live => (live.seat)")
    for _ in range(8):  # when the host's own seat begins, it rolls sixes until the turn passes (typed: no luck)
        v = rb.view(host)
        if v["current"] != me:
            break
        at = rb.seq(host)
        if v["phase"] == "roll":
            live_eval(host, "(live, n) => live.act({type: 'roll', values: Array(n).fill(6)})", v["cups"][me])
        elif v["phase"] == "choose":
            live_eval(host, "(live, s) => live.act({type: 'choose', straight: s})", rb.longest(v["hand_options"]))
        else:
            live_eval(host, "live => (live.act({type: 'end_turn'}))")
        wait_live(host, "(live, n) => live.game.seq > n", arg=at)
    v = rb.view(host)
    assert v["current"] != me and v["phase"] == "roll"
    mover = next(p for p in seats.values() if live_eval(p, "live => (live.seat)") == v["current"])
    at = rb.seq(mover)
    live_eval(mover, "(live, n) => live.act({type: 'roll', values: [1, 2, 3, 3, 5, 6].slice(0, n)})", v["cups"][v["current"]])
    for page in pages:
        wait_live(page, "(live, n) => live.game.seq > n", arg=at)
    expect(mover.locator(".rb-hints")).to_be_visible()  # the player whose choice it is sees the hint card
    assert rb.view(mover).get("hints")
    for page in pages:  # nobody else: not the other seat, not the seated host answering for another seat, not the screen
        if page is mover:
            continue
        expect(page.locator(".rb-hints")).to_have_count(0)
        assert not rb.view(page).get("hints")
    shoot(host, "trust-hints-private-host-360")


@pytest.mark.parametrize("players", [2, 3])
def test_the_last_round_is_announced_on_every_phone(server, phone, players):
    # Starts two moves before the last round of a recorded game: the moment tested is the last round's start.
    names = ["Ana", "Bo", "Cy"][:players]
    recorded = positions.record(server, "sixdice", names, {"rules": "recommended", "rounds": 2, "auto_balance": True})
    last = max(e["round"] for e in recorded["events"])
    position = positions.table_at(server, recorded, positions.ends_at(recorded, lambda e: e["round"] == last) - 2)
    host = positions.open_as(phone, server, position, "host")
    seats = [positions.open_as(phone, server, position, seat) for seat in range(players)]
    screen = phone(f"{server.url}/t/{position.code}/screen/", viewport={"width": 1280, "height": 720})
    wait_live(screen, "live => live && live.game && live.game.view")
    told = "live => live.log.some((e) => e.notice)"
    for _ in range(20):  # the seat whose turn it is plays from its own phone, one move at a time, until an event
        # announces the last round (one move each pass: a second seat moving in the same pass would move the board
        # past the notice before it is looked at)
        if live_eval(host, told) or live_eval(host, "live => (live.game.status)") == "finished":
            break
        at = seq(host)
        mover = seats[live_eval(host, "live => (live.game.view.pending.seat)")]
        wait_live(mover, "(live, n) => live.game.seq >= n && !live.pending", arg=at)
        assert live_eval(mover, SIXDICE_MOVE), "the seat whose turn it is had no move to make"
        wait_live(host, "(live, n) => live.game.seq > n || live.game.status === 'finished'", arg=at)
        for page in seats:
            wait_live(page, "live => !live.pending")
    event = live_eval(host, "live => (live.log.filter((e) => e.notice)[0])")
    assert event and event["notice"].startswith("Last round"), event
    for page in [host, *seats, screen]:
        wait_live(page, "(live, n) => live.game.seq >= n", arg=event["seq"])
        card = page.locator("#notice-card")
        expect(card).to_be_visible()
        expect(card).to_contain_text(event["notice"])
    shoot(seats[0], f"trust-last-round-{players}p-360")


def test_a_typed_die_is_changed_by_tapping_it(server, phone):
    host, link = create_table(phone, server, players=2, rounds=1, dice="physical")
    seats = [join(phone, link, name) for name in ("Ana", "Bo")]
    start(host, seats)
    p = view(host)["pending"]
    assert p["kind"] == "roll"
    page = _page_of(seats, p["seat"])
    for face in (1, 2, 3, 1, 2, 2):
        page.locator(f'.sd-keypad button[data-key="{face}"]').click()
    expect(page.locator(".sd-keypad button[data-key='3']")).to_be_disabled()  # all typed: the keys rest
    page.locator('.sd-typed [data-slot="5"]').click()  # the last die was wrong: tap it
    expect(page.locator('.sd-typed [data-slot="5"]')).to_have_attribute("aria-pressed", "true")
    page.locator('.sd-keypad button[data-key="3"]').click()  # the next key replaces it
    page.locator('.sd-typed [data-slot="0"]').click()
    expect(page.locator('[data-act="undo"]')).to_have_text("Delete +1")  # it names the selected die, not the last
    page.locator('[data-act="undo"]').click()  # deletes the selected die, not the last
    expect(page.locator(".sd-typed .typed-slot")).to_have_count(5)
    page.locator('.sd-keypad button[data-key="-1"]').click()  # typed at the end again
    shoot(page, "trust-keypad-replace-360")
    at = seq(page)
    page.locator('[data-act="send-roll"]').click()
    wait_seq([host], at + 1)
    sent = live_eval(host, "live => (live.log[live.log.length - 1].action.values)")
    assert sent == [2, 3, 1, 2, 3, -1]


def test_the_table_screens_end_fits_and_the_winner_is_the_largest_text(server, phone):
    # Starts at the end of a recorded game: what is tested is the end screen, not the play to it.
    recorded = positions.record(server, "sixdice", ["Ana", "Bo"], {"rounds": 1, "auto_balance": True})
    position = positions.table_at(server, recorded)
    screen = phone(f"{server.url}/t/{position.code}/screen/", viewport={"width": 1280, "height": 720})
    wait_live(screen, "live => live.game.status === 'finished'")
    expect(screen.locator(".sd-end .sd-winners")).to_be_visible()
    measured = screen.evaluate("""() => {
      const sizes = [...document.querySelectorAll('body *')].filter((e) => e.offsetParent !== null
        && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
        .map((e) => ({t: e.textContent.trim().slice(0, 30), s: parseFloat(getComputedStyle(e).fontSize)}));
      const win = parseFloat(getComputedStyle(document.querySelector('.sd-end .sd-winners')).fontSize);
      return {win, others: sizes.filter((x) => x.s >= win && !x.t.startsWith(document.querySelector('.sd-end .sd-winners').textContent.trim().slice(0, 30))),
              height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth};
    }""")
    shoot(screen, "trust-screen-end-1280")
    assert measured["others"] == [], measured  # the winner is the largest text on the screen
    assert measured["height"] <= 720 and measured["width"] <= 1280, measured  # the end fits, no scrolling


def test_a_lost_race_says_so_and_the_board_follows(server, phone):
    host, link = create_table(phone, server, players=2, rounds=1, dice="physical")
    seats = [join(phone, link, name) for name in ("Ana", "Bo")]
    start(host, seats)
    page = _page_of(seats, view(host)["pending"]["seat"])
    at = seq(page)
    # The phone acts on a state the table has left (its seq one behind, as when another move landed meanwhile).
    live_eval(page, "live => { live.game.seq -= 1; live.act({type: 'roll', values: [1, 1, 2, 2, 3, 3]}) }")
    expect(page.locator("#toast")).to_have_text("Someone else moved first; here is the table as it is now.")  # at once
    wait_live(page, "(live, n) => live.game.seq === n", arg=at)  # then the board as the table is
    assert seq(host) == at  # and nothing was applied
