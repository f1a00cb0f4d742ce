"""The Run Buster table screen in a real browser: phones play by tapping their cups and dice."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from runbuster.rules import State, rank_options, suggestion, win_probability
from tests.e2e import positions
from tests.e2e import runbuster_helpers as rb
from tests.e2e.conftest import DESKTOP, PHONE, screenshot
from tests.e2e.harness import live_eval, wait_ready

pytestmark = pytest.mark.browser

PAGE_BUDGET = 60 * 1024  # bytes on the wire for the first load of a seat's page


def two_player_table(server, phone, *, dice: str = "app", hints: bool = False):
    host = phone(viewport=DESKTOP)
    join_url = rb.create_table(host, server.url, players=2, dice=dice, hints=hints)
    ana, bo = phone(), phone()
    rb.take_seat(ana, join_url, "Ana")
    rb.take_seat(bo, join_url, "Bo")
    host.get_by_role("button", name="Start").click()
    for page in (host, ana, bo):
        rb.wait_started(page)
    return host, [ana, bo], join_url


def assert_phone_rules(page) -> None:
    wide = page.evaluate(
        """w => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > w)
                .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""",
        PHONE["width"],
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
    # Every shown button measured in one read of the page: a board redrawn between two reads (a frame that
    # arrives after the page is shown) would leave a button measured one at a time detached, with no box.
    small = page.evaluate("""() => [...document.querySelectorAll('#board button')]
        .map((b) => [b, b.getBoundingClientRect()])
        .filter(([b, r]) => r.width > 0 && r.height > 0 && getComputedStyle(b).visibility !== 'hidden')
        .filter(([b, r]) => r.width < 44 || r.height < 44).map(([b]) => b.outerHTML)""")
    assert page.locator("#board button:visible").count() > 0 and small == [], small


def first_load_bytes(page) -> dict[str, int]:
    """Bytes on the wire (headers + compressed bodies) of the page and everything it loaded."""
    return page.evaluate(
        """() => {
          const nav = performance.getEntriesByType('navigation')[0];
          const res = performance.getEntriesByType('resource');
          const wire = nav.transferSize + res.reduce((a, r) => a + r.transferSize, 0);
          const body = nav.decodedBodySize + res.reduce((a, r) => a + r.decodedBodySize, 0);
          return {wire, body, files: res.length + 1};
        }"""
    )


# A whole game on purpose: every tap a player makes, from the first roll to the end.
def test_two_phones_play_a_game_to_the_end_by_tapping(server, phone):
    host, seats, _ = two_player_table(server, phone)
    ana = seats[0]
    expect(ana.locator(".rb-me")).to_be_visible()
    first = rb.view(ana)["current"]
    expect(seats[first].locator(".rb-me")).to_have_attribute("class", re.compile("state-green"))
    expect(seats[1 - first].locator(".rb-me")).to_have_attribute("class", re.compile("state-red"))
    expect(host.locator(".rb-p1")).to_have_text(f"{['Ana', 'Bo'][first]} rolls first this round")

    shot = False
    for _ in range(600):
        v = rb.view(host)
        if v["over"]:
            break
        page = seats[v["current"]]
        rb.wait_past(page, rb.seq(host) - 1)  # the roller's phone has seen what the host saw
        mine = rb.view(page)
        if mine["phase"] == "choose":
            expect(page.locator(".rb-me")).to_have_attribute("class", re.compile("state-yellow"))
            if not shot:
                assert_phone_rules(page)
                screenshot(page, "runbuster-choose-phone")
                shot = True
        elif mine["phase"] == "end_turn":
            expect(page.locator(".rb-me button.rb-cup")).to_contain_text("Tap to end the turn")
        rb.step_and_sync(page, host)
    v = rb.view(host)
    assert v["over"], "the game did not end in 600 taps"
    winner, loser = v["finished"][0], v["loser"]
    names = ["Ana", "Bo"]
    for page in (host, *seats):
        expect(page.locator(".rb-end .rb-drinks")).to_have_text(f"{names[loser]} buys the drinks!")
        expect(page.locator(".rb-end .rb-final li").first).to_contain_text(names[winner])
        expect(page.locator(".rb-tally tr[data-seat] .rb-lost").nth(loser)).to_have_text("1")
        expect(page.locator(".rb-tally tr[data-seat] .rb-lost").nth(winner)).to_have_text("0")
    expect(seats[winner].locator(".rb-me")).to_have_attribute("class", re.compile("state-done"))
    expect(host.locator(".rb-end .rb-next")).to_have_text(f"Next round: {names[1 - first]} rolls first.")
    # The log lists every move, newest first (the page keeps the last 60): true of every game,
    # even one won on the first roll.
    last = rb.seq(host)
    values = [int(v) for v in host.locator("#log li").evaluate_all("items => items.map(li => li.value)")]
    assert values == list(range(last, max(last - 60, 0), -1))
    # A replay viewer calls the same renderer with the spectator's view: same drawing, no controls.
    replay = live_eval(host, "live => {\n          const box = document.createElement('section');\n          const fake = {role: 'replay', seat: null, table: null, log: [],\n                        game: {id: -1, number: 1, status: 'finished', view: live.game.view},\n                        act() { throw new Error('replay acted'); }, hostCommand() { throw new Error('replay'); },\n                        toast() {}, draw() {}};\n          live.renderer.render(fake, box);\n          return {buttons: box.querySelectorAll('button').length, players: box.querySelectorAll('.rb-player').length,\n                  drinks: (box.querySelector('.rb-drinks') || {}).textContent};\n        }")
    assert replay == {"buttons": 0, "players": 2, "drinks": f"{names[loser]} buys the drinks!"}
    screenshot(seats[loser], "runbuster-end-phone")
    screenshot(host, "runbuster-end-desktop")

    # First load of a seat's page: a fresh browser with the seat's cookie, nothing cached.
    cookies = ana.context.cookies()
    fresh = phone()
    fresh.context.add_cookies(cookies)
    fresh.goto(ana.url)
    expect(fresh.locator(".rb-end")).to_be_visible()
    wait_ready(fresh)
    fresh.wait_for_load_state("load")
    weight = first_load_bytes(fresh)
    print(f"\nRun Buster seat page, first load: {weight['wire']} bytes on the wire "
          f"({weight['wire'] / 1024:.1f} KB; {weight['body'] / 1024:.1f} KB uncompressed) in {weight['files']} files")
    assert 0 < weight["wire"] <= PAGE_BUDGET
    assert_phone_rules(fresh)


def test_four_players_with_two_bots_hints_are_the_bots_suggestion(server, phone, clock):
    """Two phones and two of the app's bots, live: the bots move, and with more than two players the
    hint is the bot's suggestion.  Played until three suggestions were checked (the round's end is the
    next test's, from a recorded position)."""
    host = phone(viewport=DESKTOP)
    join_url = rb.create_table(host, server.url, players=4, hints=True)
    ana, bo = phone(), phone()
    rb.take_seat(ana, join_url, "Ana")
    rb.take_seat(bo, join_url, "Bo")
    add = host.locator("#board .rb-addbot")
    add.click()
    expect(host.locator('#seats li[data-seat="2"]')).to_contain_text("Bot 1")
    add.click()
    expect(host.locator('#seats li[data-seat="3"]')).to_contain_text("Bot 2")
    expect(add).to_be_disabled()
    screenshot(host, "runbuster-lobby-desktop")
    host.get_by_role("button", name="Start").click()
    rb.wait_started(host)
    humans = {0: ana, 1: bo}
    names = ["Ana", "Bo", "Bot 1", "Bot 2"]
    first = rb.view(host)["first"]
    expect(ana.locator(".rb-p1")).to_have_text(f"{names[first]} rolls first this round")

    suggestions = 0
    for _ in range(2000):
        at = rb.seq(host)  # before the view: a bot may move in between, and then the wait below returns at once
        v = rb.view(host)
        if v["over"] or suggestions >= 3:
            break
        if v["current"] in humans:
            page = humans[v["current"]]
            rb.wait_past(page, rb.seq(host) - 1)
            mine = rb.view(page)
            if mine["phase"] == "choose" and len(mine["active"]) > 2 and suggestions < 3:
                # More than two players: the hint is the bot's suggestion, no percentages.
                best = "-".join(map(str, suggestion(State.from_dict(mine))))
                expect(page.locator(".rb-hints .rb-suggest")).to_have_text(f"The bot would take {best}.")
                expect(page.locator(".rb-hints .rb-hint")).to_have_count(0)
                suggestions += 1
            rb.step_and_sync(page, host)
        else:
            rb.wait_past(host, at, timeout=rb.BOT_TIMEOUT)
    assert suggestions == 3
    # Both bots played their turns between the phones' (the log's actors: seat positions as strings).
    actors = live_eval(host, "live => live.log.map((e) => e.actor)")
    assert {"2", "3"} <= set(actors), actors


