"""The Six-Dice lesson: set positions built with the rules' own constructors, learnt by doing.

Every position is a real game state (:func:`sixdice.rules.position`, real
dice typed in by the lesson); the engine decides what is legal.  The steps:
read a hand's value; flip; an impossible flip refused; draw; balance (zero-sum
groups, the rarer colour paired, keep two, a pair from the bank); the bank
running low; all threes; the last round; and a closing question on the rounds,
who starts, the last round under the rules in force and whom it pays to flip.

The lesson teaches the rules a new table starts on: every position is played
under the recommended preset for two players (:data:`RULES`, read from
:data:`sixdice.rules.variants.PRESETS`, as the new-table form's default is),
and the numbers it teaches (how many dice all threes needs, the bank's refill)
are read from that preset, never written into the text; the lesson says so
(:data:`ABOUT`: at your table the host may choose otherwise).  The order follows
a table's default options: automatic balancing is off unless the table turns
it on, so the balancing choices are taught, each with the note that at a table
with automatic balancing the app makes them.  The board offers
only the engine's legal moves (:func:`offers`); a refused tap is explained in
one plain sentence about the position (:func:`explain`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from sixdice.gamekit.lesson import QUIZ, REFUSAL, Lesson, Step
from sixdice.gamekit.notation import Part, gettext_noop, part, signed

from .engine import ENGINE
from .rules import Hand, State, apply, position
from .rules.dice import FACES
from .rules.game import legal_actions
from .rules.variants import Variants, preset

NAMES = ("Ana", "Bea")  # the learner plays Ana (the page says "you")
RULES_PRESET = "recommended"  # the preset the new-table form starts on (templates/sixdice/_house_rules_form.html)
RULES: Variants = preset(RULES_PRESET, len(NAMES))[0]
"""The house rules every position of the lesson plays (the recommended preset for two players)."""
ABOUT = gettext_noop("This lesson teaches the recommended rules, those a new table starts on; at your table the host "
                     "may choose otherwise.")


def _dump(st: State) -> dict[str, Any]:
    return ENGINE._dump(st)  # type: ignore[attr-defined]


def _st(state: Mapping[str, Any]) -> State:
    return State.from_dict(dict(state))


def _at(hands: Sequence[Hand], *, bank: int = 10, rounds: int = 12, round: int = 1, moved: int = 0,
        then: Sequence[Mapping[str, Any]] = (), players: Sequence[str] = NAMES) -> dict[str, Any]:
    st = position(list(hands), bank=bank, players=players, rounds=rounds, round=round, moved=moved, dice="physical",
                  variants=RULES)
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


def _grouping_key(action: Mapping[str, Any]) -> tuple[Any, ...]:
    """A grouping up to order: the same groups in another order are the same grouping."""
    groups = [tuple(sorted(g)) for g in (*action.get("zero_groups", ()), *action.get("pairs", ()))]
    return tuple(sorted(groups)), tuple(sorted(action.get("loose") or ()))


def offers(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """The flips, groupings or keeps a table offers ``seat`` now: the rules' legal actions (one per grouping)."""
    st = _st(state)
    p = st.pending
    if st.over or p is None or p.seat != seat or p.kind not in ("flip", "group", "keep"):
        return []
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for action in legal_actions(st):
        if action["type"] == "group":
            key = _grouping_key(action)
            if key in seen:
                continue
            seen.add(key)
        out.append(action)
    return out


def explain(state: Mapping[str, Any], seat: int, action: Mapping[str, Any]) -> Part | None:
    """A refused flip in one plain sentence about the position (``None``: the engine's own reason says it)."""
    if action.get("type") != "flip":
        return None
    st = _st(state)
    victim, own_i, other_i = action.get("victim"), action.get("own"), action.get("other")
    own_to = action.get("own_to")
    if not (isinstance(victim, int) and isinstance(own_i, int) and isinstance(other_i, int) and isinstance(own_to, int)):
        return None
    if not (0 <= victim < st.n and victim != seat):
        return None
    own, other = st.hands[seat].dice(), st.hands[victim].dice()
    if not (0 <= own_i < len(own) and 0 <= other_i < len(other)):
        return None
    if own_to not in FACES:
        return part(gettext_noop("Your %(die)s can't become %(face)s: dice go from −3 to +3."),
                    die=signed(own[own_i]), face=signed(own_to))
    target = other[other_i] - (own_to - own[own_i])
    if target not in FACES:
        return part(gettext_noop("%(name)s's %(die)s can't become %(face)s: a flip moves a die by the opposite "
                                 "amount of yours, and dice go from −3 to +3."),
                    name=st.players[victim], die=signed(other[other_i]), face=signed(target))
    return None


