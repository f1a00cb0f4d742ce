"""Bot policies: optimal (two players), a heuristic (more), greedy and random.

* ``"optimal"`` -- with two players left in the round, the straight with the
  best exact win probability (:mod:`.solver`).  With more players, the
  heuristic below.
* ``"heuristic"`` -- for each option ``o`` (a full straight wins at once)::

      score(o) = survive(o) * finish(o)

  ``survive(o)``: the chance that no opponent still in the round busts ``o``
  with their next roll, each rolling the dice now in their cup (one roll each
  before my next turn); ``finish(o)``: the chance that my next roll, with
  ``6 - len(o)`` dice, holds the complement of ``o`` and completes it.  So a
  bot goes long when few opponents could bust it and stays short, with a long
  complement, when many full cups are waiting.  Ties go to the longer
  straight, then to the first in sorted order.
* ``"greedy"`` -- the longest straight (first in sorted order on a tie).
* ``"random"`` -- any option, uniformly, from the ``rng`` given.
"""

from __future__ import annotations

import random

from .game import CHOOSE, END_TURN, ROLL, Action, State
from .solver import win_probability
from .straights import Straight, bust_chance, roll_dice

POLICIES = ("optimal", "heuristic", "greedy", "random")


def heuristic_scores(state: State) -> list[tuple[Straight, float]]:
    """The heuristic score of every option of the current player, best first."""
    me = state.current
    others = [s for s in state.active if s != me]
    scored: list[tuple[Straight, float]] = []
    for o in state.options():
        if len(o) == 6:
            scored.append((o, float("inf")))
            continue
        survive = 1.0
        for s in others:
            survive *= 1.0 - bust_chance(6 - len(state.hands[s]), o)
        scored.append((o, survive * bust_chance(6 - len(o), o)))
    scored.sort(key=lambda t: (-t[1], -len(t[0])))
    return scored


def solver_scores(state: State) -> list[tuple[Straight, float]]:
    """Options with the exact win probability, best first (two players left).

    The roll has already busted the opponent in ``state`` (B2), so the
    opponent's hand is taken as it is now.
    """
    me = state.current
    (opp,) = [s for s in state.active if s != me]
    theirs = state.hands[opp]
    scored = [(o, 1.0 if len(o) == 6 else 1.0 - win_probability(theirs, o)) for o in state.options()]
    scored.sort(key=lambda t: -t[1])
    return scored


def choose_straight(state: State, policy: str = "optimal", rng: random.Random | None = None) -> Straight:
    """The straight ``policy`` holds in phase ``choose``."""
    opts = state.options()
    if not opts:
        raise ValueError("There is nothing to choose now.")
    if policy == "random":
        if rng is None:
            raise ValueError("The random policy needs an rng.")
        return rng.choice(opts)
    if policy == "greedy":
        return max(opts, key=len)
    full = [o for o in opts if len(o) == 6]
    if full:
        return full[0]
    if policy == "optimal" and len(state.active) == 2:
        return solver_scores(state)[0][0]
    if policy in ("optimal", "heuristic"):
        return heuristic_scores(state)[0][0]
    raise ValueError(f"Unknown policy {policy!r}; expected one of {', '.join(POLICIES)}.")


def bot_action(state: State, rng: random.Random | None = None, policy: str = "optimal") -> Action:
    """The action a bot of ``policy`` takes as the current player.

    In phase ``roll`` the dice are drawn from ``rng``; without an ``rng`` the
    action is ``{"type": "roll"}`` and the caller fills in the values.
    """
    if state.over:
        raise ValueError("The round is over.")
    if state.phase == ROLL:
        if rng is None:
            return {"type": "roll"}
        return {"type": "roll", "values": roll_dice(rng, 6 - len(state.hand))}
    if state.phase == CHOOSE:
        return {"type": "choose", "straight": list(choose_straight(state, policy, rng))}
    assert state.phase == END_TURN
    return {"type": "end_turn"}


def suggestion(state: State) -> Straight | None:
    """The straight the optimal bot would hold now, for hints; ``None`` if no choice."""
    if state.phase != CHOOSE or state.over:
        return None
    return choose_straight(state, "optimal")
