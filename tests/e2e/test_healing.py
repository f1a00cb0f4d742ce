"""Connections that heal (issue 14): a half-open socket is noticed, and a move sent into it lands once.

The half-open socket is made with Playwright's WebSocket routing: the page's
socket goes through the test, which stops passing the server's frames to the
page (no pong, no ack, no update) while the socket stays open, as a network
that dropped without closing it would.  The page pings every second here
(``window.SIXDICE_PING_MS``), so "two intervals without a pong" is 2 s, and
waits at least 2 s before reconnecting (``window.SIXDICE_RETRY_MS``), so the
"reconnecting" banner stays up longer than the test's slowest look at it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, screenshot
from tests.e2e.harness import live_eval, wait_live
from tests.e2e.runbuster_helpers import create_table, take_seat

pytestmark = pytest.mark.browser

PING_MS = 1000
RETRY_MS = 4000  # the first reconnection comes 2-6 s after the socket is given up


def wait_started(page) -> None:
    wait_live(page, "live => !!(live.game && live.game.number === 1)")


def _half_open_phone(phone):
    """A phone whose sockets pass through the test; ``mute['n']`` silences its n-th socket (0-based)."""
    page = phone()
    page.add_init_script(f"window.SIXDICE_PING_MS = {PING_MS}; window.SIXDICE_RETRY_MS = {RETRY_MS};")
    sockets: list[int] = []
    mute: dict[str, int | None] = {"n": None}

    def route(ws):
        index = len(sockets)
        sockets.append(index)
        server = ws.connect_to_server()
        ws.on_message(lambda message: server.send(message))
        server.on_message(lambda message: None if mute["n"] == index else ws.send(message))

    page.route_web_socket(re.compile(r".*/ws/t/.*"), route)
    return page, sockets, mute


def test_a_silent_socket_is_dropped_and_a_move_sent_into_it_is_applied_once(server, phone):
    host = phone(viewport=DESKTOP)
    join_url = create_table(host, server.url, players=2)
    phones = {}
    for name in ("Ana", "Bo"):
        phones[name] = _half_open_phone(phone)
        take_seat(phones[name][0], join_url, name)
    host.get_by_role("button", name="Start").click()
    for page, _sockets, _mute in phones.values():
        wait_started(page)
    wait_started(host)
    # Whoever begins (the seeded server chose) is the one whose network drops.
    mover, sockets, mute = next(p for p in phones.values() if live_eval(p[0], "live => (live.game.view.your_turn)"))
    seat = live_eval(mover, "live => (live.seat)")
    expect(mover.locator("#banner")).to_be_hidden()

    # The network drops without closing the socket: the server's frames stop reaching the phone.
    mute["n"] = len(sockets) - 1
    seq_before = live_eval(host, "live => (live.game.seq)")
    live_eval(mover, "live => (live.act({type: 'roll'}))")  # reaches the server; its ack never comes back
    wait_live(host, "(live, n) => live.game.seq > n", arg=seq_before)
    expect(mover.locator("#banner")).to_be_visible(timeout=4 * PING_MS + 5_000)
    expect(mover.locator("body")).to_have_class(re.compile(r"\bsending\b"))
    screenshot(mover, "heal-half-open-banner-360")

    # The page opens a new socket (not muted) and resends the move with the same action id.
    expect(mover.locator("#banner")).to_be_hidden(timeout=20_000)
    expect(mover.locator("#toast")).to_contain_text("delivered")
    expect(mover.locator("body")).not_to_have_class(re.compile(r"\bsending\b"))
    assert len(sockets) >= 2
    seq_now = live_eval(host, "live => (live.game.seq)")
    wait_live(mover, "(live, n) => live.game.seq === n", arg=seq_now)
    log = live_eval(host, "live => (live.log.map((e) => [e.actor, e.action.type]))")
    assert log.count([str(seat), "roll"]) == 1  # applied once: the resend got the first ack back

    # Everything flows again: the host pauses and the phone shows it.
    host.get_by_role("button", name="Pause").click()
    expect(mover.locator("body")).to_have_class(re.compile("paused"))


def test_seat_buttons_ask_first_and_the_seat_goes_back_to_its_phone(server, phone):
    host = phone(viewport=DESKTOP)
    join_url = create_table(host, server.url, players=2)
    ana, bo = phone(), phone()
    take_seat(ana, join_url, "Ana")
    take_seat(bo, join_url, "Bo")
    expect(bo.locator("#lobby-note")).to_be_visible()  # the lobby says what it waits for
    expect(bo.locator("#lobby-note")).to_contain_text("Waiting for the host to start")
    expect(host.locator("#lobby-note")).to_be_hidden()
    host.get_by_role("button", name="Start").click()
    wait_started(bo)
    expect(bo.locator("#lobby-note")).to_be_hidden()
    bo_row = host.locator('#seats li[data-seat="1"]')

    host.once("dialog", lambda dialog: dialog.dismiss())  # "No": nothing happens
    bo_row.locator('[data-seat-act="bot"]').click()
    expect(bo_row.locator('[data-seat-act="give-back"]')).to_have_count(0)
    assert live_eval(bo, "live => (live.role)") == "seat"

    host.once("dialog", lambda dialog: dialog.accept())
    bo_row.locator('[data-seat-act="bot"]').click()
    expect(bo_row.locator('[data-seat-act="give-back"]')).to_be_visible()
    wait_live(bo, "live => live.role === 'spectator'")

    bo_row.locator('[data-seat-act="give-back"]').click()
    wait_live(bo, "live => live.role === 'seat' && live.seat === 1")
    bo.reload()  # the phone holds the seat for good, not only on this socket
    expect(bo.locator("#app")).to_have_attribute("data-role", "seat")

    host.once("dialog", lambda dialog: dialog.accept())
    host.locator('#seats li[data-seat="0"] [data-seat-act="handover"]').click()
    expect(host.locator('#seats li[data-seat="0"] .handover .handover-qr svg')).to_be_visible()  # beside the seat
    expect(host.locator('#seats li[data-seat="0"] .handover-link')).to_contain_text("/claim/")
    screenshot(host, "heal-handover-qr-desktop")


def test_the_host_undoes_a_typed_roll_and_every_phone_strikes_it_through(server, phone):
    host = phone(viewport=DESKTOP)
    join_url = create_table(host, server.url, players=2, dice="physical")
    ana, bo = phone(), phone()
    take_seat(ana, join_url, "Ana")
    take_seat(bo, join_url, "Bo")
    host.get_by_role("button", name="Start").click()
    for page in (ana, bo, host):
        wait_started(page)
    mover = ana if live_eval(ana, "live => (live.game.view.your_turn)") else bo
    other = bo if mover is ana else ana
    live_eval(mover, "live => (live.act({type: 'roll', values: [1, 2, 3, 4, 5, 6]}))")
    wait_live(host, "live => live.game.seq >= 1")
    seq = live_eval(host, "live => (live.game.seq)")
    host.once("dialog", lambda dialog: dialog.accept())
    host.locator('[data-host="undo"]').click()
    for page in (mover, other, host):
        wait_live(page, "(live, n) => live.game.seq === n", arg=seq + 1)
        expect(page.locator("#log li.undone s").first).to_be_visible()
        expect(page.locator("#log li").first).to_contain_text("The host undid")
    assert live_eval(mover, "live => (live.game.view.your_turn)")  # the roll is to be typed again
    log = live_eval(host, "live => (live.log.map((e) => e.action.type))")
    assert log[-1] == "undo" and "roll" in log  # nothing was deleted
    screenshot(other, "heal-undo-struck-through-360")
