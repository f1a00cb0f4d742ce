"""The Run Buster lesson: straights, extending, busting, winning; set positions of the rules' own states."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from sixdice.gamekit.lesson import Lesson, Step
from sixdice.gamekit.notation import gettext_noop

from .rules.game import ROLL, State

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


def _chose(straight: tuple[int, ...]) -> Any:
    def goal(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool | None:
        if action.get("type") != "choose":
            return None
        return tuple(action.get("straight") or ()) == straight
    return goal


def _busted(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool | None:
    return action.get("type") == "roll" and not State.from_dict(after).hands[1]


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
            ask=gettext_noop("A straight is a run of values in a row, such as 4-5-6. Tap Roll, then keep the "
                             "longest straight your roll holds."),
            done=gettext_noop("Kept: the dice you did not use go back into your cup for the next roll."),
            wrong=gettext_noop("That straight is shorter than the longest one in this roll: 4-5-6. Try again."),
            state=_at([(), ()]),
            rolls=((2, 2, 4, 5, 5, 6),),
            goal=_chose((4, 5, 6)),
        ),
        Step(
            key="extend",
            title=gettext_noop("Extending"),
            ask=gettext_noop("You hold 4-5. Roll the dice in your cup; with a straight in hand you must add to it "
                             "when you can. Make it as long as you can."),
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
                             "hand back into her cup. Tap Roll."),
            done=gettext_noop("Busted: your roll held a 5 and a 6, so Bea's 1-2-3-4 went back into her cup."),
            state=_at([(), (1, 2, 3, 4)]),
            rolls=((5, 6, 2, 2, 3, 3),),
            goal=_busted,
        ),
        Step(
            key="win",
            title=gettext_noop("The full straight"),
            ask=gettext_noop("You hold 1-2-3-4-5: one die left in your cup. Roll it and complete 1-2-3-4-5-6 "
                             "to win."),
            done=gettext_noop("You win: the first to hold the whole run 1-2-3-4-5-6 wins the round."),
            wrong=gettext_noop("Take the full straight 1-2-3-4-5-6 to win."),
            state=_at([(1, 2, 3, 4, 5), (2, 3)]),
            rolls=((6,),),
            goal=_won,
        ),
    )


LESSON = Lesson(slug="runbuster", steps=steps(), roll_for=roll_for)