# Starts one move before the end of a recorded four-player round (the app's players, seeded): what is
# tested is the round's end, its places and tally, and who rolls first in the next round.
def test_a_four_player_round_ends_with_places_drinks_and_tally_then_player_1_moves_on(server, phone):
    names = ["Ana", "Bo", "Bot 1", "Bot 2"]
    recorded = positions.record(server, "runbuster", names, {"hints": True}, seed=1)
    last = recorded["events"][-1]
    assert last["action"]["type"] == "choose", last  # the round ends on a straight completed
    position = positions.table_at(server, recorded, len(recorded["events"]) - 1)
    host = positions.open_as(phone, server, position, "host", viewport=DESKTOP)
    ana, bo = (positions.open_as(phone, server, position, seat) for seat in (0, 1))
    actor = int(last["actor"])
    mover = {0: ana, 1: bo}.get(actor) or positions.open_as(phone, server, position, actor)
    rb.wait_past(mover, position.seq - 1)
    before = rb.view(mover)
    assert before["your_turn"] and before["phase"] == "choose" and not before["over"]
    first = before["first"]
    expect(ana.locator(".rb-p1")).to_have_text(f"{names[first]} rolls first this round")
    rb.pick(mover, last["action"]["straight"], before["hands"][actor])  # the last tap of the round
    rb.wait_past(host, position.seq)

    v = rb.view(host)
    assert v["over"]
    places = [*v["finished"], v["loser"]]
    assert sorted(places) == [0, 1, 2, 3]
    expect(ana.locator(".rb-end .rb-final li")).to_have_text(
        [f"{o} {names[s]}" for o, s in zip(["1st", "2nd", "3rd", "4th"], places, strict=True)]
    )
    expect(bo.locator(".rb-dropouts li")).to_have_count(3)
    expect(ana.locator(".rb-drinks")).to_have_text(f"{names[v['loser']]} buys the drinks!")
    nxt = (first + 1) % 4
    expect(bo.locator(".rb-next")).to_have_text(f"Next round: {names[nxt]} rolls first.")
    expect(ana.locator(f'.rb-tally tr[data-seat="{v["loser"]}"] .rb-lost')).to_have_text("1")
    screenshot(ana, "runbuster-4p-end-phone")

    host.get_by_role("button", name="Start the next round").click()  # the host bar's one button
    for page in (host, ana, bo):
        rb.wait_started(page, 2)
        expect(page.locator(".rb-p1")).to_have_text(f"{names[nxt]} rolls first this round")
        expect(page.locator(".rb-head")).to_contain_text("Round 2")
    assert rb.view(ana)["first"] == nxt
    assert rb.view(ana)["current"] == nxt
    # The tally keeps the first round after the next one starts.
    expect(ana.locator(".rb-tally .muted")).to_contain_text("Rounds played: 1")
    expect(ana.locator(f'.rb-tally tr[data-seat="{v["loser"]}"] .rb-lost')).to_have_text("1")
    screenshot(bo, "runbuster-4p-round2-phone")


