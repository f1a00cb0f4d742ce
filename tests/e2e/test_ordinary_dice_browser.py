"""Ordinary dice at a real table (issue 43), in the browser.

The host's new-table form says how many dice the group needs for 2 to 8
players before the table is made, and asks which real dice; three phones then
play a whole game with ordinary dice: every roll is typed on the keypad by its
pips (⚀–⚅), a flip tells the two players which real die to turn and to what,
and the game's final values are those of the same values replayed with the
app's dice.  Screenshots of the form, the keypad and a flip's instruction go
to docs/screens/ (dice-new-table.png, dice-keypad.png, dice-flip.png).
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from sixdice.engine import ENGINE
from sixdice.gamekit.engine import HOST, SYSTEM
from tests.e2e.conftest import keep
from tests.e2e.harness import form_answered, live_eval, wait_live, wait_ready, wait_seq
from tests.e2e.test_access import axe_check

pytestmark = pytest.mark.browser

FACES = (1, 2, 3, -1, -2, -3)
NAMES = ("Ana", "Bo", "Cy")


def glyph(value: int) -> str:
    """⚀ … ⚅: 1, 2, 3 pips for +1, +2, +3; 6, 5, 4 for −1, −2, −3 (the issue's mapping, written out here)."""
    return {1: "\u2680", 2: "\u2681", 3: "\u2682", -3: "\u2683", -2: "\u2684", -1: "\u2685"}[value]


def signed(value: int) -> str:
    return ("+" if value > 0 else "\u2212") + str(abs(value))


def new_table_form(phone, server) -> Page:
    form = phone(server.url + "/new/sixdice/")
    form.get_by_label("As written", exact=True).check()
    form.get_by_label("Real dice, typed in").check()
    return form


def test_the_form_says_how_many_dice_for_2_to_8_players(phone, server):
    form = new_table_form(phone, server)
    said = form.locator("#dice-needed p")
    # The rules: each player starts with 6 dice; the bank holds 12 per player in all (6 of them in the hands).
    for players in range(2, 9):
        form.get_by_label("Players").select_option(str(players))
        expect(said).to_contain_text(f"The group needs {12 * players} dice for {players} players.")
        expect(said).to_contain_text(f"{6 * players} dice are rolled at the start, 6 for each player;")
        expect(said).to_contain_text(f"the app keeps count of the other {6 * players} dice, in the bank.")
        expect(said).not_to_contain_text("refills")
    form.get_by_label("Recommended", exact=True).check()  # the bank refills to 3 per player each round
    expect(said).to_contain_text("up to 24 new dice may join at once")
    form.get_by_label("Dice in the bank").fill("20")
    expect(form.locator("#dice-needed .error")).to_contain_text("The bank must hold 48 to 400 dice for 8 players")
    # Which real dice is asked only with real dice: with the app's dice the choice is off.
    ordinary = form.get_by_label("Ordinary dice, 1 to 6 pips")
    expect(ordinary).to_be_enabled()
    ordinary.check()
    form.get_by_label("Dice in the bank").fill("")  # the usual bank again
    expect(said).to_contain_text("The group needs 96 dice for 8 players.")
    assert axe_check(form, "new-table form, ordinary dice") == []
    keep(form, "dice-new-table")
    form.get_by_label("The app rolls them").check()
    expect(ordinary).to_be_disabled()


def test_the_rules_and_the_lesson_show_the_mapping_and_the_sheet(phone, server):
    rules = phone(server.url + "/rules/sixdice/")
    rules.locator("#lang-select").select_option("uk")
    expect(rules.locator("html")).to_have_attribute("lang", "uk")
    picture = rules.locator('[data-region="ordinary-dice"]')
    expect(picture).to_contain_text("протилежні грані, 6, 5 і 4 очки")
    expect(picture.locator(".pips-map .die.pips")).to_have_count(6)
    link = rules.locator('[data-sticker="pdf-a4-19"]')
    expect(link).to_be_visible()
    response = rules.request.get(server.url + (link.get_attribute("href") or ""))
    assert response.ok and response.headers["content-type"] == "application/pdf" and response.body()[:5] == b"%PDF-"
    assert axe_check(rules, "rules page with ordinary dice, uk") == []
    lesson = rules
    lesson.goto(server.url + "/learn/sixdice/")
    lesson.get_by_text("Немає кубиків Six-Dice? Грайте звичайними кубиками").click()  # the language stays (cookie)
    expect(lesson.locator('#ordinary-dice [data-region="ordinary-dice"]')).to_be_visible()


def _create(phone, server) -> tuple[Page, str]:
    host = new_table_form(phone, server)
    host.get_by_label("Players").select_option("3")
    host.get_by_label("Ordinary dice, 1 to 6 pips").check()
    expect(host.locator("#dice-needed p")).to_contain_text("The group needs 36 dice for 3 players.")
    host.get_by_label("Rounds").fill("1")
    form_answered(host).get_by_label("Automatic balancing").check()
    host.locator("input[type=checkbox][name=coach]").uncheck()
    form_answered(host).get_by_role("button", name="Create the table").click()
    expect(host).to_have_url(re.compile(r"/t/[A-Z0-9]{5}/host/$"))
    return host, host.locator("#join-link").get_attribute("href") or ""


def _join(phone, url: str, name: str) -> Page:
    page = phone(url)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#app")).to_have_attribute("data-role", "seat")
    return wait_ready(page)


def _waiting(host: Page) -> dict:
    """The view once the game waits for a person (a roll or a flip) or is over: the automatic balancing is the app's."""
    return wait_live(host, "live => { const v = live.game && live.game.view; "
                           "return v && (v.over || ['roll', 'flip'].includes(v.pending.kind)) ? v : null; }")


def _type_pips(page: Page, values: list[int], shot: str | None = None) -> None:
    panel = page.locator('[data-region="act"].sd-roll')
    expect(panel).to_be_visible()
    for k, value in enumerate(values):
        key = panel.locator(".sd-keypad button", has_text=glyph(value))
        expect(key).to_have_count(1)
        expect(key).to_contain_text(signed(value))  # each pip face with its value beside it
        key.click()
        expect(panel.locator(".sd-typed .typed-slot")).to_have_count(k + 1)
        if shot and k == 2:
            keep(page, shot)
    panel.locator('[data-act="send-roll"]').click()


def _turn_line(seat: int, me: int, name: str, old: int, new: int) -> str:
    if seat == me:
        return f"Your {glyph(old)} ({signed(old)}): turn it to {glyph(new)} ({signed(new)})"
    return f"{name}’s {glyph(old)} ({signed(old)}): turn it to {glyph(new)} ({signed(new)})"


def test_a_game_with_ordinary_dice_typed_by_their_pips(phone, server):
    host, url = _create(phone, server)
    seats = [_join(phone, url, name) for name in NAMES]
    for i in range(3):
        expect(host.locator(f'#seats li[data-seat="{i}"] .dot.on')).to_be_visible()
    host.get_by_role("button", name="Start").click()
    rng = random.Random(4343)
    flips = 0
    shots = {"keypad": False}
    while True:
        v = _waiting(host)
        if v["over"]:
            break
        p, at = v["pending"], live_eval(host, "live => live.game.seq")
        page = seats[p["seat"]]
        wait_seq(page, at)
        if p["kind"] == "roll":
            _type_pips(page, [rng.choice(FACES) for _ in range(p["count"])],
                       shot=None if shots["keypad"] else "dice-keypad")
            shots["keypad"] = True
        else:
            mover = p["seat"]
            legal = live_eval(page, "live => live.game.view.legal_flips")
            flip = legal[rng.randrange(len(legal))]
            victim, own, own_to, other, other_to = flip
            dice = [[x for g in h["groups"] for x in g] + h["loose"] for h in v["hands"]]
            own_from, other_from = dice[mover][own], dice[victim][other]
            page.locator(f'.sd-hand.me button.die[data-i="{own}"]').click()
            face = page.locator(f'.sd-faces button[data-face="{own_to}"]')
            expect(face).to_contain_text(glyph(own_to))
            face.click()
            page.locator(f'.sd-hand[data-seat="{victim}"] button.die[data-i="{other}"]').click()  # lit on the board
            # before it is sent, the flip says what it will ask of the real dice
            preview = page.locator(".sd-turn-over-preview")
            expect(preview).to_contain_text(_turn_line(mover, mover, NAMES[mover], own_from, own_to))
            expect(preview).to_contain_text(_turn_line(victim, mover, NAMES[victim], other_from, other_to))
            page.locator('[data-act="confirm-flip"]').click()
            # once made, each of the two phones says which of its real dice to turn, and to what
            for seat, old, new in ((mover, own_from, own_to), (victim, other_from, other_to)):
                notice = seats[seat].locator('[data-region="turn-over"] p')
                expect(notice).to_have_text(_turn_line(seat, seat, NAMES[seat], old, new))
            third = ({0, 1, 2} - {mover, victim}).pop()
            expect(seats[third].locator('[data-region="turn-over"]')).to_have_count(0)  # not theirs to turn
            if flips == 0:
                keep(seats[victim], "dice-flip")
                assert axe_check(seats[victim], "ordinary dice, a flip to turn") == []
            flips += 1
        wait_seq(host, at + 1)  # the host's page has drawn the move (the next view is read from it)
    assert flips == 3  # one round of three turns

    # Every die on the board is drawn as its pips with its value.
    final = v
    for s in range(3):
        board = seats[0].locator(f'.sd-hand[data-seat="{s}"]')
        for x in [x for g in final["hands"][s]["groups"] for x in g] + final["hands"][s]["loose"]:
            expect(board.locator(".die.pipface", has_text=glyph(x)).first).to_contain_text(signed(x))
    shown = [seats[0].locator(f'.sd-hand[data-seat="{s}"] .sd-value strong').inner_text() for s in range(3)]

    # The export says which dice were used; the same values replayed with the app's dice end the same.
    code = host.url.rstrip("/").split("/")[-2]
    doc = host.request.get(f"{server.url}/t/{code}/export/1.json").json()
    assert doc["game"]["options"]["faces"] == "ordinary" and doc["game"]["options"]["dice"] == "physical"
    options = {k: val for k, val in doc["game"]["options"].items() if k != "faces"} | {"dice": "app"}
    names = [pl["name"] for pl in doc["players"]]
    state = ENGINE.start(players=names, options=ENGINE.clean_options(options, players=3), first=doc["game"]["first"])
    assert "faces" not in state
    for e in doc["events"]:
        action = e["action"]
        actor = SYSTEM if action["type"] == "roll" or e["actor"] == "system" else (
            HOST if e["actor"] == "host" else int(e["actor"]))
        state = ENGINE.apply(state, action, actor=actor)
    app_values = ENGINE.view_parts(state)[0]["values"]
    assert app_values == final["values"] == ENGINE.view_parts(doc["final_state"])[0]["values"]
    assert shown == [signed(x) if x else "0" for x in app_values]
    assert ENGINE.outcome(state) == ENGINE.outcome(doc["final_state"])
