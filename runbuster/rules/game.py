"""The state of one round of Run Buster and the actions that move it.

A turn is three steps, as on the BGA screen:

* phase ``"roll"``: the current player sends ``{"type": "roll", "values": [...]}``
  with one value per die in their cup (6 minus the hand size).  Every other
  player still in the round whose complement the roll contains is busted at
  once (B2: busting before building).
* phase ``"choose"`` (only when the roll allows at least one straight):
  ``{"type": "choose", "straight": [...]}``, one of :func:`hand_options`.
  Completing the full straight drops the player out with the next place and
  the turn passes on by itself.
* phase ``"end_turn"``: ``{"type": "end_turn"}`` passes the turn to the next
  seat still in the round.  When the roll allowed no straight, the phase goes
  straight here and the hand stays.

The round is over when one player is left: that player loses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sixdice.gamekit.notation import Refusal, gettext_noop

from .straights import FULL, Straight, as_hand, busts, hand_options

ROLL, CHOOSE, END_TURN = "roll", "choose", "end_turn"
PHASES = (ROLL, CHOOSE, END_TURN)
MIN_PLAYERS, MAX_PLAYERS = 2, 8
Action = dict[str, Any]


class IllegalAction(Refusal):
    """The action is not legal in this state.

    ``msgid`` and ``params`` give the message for translation (see
    :class:`sixdice.gamekit.notation.Refusal`); ``str()`` is the English sentence.
    """


@dataclass(frozen=True)
class State:
    """One round.  Immutable: :func:`apply` returns a new state."""

    players: int
    hands: tuple[Straight, ...]
    current: int
    phase: str = ROLL
    first: int = 0
    last_roll: tuple[int, ...] | None = None
    last_roller: int | None = None
    busted: tuple[int, ...] = ()
    finished: tuple[int, ...] = ()
    loser: int | None = None
    turns: int = 0  # rolls made so far
    ended: bool = False  # the host ended the round early (``end_now``): the hands as they stood decided

    @property
    def over(self) -> bool:
        return self.loser is not None

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the round, in seat order."""
        return tuple(s for s in range(self.players) if s not in self.finished)

    @property
    def hand(self) -> Straight:
        """The current player's hand."""
        return self.hands[self.current]

    def options(self) -> list[Straight]:
        """The straights the current player may choose now (phase ``choose``)."""
        if self.phase != CHOOSE or self.last_roll is None:
            return []
        return hand_options(self.last_roll, self.hand)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "hands": [list(h) for h in self.hands],
            "current": self.current,
            "phase": self.phase,
            "first": self.first,
            "last_roll": None if self.last_roll is None else list(self.last_roll),
            "last_roller": self.last_roller,
            "busted": list(self.busted),
            "finished": list(self.finished),
            "loser": self.loser,
            "over": self.over,
            "turns": self.turns,
            **({"ended": True} if self.ended else {}),  # only when it happened: older states read the same
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        try:
            players = int(data["players"]) if "players" in data else len(data["hands"])
            hands = tuple(as_hand(h) for h in data["hands"])
            roll = data.get("last_roll")
            state = cls(
                players=players,
                hands=hands,
                current=int(data["current"]),
                phase=str(data["phase"]),
                first=int(data.get("first", 0)),
                last_roll=None if roll is None else tuple(int(v) for v in roll),
                last_roller=None if data.get("last_roller") is None else int(data["last_roller"]),
                busted=tuple(int(s) for s in data.get("busted", ())),
                finished=tuple(int(s) for s in data.get("finished", ())),
                loser=None if data.get("loser") is None else int(data["loser"]),
                turns=int(data.get("turns", 0)),
                ended=data.get("ended") is True,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"Not a Run Buster state: {exc}") from exc
        if len(hands) != players or state.phase not in PHASES:
            raise ValueError("Not a Run Buster state: bad hands or phase.")
        return state


def new_game(players: int | Sequence[Any], *, first: int | None = None) -> State:
    """A new round for ``players`` seats (a count or a list of names).

    ``first`` is Player 1, the seat that rolls first; ``None`` means seat 0.
    The app picks Player 1 at random for a table's first round and rotates it
    afterwards (:func:`runbuster.rules.series.next_first`).
    """
    n = players if isinstance(players, int) else len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"Run Buster needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}.")
    start = 0 if first is None else int(first)
    if not 0 <= start < n:
        raise ValueError(f"Player 1 must be a seat between 0 and {n - 1}.")
    return State(players=n, hands=((),) * n, current=start, first=start)


