"""The game state and its actions.

A :class:`State` is immutable; :func:`apply` returns a new one.  Randomness
never enters :func:`apply`: every roll is an action that carries its values
(``{"type": "roll", "values": [...]}``), so replaying the recorded actions
rebuilds the state exactly.

The state keeps a small list of steps still to do (``todo``); after every
action :func:`_advance` runs the steps that need nobody (a grouping with one
possible answer, a skipped draw, the end of a turn, ...) until the game waits
for an action (``pending``) or is over.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from sixdice.gamekit.notation import Part, Refusal, gettext_noop, ngettext, part, signed

from .balance import (
    _FLIP_TABLE,
    NOT_A_FACE,
    Grouping,
    IllegalGrouping,
    _groupings_counts,
    _groupings_set,
    canonical,
    check_grouping,
    default_keep,
    groupings,
    has_legal_flip,
    is_all_threes,
    keep_options,
    legal_flips,
)
from .dice import FACE_SET, FACES, Counts, counts_of, fmt_dice
from .variants import AS_WRITTEN, Variants, valid_compensation

START_DICE = 6


class IllegalAction(Refusal):
    """An action that is not legal now; the message says why.

    ``msgid`` and ``params`` give the message for translation (see
    :class:`sixdice.gamekit.notation.Refusal`); ``str()`` is the English sentence.
    """


@dataclass(frozen=True)
class Hand:
    """The dice in front of one player: groups (zero-sum and non-zero) and loose dice."""

    groups: tuple[tuple[int, ...], ...] = ()
    loose: tuple[int, ...] = ()

    def dice(self) -> tuple[int, ...]:
        """All dice, groups first (in order) then loose: the indices a flip names."""
        d = self.__dict__
        flat = d.get("_flat")
        if flat is None:
            flat = d["_flat"] = sum(self.groups, ()) + self.loose
        return flat

    def counts(self) -> Counts:
        """How many dice of each face (:func:`~sixdice.rules.dice.counts_of`), remembered like :meth:`dice`."""
        d = self.__dict__
        c = d.get("_counts")
        if c is None:
            c = d["_counts"] = counts_of(self.dice())
        return c

    @property
    def value(self) -> int:
        return sum(sum(g) for g in self.groups) + sum(self.loose)

    @property
    def size(self) -> int:
        return sum(len(g) for g in self.groups) + len(self.loose)

    def to_dict(self) -> dict[str, Any]:
        return {"groups": [list(g) for g in self.groups], "loose": list(self.loose)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Hand:
        return cls(tuple(tuple(g) for g in d.get("groups", ())), tuple(d.get("loose", ())))

    def with_die(self, index: int, value: int) -> Hand:
        """The same hand with die ``index`` (flat order) turned to ``value``."""
        groups = [list(g) for g in self.groups]
        loose = list(self.loose)
        i = index
        for g in groups:
            if i < len(g):
                g[i] = value
                return Hand(tuple(tuple(x) for x in groups), self.loose)
            i -= len(g)
        loose[i] = value
        return Hand(self.groups, tuple(loose))


@dataclass(frozen=True)
class Pending:
    """What the game waits for.

    ``kind``: ``"roll"`` (``count`` dice, ``purpose`` ``"start"``, ``"draw"`` or
    ``"pair"``), ``"flip"``, ``"group"`` (default: a :class:`Grouping`,
    ``choices`` legal groupings) or ``"keep"`` (default: an index pair,
    ``choices`` distinct keep choices).  ``seat`` is the hand's owner.
    """

    kind: str
    seat: int
    count: int = 0
    purpose: str | None = None
    default: Any = None
    choices: int = 0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.kind == "roll":
            d["count"] = self.count
            d["purpose"] = self.purpose
            d["default"] = None
        elif self.kind == "flip":
            d["default"] = None
        elif self.kind == "group":
            d["default"] = self.default.to_dict()
            d["choices"] = self.choices
        elif self.kind == "keep":
            d["default"] = list(self.default)
            d["choices"] = self.choices
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Pending:
        kind = d["kind"]
        default: Any = None
        if kind == "group":
            default = Grouping.from_dict(d["default"])
        elif kind == "keep":
            default = tuple(d["default"])
        return cls(kind, d["seat"], d.get("count", 0), d.get("purpose"), default, d.get("choices", 0))


@dataclass(frozen=True)
class State:
    """The whole game.  ``round`` is 0 during the start, then 1..``rounds``."""

    players: tuple[str, ...]
    total: int
    bank: int
    hands: tuple[Hand, ...]
    rounds: int = 12
    dice: str = "app"
    auto_balance: bool = False
    round: int = 0
    moved: int = 0  # turns made in the current round
    turns: int = 0  # turns made in the game
    first: int | None = None
    current: int | None = None  # the mover (during the start: the seat being set up)
    victim: int | None = None  # this turn's victim, once the flip is made
    pending: Pending | None = None
    todo: tuple[tuple[str, int], ...] = ()
    winners: tuple[int, ...] = ()
    end_reason: str | None = None
    skipped: tuple[str, ...] = ()  # steps skipped by R2/R8 since the last action, for the log
    variants: Variants = AS_WRITTEN  # house rules (see :mod:`sixdice.rules.variants`)
    scored: tuple[int | None, ...] = ()  # last_turn_score: each hand's value at the end of its owner's last turn
    last_flip: tuple[int, int] | None = None  # no_flip_back: (mover, victim) of the turn just before

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    @property
    def n(self) -> int:
        return len(self.players)

    def values(self) -> list[int]:
        return [h.value for h in self.hands]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "total": self.total,
            "bank": self.bank,
            "hands": [h.to_dict() for h in self.hands],
            "rounds": self.rounds,
            "round": self.round,
            "moved": self.moved,
            "turns": self.turns,
            "first": self.first,
            "current": self.current,
            "victim": self.victim,
            "pending": self.pending.to_dict() if self.pending else None,
            "todo": [[s, seat] for s, seat in self.todo],
            "winners": list(self.winners),
            "over": self.over,
            "end_reason": self.end_reason,
            "dice": self.dice,
            "auto_balance": self.auto_balance,
            "skipped": list(self.skipped),
        } | self._variant_dict()

    def _variant_dict(self) -> dict[str, Any]:
        """The house rules and what they keep, only when some variant is on (the game as written has no such keys)."""
        v = self.variants
        if v.as_written:
            return {}
        d: dict[str, Any] = {"variants": v.to_dict()}
        if v.last_turn_score:
            d["scored"] = list(self.scored)
        if v.no_flip_back:
            d["last_flip"] = list(self.last_flip) if self.last_flip else None
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> State:
        return cls(
            players=tuple(d["players"]),
            total=d["total"],
            bank=d["bank"],
            hands=tuple(Hand.from_dict(h) for h in d["hands"]),
            rounds=d["rounds"],
            dice=d.get("dice", "app"),
            auto_balance=bool(d.get("auto_balance", False)),
            round=d.get("round", 0),
            moved=d.get("moved", 0),
            turns=d.get("turns", 0),
            first=d.get("first"),
            current=d.get("current"),
            victim=d.get("victim"),
            pending=Pending.from_dict(d["pending"]) if d.get("pending") else None,
            todo=tuple((s, seat) for s, seat in d.get("todo", ())),
            winners=tuple(d.get("winners", ())),
            end_reason=d.get("end_reason"),
            skipped=tuple(d.get("skipped", ())),
            variants=Variants.from_dict(d.get("variants")),
            scored=tuple(d.get("scored") or ()),
            last_flip=(lambda f: (f[0], f[1]) if f else None)(d.get("last_flip")),
        )


def replace(st: State, **changes: Any) -> State:
    """A copy of ``st`` with ``changes`` (a fast :func:`dataclasses.replace` for the frozen State)."""
    new = object.__new__(State)
    d = new.__dict__
    d.update(st.__dict__)
    d.update(changes)
    return new


# ---------------------------------------------------------------- new game


def new_game(
    players: Sequence[str] | int,
    *,
    bank: int | None = None,
    rounds: int = 12,
    dice: str = "app",
    auto_balance: bool = False,
    variants: Variants = AS_WRITTEN,
) -> State:
    """A new game waiting for the first start roll.

    ``players``: a list of names, or a count (names "Player 1", "Player 2", ...).
    ``bank``: the number of dice in play (default 12 per player, at least 6 per player).
    ``dice``: ``"app"`` or ``"physical"`` (who rolls is the adapter's business; the rules only record it).
    ``auto_balance``: recorded for the adapter, which then sends the default choices itself.
    ``variants``: house rules (:class:`~sixdice.rules.variants.Variants`; default: the rules as written).
    """
    names = tuple(f"Player {i + 1}" for i in range(players)) if isinstance(players, int) else tuple(players)
    n = len(names)
    if not 2 <= n <= 8:
        raise ValueError(f"Six-Dice takes 2 to 8 players, not {n}.")
    total = 12 * n if bank is None else bank
    if total < START_DICE * n:
        raise ValueError(
            f"The bank needs at least {START_DICE * n} dice for {n} players (6 each), not {total}."
        )
    if rounds < 1:
        raise ValueError("Play at least 1 round.")
    if dice not in ("app", "physical"):
        raise ValueError('dice is "app" or "physical".')
    if variants.threes_dice not in (5, 6) or not 0 <= variants.refill <= 50 or not 0 <= variants.first_bonus <= 50:
        raise ValueError("variants: threes_dice is 5 or 6, refill and first_bonus 0 to 50.")
    if not valid_compensation(variants.compensation):
        raise ValueError("variants: compensation is up to 8 figures, whole or half points from 0 to 20.")
    todo = tuple(("start", s) for s in range(n)) + tuple(("balance", s) for s in range(n)) + (("first", -1),)
    st = State(
        players=names,
        total=total,
        bank=total,
        hands=tuple(Hand() for _ in range(n)),
        rounds=rounds,
        dice=dice,
        auto_balance=auto_balance,
        todo=todo,
        variants=variants,
        scored=(None,) * n if variants.last_turn_score else (),
    )
    return _advance(st)


# ---------------------------------------------------------------- the step machine


def _set_hand(st: State, seat: int, hand: Hand, **kw: Any) -> State:
    hands = list(st.hands)
    hands[seat] = hand
    return replace(st, hands=tuple(hands), **kw)


def _end(st: State, winners: Sequence[int], reason: str) -> State:
    return replace(st, winners=tuple(sorted(winners)), end_reason=reason, pending=None, todo=())


def final_scores(st: State) -> list[float]:
    """What each hand counts at the round limit: its absolute value as written.

    With ``last_turn_score`` a hand counts the value it had at the end of its
    owner's last turn (its current value if that turn has not come); with
    ``first_bonus`` every player adds the bonus once per player after them in
    turn order; with ``compensation`` every player adds the points of their
    place in the turn order.  Whole numbers stay ``int``.
    """
    v = st.variants
    vals = st.values()
    if v.last_turn_score and st.scored:
        vals = [x if x is not None else vals[s] for s, x in enumerate(st.scored)]
    out: list[float] = [abs(x) for x in vals]
    if v.first_bonus and st.first is not None:
        out = [a + v.first_bonus * (st.n - 1 - (s - st.first) % st.n) for s, a in enumerate(out)]
    if v.compensation and st.first is not None:
        out = [_whole(a + v.bonus((s - st.first) % st.n)) for s, a in enumerate(out)]
    return out


def _whole(x: float) -> float:
    return int(x) if float(x).is_integer() else x


def compensation_lines(st: State) -> list[tuple[int, float, int]]:
    """The compensation of each player who has one: ``(seat, points, place in the turn order)``, in turn order."""
    v = st.variants
    if not v.compensation or st.first is None:
        return []
    out = []
    for place in range(st.n):
        pts = v.bonus(place)
        if pts:
            out.append(((st.first + place) % st.n, _whole(pts), place))
    return out


def _best_abs(st: State) -> list[int]:
    vals = final_scores(st)
    top = max(vals)
    return [s for s, v in enumerate(vals) if v == top]


def all_threes(dice: Sequence[int], threes: int = 6) -> bool:
    """All threes: ``threes`` or more dice (6 as written), every one +3 or every one −3."""
    if threes == 6:
        return is_all_threes(dice)
    return len(dice) >= threes and (all(x == 3 for x in dice) or all(x == -3 for x in dice))


def barred_victim(st: State, m: int) -> int | None:
    """``no_flip_back``: the seat that ``m`` may not flip now (the one who flipped ``m`` just before), else ``None``."""
    f = st.last_flip
    if st.variants.no_flip_back and f is not None and f[1] == m and st.n >= 3:
        return f[0]
    return None


def leaders_to_flip(st: State, m: int) -> frozenset[int]:
    """``flip_the_leader``: the players ``m`` must flip now: of the others that ``m`` may flip (a legal flip, no flip
    back), those whose hands are furthest from zero (all of them when tied); empty when the variant is off or ``m``
    can flip nobody."""
    if not st.variants.flip_the_leader:
        return frozenset()
    own = st.hands[m].dice()
    barred = barred_victim(st, m)
    open_ = [(abs(h.value), s) for s, h in enumerate(st.hands)
             if s != m and s != barred and has_legal_flip(own, h.dice())]
    if not open_:
        return frozenset()
    top = max(a for a, _ in open_)
    return frozenset(s for a, s in open_ if a == top)


def barred_victims(st: State, m: int) -> frozenset[int]:
    """Every other seat that ``m`` may not flip now: no flip back (:func:`barred_victim`), and with
    ``flip_the_leader`` everyone but the leaders (:func:`leaders_to_flip`)."""
    out = set()
    b = barred_victim(st, m)
    if b is not None:
        out.add(b)
    lead = leaders_to_flip(st, m)
    if lead:
        out.update(s for s in range(st.n) if s != m and s not in lead)
    return frozenset(out)


def _check_threes(st: State, seats: Sequence[int]) -> State:
    k = st.variants.threes_dice
    won = [s for s in seats if all_threes(st.hands[s].dice(), k)]
    if won:
        return _end(st, sorted(set(won)), "all_threes")
    return st


def _turn_steps(m: int) -> tuple[tuple[str, int], ...]:
    return (("flip", m), ("draw", m), ("balance", m), ("balance_victim", -1), ("end_turn", m))


def _any_flip(st: State, m: int) -> bool:
    own = st.hands[m].dice()
    barred = barred_victims(st, m)
    return any(s != m and s not in barred and has_legal_flip(own, h.dice()) for s, h in enumerate(st.hands))


def _advance(st: State) -> State:
    """Run steps until the game waits for an action or is over."""
    if st.over or st.pending is not None:
        return st
    todo = list(st.todo)
    skipped = list(st.skipped)
    pending: Pending | None = None
    while todo:
        step, seat = todo.pop(0)
        if step == "start":
            if st.bank < START_DICE:  # R8 (cannot happen with a bank of 6 per player)
                skipped.append(f"start:{seat}")
            else:
                pending = Pending("roll", seat, START_DICE, "start")
        elif step == "balance":
            todo[0:0] = [("group", seat), ("keep", seat), ("pair", seat)]
        elif step == "balance_victim":
            if st.victim is not None:
                todo.insert(0, ("balance", st.victim))
        elif step == "group":
            options = _groupings_counts(st.hands[seat].counts())  # :func:`groupings`, without the copy
            if len(options) == 1:
                g = options[0]
                st = _set_hand(st, seat, Hand(g.groups, g.loose))
            else:
                pending = Pending("group", seat, default=options[0], choices=len(options))
        elif step == "keep":
            hand = st.hands[seat]
            if len(hand.groups) > 2:
                g = Grouping(hand.groups, (), hand.loose)  # only .groups/.loose matter here
                opts = keep_options(g)
                if len(opts) == 1:
                    st = _keep(st, seat, opts[0])
                    if st.over:
                        return st
                else:
                    pending = Pending("keep", seat, default=default_keep(g), choices=len(opts))
        elif step == "pair":
            if not st.hands[seat].groups:
                if st.bank < 2:  # R8
                    skipped.append(f"pair:{seat}")
                else:
                    pending = Pending("roll", seat, 1, "pair")
        elif step == "first":
            vals = [abs(v) for v in st.values()]
            first = vals.index(min(vals))  # R1: the first tied seat
            st = replace(st, first=first, current=first, round=1, moved=0)
            todo[0:0] = _turn_steps(first)
        elif step == "flip":
            st = replace(st, current=seat, victim=None)
            if _any_flip(st, seat):
                pending = Pending("flip", seat)
            else:  # R2
                skipped.append(f"flip:{seat}")
        elif step == "draw":
            if st.bank < 1:  # R8
                skipped.append(f"draw:{seat}")
            else:
                pending = Pending("roll", seat, 1, "draw")
        elif step == "end_turn":
            moved = st.moved + 1
            rnd = st.round
            var = st.variants
            if not var.as_written:
                if var.last_turn_score and rnd >= st.rounds:
                    scored = list(st.scored)
                    scored[seat] = st.hands[seat].value
                    st = replace(st, scored=tuple(scored))
                if var.no_flip_back:
                    st = replace(st, last_flip=(seat, st.victim) if st.victim is not None else None)
            if moved == st.n:
                if rnd >= st.rounds:
                    st = replace(st, moved=moved, turns=st.turns + 1, victim=None, skipped=tuple(skipped))
                    return _end(st, _best_abs(st), "rounds")
                rnd, moved = rnd + 1, 0
                if var.refill and st.bank < var.refill * st.n:  # the bank refills: new dice join the game
                    more = var.refill * st.n - st.bank
                    st = replace(st, bank=st.bank + more, total=st.total + more)
            if var.reverse_last_round and rnd >= st.rounds:  # the last round in reverse order
                nxt = seat if moved == 0 and st.rounds > 1 else (seat - 1) % st.n
            else:
                nxt = (seat + 1) % st.n
            st = replace(st, moved=moved, round=rnd, turns=st.turns + 1, victim=None, current=nxt)
            todo[0:0] = _turn_steps(nxt)
        else:  # pragma: no cover - a corrupt state
            raise IllegalAction(gettext_noop("Unknown step %(step)s in the state."), params={"step": repr(step)})
        if pending is not None:
            break
    current = pending.seat if (pending is not None and st.round == 0) else st.current
    # during the start, ``current`` is the seat being set up
    return replace(st, pending=pending, todo=tuple(todo), skipped=tuple(skipped), current=current)


def _keep(st: State, seat: int, keep: tuple[int, int]) -> State:
    hand = st.hands[seat]
    i, j = sorted(keep)
    kept = (hand.groups[i], hand.groups[j])
    returned = sum(len(g) for k, g in enumerate(hand.groups) if k not in (i, j))
    st = _set_hand(st, seat, Hand(kept, hand.loose), bank=st.bank + returned)
    return _check_threes(st, [seat])


# ---------------------------------------------------------------- actions


def _name(st: State, seat: int) -> str:
    return st.players[seat] if 0 <= seat < len(st.players) else f"seat {seat}"


_WAITING_FOR_ROLL = {
    "start": gettext_noop("The game waits for %(name)s's roll (the 6 starting dice)"),
    "draw": gettext_noop("The game waits for %(name)s's roll (the draw)"),
    "pair": gettext_noop("The game waits for %(name)s's roll (the no-groups pair)"),
}
_WAITING = {
    "flip": gettext_noop("The game waits for %(name)s's flip"),
    "group": gettext_noop("The game waits for %(name)s to choose a grouping"),
    "keep": gettext_noop("The game waits for %(name)s to choose 2 groups to keep"),
}
_NOT_A = {
    "roll": gettext_noop("%(waiting)s, not a roll."),
    "flip": gettext_noop("%(waiting)s, not a flip."),
    "group": gettext_noop("%(waiting)s, not a group."),
    "keep": gettext_noop("%(waiting)s, not a keep."),
}


def _waiting(st: State) -> Part:
    """What the game waits for, as a part ("The game waits for Ana's flip")."""
    p = st.pending
    assert p is not None
    who = _name(st, p.seat)
    if p.kind == "roll":
        return part(_WAITING_FOR_ROLL.get(p.purpose or "", gettext_noop("The game waits for %(name)s's roll")), name=who)
    return part(_WAITING.get(p.kind, _WAITING["keep"]), name=who)


def _int(action: Mapping[str, Any], key: str) -> int:
    v = action.get(key)
    if type(v) is not int:
        raise IllegalAction(gettext_noop('"%(key)s" must be a whole number, not %(value)s.'), params={"key": key, "value": repr(v)})
    return v


def _face(v: Any, what: Part) -> int:
    if type(v) is not int or v not in FACE_SET:
        raise IllegalAction(NOT_A_FACE, params={"where": what, "value": repr(v)})
    return v


def _int_list(v: Any, what: Part | str) -> list[int]:
    """``what``: a part ("A pair"), or a key of the action written in quotes ('"values"'), left as it is."""
    if not isinstance(v, list | tuple) or any(type(x) is not int for x in v):
        raise IllegalAction(
            gettext_noop("%(what)s must be a list of whole numbers, not %(value)s."), params={"what": what, "value": repr(v)}
        )
    return list(v)


def apply(state: State, action: Mapping[str, Any]) -> State:
    """Apply one action; return the new state (``state`` is never changed).

    Raises :class:`IllegalAction` with a readable reason.
    """
    if type(action) is not dict and not isinstance(action, Mapping):
        raise IllegalAction(gettext_noop('An action is a JSON object with a "type".'))
    kind = action.get("type")
    if state.over:
        raise IllegalAction(gettext_noop("The game is over."))
    if kind == "end_on_time":
        return _end(replace(state, skipped=()), _best_abs(state), "time")
    if kind == "end_now":  # the host ends the game early: the hands as they stand decide, as at the round limit
        return _end(replace(state, skipped=()), _best_abs(state), "ended")
    p = state.pending
    if p is None:  # pragma: no cover - only a corrupt state
        raise IllegalAction(gettext_noop("The game waits for nothing."))
    if kind not in ("roll", "flip", "group", "keep"):
        raise IllegalAction(
            gettext_noop("Unknown action type %(kind)s: use roll, flip, group, keep or end_on_time."),
            params={"kind": repr(kind)},
        )
    if kind != p.kind:
        raise IllegalAction(_NOT_A[kind], params={"waiting": _waiting(state)})
    if "seat" in action and action["seat"] is not None and action["seat"] != p.seat:
        who = action["seat"]
        who_text = _name(state, who) if type(who) is int else repr(who)
        raise IllegalAction(gettext_noop("%(waiting)s, not for %(name)s."), params={"waiting": _waiting(state), "name": who_text})
    st = replace(state, skipped=())
    if kind == "roll":
        st = _apply_roll(st, p, action)
    elif kind == "flip":
        st = _apply_flip(st, p, action)
    elif kind == "group":
        st = _apply_group(st, p, action)
    else:
        st = _apply_keep(st, p, action)
    return _advance(st)


def _apply_roll(st: State, p: Pending, action: Mapping[str, Any]) -> State:
    values = _int_list(action.get("values"), '"values"')
    if len(values) != p.count:
        raise IllegalAction(
            ngettext("This roll needs %(count)s die, got %(got)s.", "This roll needs %(count)s dice, got %(got)s.",
                     p.count), params={"count": p.count, "got": len(values)}
        )
    for v in values:
        if type(v) is not int or v not in FACE_SET:
            _face(v, part(gettext_noop("A rolled die")))
    seat = p.seat
    hand = st.hands[seat]
    st = replace(st, pending=None)
    if p.purpose == "start":
        st = _set_hand(st, seat, Hand(hand.groups, hand.loose + tuple(values)), bank=st.bank - p.count)
    elif p.purpose == "draw":
        st = _set_hand(st, seat, Hand(hand.groups, hand.loose + tuple(values)), bank=st.bank - 1)
    else:  # the no-groups pair: one die rolled, the other set opposite
        m = abs(values[0])
        st = _set_hand(st, seat, Hand(hand.groups + ((m, -m),), hand.loose), bank=st.bank - 2)
    return _check_threes(st, [seat])


def _apply_flip(st: State, p: Pending, action: Mapping[str, Any]) -> State:
    m = p.seat
    victim = _int(action, "victim")
    if not 0 <= victim < st.n:
        raise IllegalAction(gettext_noop("There is no seat %(seat)s."), params={"seat": victim})
    if victim == m:
        raise IllegalAction(gettext_noop("The victim must be another player."))
    if victim == barred_victim(st, m):
        raise IllegalAction(
            gettext_noop("No flip back: %(name)s flipped you just before; choose another victim."),
            params={"name": _name(st, victim)},
        )
    lead = leaders_to_flip(st, m)
    if lead and victim not in lead:
        raise IllegalAction(
            gettext_noop("Flip the leader: your flip goes against the hand furthest from zero (%(names)s)."),
            params={"names": ", ".join(_name(st, s) for s in sorted(lead))},
        )
    own_i, own_to = _int(action, "own"), _int(action, "own_to")
    other_i, other_to = _int(action, "other"), _int(action, "other_to")
    own = st.hands[m].dice()
    other = st.hands[victim].dice()
    no_die = gettext_noop("%(name)s has no die number %(index)s (0 to %(last)s).")
    if not other:
        raise IllegalAction(gettext_noop("%(name)s has no dice to flip."), params={"name": _name(st, victim)})
    if not 0 <= own_i < len(own):
        raise IllegalAction(no_die, params={"name": _name(st, m), "index": own_i, "last": len(own) - 1})
    if not 0 <= other_i < len(other):
        raise IllegalAction(no_die, params={"name": _name(st, victim), "index": other_i, "last": len(other) - 1})
    _face(own_to, part(gettext_noop("New face of your die")))
    _face(other_to, part(gettext_noop("New face of the victim's die")))
    d = own_to - own[own_i]
    if d == 0:
        raise IllegalAction(
            gettext_noop("Your die already shows %(face)s: turn it to another face."), params={"face": signed(own_to)}
        )
    if other_to - other[other_i] != -d:
        raise IllegalAction(
            gettext_noop("Your die changes by %(change)s, so %(name)s's %(die)s must change by %(back)s, not to %(face)s."),
            params={
                "change": f"{d:+d}",
                "name": _name(st, victim),
                "die": signed(other[other_i]),
                "back": f"{-d:+d}",
                "face": signed(other_to),
            },
        )
    st = _set_hand(st, m, st.hands[m].with_die(own_i, own_to), pending=None, victim=victim)
    st = _set_hand(st, victim, st.hands[victim].with_die(other_i, other_to))
    return _check_threes(st, [m, victim])  # R9: both may win at once


def grouping_from_action(action: Mapping[str, Any], dice: Sequence[int]) -> Grouping:
    zg = action.get("zero_groups", [])
    pairs = action.get("pairs", [])
    if not isinstance(zg, list | tuple) or not isinstance(pairs, list | tuple):
        raise IllegalAction(gettext_noop('"zero_groups" and "pairs" must be lists of lists of dice.'))
    zero = tuple(tuple(_int_list(g, part(gettext_noop("A zero-sum group")))) for g in zg)
    prs = tuple(tuple(_int_list(g, part(gettext_noop("A pair")))) for g in pairs)
    for g in zero + prs:
        for v in g:
            if v not in FACE_SET:
                _face(v, part(gettext_noop("Group")))
    if "loose" in action and action["loose"] is not None:
        loose = tuple(_int_list(action["loose"], '"loose"'))
    else:
        left = list(dice)
        for g in zero + prs:
            for v in g:
                if v in left:
                    left.remove(v)
                else:
                    raise IllegalAction(
                        gettext_noop("The grouping uses a %(die)s that the hand does not hold (%(hand)s)."),
                        params={"die": signed(v), "hand": fmt_dice(dice)},
                    )
        loose = tuple(left)
    return Grouping(zero, prs, loose)  # type: ignore[arg-type]


def _apply_group(st: State, p: Pending, action: Mapping[str, Any]) -> State:
    dice = st.hands[p.seat].dice()
    g = grouping_from_action(action, dice)
    fast = canonical(g)
    if all(len(x) == 2 for x in g.pairs) and fast in _groupings_set(st.hands[p.seat].counts()):  # is_listed_grouping
        return _set_hand(st, p.seat, Hand(fast.groups, fast.loose), pending=None)
    try:
        g = check_grouping(dice, g)
    except IllegalGrouping as e:
        raise IllegalAction(e.msgid, params=e.params) from None
    return _set_hand(st, p.seat, Hand(g.groups, g.loose), pending=None)


def _apply_keep(st: State, p: Pending, action: Mapping[str, Any]) -> State:
    keep = _int_list(action.get("keep"), '"keep"')
    groups = st.hands[p.seat].groups
    if len(keep) != 2:
        raise IllegalAction(gettext_noop('"keep" names exactly 2 groups, not %(count)s.'), params={"count": len(keep)})
    i, j = keep
    if i == j:
        raise IllegalAction(gettext_noop("Keep 2 different groups."))
    for k in (i, j):
        if not 0 <= k < len(groups):
            raise IllegalAction(
                gettext_noop("There is no group number %(index)s (0 to %(last)s)."),
                params={"index": k, "last": len(groups) - 1},
            )
    return _keep(replace(st, pending=None), p.seat, (i, j))


# ---------------------------------------------------------------- what can be done


def flip_actions(state: State) -> list[dict[str, Any]]:
    """Every legal flip of the mover, as actions."""
    p = state.pending
    if p is None or p.kind != "flip":
        return []
    own = state.hands[p.seat].dice()
    barred = barred_victims(state, p.seat)
    out = []
    for s, h in enumerate(state.hands):
        if s == p.seat or s in barred:
            continue
        for f in legal_flips(own, h.dice()):
            out.append(
                {
                    "type": "flip",
                    "victim": s,
                    "own": f.own_index,
                    "own_to": f.own_to,
                    "other": f.other_index,
                    "other_to": f.other_to,
                }
            )
    return out


def group_actions(state: State) -> list[dict[str, Any]]:
    p = state.pending
    if p is None or p.kind != "group":
        return []
    return [
        {
            "type": "group",
            "zero_groups": [list(g) for g in gr.zero_groups],
            "pairs": [list(x) for x in gr.pairs],
        }
        for gr in groupings(state.hands[p.seat].dice())
    ]


def keep_actions(state: State) -> list[dict[str, Any]]:
    p = state.pending
    if p is None or p.kind != "keep":
        return []
    hand = state.hands[p.seat]
    return [{"type": "keep", "keep": [i, j]} for i, j in keep_options(Grouping(hand.groups, (), hand.loose))]


def legal_actions(state: State) -> list[dict[str, Any]]:
    """The actions open now (``end_on_time``, always open to the host, is not listed).

    A pending roll lists every possible outcome up to order (462 for the 6
    starting dice, 6 for one die).
    """
    p = state.pending
    if state.over or p is None:
        return []
    if p.kind == "roll":
        return [{"type": "roll", "values": list(c)} for c in combinations_with_replacement(FACES, p.count)]
    if p.kind == "flip":
        return flip_actions(state)
    if p.kind == "group":
        return group_actions(state)
    return keep_actions(state)


def default_action(state: State) -> dict[str, Any] | None:
    """The default answer to a pending grouping or keep choice, else ``None``."""
    p = state.pending
    if state.over or p is None:
        return None
    if p.kind == "group":
        g: Grouping = p.default
        return {
            "type": "group",
            "zero_groups": [list(x) for x in g.zero_groups],
            "pairs": [list(x) for x in g.pairs],
        }
    if p.kind == "keep":
        return {"type": "keep", "keep": list(p.default)}
    return None


def roll_action(state: State, rng: random.Random) -> dict[str, Any] | None:
    """A roll for the pending roll with values from ``rng``, else ``None``."""
    p = state.pending
    if state.over or p is None or p.kind != "roll":
        return None
    return {"type": "roll", "values": [rng.choice(FACES) for _ in range(p.count)]}


def random_flip(state: State, rng: random.Random) -> dict[str, Any] | None:
    """A flip drawn uniformly from all legal flips, without listing them all."""
    p = state.pending
    if state.over or p is None or p.kind != "flip":
        return None
    own = state.hands[p.seat].dice()
    barred = barred_victims(state, p.seat)
    others = [(s, h.dice()) for s, h in enumerate(state.hands) if s != p.seat and s not in barred]
    total = sum(len(d) for _, d in others)
    if own and total:
        # rejection sampling: uniform over (own die, new face, other die), keep the legal ones
        for _ in range(64):
            i = rng.randrange(len(own))
            v = own[i]
            nv = rng.choice(FACES)
            if nv == v:
                continue
            k = rng.randrange(total)
            victim, d = others[0]
            for victim, d in others:  # noqa: B007 - the loop stops on the chosen hand
                if k < len(d):
                    break
                k -= len(d)
            nw = d[k] - (nv - v)
            if nw in FACE_SET:
                return {"type": "flip", "victim": victim, "own": i, "own_to": nv, "other": k, "other_to": nw}
    own_count = Counter(own)
    kinds: list[tuple[int, int, int]] = []  # victim, own value, victim value
    weights: list[int] = []
    for s, h in enumerate(state.hands):
        if s == p.seat or s in barred:
            continue
        for w, b in Counter(h.dice()).items():
            for v, a in own_count.items():
                k = len(_FLIP_TABLE[v, w])
                if k:
                    kinds.append((s, v, w))
                    weights.append(a * b * k)
    if not kinds:
        return None
    s, v, w = rng.choices(kinds, weights)[0]
    nv, nw = rng.choice(_FLIP_TABLE[v, w])
    i = rng.choice([k for k, x in enumerate(own) if x == v])
    j = rng.choice([k for k, x in enumerate(state.hands[s].dice()) if x == w])
    return {"type": "flip", "victim": s, "own": i, "own_to": nv, "other": j, "other_to": nw}


def position(
    hands: Sequence[Hand],
    *,
    mover: int = 0,
    bank: int = 0,
    players: Sequence[str] | None = None,
    rounds: int = 12,
    round: int = 1,
    moved: int = 0,
    dice: str = "app",
    variants: Variants = AS_WRITTEN,
) -> State:
    """A game at the start of ``mover``'s turn with the given hands (for tests, puzzles, lessons).

    The bank size is ``bank`` plus every die in the hands.
    """
    names = tuple(players) if players else tuple(f"Player {i + 1}" for i in range(len(hands)))
    total = bank + sum(h.size for h in hands)
    st = State(
        players=names,
        total=total,
        bank=bank,
        hands=tuple(hands),
        rounds=rounds,
        dice=dice,
        round=round,
        moved=moved,
        first=mover,
        current=mover,
        todo=_turn_steps(mover),
        variants=variants,
        scored=(None,) * len(hands) if variants.last_turn_score else (),
    )
    return _advance(st)
