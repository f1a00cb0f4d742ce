"""The last round is announced when the rules in force change it; keep options carry the hand's value after each."""

from __future__ import annotations

import random

import pytest

from sixdice.engine import ENGINE
from sixdice.gamekit.notation import render_parts
from sixdice.rules.game import State
from sixdice.tables.core import i18n


def _play(options: dict, players: int, seed: int):
    """Every event of a whole game (random bots, the app's dice): ``(state before, action, parts)``."""
    names = ["Ana", "Ben", "Cleo", "Dev", "Eve", "Fay"][:players]
    cleaned = ENGINE.clean_options(options, players=players)
    state = ENGINE.start(players=names, options=cleaned)
    rng = random.Random(seed)
    out = []
    for _ in range(2000):
        if ENGINE.outcome(state) is not None:
            return out
        action = ENGINE.system_action(state, cleaned, rng)
        actor: object = "system"
        if action is None:
            seat = min(ENGINE.actors(state))
            action, actor = ENGINE.bot_action(state, seat, rng, strength="random"), seat
        parts = ENGINE.describe_parts(state, action, names=names)
        out.append((state, action, parts))
        state = ENGINE.apply(state, action, actor=actor)  # type: ignore[arg-type]
    raise AssertionError("the game did not end")


def _announced(parts) -> list:
    return [p for p in parts if p.get("announce")]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_reverse_last_round_is_announced_as_it_begins_naming_who_goes_again(seed):
    events = _play({"rules": "recommended", "rounds": 3}, 4, seed)  # 4 players: reversed (3: scored at the last turn)
    said = [(before, action, parts) for before, action, parts in events if _announced(parts)]
    assert len(said) == 1  # once, as the last round begins
    before, action, parts = said[0]
    after = State.from_dict(ENGINE.apply(before, action, actor="system" if action["type"] == "roll" else
                                         State.from_dict(before).pending.seat))
    last_mover = State.from_dict(before).current
    assert after.round == after.rounds == 3 and State.from_dict(before).round == 2
    assert after.current == last_mover  # the player who moved last goes again
    name = after.players[after.current]
    assert render_parts(_announced(parts)) == f"Last round, in reverse order: {name} goes again"
    localized = i18n.localize_events([{"seq": 1, "actor": "system", "action": action, "text": "", "notation": parts}],
                                     "fr")[0]
    assert localized["notice"] == f"Dernière manche, dans l’ordre inverse\u00a0: {name} rejoue"


def test_a_hand_scored_at_its_owners_last_turn_is_announced_too():
    events = _play({"rules": "recommended", "rounds": 2}, 5, 4)  # 5 players: scored at the last turn, no reverse
    said = [parts for _b, _a, parts in events if _announced(parts)]
    assert len(said) == 1
    assert render_parts(_announced(said[0])) == "Last round: each hand counts as it stands at the end of its owner's turn"


def test_the_rules_as_written_announce_nothing():
    for seed in (1, 2):
        assert not any(_announced(parts) for _b, _a, parts in _play({"rules": "as_written", "rounds": 3}, 3, seed))


def test_each_keep_option_carries_the_hands_value_after_it():
    seen = 0
    for seed in range(1, 40):
        for before, _action, _parts in _play({"rounds": 2}, 3, seed):
            st = State.from_dict(before)
            if st.pending is None or st.pending.kind != "keep":
                continue
            view = ENGINE.view(before, st.pending.seat)
            hand = st.hands[st.pending.seat]
            assert len(view["keep_values"]) == len(view["keep_options"]) >= 2
            for (i, j), value in zip(view["keep_options"], view["keep_values"], strict=True):
                assert value == sum(hand.groups[i]) + sum(hand.groups[j]) + sum(hand.loose)
            assert "keep_values" not in ENGINE.view(before, (st.pending.seat + 1) % 3)  # the deciding seat's (and host)
            seen += 1
        if seen >= 3:
            return
    raise AssertionError("no keep choice in these games")