REASONS = {
    "%(name)s's hand was regrouped": gettext_noop("%(name)s's hand was balanced again: its groups changed, and "
                                                  "there was only one way to make them"),
    "%(name)s takes a pair from the bank: %(group)s": gettext_noop(
        "%(name)s's dice were all one colour, so no group could be made: a pair from the bank, %(group)s"),
}
"""The automatic steps a lesson shows, worded with their reason (the arguments of the engine's line)."""

AUTO_NOTE = gettext_noop("At a table with automatic balancing on, the app does this for you.")


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
            tempting=(FLIP_AGAINST_MINUS_TWO,),
        ),
        Step(
            key="draw",
            title=gettext_noop("Draw"),
            ask=gettext_noop("After the flip you take one die from the bank and roll it. Tap Roll."),
            done=gettext_noop("The new die joined your hand, and both hands changed, so both were balanced again. "
                              "Each had only one way to group its dice, so there was nothing to choose."),
            state=_at([Hand(((1, -1),), (2, 2)), Hand(((3, -3),), (1,))],
                      then=[{"type": "flip", "victim": 1, "own": 2, "own_to": 3, "other": 0, "other_to": 2}]),
            rolls=((-3,),),
            goal=_drew,
        ),
        Step(
            key="zero",
            title=gettext_noop("Balance: groups that add up to zero"),
            ask=gettext_noop("Balancing sorts your whole hand again: first as many groups as possible that add up "
                             "to zero, then the dice left over of both colours into pairs. Your hand has two ways "
                             "to do it: pick one."),
            done=gettext_noop("Balanced: two groups that add up to zero either way; you chose which dice go together."),
            note=AUTO_NOTE,
            state=_at([Hand(((3, -3),), (2, -1, 2)), Hand(((3, -3),), (1, 1))],
                      then=[{"type": "flip", "victim": 1, "own": 4, "own_to": 1, "other": 2, "other_to": 2},
                            {"type": "roll", "values": [-1]}]),
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
            goal=_grouped,
            note=AUTO_NOTE,
        ),
        Step(
            key="keep",
            title=gettext_noop("Balance: keep two groups"),
            ask=gettext_noop("You may keep at most two groups; the dice of the others go back to the bank. Tap the "
                             "two groups you keep."),
            done=gettext_noop("Kept: the other group's dice went back to the bank. Loose dice always stay."),
            note=AUTO_NOTE,
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
            title=gettext_noop("An empty bank"),
            ask=gettext_noop("The bank is empty. Make any flip and watch what happens to the draw."),
            done=gettext_noop("No draw: when the bank is too short for a step, that step is skipped and the game "
                              "goes on. Under the recommended rules the bank refills at the start of every round, "
                              "to %(refill)s dice per player."),
            args={"refill": RULES.refill},
            state=_at([Hand(((1, -1),), (2, 2)), Hand(((3, -3),), (1, 1))], bank=0),
            goal=_no_draw,
        ),
        Step(
            key="threes",
            title=gettext_noop("Win at once: all threes"),
            ask=gettext_noop("Under the recommended rules, %(threes)s or more dice that are all +3 (or all −3) win "
                             "at once. Make every one of your dice +3."),
            args={"threes": RULES.threes_dice},
            done=gettext_noop("You win: your −3 became +3, Bea's +3 went down to −3, and all your dice are +3."),
            wrong=gettext_noop("Not yet all threes: make your −3 a +3, and one of Bea's +3 a −3."),
            state=_at([Hand(((3, -3),), (3,) * (RULES.threes_dice - 2)), Hand(((1, -1),), (3, 2))]),
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
        Step(
            key="rounds", kind=QUIZ,
            title=gettext_noop("Rounds, who starts, and whom to flip"),
            ask=gettext_noop("In a round everyone has one turn; the usual game has 12 rounds. The hand closest to "
                             "zero after the start rolls moves first: it is furthest behind. Under the rules as "
                             "written the last round goes in the usual order; under the recommended rules, with 2 "
                             "or 4 players, it is played in reverse, so the first player moves last. It is your "
                             "turn: whose dice pay most to flip?"),
            done=gettext_noop("Right: flip the leader, the hand furthest from zero, plus or minus: what the leader "
                              "loses, the others gain on the win."),
            wrong=gettext_noop("Flip the leader: the hand furthest from zero, plus or minus, wins at the end."),
            state=_at([Hand(((1, -1),), (1,)), Hand(((2, -2),), (-3, -2)), Hand(((3, -3),), (2,))],
                      players=(*NAMES, "Cai")),
            quiz=("Bea", "Cai"), answer="Bea",
        ),
    )


LESSON = Lesson(slug="sixdice", steps=steps(), roll_for=roll_for, offers=offers, explain=explain, reasons=REASONS,
                about=ABOUT)
