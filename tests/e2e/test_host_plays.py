"""The host plays too, a wrong flip can be fixed, and nobody waits in silence: in the browser, at 360x740.

One server and one Chromium for the module.  Six-Dice with app dice (the
server's dice are seeded):

- a wrong flip fixed by the mover's take-back ("Take back your flip", with a
  confirmation), then a later one by the host's undo ("Undo Ann's flip");
  each time the die the app drew after the fixed flip has the same value in
  the event log (the Event rows of the server's database);
- the host takes a seat and plays a whole three-player game from one phone,
  the other two seats app players added in the lobby;
- a phone that leaves is marked away on every phone and on the table screen;
  the host is asked "Dee is away: let the app play, or wait?"; the returning
  phone takes its seat back with "I'm back"; after the host's "Give the seat
  back" the player's page is a seat again with no reload; the hand-over QR
  code appears beside its seat; closing mid-game reaches every phone at once.

Screenshots go to docs/screens/; axe finds no serious or critical violation;
what a player must tap is checked to be above the fold.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, shoot
from tests.e2e.harness import live_eval, wait_live, wait_page
from tests.e2e.sixdice_helpers import create_table, join, tap_flip, view, wait_seq
from tests.e2e.test_access import axe_check

pytestmark = pytest.mark.browser

AWAY_MS = 1500  # the page's wait before the host is asked (30 s at a real table)


def above_the_fold(page: Page, selector: str) -> None:
    """The first match is on the first screen (read in the page in one step: the board may be drawn again meanwhile)."""
    wait_page(
        page, """(s) => { const e = document.querySelector(s); if (!e) return false;
                    const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""",
        arg=selector)


def events(server, game_id: int) -> list[dict[str, Any]]:
    """The Event rows of a game, read from the server's database."""
    with sqlite3.connect(server.env["SQLITE_PATH"]) as db:
        rows = db.execute("SELECT seq, actor, action FROM tables_event WHERE game_id = ? ORDER BY seq", (game_id,))
        return [{"seq": s, "actor": a, "action": json.loads(x)} for s, a, x in rows]


def seat_of(page: Page) -> int:
    return live_eval(page, "live => (live.seat)")


def seq(page: Page) -> int:
    return live_eval(page, "live => (live.game.seq)")


def host_sits(host: Page, name: str) -> None:
    host.get_by_label("Playing too? Take a seat on this phone:").fill(name)
    host.get_by_role("button", name="Take a seat").click()
    wait_live(host, "live => live && live.seat !== null && live.host")


def start(host: Page, pages: list[Page]) -> None:
    host.get_by_role("button", name="Start").click()
    for page in [host, *pages]:
        wait_live(page, "live => live.game && live.game.view && live.game.status === 'playing'")


def wait_flip(pages: list[Page]) -> Page:
    """The page whose player must flip now (after the app's start rolls)."""
    first = pages[0]
    wait_live(first, "live => { const v = live.game.view; return v.over || (v.pending && v.pending.kind === 'flip'); }", timeout=30_000)
    mover = view(first)["pending"]["seat"]
    page = next(p for p in pages if seat_of(p) == mover)
    wait_live(page, "(live, s) => { const v = live.game.view; return v.pending && v.pending.kind === 'flip' && v.pending.seat === s && Array.isArray(v.legal_flips); }", arg=mover)
    return page


def first_draw_after(rows: list[dict[str, Any]], seq_: int) -> dict[str, Any]:
    return next(r for r in rows if r["seq"] > seq_ and r["actor"] == "system" and r["action"]["type"] == "roll")


def test_a_wrong_flip_is_taken_back_by_the_mover_then_undone_by_the_host(server, phone):
    host, join_url = create_table(phone, server, players=3, auto_balance=True)
    host_sits(host, "Hal")
    ann, dee = join(phone, join_url, "Ann"), join(phone, join_url, "Dee")
    pages = [host, ann, dee]
    expect(host.locator('#seats li[data-seat="2"] .dot.on')).to_be_visible()
    start(host, [ann, dee])

    # The mover flips with the wrong victim, and takes it back: a labelled button that asks first.
    mover = wait_flip(pages)
    others = [p for p in pages if p is not mover]
    flips = view(mover)["legal_flips"]
    wrong = flips[0]
    right = next((f for f in flips if f[0] != wrong[0]), flips[-1])
    bar = mover.locator("#take-back")
    expect(mover.locator("#take-back-bar")).to_be_hidden()  # their prompt has the room while they act
    for page in [p for p in pages if p is not mover]:  # the others: nothing to take back, so no offer
        expect(page.locator("#take-back-bar")).to_be_hidden()
    before = seq(mover)
    tap_flip(mover, wrong)
    flip_seq = before + 1
    wait_seq(pages, before + 2)  # the flip and the app's draw after it
    expect(bar).to_be_enabled()
    expect(bar).to_have_text("\u21b6 Take back your flip")
    for page in others:
        expect(page.locator("#take-back")).to_be_disabled()
    above_the_fold(mover, "#take-back")
    shoot(mover, "host-take-back-flip-360")
    assert axe_check(mover, "take-back") == []
    drawn = first_draw_after(events(server, live_eval(mover, "live => (live.game.id)")), flip_seq)
    at = seq(mover)
    asked: list[str] = []
    mover.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    bar.click()
    taker = {host: "Hal", ann: "Ann", dee: "Dee"}[mover]
    wait_seq(pages, at + 1)
    assert asked == ["Take back your flip? You can make the move again."]
    expect(bar).to_be_disabled()
    for page in pages:  # a card above the board on every phone, until tapped away
        expect(page.locator("#notice-card")).to_contain_text(f"Taken back: {taker}'s flip. Hands now:")

    # The flip again, with the right victim: the app deals the same die again.
    wait_live(mover, "live => { const v = live.game.view; return v.pending && v.pending.kind === 'flip'; }")
    at = seq(mover)
    tap_flip(mover, right)
    wait_seq(pages, at + 2)
    rows = events(server, live_eval(mover, "live => (live.game.id)"))
    again = first_draw_after(rows, at + 1)
    assert again["action"]["values"] == drawn["action"]["values"], (drawn, again)

    # A later flip, with the wrong victim: the host undoes it from the console folded under the hand.
    mover = wait_flip(pages)
    name = {host: "Hal", ann: "Ann", dee: "Dee"}[mover]
    flips = view(mover)["legal_flips"]
    at = seq(mover)
    tap_flip(mover, flips[0])
    wait_seq(pages, at + 2)
    console = host.locator("#host-console")
    if not console.evaluate("(d) => d.open"):
        host.locator("#host-console > summary").click()
    undo = host.locator('[data-host="undo"]')
    expect(undo).to_have_text(f"Undo {name}\u2019s flip")
    expect(undo).to_be_enabled()
    undo.scroll_into_view_if_needed()
    shoot(host, "host-undo-flip-360")
    assert axe_check(host, "host undo") == []
    drawn = first_draw_after(events(server, live_eval(host, "live => (live.game.id)")), at + 1)
    at2 = seq(host)
    asked = []
    host.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    undo.click()
    wait_seq(pages, at2 + 1)
    assert asked == [f"Undo {name}\u2019s flip? It stays in the list of moves, struck through."]
    for page in pages:
        expect(page.locator("#notice-card")).to_contain_text(f"Taken back: {name}'s flip. Hands now:")
    wait_live(mover, "live => { const v = live.game.view; return v.pending && v.pending.kind === 'flip' && Array.isArray(v.legal_flips); }")
    at3 = seq(mover)
    tap_flip(mover, view(mover)["legal_flips"][-1])
    wait_seq(pages, at3 + 2)
    again = first_draw_after(events(server, live_eval(host, "live => (live.game.id)")), at3 + 1)
    assert again["action"]["values"] == drawn["action"]["values"], (drawn, again)


# A whole game on purpose: a seated host plays every prompt from one phone.
def test_the_host_plays_a_whole_game_from_one_phone(server, phone):
    host, _join_url = create_table(phone, server, players=3)
    for n in (1, 2):
        host.get_by_role("button", name="Add a bot").click()
        expect(host.locator("#seats li")).to_have_count(n)
    host_sits(host, "Hal")
    expect(host.locator("#app")).to_have_attribute("data-role", "host")
    me = seat_of(host)
    start(host, [])
    expect(host.locator(".sd-hand.me")).to_be_visible()
    expect(host.locator("#host-console")).not_to_have_attribute("open", "")  # folded while the game is played
    # Both boxes read in one step in the page: the board may be drawn again between two separate reads.
    hand, console = host.evaluate("""() => [document.querySelector('[data-region="me"]'), document.getElementById('host-console')]
        .map((e) => { const r = e.getBoundingClientRect(); return {y: r.y, height: r.height}; })""")
    assert console["y"] >= hand["y"] + hand["height"]  # the hand first, the console below
    host.set_viewport_size(DESKTOP)  # on a laptop: side by side
    host.locator("#host-console > summary").click()
    board, console = host.locator("#board").bounding_box(), host.locator("#host-console").bounding_box()
    assert board and console and console["x"] >= board["x"] + board["width"] - 1, (board, console)
    shoot(host, "host-seated-laptop")
    host.locator("#host-console > summary").click()
    host.set_viewport_size(PHONE)
    shots = set()
    for _ in range(200):
        wait_live(host, "(live, me) => { const v = live.game.view; return v.over || live.game.status !== 'playing' || (v.pending && v.pending.seat === me && !live.pending && (v.pending.kind !== 'flip' || Array.isArray(v.legal_flips))); }", arg=me, timeout=60_000)
        v = view(host)
        if v["over"] or live_eval(host, "live => (live.game.status)") != "playing":
            break
        kind = v["pending"]["kind"]
        expect(host.locator("#board")).not_to_contain_text("Waiting for you")
        act = host.locator('[data-region="act"]')
        expect(act).to_be_visible()
        if kind not in shots:
            shots.add(kind)
            shoot(host, f"host-seated-{kind}-360")
            above_the_fold(host, '.sd-hand.me button.die' if kind == "flip" else '[data-region="act"] button')
        at = seq(host)
        if kind == "flip":
            tap_flip(host, v["legal_flips"][0])
        else:
            host.locator('.sd-choice [data-act="accept"]').first.click()
        wait_live(host, "(live, n) => live.game.seq > n", arg=at)
    wait_live(host, "live => live.game.status === 'finished'", timeout=60_000)
    expect(host.locator('[data-host="rematch"]')).to_be_visible()
    shoot(host, "host-seated-over-360")
    assert axe_check(host, "seated host, game over") == []
    # The seats list and the count of seats are what every phone shows.
    assert host.locator("#seats li").count() == 3


def test_away_marks_the_hosts_prompt_im_back_give_back_handover_and_closing(server, phone):
    host, join_url = create_table(phone, server, players=3, auto_balance=True)
    host.context.add_init_script(f"window.SIXDICE_AWAY_MS = {AWAY_MS};")
    host.reload()
    ann, dee = join(phone, join_url, "Ann"), join(phone, join_url, "Dee")
    bo = join(phone, join_url, "Bo")
    for i in range(3):
        expect(host.locator(f'#seats li[data-seat="{i}"] .dot.on')).to_be_visible()
    start(host, [ann, dee, bo])
    code = re.search(r"/t/([A-Z0-9]{5})/", join_url).group(1)
    screen = phone(f"{server.url}/t/{code}/screen/", viewport=DESKTOP)  # a tablet or TV in the middle
    wait_live(screen, "live => live && live.game && live.game.view")
    players = {"Ann": ann, "Dee": dee, "Bo": bo}

    # The seat in turn leaves: marked away everywhere; after a while the host is asked.
    mover = wait_flip(list(players.values()))
    name = next(n for n, p in players.items() if p is mover)
    seat = seat_of(mover)
    ctx = mover.context
    mover.close()
    rest = [p for p in players.values() if p is not mover]
    for page in [*rest, screen]:
        expect(page.locator(f'[data-hand="{seat}"] .away-mark')).to_have_text("away")
    shoot(rest[0], "host-away-mark-360")
    shoot(screen, "host-away-screen")
    prompt = host.locator("#away-prompt")
    expect(prompt).to_contain_text(f"{name} is away: let the app play, or wait?")
    above_the_fold(host, '#away-prompt [data-away-act="bot"]')
    shoot(host, "host-away-prompt-360")
    assert axe_check(host, "away prompt") == []
    host.locator('#away-prompt [data-away-act="bot"]').click()
    expect(prompt).to_be_hidden()
    wait_live(host, "(live, s) => live.table.seats[s].bot", arg=seat)

    # The phone comes back: one tap, "I'm back", and the seat is its own again.
    back = ctx.new_page()
    back.goto(f"{server.url}/t/{code}/")
    expect(back.locator("#im-back")).to_be_visible()
    above_the_fold(back, "#im-back")
    shoot(back, "host-im-back-360")
    back.locator("#im-back").click()
    wait_live(back, "(live, s) => live.seat === s", arg=seat)
    expect(back.locator("#away-note")).to_be_hidden()
    expect(back.locator("#lost-seat")).to_have_count(0)
    expect(back.locator("#watching-note")).to_be_hidden()
    wait_live(host, "(live, s) => !live.table.seats[s].bot", arg=seat)

    # The host lets the app play another seat, then gives it back: the player's page follows, no reload.
    other = next(p for p in rest)
    oseat = seat_of(other)
    host.locator('[data-sheet="seats-card"]').click()
    row = host.locator(f'#seats li[data-seat="{oseat}"]')
    host.once("dialog", lambda d: d.accept())
    row.locator('[data-seat-act="bot"]').click()
    wait_live(other, "live => live.seat === null")
    expect(other.locator("#away-note")).to_be_visible()
    row.locator('[data-seat-act="give-back"]').click()
    wait_live(other, "(live, s) => live.seat === s", arg=oseat)
    expect(other.locator("#away-note")).to_be_hidden()
    expect(other.locator("#app")).to_have_attribute("data-role", "seat")
    expect(other.locator(f'#seats li[data-seat="{oseat}"]')).to_contain_text("(you)")
    expect(other.locator("#watching-note")).to_be_hidden()
    for page in [host, *rest]:  # here again on every phone: not marked away
        expect(page.locator(f'#seats li[data-seat="{oseat}"] .dot.on')).to_be_visible()
        expect(page.locator(f'[data-hand="{oseat}"] .away-mark')).to_have_count(0)

    # The hand-over link and its QR code appear beside the seat they are for.
    host.once("dialog", lambda d: d.accept())
    row.locator('[data-seat-act="handover"]').click()
    box = row.locator(".handover")  # the row is drawn again on every change: located afresh each time
    expect(box.locator(".handover-link")).to_be_visible()
    expect(box.locator(".handover-qr svg")).to_be_in_viewport()  # where the host tapped, no scrolling
    shoot(host, "host-handover-beside-seat-360")
    assert axe_check(host, "hand-over beside the seat") == []
    box.locator("[data-handover-close]").click()
    expect(row.locator(".handover")).to_have_count(0)
    host.locator("#seats-card .sheet-close").click()

    # Closing mid-game reaches every phone at once: the note and the standings, no prompt left.
    watchers = [back, *rest, screen]
    host.once("dialog", lambda d: d.accept())
    host.locator('[data-sheet="seats-card"]').click()
    host.locator('#seats-card [data-host="close"]').click()
    for page in [host, *watchers]:
        expect(page.locator("#board #closed-note")).to_be_visible()
        expect(page.locator('[data-region="act"]')).to_have_count(0)
        expect(page.locator(".sd-turn.mine")).to_have_count(0)
        expect(page.locator("#take-back-bar")).to_be_hidden()
    above_the_fold(back, "#closed-note")
    shoot(back, "host-closed-360")
    assert axe_check(back, "closed") == []