def test_hints_show_the_solver_chances(server, phone):
    host, seats, _ = two_player_table(server, phone, hints=True)
    checked_rolls = checked_options = 0
    for _ in range(200):
        v = rb.view(host)
        if v["over"] or (checked_options >= 4 and checked_rolls >= 2):
            break
        me = v["current"]
        page, other = seats[me], seats[1 - me]
        rb.wait_past(page, rb.seq(host) - 1)
        mine = rb.view(page)
        expect(other.locator(".rb-hints")).to_have_count(0)  # hints only for the player to move
        if mine["phase"] == "roll":
            p = win_probability(tuple(mine["hands"][me]), tuple(mine["hands"][1 - me]))
            expect(page.locator(".rb-hints .rb-win")).to_have_text(f"Your chance to win: {p * 100:.1f} %")
            checked_rolls += 1
        elif mine["phase"] == "choose":
            ranked = rank_options(tuple(mine["hands"][me]), tuple(mine["hands"][1 - me]), tuple(mine["last_roll"]))
            buttons = page.locator(".rb-hints .rb-hint")
            expect(buttons).to_have_count(len(ranked))
            for k, (option, p) in enumerate(ranked):
                button = buttons.nth(k)
                expect(button).to_have_attribute("data-straight", "-".join(map(str, option)))
                expect(button.locator(".rb-hint-p")).to_have_text(f"{p * 100:.1f} %")
            if checked_options == 0:
                screenshot(page, "runbuster-hints-phone")
            checked_options += 1
            # Tapping a hint fills in that straight; Take sends it.
            best = list(ranked[0][0])
            before = rb.seq(page)
            buttons.first.click()
            expect(page.locator(".rb-take")).to_have_text(f"Take {'-'.join(map(str, best))}")
            page.locator(".rb-take").click()
            rb.wait_past(page, before)  # one action: the whole straight
            rb.wait_past(host, rb.seq(page) - 1)
            assert rb.view(page)["hands"][me] == best or rb.view(page)["finished"]
            continue
        rb.step_and_sync(page, host)
    assert checked_options >= 1 and checked_rolls >= 1


