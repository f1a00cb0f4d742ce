"""Dice an undo took back are dealt again, in the order they were drawn: no value anyone has seen is rolled again.

At a table where the app rolls, a player's move may be followed by the
app's draw, so an undo of the move takes that draw back too.  The values
drawn are not forgotten: they wait, in order, as *pins*, and the next dice the
app draws take them first (:class:`PinnedRandom`).  The die drawn after a
move keeps its value when the move is made again, and so does every later
draw that was taken back.  Pins are derived data: :func:`pinned_values` works them out
from the event log alone, so a replay reaches the same pins as the server.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .engine import Actor, GameEngine
from .replay import is_undo


def pinned_values(
    events: Iterable[tuple[Actor | str, Mapping[str, Any]]], engine: GameEngine, options: Mapping[str, Any],
) -> list[Any]:
    """The values drawn at random that undos took out of play and that were not dealt again since, oldest first.

    An undo puts the values of the draws it takes back in front of the pins
    (in the order they were drawn); each later draw takes its values from the
    front, as :class:`PinnedRandom` deals them.
    """
    def drawn(action: Mapping[str, Any]) -> bool:
        return engine.draws_at_random(options, action)

    pins: list[Any] = []
    line: list[int] = []
    actions: list[Mapping[str, Any]] = []
    for index, (_actor, action) in enumerate(events, start=1):
        actions.append(action)
        if is_undo(action):
            to = action.get("to")
            undone: list[int] = []
            while line and isinstance(to, int) and line[-1] > to:
                undone.append(line.pop())
            seen = [v for i in reversed(undone) if drawn(actions[i - 1]) for v in engine.drawn_values(actions[i - 1])]
            pins = seen + pins
            continue
        line.append(index)
        if drawn(action):
            for value in engine.drawn_values(action):
                if pins and pins[0] == value:
                    pins.pop(0)
    return pins


class PinnedRandom(random.Random):
    """A ``random.Random`` that deals the pinned values first, then draws from ``fallback``.

    A die is drawn with ``choice(faces)`` or ``randint(low, high)``, as the
    game's rules draw it: the first pin that is one of the faces is dealt.  Every other
    draw, and every draw once the pins are used up, is ``fallback``'s.
    """

    def __init__(self, pins: Sequence[Any], fallback: random.Random) -> None:
        super().__init__(0)
        self.pins = list(pins)
        self.fallback = fallback

    def _deal(self, fits: Callable[[Any], bool]) -> tuple[bool, Any]:
        if self.pins and fits(self.pins[0]):
            return True, self.pins.pop(0)
        return False, None

    def choice(self, seq: Any) -> Any:
        dealt, value = self._deal(lambda v: v in list(seq))
        return value if dealt else self.fallback.choice(seq)

    def randint(self, a: int, b: int) -> int:
        dealt, value = self._deal(lambda v: isinstance(v, int) and a <= v <= b)
        return int(value) if dealt else self.fallback.randint(a, b)

    def random(self) -> float:
        return self.fallback.random()

    def getrandbits(self, k: int) -> int:
        return self.fallback.getrandbits(k)
