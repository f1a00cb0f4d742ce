"""The Six-Dice lesson: set positions built with the rules' own constructors, learnt by doing.

Every position is a real game state (:func:`sixdice.rules.position`, real
dice typed in by the lesson); the engine decides what is legal.  The steps:
read a hand's value; flip; an impossible flip refused; draw; balance (zero-sum
groups, the rarer colour paired, keep two, a pair from the bank); the bank
running low; all threes; the last round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from sixdice.gamekit.lesson import QUIZ, REFUSAL, Lesson, Step
from sixdice.gamekit.notation import gettext_noop

from .engine import ENGINE
from .rules import Hand, State, apply, position
from .rules.game import FACES

NAMES = ("Ana", "Bea")  # the learner plays Ana (the page says "you")


def _dump(st: State) -> dict[str, Any]:
    return ENGINE._dump(st)  # type: ignore[attr-defined]


def _st(state: Mapping[str, Any]) -> State:
    return State.from_dict(dict(state))


def _at(hands: Sequence[Hand], *, bank: int = 10, rounds: int = 12, round: int = 1, moved: int = 0,
        then: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    st = position(list(hands), bank=bank, players=NAMES, rounds=rounds, round=round, moved=moved, dice="physical")
    for action in then:
        st = apply(st, action)
    return _dump(st)


def roll_for(state: Mapping[str, Any], scripted: Sequence[int] | None, rng: random.Random) -> dict[str, Any] | None:
    """The roll the game waits for, with the lesson's dice (or seeded ones)."""
    st = _st(state)
    p = st.pending
    if st.over or p is None or p.kind != "roll":
        return None
    count = 1 if p.purpose == "pair" else p.count
    values = list(scripted) if scripted else [rng.choice(FACES) for _ in range(count)]
    return {"type": "roll", "values": values[:count]}