def test_real_dice_typed_in_by_the_roller_and_the_host(server, phone):
    host, seats, _ = two_player_table(server, phone, dice="physical")
    names = ["Ana", "Bo"]
    first = rb.view(host)["current"]
    roller, other = seats[first], seats[1 - first]
    expect(roller.locator(".rb-me button.rb-cup")).to_contain_text("Type in the dice")
    expect(roller.locator(".rb-keypad")).to_be_visible()
    expect(other.locator(".rb-keypad")).to_have_count(0)
    expect(host.locator(".rb-keypad")).to_be_visible()
    # Tapping the green cup with real dice points to the keypad; nothing is rolled.
    before = rb.seq(roller)
    roller.locator(".rb-me button.rb-cup").click()
    expect(roller.locator("#toast")).to_have_text("Type the dice in with the keypad below.")
    assert rb.seq(roller) == before
    screenshot(roller, "runbuster-keypad-phone")

    rb.type_roll(roller, [2, 3, 4, 4, 6, 6])  # the roller types in
    assert rb.view(roller)["last_roll"] == [2, 3, 4, 4, 6, 6]
    rb.pick(roller, [2, 3, 4], [])
    rb.step(roller)  # end the turn
    assert rb.view(host)["hands"][first] == [2, 3, 4]

    rb.wait_past(host, rb.seq(roller) - 1)
    rb.type_roll(host, [1, 5, 6, 2, 2, 2])  # the host types in the other player's dice
    expect(other.locator(".rb-flash")).to_have_text(f"{names[1 - first]}'s roll busts {names[first]}'s 2-3-4")
    expect(roller.locator(f'.rb-player[data-seat="{1 - first}"]')).to_be_visible()
    expect(roller.locator(".rb-me .rb-badge.bust")).to_have_text("busted")
    expect(host.locator("#log li").first).to_contain_text(f"busts {names[first]}'s 2-3-4")
    screenshot(roller, "runbuster-busted-phone")
    rb.wait_past(other, rb.seq(host) - 1)
    rb.pick(other, [5, 6], [])
    rb.step(other)

    rb.wait_past(roller, rb.seq(other) - 1)
    expect(roller.locator(".rb-keypad .rb-typed")).to_have_count(6)  # the whole cup after a bust
    rb.type_roll(roller, [1, 2, 3, 4, 5, 6])  # busts 5-6 and makes the full straight
    rb.pick(roller, [1, 2, 3, 4, 5, 6], [])
    for page in (host, *seats):
        expect(page.locator(".rb-drinks")).to_have_text(f"{names[1 - first]} buys the drinks!")
    assert rb.view(host)["finished"] == [first]


def test_out_of_turn_and_illegal_taps_are_refused_with_a_message(server, phone):
    host, seats, _ = two_player_table(server, phone)
    first = rb.view(host)["current"]
    names = ["Ana", "Bo"]
    waiting = seats[1 - first]
    before = rb.seq(host)
    waiting.locator(".rb-me button.rb-cup").click()  # a red cup: not this phone's turn
    expect(waiting.locator("#toast")).to_have_text(f"It is {names[first]}'s turn.")
    assert rb.seq(host) == before
    # Play on until a phone has a choice to make, then tap its cup without taking a straight.
    for _ in range(100):
        v = rb.view(host)
        page = seats[v["current"]]
        rb.wait_past(page, rb.seq(host) - 1)
        v = rb.view(page)
        if v["phase"] == "choose":
            break
        rb.step_and_sync(page, host)
    assert v["phase"] == "choose"
    page = seats[v["current"]]
    before = rb.seq(page)
    page.locator(".rb-me button.rb-cup").click()
    expect(page.locator("#toast")).to_have_text("You must take a straight: tap the dice first.")
    expect(page.locator(".rb-take")).to_be_disabled()
    hand = v["hands"][v["current"]]
    usable = {x for o in v["hand_options"] for x in o if x not in hand}
    for die in page.locator(".rb-roll button.rb-die").all():
        value = int(die.get_attribute("data-value"))
        if value in usable:
            expect(die).to_be_enabled()
        else:
            expect(die).to_be_disabled()
    # A spectator's phone has no cup to tap and no dice to pick.
    late = phone(host.locator("#join-link").get_attribute("href"))
    expect(late.locator("#app")).to_have_attribute("data-role", "spectator")
    expect(late.locator(".rb-players")).to_be_visible()
    expect(late.locator("#board button")).to_have_count(0)
    assert rb.seq(page) == before
