"""The Six-Dice table screen in a real browser: every seat's phone, the host's console, real dice."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, screenshot
from tests.e2e.harness import live_eval, wait_live
from tests.e2e.sixdice_helpers import (
    assert_same_log,
    create_table,
    join,
    seq,
    start,
    tap_move,
    type_roll,
    view,
    wait_seq,
)

pytestmark = pytest.mark.browser

NO_HSCROLL = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
SMALL_TAPS = """() => [...document.querySelectorAll('#board button, #board summary, #board label')]
  .filter((e) => e.offsetParent !== null)
  .map((e) => e.getBoundingClientRect())
  .filter((r) => r.height < 44 || r.width < 44).length"""


def check_phone_layout(page) -> None:
    assert page.evaluate(NO_HSCROLL), "horizontal scroll at phone width"
    assert page.evaluate(SMALL_TAPS) == 0, "a tap target smaller than 44 px"


# A whole game on purpose: the same log on every phone after every move, to the standings.
def test_full_game_host_and_three_phones(server, phone):
    host, link = create_table(phone, server, players=3, rounds=1)
    names = ["Ana", "Bo", "Cy"]
    players = [join(phone, link, n) for n in names]
    start(host, players)
    pages = [host, *players]
    assert_same_log(pages)
    v = view(host)
    assert v["players"] == names
    # the same renderer draws a replay step read-only: every hand, no controls
    drawn = live_eval(host, "live => { const box = document.createElement('div');\n      live.renderer.render({role: 'replay', seat: null, host: false, game: {id: 0, seq: 1, view: live.game.view},\n        log: [], lastEvents: [], standings: [], table: null, draw() {}, toast() {}}, box);\n      return [box.querySelectorAll('.sd-hand').length, box.querySelectorAll('button, input').length]; }")
    assert drawn == [3, 0]
    # every page shows every hand, the bank and the round; the own hand marked
    for i, page in enumerate(players):
        expect(page.locator(".sd-hand")).to_have_count(3)
        expect(page.locator(".sd-hand.me")).to_have_attribute("data-seat", str(i))
        expect(page.locator(".sd-hand.me")).to_have_attribute("data-region", "me")
        expect(page.locator(".sd-hand.me .sd-you")).to_be_visible()
        expect(page.locator(".sd-bank")).to_contain_text(f"Bank: {v['bank']} dice")
    screenshot(players[0], "sixdice-seat-phone-start")
    moves = 0
    shots = set()
    while not view(host)["over"]:
        v = view(host)
        p = v["pending"]
        actor = players[p["seat"]]
        wait_seq([actor], seq(host))
        # everyone sees whose turn it is; only the owner's page offers the move
        for page in pages:
            expect(page.locator(".sd-hand.current")).to_have_attribute("data-seat", str(p["seat"]))
        if p["kind"] not in shots:
            if p["kind"] == "flip":
                actor.locator(".sd-hand.me button.die").first.click()
                expect(actor.locator(".sd-faces")).to_be_visible()
                check_phone_layout(actor)
                screenshot(actor, "sixdice-seat-phone-flip-face")
                actor.locator('[data-act="cancel"]').click()
            else:
                screenshot(actor, f"sixdice-seat-phone-{p['kind']}")
            shots.add(p["kind"])
        before = seq(host)
        tap_move(actor)
        wait_seq(pages, before + 1)
        text = assert_same_log(pages)
        assert text
        moves += 1
        assert moves < 60
    v = view(host)
    assert v["over"] and v["end_reason"] in ("rounds", "all_threes")
    flips = [e for e in live_eval(host, "live => (live.log)") if e["action"]["type"] == "flip"]
    assert len(flips) >= 1
    for page in pages:
        expect(page.locator(".sd-end")).to_be_visible()
        expect(page.locator(".sd-end .sd-why")).to_have_attribute("data-reason", v["end_reason"])
        winners = ", ".join(names[s] for s in v["winners"])
        expect(page.locator(".sd-winners")).to_contain_text(winners)
        wins = [1 if s in v["winners"] else 0 for s in range(3)]
        cells = page.locator("#board .sd-standings tbody td.num")
        expect(cells).to_have_text([str(w) for w in wins])
    check_phone_layout(players[1])
    screenshot(players[1], "sixdice-seat-phone-end")
    screenshot(host, "sixdice-host-phone-end")
    # Rematch: the standings come from the server and still count the first game.
    host.get_by_role("button", name="Rematch").click()
    for page in pages:
        wait_live(page, "live => live.game.number === 2")
    assert [r["wins"] for r in live_eval(host, "live => (live.standings)")] == wins


def test_real_dice_typed_in(server, phone):
    host, link = create_table(phone, server, players=2, rounds=1, dice="physical", auto_balance=True)
    ana, bo = join(phone, link, "Ana"), join(phone, link, "Bo")
    start(host, [ana, bo])
    pages = [host, ana, bo]
    # a roll is awaited: everyone's phone says so; only Ana (and the host) get the keypad
    for page in (host, bo):
        expect(page.locator(".sd-turn")).to_contain_text("Waiting for Ana to roll the 6 starting dice")
    # Ana's own phone speaks to her
    expect(ana.locator(".sd-turn")).to_have_text("Your turn: roll 6 dice (starting hand) and type them in")
    expect(ana.locator(".sd-roll .sd-step")).to_have_text("Type in the 6 dice you rolled (starting hand):")
    expect(host.locator(".sd-roll .sd-step")).to_have_text("Type in the 6 dice Ana rolled (starting hand):")
    expect(ana.locator(".sd-keypad")).to_be_visible()
    expect(host.locator(".sd-keypad")).to_be_visible()
    expect(bo.locator(".sd-keypad")).to_have_count(0)
    ana.locator('.sd-keypad [data-key="3"]').click()
    ana.locator('.sd-keypad [data-key="-3"]').click()
    ana.locator('[data-act="undo"]').click()
    expect(ana.locator(".sd-typed .die:not(.empty)")).to_have_count(1)
    check_phone_layout(ana)
    screenshot(ana, "sixdice-seat-phone-keypad")
    ana.locator('.sd-keypad [data-key="-3"]').click()
    for value in (2, -2, 1, -1):
        ana.locator(f'.sd-keypad [data-key="{value}"]').click()
    ana.locator('[data-act="send-roll"]').click()
    wait_seq(pages, 1)
    assert assert_same_log(pages) == "Ana rolls +3 −3 +2 −2 +1 −1"
    for page in (host, ana):
        expect(page.locator(".sd-turn")).to_contain_text("Waiting for Bo to roll the 6 starting dice")
    # the host types Bo's start roll: all blue, so no group: Bo then rolls the no-groups pair
    type_roll(host, [1, 1, 2, 2, 3, 3])
    wait_seq(pages, 3)
    assert_same_log(pages)
    assert view(bo)["hands"][0]["groups"] == [[3, -3], [2, -2]]  # automatic balancing kept 2 of 3 pairs
    assert view(bo)["pending"] == {"kind": "roll", "seat": 1, "count": 1, "purpose": "pair", "default": None}
    expect(bo.locator(".sd-roll")).to_contain_text("one die of the no-groups pair")
    type_roll(bo, [-2])
    wait_seq(pages, 4)
    assert "takes a pair from the bank" in " ".join(e["text"] for e in live_eval(bo, "live => (live.log)"))
    # play to the end: flips by tapping, draws typed in by the roller
    draws = iter([3, -1, 2, -3, 1, -2] * 4)
    while not view(host)["over"]:
        p = view(host)["pending"]
        page = [ana, bo][p["seat"]]
        wait_seq([page], seq(host))
        before = seq(host)
        tap_move(page, roll=[next(draws)])
        wait_seq(pages, before + 1)
        assert_same_log(pages)
    draws_logged = [e for e in live_eval(host, "live => (live.log)") if e["action"].get("type") == "roll"]
    assert len(draws_logged) >= 4
    expect(bo.locator(".sd-end")).to_be_visible()


def test_host_resolves_balancing(server, phone):
    host, link = create_table(phone, server, players=2, rounds=1, dice="physical")
    ana, bo = join(phone, link, "Ana"), join(phone, link, "Bo")
    start(host, [ana, bo])
    pages = [host, ana, bo]
    # −3 −3 −2 +1 +1 +2: four groupings reach the most zero-sum groups: a real choice
    type_roll(ana, [-3, -3, -2, 1, 1, 2])
    wait_seq(pages, 1)
    # Bo: +3 −3 +2 −2 +1 −1: one grouping, but three groups: which two to keep is a real choice
    type_roll(host, [3, -3, 2, -2, 1, -1])
    wait_seq(pages, 2)
    for page in (host, bo):
        expect(page.locator(".sd-turn")).to_contain_text("Ana chooses a grouping")
    expect(ana.locator(".sd-turn")).to_have_text("Choose how to group your hand")
    expect(ana.locator('.sd-choice[data-choice="group"] [data-act="accept"]')).to_be_visible()
    expect(bo.locator(".sd-choice")).to_have_count(0)
    panel = host.locator('.sd-choice[data-choice="group"]')
    expect(panel.locator(".sd-option.default")).to_contain_text("+2−2")
    expect(panel.locator('[data-act="alt"]')).to_have_count(3)
    screenshot(host, "sixdice-host-phone-grouping")
    # the host builds an illegal grouping by tapping: the engine says why, nothing changes
    host.locator(".sd-alts > summary").click()
    host.locator(".sd-build summary").click()
    pool = panel.locator(".sd-pool button.die")
    dice = [int(t.replace("\u2212", "-")) for t in pool.all_inner_texts()]
    assert sorted(dice) == [-3, -3, -2, 1, 1, 2]
    pool.nth(dice.index(1)).click()
    pool.nth(dice.index(-3)).click()
    host.locator('[data-act="check-grouping"]').click()
    expect(host.locator("#toast")).to_be_visible()
    reason = host.locator("#toast").inner_text()
    assert "group" in reason.lower() and len(reason) > 20, reason
    assert seq(host) == 2 and view(ana)["pending"]["kind"] == "group"
    # now a legal one: (−3 +2 +1)(+1 −2), loose −3
    host.locator('[data-act="clear"]').click()
    for face in (-3, 2, 1):
        pool.nth(dice.index(face)).click()
    host.locator('[data-act="next-group"]').click()
    second_one = [i for i, d in enumerate(dice) if d == 1][1]
    pool.nth(second_one).click()
    pool.nth(dice.index(-2)).click()
    screenshot(host, "sixdice-host-phone-build")
    host.locator('[data-act="check-grouping"]').click()
    wait_seq(pages, 3)
    text = assert_same_log(pages)
    assert text.startswith("The host chose for Ana: groups"), text  # every phone says who decided
    assert view(bo)["hands"][0] == {"groups": [[-3, 2, 1], [1, -2]], "loose": [-3]}
    expect(host.locator('.sd-choice[data-choice="keep"]')).to_be_visible()
    expect(bo.locator('.sd-choice[data-choice="keep"] [data-act="accept"]')).to_be_visible()
    expect(ana.locator(".sd-choice")).to_have_count(0)
    host.locator(".sd-choice[data-choice=\"keep\"] .sd-alts > summary").click()
    host.locator('.sd-choice[data-choice="keep"] [data-act="alt"]').first.click()
    wait_seq(pages, 4)
    assert "The host chose for Bo: keeps" in assert_same_log(pages)
    assert len(view(bo)["hands"][1]["groups"]) == 2
    screenshot(bo, "sixdice-seat-phone-after-keep")


def test_reconnect_shows_missed_moves(server, phone):
    host, link = create_table(phone, server, players=2, rounds=2, auto_balance=True)
    ana, bo = join(phone, link, "Ana"), join(phone, link, "Bo")
    start(host, [ana, bo])
    pages = [host, ana, bo]
    assert_same_log(pages)
    mover = view(host)["pending"]["seat"]
    player, other = ([ana, bo], [bo, ana])[mover == 1]
    off = other  # the one who is not moving loses the connection
    # Cut the line: every new socket goes nowhere until we let it through again.
    live_eval(off, "live => {\n      const Real = window.WebSocket; window.__blocked = true;\n      window.WebSocket = function (url) { return new Real(window.__blocked ? 'ws://127.0.0.1:9/' : url); };\n      Object.assign(window.WebSocket, {OPEN: Real.OPEN, CLOSED: Real.CLOSED});\n      live.ws.close();\n    }")
    expect(off.locator("#banner")).to_be_visible()
    seq_off = seq(off)
    before = seq(host)
    tap_move(player)
    wait_seq([host, player], before + 1)
    assert seq(off) == seq_off  # missed it
    off.evaluate("window.__blocked = false")
    expect(off.locator("#banner")).to_be_hidden(timeout=20_000)
    wait_seq([off], seq(host))
    assert_same_log(pages)
    assert view(off)["hands"] == view(host)["hands"]
    logged = [e["seq"] for e in live_eval(off, "live => (live.log)")]
    assert logged == list(range(logged[0], seq(host) + 1))  # no gap, no duplicate
    # and it plays on: the reconnected phone makes the next move
    assert view(host)["pending"]["seat"] == (1 - mover)
    before = seq(host)
    tap_move(off)
    wait_seq(pages, before + 1)
    assert_same_log(pages)


def test_out_of_turn_is_refused_clearly(server, phone):
    host, link = create_table(phone, server, players=2, rounds=1, auto_balance=True)
    ana, bo = join(phone, link, "Ana"), join(phone, link, "Bo")
    start(host, [ana, bo])
    pages = [host, ana, bo]
    assert_same_log(pages)
    v = view(host)
    mover = v["pending"]["seat"]
    idle = [ana, bo][1 - mover]
    mover_name = v["players"][mover]
    before_seq, before_view = seq(idle), view(idle)
    # tapping your own die out of turn: the page says whose turn it is, and sends nothing
    idle.locator(".sd-hand.me .die").first.click()
    expect(idle.locator("#toast")).to_contain_text(f"It is not your turn: {mover_name} is playing now.")
    expect(idle.locator(".sd-faces")).to_have_count(0)
    # a flip sent from the page anyway: the server refuses with the engine's reason
    live_eval(idle, "live => live.act({type: 'flip', victim: 1 - live.seat, own: 0, own_to: 3, other: 0, other_to: -3})")
    expect(idle.locator("#toast")).to_contain_text(f"It is {mover_name}'s turn.")
    screenshot(idle, "sixdice-seat-phone-out-of-turn")
    assert seq(idle) == before_seq == seq(host)
    assert view(idle)["hands"] == before_view["hands"]
    assert_same_log(pages)


def test_desktop_and_page_weight(server, phone):
    host, link = create_table(phone, server, players=2, rounds=1, viewport=DESKTOP, time_limit=30)
    ana = join(phone, link, "Ana")
    bo = join(phone, link, "Bo")
    start(host, [ana, bo])
    expect(host.locator(".sd-timer")).to_contain_text("Time left: 29:")
    # The server says the time left: a phone whose clock runs an hour ahead counts down the same.
    code = host.url.rstrip("/").split("/")[-2]
    ahead = phone()
    ahead.add_init_script("(() => { const real = Date.now.bind(Date); Date.now = () => real() + 3600000; })()")
    ahead.goto(f"{server.url}/t/{code}/?watch")
    expect(ahead.locator(".sd-timer")).to_contain_text("Time left: 29:")
    screenshot(host, "sixdice-host-desktop")
    # the host ends the game now (before its time is up): the host bar's button, which asks first
    host.once("dialog", lambda d: d.accept())
    host.locator('#host-controls [data-host="end"]').click()
    for page in (host, ana, bo):
        expect(page.locator(".sd-why")).to_have_attribute("data-reason", "ended")
    assert "The host ended the game" in assert_same_log([host, ana, bo])
    screenshot(host, "sixdice-host-desktop-end")
    # Page weight of a seat page on first load: empty the cache, reload, sum what came over the wire.
    cdp = ana.context.new_cdp_session(ana)
    cdp.send("Network.enable")
    cdp.send("Network.clearBrowserCache")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.setBypassServiceWorker", {"bypass": True})  # a first visit has no service worker yet
    ana.reload()
    wait_live(ana, "live => live && live.game && document.querySelector('.sd-hand')")
    entries = ana.evaluate("""() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
      .map((e) => ({name: e.name, transfer: e.transferSize, body: e.encodedBodySize, raw: e.decodedBodySize}))""")
    total = sum(e["transfer"] for e in entries)
    body = sum(e["body"] for e in entries)
    for e in entries:
        print(f"  {e['name']}: {e['transfer']} B on the wire ({e['body']} B body, {e['raw']} B unpacked)")
    print(f"seat page weight: {total} B on the wire, {body} B of bodies, {len(entries)} requests")
    assert all(e["transfer"] > 0 for e in entries), entries
    assert any(e["name"].endswith(".js") and e["body"] < e["raw"] for e in entries), "static files not compressed"
    assert total <= 60 * 1024
