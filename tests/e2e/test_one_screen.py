"""Play without scrolling: at every prompt of a whole game, the phone's own hand ([data-region=me]) and
the controls of the prompt ([data-region=act]) are fully on the first screen, at 360x740, 320x640 and
740x360, for 2, 4 and 8 players of each game; and the table screen shows every hand at 1280x800.

One game per (game, player count).  At each prompt of the seat under test (seat 0, tapped through its
page) and of the host (who answers for seat 1), the same page is resized to the three viewports and the
regions are measured.  Six-Dice uses real dice typed in (the dice come from a seeded random.Random, and
the start rolls are chosen so that the grouping and keep choices come up); the other Six-Dice seats join
through their pages, then act over their own sockets (tests/e2e/seat_socket.py).  Run Buster's other seats
are the app's bots (at a fast pace), except in the two-player game, where real dice are typed in and the
host types in seat 1's dice.
Screenshots of every prompt kind go to docs/screens/.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e import runbuster_helpers as rb
from tests.e2e import sixdice_helpers as sd
from tests.e2e.conftest import ARTIFACTS, PHONE, POOL, Server, shoot
from tests.e2e.harness import wait_live
from tests.e2e.seat_socket import SeatSocket

pytestmark = pytest.mark.browser

VIEWPORTS = [(320, 640), (740, 360), (360, 740)]  # the phone's own size last: the page is left at it
assert VIEWPORTS[-1] == (PHONE["width"], PHONE["height"])
SCREEN = {"width": 1280, "height": 800}
FACES = [-3, -2, -1, 1, 2, 3]

MEASURE = """async ([regions, w, h]) => {
  // Reading a box lays the page out at once; only a resize the page has not taken yet is waited for, a frame at a time.
  for (let i = 0; i < 60 && (innerWidth !== w || innerHeight !== h); i++) await new Promise((r) => requestAnimationFrame(r));
  const out = {scrollY: window.scrollY, w: innerWidth, h: innerHeight,
               hscroll: document.documentElement.scrollWidth > document.documentElement.clientWidth, boxes: {}};
  for (const r of regions) {
    const nodes = document.querySelectorAll(`[data-region="${r}"]`);
    out.boxes[r] = nodes.length === 1 ? (({top, left, bottom, right}) => ({top, left, bottom, right}))(nodes[0].getBoundingClientRect())
                                      : {count: nodes.length};
  }
  return out;
}"""


class Checker:
    """Measures the regions at each viewport and saves the first screenshot of each prompt kind."""

    def __init__(self, landscape_shots: bool = False) -> None:
        self.landscape_shots = landscape_shots
        self.kinds: dict[str, int] = {}
        self.shots: set[str] = set()

    def check(self, page: Page, kind: str, regions: tuple[str, ...] = ("me", "act"), shot: str | None = None) -> None:
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        for w, h in VIEWPORTS:
            page.set_viewport_size({"width": w, "height": h})
            m = page.evaluate(MEASURE, [list(regions), w, h])
            where = f"{kind} at {w}x{h}"
            try:
                self.assert_inside(m, regions, where, w, h)
            except AssertionError:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"one-screen-failed-{kind}-{w}x{h}.png"))
                raise
            if shot and shot not in self.shots and ((w, h) == (360, 740) or ((w, h) == (740, 360) and self.landscape_shots)):
                suffix = "" if w < h else "-landscape"
                shoot(page, f"{shot}{suffix}")
        if shot:
            self.shots.add(shot)

    @staticmethod
    def assert_inside(m: dict[str, Any], regions: tuple[str, ...], where: str, w: int, h: int) -> None:
        assert (m["w"], m["h"]) == (w, h), f"{where}: measured at {m['w']}x{m['h']}"
        assert m["scrollY"] == 0, f"{where}: the page scrolled"
        assert not m["hscroll"], f"{where}: the page scrolls sideways"
        for r in regions:
            box = m["boxes"][r]
            assert "count" not in box, f"{where}: {box['count']} elements are [data-region={r}]"
            assert box["top"] >= 0 and box["left"] >= 0, f"{where}: {r} starts off screen: {box}"
            assert box["bottom"] <= h + 0.5 and box["right"] <= w + 0.5, f"{where}: {r} ends off screen: {box}"


def open_page(browser, url: str | None = None, viewport: dict[str, int] = PHONE) -> Page:
    """A page of a context from the process's pool (tests/e2e/conftest.py), with the app's own policy on."""
    _, page = POOL.take(browser, viewport, bypass_csp=False)
    page.set_default_timeout(15_000)
    if url:
        page.goto(url)
    return page


def close_all(pages: list[Page]) -> None:
    for page in pages:
        POOL.give_back(page.context)


def close_page(page: Page, pages: list[Page]) -> None:
    """Put away a page the test looks at no more: an open page draws every move of the game (Chromium's time)."""
    pages.remove(page)
    POOL.give_back(page.context)


def check_screen(screen: Page, hands: int, selector: str, name: str | None = None) -> None:
    """The table screen at 1280x800: every hand fully in view, no scrolling, no controls."""
    expect(screen.locator(selector)).to_have_count(hands)
    boxes = screen.evaluate(f"""() => [...document.querySelectorAll('{selector}')].map((e) => e.getBoundingClientRect().bottom)""")
    assert max(boxes) <= SCREEN["height"], f"a hand is below the screen: {boxes}"
    assert screen.evaluate("window.scrollY") == 0
    assert screen.locator("#board button, #board input, #board select").count() == 0
    if name:
        shoot(screen, name)


# ------------------------------------------------------------------ Six-Dice


GROUP_CHOICE = [-3, -3, -2, 1, 1, 2]  # four groupings reach the most zero-sum groups
KEEP_CHOICE = [3, -3, 2, -2, 1, -1]  # one grouping with three groups: which two to keep


def sd_action(v: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The move a seat's page sends for another player: first legal flip, default choices, seeded dice."""
    p = v["pending"]
    if p["kind"] == "flip":
        victim, own, own_to, other, other_to = v["legal_flips"][0]
        return {"type": "flip", "victim": victim, "own": own, "own_to": own_to, "other": other, "other_to": other_to}
    if p["kind"] == "roll":
        return {"type": "roll", "values": [rng.choice(FACES) for _ in range(p["count"])]}
    d = p["default"]
    if p["kind"] == "group":
        return {"type": "group", "zero_groups": d["zero_groups"], "pairs": d["pairs"], "seat": p["seat"]}
    return {"type": "keep", "keep": d, "seat": p["seat"]}


def play_sixdice(browser, server: Server, players: int, start0: list[int] | None, start1: list[int],
                 checker: Checker, rng: random.Random) -> None:
    host = open_page(browser)
    pages: list[Page] = [host]
    others: list[SeatSocket] = []  # seats 1 and up
    try:
        sd_host, link = sd.create_table(lambda url, viewport=PHONE: (host.goto(url), host)[1], server, players=players,
                                        rounds=1, dice="physical")
        names = [f"P{i + 1}" for i in range(players)]
        names[0] = "Olena"
        code = re.search(r"/t/([A-Z0-9]+)/", link).group(1)
        # Every seat joins through its page; the seats other than Olena's are moved from the test over their own
        # sockets after that (tests/e2e/seat_socket.py), so only the pages measured draw each move.
        for k, name in enumerate(names):
            page = open_page(browser)
            pages.append(page)
            sd.join(lambda url, page=page: (page.goto(url), page)[1], link, name)
            if k == 0:
                me = page
            else:
                others.append(SeatSocket.take_over(page, server.url, code))
                close_page(page, pages)
        sd.start(host, [me], seats=players)
        screen = open_page(browser, f"{server.url}/t/{code}/screen/", viewport=SCREEN)
        pages.append(screen)
        tag = f"sixdice-{players}p"
        for _ in range(400):
            v = sd.view(host)
            if v["over"]:
                break
            p = v["pending"]
            at = sd.seq(host)
            if p["seat"] == 0:
                sd.wait_seq([me], at)
                kind = "keypad" if p["kind"] == "roll" else p["kind"]
                if kind == "flip":
                    checker.check(me, "sixdice-flip", shot=f"{tag}-flip-own")
                    flip = sd.view(me)["legal_flips"][0]
                    victim, own, own_to, other, _ = flip
                    me.locator(f'.sd-hand.me button.die[data-i="{own}"]').click()
                    checker.check(me, "sixdice-flip", shot=f"{tag}-flip-face")
                    me.locator(f'.sd-faces button[data-face="{own_to}"]').click()
                    checker.check(me, "sixdice-flip", shot=f"{tag}-flip-victim")
                    me.locator(f'.sd-cands button[data-cand="{victim}:{other}"]').click()
                    checker.check(me, "sixdice-flip", shot=f"{tag}-flip-confirm")
                    me.locator('[data-act="confirm-flip"]').click()
                else:
                    checker.check(me, f"sixdice-{kind}", shot=f"{tag}-{kind}")
                    if kind == "keypad":
                        values = start0 if p["purpose"] == "start" and start0 else [rng.choice(FACES) for _ in range(p["count"])]
                        sd.type_roll(me, values)
                    else:
                        me.locator('.sd-choice [data-act="accept"]').click()
            elif p["seat"] == 1 and (p["kind"] in ("group", "keep") or p.get("purpose") == "start"):
                # the host answers for seat 1: its start roll and its balancing choices
                checker.check(host, f"sixdice-host-{p['kind']}", regions=("act",), shot=f"{tag}-host-{p['kind']}")
                if p["kind"] == "roll":
                    sd.type_roll(host, start1)
                else:
                    host.locator('.sd-choice [data-act="accept"]').click()
            else:
                seat = others[p["seat"] - 1]
                seat.wait_seq(at)
                seat.act(sd_action(seat.view, rng))
            sd.wait_seq([host], at + 1)
            if players == 8 and sd.view(host)["round"] == 1 and "sixdice-screen" not in checker.kinds:
                checker.kinds["sixdice-screen"] = 1
                sd.wait_seq([screen], sd.seq(host))
                check_screen(screen, players, ".sd-hand", "sixdice-8p-table-screen")
        v = sd.view(host)
        assert v["over"]
        sd.wait_seq([me, screen], sd.seq(host))
        expect(me.locator(".sd-end")).to_be_visible()
        me.set_viewport_size({"width": 360, "height": 740})
        shoot(me, f"{tag}-over")
        if players == 8:
            check_screen(screen, players, ".sd-hand", "sixdice-8p-table-screen-end")
    finally:
        for seat in others:
            seat.close()
        close_all(pages)


# A whole game on purpose: every prompt kind is met on the way and measured at every screen size.
def test_sixdice_two_players(browser, server):
    checker = Checker()
    play_sixdice(browser, server, 2, GROUP_CHOICE, KEEP_CHOICE, checker, random.Random(2))
    assert {"sixdice-keypad", "sixdice-group", "sixdice-flip", "sixdice-host-keep", "sixdice-host-roll"} <= set(checker.kinds)


# A whole game on purpose: every prompt kind is met on the way and measured at every screen size.
def test_sixdice_four_players(browser, server):
    checker = Checker()
    play_sixdice(browser, server, 4, KEEP_CHOICE, GROUP_CHOICE, checker, random.Random(4))
    assert {"sixdice-keypad", "sixdice-keep", "sixdice-flip", "sixdice-host-group"} <= set(checker.kinds)


# A whole game on purpose: every prompt kind, and the table screen from the first roll to the end, at 8 players.
def test_sixdice_eight_players_and_the_table_screen(browser, server):
    checker = Checker(landscape_shots=True)
    play_sixdice(browser, server, 8, None, KEEP_CHOICE, checker, random.Random(8))
    assert {"sixdice-keypad", "sixdice-flip", "sixdice-host-keep", "sixdice-screen"} <= set(checker.kinds)


# ------------------------------------------------------------------ Run Buster


def rb_kind(v: dict[str, Any]) -> str:
    return {"roll": "roll", "choose": "take"}.get(v["phase"], "end")


def rb_tap(page: Page, v: dict[str, Any], checker: Checker, tag: str, keys: list[int] | None = None) -> None:
    """The seat under test: check the regions, then tap the move (its own keypad for real dice)."""
    kind = "keypad" if keys is not None else rb_kind(v)
    checker.check(page, f"runbuster-{kind}", shot=f"{tag}-{kind}")
    if keys is not None:
        rb.type_roll(page, keys)
    else:
        rb.step(page)


# A whole round on purpose: every prompt kind of real dice typed in, measured at every screen size.
def test_runbuster_two_players_real_dice(browser, server):
    """Real dice: Olena types hers; the host types in seat 1's.  The dice are chosen so that every
    prompt comes up: a roll that cannot extend (end the turn), a take, and a bust."""
    checker = Checker()
    host = open_page(browser)
    pages = [host]
    try:
        link = rb.create_table(host, server.url, players=2, dice="physical", hints=True)
        me, bo = open_page(browser), open_page(browser)
        pages += [me, bo]
        rb.take_seat(me, link, "Olena")
        rb.take_seat(bo, link, "Bo")
        host.get_by_role("button", name="Start").click()
        for page in pages:
            rb.wait_started(page)
        rng = random.Random(40)  # a short round (20 moves) in which every prompt comes up at least twice, with busts
        tag = "runbuster-2p"
        for _ in range(200):
            v = rb.view(host)
            if v["over"]:
                break
            at = rb.seq(host)
            if v["current"] == 0:
                rb.wait_past(me, at - 1)
                mine = rb.view(me)
                if mine["phase"] == "roll":
                    rb_tap(me, mine, checker, tag, keys=[rng.randint(1, 6) for _ in range(mine["cups"][0])])
                else:
                    rb_tap(me, mine, checker, tag)
            elif v["phase"] == "roll":
                rb.wait_past(host, at - 1)
                checker.check(host, "runbuster-host-keypad", regions=("act",), shot=f"{tag}-host-keypad")
                rb.type_roll(host, [rng.randint(1, 6) for _ in range(v["cups"][1])])
            else:
                rb.wait_past(bo, at - 1)
                rb.step(bo)
            rb.wait_past(host, at)
        assert rb.view(host)["over"]
        kinds = ("runbuster-keypad", "runbuster-take", "runbuster-end", "runbuster-host-keypad")
        assert all(checker.kinds.get(kind, 0) >= 2 for kind in kinds), checker.kinds
    finally:
        close_all(pages)


def play_runbuster_with_bots(browser, server: Server, players: int) -> Checker:
    checker = Checker(landscape_shots=players == 8)
    host = open_page(browser)
    pages = [host]
    try:
        link = rb.create_table(host, server.url, players=players, hints=True)
        me = open_page(browser)
        pages.append(me)
        rb.take_seat(me, link, "Olena")
        add = host.locator("#board .rb-addbot")
        for k in range(players - 1):
            add.click()
            expect(host.locator(f'#seats li[data-seat="{k + 1}"]')).to_be_visible()
        host.get_by_role("button", name="Start").click()
        rb.wait_started(me)
        close_page(host, pages)  # the host (not seated) has started the game: its page is looked at no more
        code = re.search(r"/t/([A-Z0-9]+)/", link).group(1)
        screen = open_page(browser, f"{server.url}/t/{code}/screen/", viewport=SCREEN)
        pages.append(screen)
        check_screen(screen, players - 0, ".rb-player", f"runbuster-{players}p-table-screen" if players == 8 else None)
        close_page(screen, pages)
        tag = f"runbuster-{players}p"
        for _ in range(2000):
            wait_live(me, "live => live.game.view.over || live.game.view.your_turn", timeout=rb.BOT_TIMEOUT * 4)
            v = rb.view(me)
            if v["over"]:
                break
            rb_tap(me, v, checker, tag)
        assert rb.view(me)["over"]
        me.set_viewport_size({"width": 360, "height": 740})
        expect(me.locator(".rb-end")).to_be_visible()
        shoot(me, f"{tag}-over")
        assert {"runbuster-roll", "runbuster-take", "runbuster-end"} <= set(checker.kinds)
        return checker
    finally:
        close_all(pages)


# A whole round on purpose: every prompt kind with the app's players between, measured at every screen size.
def test_runbuster_four_players_with_bots(browser, server):
    play_runbuster_with_bots(browser, server, 4)


# A whole round on purpose: the table screen with 8 players through a round.
def test_runbuster_eight_players_with_bots_and_the_table_screen(browser, server):
    play_runbuster_with_bots(browser, server, 8)
