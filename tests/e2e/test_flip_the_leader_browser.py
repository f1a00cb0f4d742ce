"""Flip the leader (the 3-player recommended rules) on a phone: the mover's flip panel says whom the flip goes
against, and only that player's dice are offered as the other die. The table starts at a recorded position: the
first flip of a seeded 3-player game at which one hand alone is furthest from zero."""

from __future__ import annotations

from playwright.sync_api import expect

from sixdice.rules import apply
from sixdice.rules.game import State, leaders_to_flip
from tests.e2e import positions
from tests.e2e.conftest import PHONE, shoot
from tests.e2e.sixdice_helpers import view, wait_seq

NAMES = ["Ana", "Ben", "Cleo"]
OPTIONS = {"rules": "recommended", "rounds": 3, "auto_balance": True}


def _first_flip_with_one_leader(recorded: dict) -> tuple[int, int, int]:
    """The number of events before it, the mover and the leader."""
    st = State.from_dict(recorded["initial_state"])
    for k, event in enumerate(recorded["events"]):
        if event["action"]["type"] == "flip":
            mover = st.pending.seat
            lead = leaders_to_flip(st, mover)
            if len(lead) == 1:
                return k, mover, next(iter(lead))
        st = apply(st, event["action"])
    raise AssertionError("no flip with one leader in the recorded game")


def test_the_movers_phone_says_whom_the_flip_goes_against(server, phone):
    recorded = positions.record(server, "sixdice", NAMES, OPTIONS, seed=3)
    upto, mover, leader = _first_flip_with_one_leader(recorded)
    position = positions.table_at(server, recorded, upto)
    page = positions.open_as(phone, server, position, mover, viewport=PHONE)
    other = positions.open_as(phone, server, position, 3 - mover - leader, viewport=PHONE)
    wait_seq([page, other], position.seq)
    assert view(page)["must_flip"] == [leader]

    line = page.locator(".sd-must-flip")
    expect(line).to_have_text(f"Flip the leader: your flip goes against the hand furthest from zero ({NAMES[leader]}).")
    expect(line).to_be_in_viewport()
    expect(other.locator(".sd-must-flip")).to_have_count(0)  # the mover's own: the others are not flipping

    # Pick a die and its new face: the dice offered as the other die are the leader's alone.
    _victim, own, own_to, _other, _to = view(page)["legal_flips"][0]
    page.locator(f'.sd-hand.me button.die[data-i="{own}"]').click()
    page.locator(f'.sd-faces button[data-face="{own_to}"]').click()
    offered = page.locator(".sd-cands button[data-cand]")
    expect(offered.first).to_be_visible()
    seats = offered.evaluate_all("bs => bs.map((b) => b.dataset.cand.split(':')[0])")
    assert seats and set(seats) == {str(leader)}
    expect(line).to_be_visible()  # the reason stays beside the choice it explains
    shoot(page, "flip-the-leader-360")
