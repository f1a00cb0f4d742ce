"""The Run Buster lesson: straights, extending, busting, winning; set positions of the rules' own states.

Each step plays the game's own turn as a table does: tap the cup to roll, tap
the dice of the straight, Take, then tap the cup again to end the turn.  The
board offers the rules' legal actions (:func:`offers`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from sixdice.gamekit.lesson import Lesson, Step
from sixdice.gamekit.notation import gettext_noop

from .rules.game import ROLL, State, legal_actions

NAMES = ("Ana", "Bea")  # the learner plays Ana (the page says "you")
OPTIONS = {"dice": "physical", "hints": False, "series": False}


def _at(hands: Sequence[Sequence[int]]) -> dict[str, Any]:
    st = State(players=len(hands), hands=tuple(tuple(h) for h in hands), current=0, phase=ROLL)
    return {**st.to_dict(), "names": list(NAMES), "options": dict(OPTIONS)}


def roll_for(state: Mapping[str, Any], scripted: Sequence[int] | None, rng: random.Random) -> dict[str, Any] | None:
    """The roll of the player in turn: the dice of their cup, the lesson's (or seeded) values."""
    st = State.from_dict(state)
    if st.over or st.phase != ROLL:
        return None
    count = 6 - len(st.hand)
    values = list(scripted) if scripted else [rng.randint(1, 6) for _ in range(count)]
    return {"type": "roll", "values": values[:count]}


def offers(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """The straights to take or the end of the turn, as the rules list them (the roll is the cup's own tap)."""
    st = State.from_dict(state)
    if st.over or st.current != seat or st.phase == ROLL:
        return []
    return legal_actions(st)


def _chose(straight: tuple[int, ...]) -> Any:
    """Take ``straight``, then end the turn with the cup."""
    def goal(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool | None:
        kind = action.get("type")
        if kind == "choose":
            return None if tuple(action.get("straight") or ()) == straight else False
        return True if kind == "end_turn" else None
    return goal


def _busted(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool | None:
    """Roll the buster (Bea's hand goes back to her cup), take a straight, and end the turn."""
    kind = action.get("type")
    if kind == "roll":
        return None if not State.from_dict(after).hands[1] else False
    return True if kind == "end_turn" else None


def _won(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool | None:
    st = State.from_dict(after)
    if action.get("type") != "choose":
        return None
    return 0 in st.finished


def steps() -> tuple[Step, ...]:
    return (
        Step(
            key="straight",
            title=gettext_noop("Straights"),
            ask=gettext_noop("A straight is a run of values in a row, such as 4-5-6. Tap your cup to roll, tap "
                             "the dice of the longest straight your roll holds, then Take. Tap your cup again to "
                             "end the turn."),
            done=gettext_noop("Kept: the dice you did not use go back into your cup for the next roll."),
            wrong=gettext_noop("That straight is shorter than the longest one in this roll: 4-5-6. Try again."),
            state=_at([(), ()]),
            rolls=((2, 2, 4, 5, 5, 6),),
            goal=_chose((4, 5, 6)),
        ),
        Step(
            key="extend",
            title=gettext_noop("Extending"),
            ask=gettext_noop("You hold 4-5. Tap your cup to roll the dice in it; with a straight in hand you must "
                             "add to it when you can. Tap the dice that make it as long as you can, Take, then end "
                             "the turn with your cup."),
            done=gettext_noop("Longer: 3-4-5-6. Each number appears only once in a straight."),
            wrong=gettext_noop("Your roll can make 3-4-5-6: try again and add both ends."),
            state=_at([(4, 5), ()]),
            rolls=((3, 4, 4, 6),),
            goal=_chose((3, 4, 5, 6)),
        ),
        Step(
            key="bust",
            title=gettext_noop("Busting"),
            ask=gettext_noop("Bea holds 1-2-3-4, so her buster is 5 and 6: a roll showing both sends her whole "
                             "hand back into her cup. Tap your cup to roll, take a straight, and end the turn."),
            done=gettext_noop("Busted: your roll held a 5 and a 6, so Bea's 1-2-3-4 went back into her cup."),
            state=_at([(), (1, 2, 3, 4)]),
            rolls=((5, 6, 2, 2, 3, 3),),
            goal=_busted,
        ),
        Step(
            key="win",
            title=gettext_noop("The full straight"),
            ask=gettext_noop("You hold 1-2-3-4-5: one die left in your cup. Tap your cup to roll it, tap the 6 "
                             "and Take to complete 1-2-3-4-5-6 and win."),
            done=gettext_noop("You win: the first to hold the whole run 1-2-3-4-5-6 wins the round."),
            wrong=gettext_noop("Take the full straight 1-2-3-4-5-6 to win."),
            state=_at([(1, 2, 3, 4, 5), (2, 3)]),
            rolls=((6,),),
            goal=_won,
        ),
    )


LESSON = Lesson(slug="runbuster", steps=steps(), roll_for=roll_for, offers=offers)