def legal_actions(state: State) -> list[Action]:
    """The actions the current player may take.

    In phase ``roll`` this is one template ``{"type": "roll", "count": n}``:
    the caller supplies ``n`` values (dice are not the rules' business).
    """
    if state.over:
        return []
    if state.phase == ROLL:
        return [{"type": "roll", "count": 6 - len(state.hand)}]
    if state.phase == CHOOSE:
        return [{"type": "choose", "straight": list(o)} for o in state.options()]
    return [{"type": "end_turn"}]


def _next_seat(state: State, after: int, finished: tuple[int, ...]) -> int:
    for k in range(1, state.players + 1):
        seat = (after + k) % state.players
        if seat not in finished:
            return seat
    return after


def _parse_values(action: Mapping[str, Any], count: int) -> tuple[int, ...]:
    values = action.get("values")
    if values is None:
        raise IllegalAction(gettext_noop("A roll needs the values of the %(count)s dice rolled."), params={"count": count})
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise IllegalAction(gettext_noop("Roll values must be a list of numbers."))
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise IllegalAction(gettext_noop("A die shows 1 to 6, not %(value)s."), params={"value": repr(v)})
        out.append(v)
    if len(out) != count:
        raise IllegalAction(
            gettext_noop("Roll exactly %(count)s dice (the dice in the cup), not %(got)s."),
            params={"count": count, "got": len(out)},
        )
    return tuple(out)


def apply(state: State, action: Mapping[str, Any]) -> State:
    """The state after the current player takes ``action``; ``state`` is unchanged."""
    if state.over:
        raise IllegalAction(gettext_noop("The round is over."))
    kind = action.get("type") if isinstance(action, Mapping) else None
    if kind == "roll":
        if state.phase != ROLL:
            raise IllegalAction(gettext_noop("You have already rolled this turn."))
        roll = _parse_values(action, 6 - len(state.hand))
        me = state.current
        busted = tuple(
            s for s in state.active if s != me and busts(roll, state.hands[s])
        )
        hands = tuple(() if s in busted else h for s, h in enumerate(state.hands))
        opts = hand_options(roll, state.hand)
        return replace(
            state,
            hands=hands,
            phase=CHOOSE if opts else END_TURN,
            last_roll=roll,
            last_roller=me,
            busted=busted,
            turns=state.turns + 1,
        )
    if kind == "choose":
        if state.phase != CHOOSE:
            if state.phase == END_TURN:
                raise IllegalAction(gettext_noop("There is nothing to choose now."))
            raise IllegalAction(gettext_noop("Roll first."))
        try:
            straight = as_hand(action.get("straight") or ())
        except (TypeError, ValueError) as exc:
            raise IllegalAction(
                gettext_noop("Not a straight: %(value)s."), params={"value": repr(action.get("straight"))}
            ) from exc
        opts = state.options()
        if straight not in opts:
            shown = ", ".join("-".join(map(str, o)) for o in opts)
            raise IllegalAction(
                gettext_noop("You cannot hold %(straight)s after this roll; choose one of: %(options)s."),
                params={"straight": str(list(straight)), "options": shown},
            )
        me = state.current
        hands = tuple(straight if s == me else h for s, h in enumerate(state.hands))
        if straight != FULL:
            return replace(state, hands=hands, phase=END_TURN)
        finished = state.finished + (me,)
        left = [s for s in range(state.players) if s not in finished]
        if len(left) == 1:
            return replace(state, hands=hands, phase=END_TURN, finished=finished, loser=left[0])
        return replace(state, hands=hands, phase=ROLL, finished=finished, current=_next_seat(state, me, finished))
    if kind == "end_now":  # the host ends the round early: the hands as they stand decide
        return end_now(state)
    if kind == "end_turn":
        if state.phase == ROLL:
            raise IllegalAction(gettext_noop("Roll first."))
        if state.phase == CHOOSE:
            raise IllegalAction(gettext_noop("You must add at least one die to your hand when you can."))
        return replace(state, phase=ROLL, current=_next_seat(state, state.current, state.finished))
    raise IllegalAction(
        gettext_noop("Unknown action %(kind)s: expected roll, choose or end_turn."), params={"kind": repr(kind)}
    )


def end_now(state: State) -> State:
    """The round ended early, the hands as they stand deciding: the players who completed the full straight
    keep their places; the others follow, the longest hand first (on equal hands, the lower seat first), and
    the last of them loses the round."""
    rest = sorted(state.active, key=lambda s: (-len(state.hands[s]), s))
    return replace(state, phase=END_TURN, finished=state.finished + tuple(rest[:-1]), loser=rest[-1], ended=True)


def replay(start: State, actions: Iterable[Mapping[str, Any]]) -> State:
    """Apply ``actions`` in order from ``start``."""
    state = start
    for action in actions:
        state = apply(state, action)
    return state