def _flipped(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    return action.get("type") == "flip"


def _drew(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    return action.get("type") == "roll"


def _grouped(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    return action.get("type") == "group"


def _kept(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    return action.get("type") == "keep"


def _paired(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    return action.get("type") == "roll"


def _no_draw(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    return action.get("type") == "flip" and _st(after).bank == 0


def _threes(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    st = _st(after)
    return st.over and st.end_reason == "all_threes" and 0 in st.winners


def _won_last_round(before: Mapping[str, Any], after: Mapping[str, Any], action: Mapping[str, Any]) -> bool | None:
    st = _st(after)
    if not st.over:
        return None  # the learner still balances
    return st.end_reason == "rounds" and st.winners == (0,)


FLIP_AGAINST_MINUS_TWO = {"type": "flip", "victim": 1, "own": 2, "own_to": 3, "other": 2, "other_to": -4}


def steps() -> tuple[Step, ...]:
    return (
        Step(
            key="value", kind=QUIZ,
            title=gettext_noop("A hand's value"),
            ask=gettext_noop("Your dice lie face up: blue dice count plus, red dice count minus. What is your hand "
                             "worth? Add up every die, grouped or not."),
            done=gettext_noop("Right: +2 −2 +3 +1 adds up to +4. The value is always the sum of all your dice."),
            wrong=gettext_noop("Not quite: add every die, the grouped ones too; a red die takes away."),
            state=_at([Hand(((2, -2),), (3, 1)), Hand(((3, -3),), (-1, -2))]),
            quiz=("+6", "+4", "0"), answer="+4",
        ),
        Step(
            key="flip",
            title=gettext_noop("Flip"),
            ask=gettext_noop("Your turn starts with a flip. Tap one of your dice, pick its new face, then tap one of "
                             "Bea's dice: hers moves by the same amount the other way."),
            done=gettext_noop("That is a flip: what you gained, Bea lost. Next comes the draw."),
            state=_at([Hand(((1, -1),), (1, 2)), Hand(((3, -3),), (2, 1))]),
            goal=_flipped,
        ),
        Step(
            key="refused", kind=REFUSAL,
            title=gettext_noop("A flip that cannot be made"),
            ask=gettext_noop("Try this one: make your +1 a +3 (two up) and Bea's −2 two down. Tap your +1, "
                             "choose +3, then tap Bea's −2."),
            done=gettext_noop("Refused: −2 two down would be −4, and no die has that face. Both dice must land on "
                              "a real face."),
            wrong=gettext_noop("That flip was possible. This time try your +1 to +3 against Bea's −2, to see why "
                               "some flips are refused."),
            state=_at([Hand(((3, -3),), (1, 2)), Hand(((1, -1),), (-2,))]),
        ),
        Step(
            key="draw",
            title=gettext_noop("Draw"),
            ask=gettext_noop("After the flip you take one die from the bank and roll it. Tap Roll."),
            done=gettext_noop("The new die joins your hand loose; next you balance your hand."),
            state=_at([Hand(((1, -1),), (2, 2)), Hand(((3, -3),), (1,))],
                      then=[{"type": "flip", "victim": 1, "own": 2, "own_to": 3, "other": 0, "other_to": 2}]),
            rolls=((-3,),),
            goal=_drew,
        ),
        Step(
            key="zero",
            title=gettext_noop("Balance: groups that add up to zero"),
            ask=gettext_noop("Balancing sorts your whole hand again into groups that each add up to zero, as many "
                             "as possible. Pick the grouping you want."),
            done=gettext_noop("Balanced: the most zero-sum groups the hand allows."),
            state=_at([Hand(((3, -3),), (2, -1, 2)), Hand(((3, -3),), (1, 1))],
                      then=[{"type": "flip", "victim": 1, "own": 4, "own_to": 1, "other": 2, "other_to": 2},
                            {"type": "roll", "values": [-1]}]),
            tempting=({"type": "group", "zero_groups": [[3, -3]], "pairs": [[2, -1], [1, -1]], "loose": []},),
            goal=_grouped,
        ),
        Step(
            key="pairs",
            title=gettext_noop("Balance: the rarer colour is paired"),
            ask=gettext_noop("When the dice left after the zero-sum groups still show both colours, each die of the "
                             "rarer colour pairs with one of the other colour. Pick how your dice pair up."),
            done=gettext_noop("Paired: now every loose die is of one colour."),
            state=_at([Hand(((3, -3),), (1, 2)), Hand(((3, -3),), (1, 1))],
                      then=[{"type": "flip", "victim": 1, "own": 2, "own_to": 3, "other": 0, "other_to": 1},
                            {"type": "roll", "values": [-1]}]),
            tempting=({"type": "group", "zero_groups": [[3, -3]], "pairs": [], "loose": [3, 2, -1]},),
            goal=_grouped,
        ),
        Step(
            key="keep",
            title=gettext_noop("Balance: keep two groups"),
            ask=gettext_noop("You may keep at most two groups; the dice of the others go back to the bank. Tap the "
                             "two groups you keep."),
            done=gettext_noop("Kept: the other group's dice went back to the bank. Loose dice always stay."),
            state=_at([Hand(((2, -2), (1, -1)), (3,)), Hand(((3, -3),), (2, 2))],
                      then=[{"type": "flip", "victim": 1, "own": 4, "own_to": -3, "other": 1, "other_to": 3},
                            {"type": "roll", "values": [3]}]),
            goal=_kept,
        ),
        Step(
            key="pair",
            title=gettext_noop("Balance: no group left"),
            ask=gettext_noop("Your dice are all one colour, so no group can be made: take a pair from the bank. "
                             "Tap Roll: one die is rolled and the other is set to the opposite face."),
            done=gettext_noop("Now you hold a zero-sum pair again, such as (+2 −2)."),
            state=_at([Hand((), (2, 3)), Hand(((3, -3),), (1,))],
                      then=[{"type": "flip", "victim": 1, "own": 0, "own_to": 1, "other": 2, "other_to": 2},
                            {"type": "roll", "values": [1]}]),
            rolls=((2,),),
            goal=_paired,
        ),
        Step(
            key="bank",
            title=gettext_noop("The bank runs low"),
            ask=gettext_noop("The bank is empty. Make any flip and watch what happens to the draw."),
            done=gettext_noop("No draw: when the bank is too short for a step, that step is skipped and the game "
                              "goes on."),
            state=_at([Hand(((1, -1),), (2, 2)), Hand(((3, -3),), (1, 1))], bank=0),
            goal=_no_draw,
        ),
        Step(
            key="threes",
            title=gettext_noop("Win at once: all threes"),
            ask=gettext_noop("Six or more dice that are all +3 (or all −3) win at once. Make every one of your "
                             "dice +3."),
            done=gettext_noop("You win: your −3 became +3, Bea's +3 went down to −3, and all your dice are +3."),
            wrong=gettext_noop("Not yet all threes: make your −3 a +3, and one of Bea's +3 a −3."),
            state=_at([Hand(((3, -3),), (3, 3, 3, 3, 3)), Hand(((1, -1),), (3, 2))]),
            goal=_threes,
        ),
        Step(
            key="last",
            title=gettext_noop("The last round"),
            ask=gettext_noop("This is the last turn of the last round: the hand furthest from zero wins, plus or "
                             "minus. You have +3, Bea −4. Tip: minus counts too; a big step down for one of your "
                             "dice lifts one of Bea's red dice towards zero."),
            done=gettext_noop("You win: at the end your hand is the furthest from zero, even below it."),
            wrong=gettext_noop("Bea's hand ended further from zero than yours. Try a flip that takes you further "
                               "from zero or brings Bea closer to it."),
            state=_at([Hand(((3, -3),), (2, 1)), Hand(((2, -2),), (-3, -1))], bank=0, rounds=1, round=1, moved=1),
            goal=_won_last_round,
        ),
    )


LESSON = Lesson(slug="sixdice", steps=steps(), roll_for=roll_for)
