"""Lessons: set positions, each asking the learner to do one thing on a real board (pure Python, no Django).

A game's lesson is a list of :class:`Step`.  Each step holds a position (an
engine state built with the game's own state constructors), the seat the
learner plays, and what it asks: a question about the board (``quiz``), one
move that meets ``goal``, or a move the rules refuse (``refusal``).  The real
engine decides what is legal: :func:`tap` applies the learner's action to the
position with the engine, lets the other seats play by themselves (the
lesson's scripted dice, then the bots' choices) until the learner is to act
again, and says whether the step is met.  A legal move that is not what the
step asked is explained in one sentence (``wrong``) and the position is set
back; a refused move is explained in one plain sentence about the position
(the game's ``explain``), else with the engine's own reason.  What the board
offers the learner (:func:`offered`) is the engine's own legal moves in the
position, never a copy of the rules.  Messages are English format strings
marked with ``gettext_noop``; the tables translate them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import GameEngine
from .errors import GameError
from .notation import Part
from .replay import describe_parts

JSON = dict[str, Any]
# (before, after, action) -> True: the step is met; False: not what it asks; None: not yet (the learner plays on)
Goal = Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]], "bool | None"]
# (state, scripted values or None, rng) -> the roll action of the seat in turn (values filled), or None: no roll now
RollFor = Callable[[Mapping[str, Any], Sequence[int] | None, random.Random], JSON | None]
# (state, seat) -> the moves the game offers that seat now (the engine's legal moves; no rolls)
Offers = Callable[[Mapping[str, Any], int], list[JSON]]
# (state, seat, refused action) -> one plain sentence about the position, or None (the engine's reason is shown)
Explain = Callable[[Mapping[str, Any], int, Mapping[str, Any]], "Part | None"]

QUIZ = "quiz"
MOVE = "move"
REFUSAL = "refusal"
MAX_STEPS = 60


@dataclass(frozen=True)
class Step:
    """One set position and the one thing it asks."""

    key: str
    title: str  # msgid
    ask: str  # msgid: what to do, in one or two sentences
    done: str  # msgid: said once the step is met
    state: JSON
    seat: int = 0
    kind: str = MOVE
    goal: Goal | None = None  # MOVE: when the move meets the step (None: any legal move of the learner)
    wrong: str = ""  # msgid: a legal move (or answer) that is not what the step asks, in one sentence
    quiz: tuple[str, ...] = ()  # QUIZ: the answers offered
    answer: str = ""  # QUIZ: the right one
    rolls: tuple[tuple[int, ...], ...] = ()  # the dice the lesson rolls, in order (then a seeded draw)
    tempting: tuple[JSON, ...] = ()  # extra choices the page offers that the rules refuse (the refusal teaches)
    args: Mapping[str, Any] = field(default_factory=dict)  # arguments of ``ask`` and ``done`` (names, dice, numbers)
    note: str = ""  # msgid: how the step meets a table's options (e.g. a choice automatic balancing makes)


@dataclass(frozen=True)
class Lesson:
    slug: str  # the game's engine slug
    steps: tuple[Step, ...]
    roll_for: RollFor  # how the game rolls dice for the seat in turn (physical dice: the values typed in)
    offers: Offers | None = None  # the moves a table would offer (None: the page offers none)
    explain: Explain | None = None  # a refusal in plain words about the position
    # a line's part (by its msgid) -> the same news with its reason (same arguments): every automatic step says why
    reasons: Mapping[str, str] = field(default_factory=dict)
    about: str = ""  # msgid: which rules the lesson teaches (e.g. a named set of house rules): on the first step
    # and on each step whose ``args`` carry a number of those rules


@dataclass
class Tapped:
    """What one tap did: the new state, the lines of what happened, whether the step is met, and why not."""

    state: JSON
    lines: list[list[Part]] = field(default_factory=list)
    met: bool = False
    refused: GameError | None = None
    why: Part | None = None  # the refusal in one plain sentence about the position (else ``refused``'s message)
    wrong: str = ""  # msgid (the step's own sentence)
    reset: bool = False  # the position was set back to the step's start


def _roll(lesson: Lesson, step: Step, state: Mapping[str, Any], used: int, rng: random.Random) -> JSON | None:
    return lesson.roll_for(state, step.rolls[used] if used < len(step.rolls) else None, rng)


def _told(lesson: Lesson, parts: list[Part]) -> list[Part]:
    """The line with every automatic step worded with its reason (the lesson's ``reasons``)."""
    return [{**p, "msg": lesson.reasons[p["msg"]]} if p.get("msg") in lesson.reasons else p for p in parts]


def play_others(
    engine: GameEngine, lesson: Lesson, step: Step, state: JSON, *, rolled: int = 0, stop_at_turn: bool = True,
) -> tuple[JSON, list[list[Part]], int]:
    """Let every seat but the learner act (scripted dice, then the bots' own choices) until the learner is to act."""
    rng = random.Random(f"lesson:{lesson.slug}:{step.key}")
    names = names_of(state)
    lines: list[list[Part]] = []
    for _ in range(MAX_STEPS):
        if engine.outcome(state) is not None:
            break
        actors = engine.actors(state)
        if step.seat in actors:
            break
        if not actors:
            break
        seat = min(actors)
        action = _roll(lesson, step, state, rolled, rng)
        if action is not None:
            rolled += 1
        else:
            action = engine.bot_action(state, seat, rng)
        if action is None or (stop_at_turn and engine.is_turn(seat, action)):
            break  # the lesson shows the learner's own turn: the next player's turn is not played
        lines.append(_told(lesson, describe_parts(engine, state, action, names=names)))
        state = engine.apply(state, action, actor=seat)
    return state, lines, rolled


def names_of(state: Mapping[str, Any]) -> list[str]:
    for key in ("players", "names"):
        value = state.get(key)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
    return []


def tap(
    engine: GameEngine, lesson: Lesson, step: Step, state: JSON, action: Mapping[str, Any] | None, *, rolled: int = 0,
) -> tuple[Tapped, int]:
    """Apply the learner's ``action`` to ``state`` with the real engine; the others then play by themselves.

    ``action`` ``None``: the learner tapped to roll; the lesson rolls the dice
    the game waits for (the step's scripted dice, the game's ``roll_for``).
    Returns what happened and how many scripted rolls are used.
    """
    start = step_state(engine, lesson, step)[0]
    if action is None:
        rng = random.Random(f"lesson:{lesson.slug}:{step.key}:{rolled}")
        act = _roll(lesson, step, state, rolled, rng)
        if act is None:
            return Tapped(state), rolled
        rolled += 1
    else:
        act = dict(action)
    names = names_of(state)
    try:
        after = engine.apply(state, act, actor=step.seat)
    except GameError as exc:
        why = lesson.explain(state, step.seat, act) if lesson.explain is not None else None
        return Tapped(state, met=step.kind == REFUSAL, refused=exc, why=why), rolled
    lines = [_told(lesson, describe_parts(engine, state, act, names=names))]
    after, more, rolled = play_others(engine, lesson, step, after, rolled=rolled)
    lines += more
    if step.kind == REFUSAL:
        return Tapped(start, lines=lines, wrong=step.wrong, reset=True), 0
    verdict = True if step.goal is None else step.goal(state, after, act)
    if verdict:
        return Tapped(after, lines=lines, met=True), rolled
    if verdict is None and step.seat in engine.actors(after) and engine.outcome(after) is None:
        return Tapped(after, lines=lines), rolled  # the move goes on: from here
    return Tapped(start, lines=lines, wrong=step.wrong, reset=True), 0


def step_state(engine: GameEngine, lesson: Lesson, step: Step) -> tuple[JSON, list[list[Part]]]:
    """The step's position, once the other seats have played up to the learner's action."""
    state, lines, _ = play_others(engine, lesson, step, dict(step.state))
    return state, lines


def offered(lesson: Lesson, step: Step, state: Mapping[str, Any]) -> list[JSON]:
    """The moves the board offers the learner now: the engine's legal moves, none in a question."""
    if step.kind == QUIZ or lesson.offers is None:
        return []
    return lesson.offers(state, step.seat)


def answer(step: Step, given: str) -> bool:
    return step.kind == QUIZ and given == step.answer


def find(lesson: Lesson, key: str) -> Step | None:
    return next((s for s in lesson.steps if s.key == key), None)

