"""Take-back, the host's correction form and the struck-through replay, in the browser (issue 14).

A Run Buster table with real dice (typed in): the player who begins types a
roll and takes a straight, then taps "Take back"; every phone is told.  The
host corrects the typed roll with the console's form (bad values first, each
with its message).  The host closes the table, and the replay of the
abandoned game shows the moves taken back, struck through, with who took
them back.  Screenshots at 360x740 go to docs/screens/; axe finds no serious
or critical violation on the three screens.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, shoot
from tests.e2e.harness import live_eval
from tests.e2e.runbuster_helpers import create_table, longest, seq, take_seat, view, wait_past, wait_started
from tests.e2e.test_access import axe_check

pytestmark = pytest.mark.browser


def _above_the_fold(page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, box)


def test_take_back_then_the_host_corrects_the_roll_and_the_replay_strikes_both_through(server, phone):
    host = phone()
    join_url = create_table(host, server.url, players=2, dice="physical")
    code = re.search(r"/t/([A-Z0-9]{5})/", join_url).group(1)
    phones = {name: phone() for name in ("Ana", "Bo")}
    for name, page in phones.items():
        take_seat(page, join_url, name)
    host.get_by_role("button", name="Start").click()
    for page in (host, *phones.values()):
        wait_started(page)
    name, mover = next((n, p) for n, p in phones.items() if view(p)["your_turn"])
    other = next(p for p in phones.values() if p is not mover)

    # The mover types a roll (real dice), then takes a straight.
    before = seq(mover)
    live_eval(mover, "live => (live.act({type: 'roll', values: [1, 2, 3, 3, 5, 6]}))")
    wait_past(mover, before)
    expect(mover.locator("#take-back-bar")).to_be_hidden()  # a roll is information: nothing to take back, no offer
    straight = longest(view(mover)["hand_options"])
    before = seq(mover)
    live_eval(mover, "(live, s) => live.act({type: 'choose', straight: s})", straight)
    wait_past(mover, before)

    # Only the mover is offered the take-back: a labelled button above the board that says what it takes back.
    bar = mover.get_by_role("button", name="Take back your straight")
    expect(bar).to_be_enabled()
    expect(bar).to_have_attribute("title", re.compile(rf"^{name} takes "))
    expect(other.locator("#take-back")).to_be_disabled()
    _above_the_fold(mover, "#take-back")
    shoot(mover, "undo-take-back-360")
    assert axe_check(mover, "take-back") == []
    before = seq(mover)
    asked: list[str] = []
    mover.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))  # it asks first
    bar.click()
    wait_past(other, before)
    for page in (mover, other, host):  # every phone says what was undone, in a card above the board until tapped away
        expect(page.locator("#notice-card")).to_be_visible()
        expect(page.locator("#notice-card")).to_contain_text(name)
    assert asked == ["Take back your straight? You can make the move again."]
    expect(mover.locator("#take-back")).to_be_disabled()
    assert view(mover)["your_turn"] and view(mover)["phase"] == "choose"  # back to choosing

    # The host corrects the typed roll: bad values first, each refused with its reason.
    form = host.locator("#correct-roll")
    expect(form).to_be_hidden()  # only a button beside Pause and Undo until the host asks for the form
    host.get_by_role("button", name="Correct a roll").click()
    expect(form).to_be_visible()
    _above_the_fold(host, "#correct-send")
    host.get_by_label("The dice it really showed").fill("1 2 3")
    host.get_by_role("button", name="Correct the roll").click()
    expect(host.locator("#correct-error")).to_contain_text("This roll has 6 dice")
    host.get_by_label("The dice it really showed").fill("1 2 3 4 5 9")
    host.once("dialog", lambda dialog: dialog.accept())
    host.get_by_role("button", name="Correct the roll").click()
    expect(host.locator("#correct-error")).to_contain_text("A die shows 1 to 6, not 9")
    shoot(host, "undo-correct-form-360")
    assert axe_check(host, "correction form") == []
    before = seq(host)
    host.get_by_label("The dice it really showed").fill("1 2 3 4 5 6")
    host.once("dialog", lambda dialog: dialog.accept())
    host.get_by_role("button", name="Correct the roll").click()
    wait_past(mover, before)
    for page in (mover, other, host):  # every phone is told, in its language
        expect(page.locator("#notice-card")).to_contain_text(f"Corrected: {name}")
        expect(page.locator("#notice-card")).to_contain_text("1 2 3 4 5 6")
        expect(page.locator("#notice-card")).not_to_contain_text("#")
    last = live_eval(host, "live => (live.log[live.log.length - 1])")
    assert last["actor"] == "host" and last["action"] == {"type": "roll", "values": [1, 2, 3, 4, 5, 6]}
    expect(form).to_be_hidden()

    # The host closes the table; the abandoned game's replay strikes the undone moves through.
    live_eval(host, "live => (live.hostCommand('close'))")
    expect(host.locator("#closed-note")).to_be_visible()
    replay = phone(f"{server.url}/t/{code}/replay/1/#step-2")
    expect(replay.locator("#step-text s.undone")).to_be_visible()
    expect(replay.locator("#step-text .undone-note")).to_contain_text(f"taken back by {name} at move 3")
    expect(replay.locator("#log li.undone")).to_have_count(2)
    expect(replay.locator("#log li.undone").last).to_contain_text("corrected by the host at move 4")  # the straight (taken back), the roll (corrected)
    shoot(replay, "undo-replay-struck-through-360")
    assert axe_check(replay, "replay") == []
