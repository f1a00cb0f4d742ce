"""The log says what the app did by itself, in plain words (no ruling numbers): who starts and why (R1),
skipped steps (R2, R8), whose dice went back to the bank without a choice."""

from __future__ import annotations

import random
from dataclasses import replace

from sixdice.rules import Hand, apply, new_game, position
from sixdice.rules.notation import _aftermath, describe
from tests.sixdice.rules.test_sixdice_properties import random_action


def roll(*values):
    return {"type": "roll", "values": list(values)}


def test_r1_the_line_that_ends_the_setup_says_who_starts_and_why():
    st = new_game(2, rounds=1)
    st = apply(st, roll(3, 3, 3, 3, -3, 1))  # Ana: one group (+3 −3), value +10
    line = describe(st, roll(1, -1, 2, 2, 2, -2), ["Ana", "Bo"])
    assert st.round == 0 and apply(st, roll(1, -1, 2, 2, 2, -2)).first == 1
    assert line.endswith("Bo starts: hand value +4 is closest to 0"), line


def test_r1_a_tie_is_named_and_the_first_seat_starts():
    st = new_game(3, rounds=1)
    st = apply(st, roll(1, -1, 1, 1, 1, 1))  # Ana +4
    st = apply(st, roll(1, -1, 3, 3, 3, 3))  # Bo +12
    line = describe(st, roll(1, -1, -1, -1, -1, -1), ["Ana", "Bo", "Cy"])  # Cy −4
    assert line.endswith("Ana starts: hand value +4 is closest to 0, tied with Cy; of the tied players, the first in seat order starts"), line


def test_r8_a_skipped_pair_is_said():
    st = position([Hand((), (2, 2)), Hand((), (-2, -2))], bank=3)
    st = apply(st, {"type": "flip", "victim": 1, "own": 0, "own_to": 3, "other": 0, "other_to": -3})
    st = apply(st, roll(3))
    line = describe(st, roll(-1), ["Ana", "Bo"])
    assert line == ("Ana takes a pair from the bank: (+1 −1) · "
                    "Bo has no group, but the bank holds fewer than 2 dice: no pair from the bank")


def test_r2_and_r8_notes_are_worded_for_every_skipped_step():
    st = position([Hand((), (3,)), Hand((), (3, 3))], bank=5)
    after = replace(st, skipped=("flip:1", "draw:0", "start:1"))
    text = " · ".join(p["msg"] % p["args"] for p in _aftermath(st, after, {"type": "flip"}, ["Ana", "Bo"]))
    assert text == ("Bo has no possible flip: no flip this turn · The bank is empty: no draw for Ana this turn · "
                    "The bank is too short: no starting dice for Bo")


def test_in_random_games_every_skip_and_every_return_to_the_bank_is_in_the_log():
    """Over seeded random games: a line names every skipped step; the bank grows only by what a line says."""
    said = {"R8": 0, "back": 0}
    skips = ("no flip this turn", "no draw for", "no pair from the bank", "no starting dice")
    for seed in range(40):
        rng = random.Random(seed)
        players = 2 + seed % 3
        st = new_game(players, rounds=12, bank=6 * players + seed % 5)
        while not st.over:
            action = random_action(st, rng, "random")
            line = describe(st, action)
            after = apply(st, action)
            assert len(after.skipped) == sum(line.count(s) for s in skips), line
            said["R8"] += sum(line.count(s) for s in skips[1:])
            said["back"] += "went back to the bank" in line
            # whose dice went back is named: every hand that lost dice to the bank without a choice
            for seat in range(st.n):
                if action.get("type") != "keep" and len(after.hands[seat].dice()) < len(st.hands[seat].dice()):
                    assert f"{st.players[seat]} had more than two groups" in line, line
            st = after
    assert said["R8"] > 0 and said["back"] > 0
