"""The Six-Dice adapter: plugs :mod:`sixdice.rules` into the live tables.

No Django here: the adapter speaks plain JSON dicts (see
``docs/sixdice-engine.md`` for every action and state shape).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from sixdice import rules
from sixdice.rules.game import State
from sixdice.tables.engine import (
    HOST,
    JSON,
    SYSTEM,
    Actor,
    GameError,
    IllegalMove,
    NotAllowed,
    OptionsError,
    Outcome,
    register,
)
from sixdice.tables.notation import Part, gettext_noop, part

MAX_ROUNDS = 99
MAX_BANK_PER_PLAYER = 50
MAX_MINUTES = 24 * 60
VIEW_GROUPINGS = 60  # at most this many alternatives are sent to a phone

_TRUE = {"1", "true", "on", "yes", "y"}
_FALSE = {"", "0", "false", "off", "no", "n"}


def _opt_int(raw: Mapping[str, Any], key: str, label: Part) -> int | None:
    v = raw.get(key)
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    if isinstance(v, bool):
        raise OptionsError(gettext_noop("%(label)s must be a whole number."), params={"label": label})
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str):
        s = v.strip()
        if s.lstrip("+-").isdigit():
            return int(s)
    raise OptionsError(gettext_noop("%(label)s must be a whole number, not %(value)s."), params={"label": label, "value": repr(v)})


def _opt_bool(raw: Mapping[str, Any], key: str, label: Part) -> bool:
    v = raw.get(key, False)
    if v is None or isinstance(v, bool):
        return bool(v)
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    if isinstance(v, str) and v.strip().lower() in _TRUE | _FALSE:
        return v.strip().lower() in _TRUE
    raise OptionsError(gettext_noop("%(label)s must be on or off, not %(value)s."), params={"label": label, "value": repr(v)})


def _state(state: Mapping[str, Any]) -> State:
    try:
        return State.from_dict(state)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise IllegalMove(
            gettext_noop("The saved game state is damaged (%(error)s)."), params={"error": f"{e.__class__.__name__}: {e}"}
        ) from None


class SixDiceEngine:
    """The :class:`~sixdice.tables.engine.GameEngine` of Six-Dice."""

    slug = "sixdice"
    label = "Six-Dice"
    min_players = 2
    max_players = 8

    # ------------------------------------------------------------ options and start

    def clean_options(self, raw: Mapping[str, Any], *, players: int) -> JSON:
        if not self.min_players <= players <= self.max_players:
            raise OptionsError(
                gettext_noop("Six-Dice takes %(low)s to %(high)s players, not %(players)s."),
                params={"low": self.min_players, "high": self.max_players, "players": players},
            )
        raw = raw or {}
        bank = _opt_int(raw, "bank", part(gettext_noop("The bank")))
        if bank is None:
            bank = 12 * players
        low, high = 6 * players, MAX_BANK_PER_PLAYER * players
        if not low <= bank <= high:
            raise OptionsError(
                gettext_noop(
                    "The bank must hold %(low)s to %(high)s dice for %(players)s players "
                    "(each player starts with 6; 12 each is the usual)."
                ),
                params={"low": low, "high": high, "players": players},
            )
        rounds = _opt_int(raw, "rounds", part(gettext_noop("The number of rounds")))
        if rounds is None:
            rounds = 12
        if not 1 <= rounds <= MAX_ROUNDS:
            raise OptionsError(gettext_noop("The number of rounds must be 1 to %(max)s."), params={"max": MAX_ROUNDS})
        minutes = _opt_int(raw, "time_limit_minutes", part(gettext_noop("The time limit")))
        if minutes is not None and not 1 <= minutes <= MAX_MINUTES:
            raise OptionsError(
                gettext_noop("The time limit must be 1 to %(max)s minutes, or empty for none."), params={"max": MAX_MINUTES}
            )
        dice = raw.get("dice", "app")
        if dice is None or (isinstance(dice, str) and not dice.strip()):
            dice = "app"
        if not isinstance(dice, str) or dice.strip().lower() not in ("app", "physical"):
            raise OptionsError(
                gettext_noop('Dice must be "app" (the app rolls) or "physical" (real dice), not %(value)s.'),
                params={"value": repr(dice)},
            )
        return {
            "bank": bank,
            "rounds": rounds,
            "time_limit_minutes": minutes,
            "dice": dice.strip().lower(),
            "auto_balance": _opt_bool(raw, "auto_balance", part(gettext_noop("Automatic balancing"))),
        }

    def start(self, *, players: Sequence[str], options: Mapping[str, Any], first: int = 0) -> JSON:
        opts = self.clean_options(options, players=len(players))
        st = rules.new_game(
            list(players),
            bank=opts["bank"],
            rounds=opts["rounds"],
            dice=opts["dice"],
            auto_balance=opts["auto_balance"],
        )
        return st.to_dict()

    # ------------------------------------------------------------ who acts

    def actors(self, state: Mapping[str, Any]) -> frozenset[int]:
        st = _state(state)
        p = st.pending
        if st.over or p is None:
            return frozenset()
        if p.kind == "roll" and st.dice == "app":
            return frozenset()
        return frozenset({p.seat})

    def _permit(self, st: State, kind: str, actor: Actor) -> None:
        """Who may send ``kind`` now; a kind the game does not wait for is left to the rules."""
        p = st.pending
        assert p is not None
        owner = st.players[p.seat]
        app_roll = kind == "roll" and p.kind == "roll" and st.dice == "app"
        if actor == HOST:
            if kind == "flip" and p.kind == "flip":
                raise NotAllowed(
                    gettext_noop("Only %(name)s chooses the flip; the host can resolve balancing and dice."),
                    params={"name": owner},
                )
            if app_roll:
                raise NotAllowed(gettext_noop("The app rolls the dice at this table."))
            return
        if actor == SYSTEM:
            if kind == "roll" and p.kind == "roll" and st.dice == "physical":
                raise NotAllowed(gettext_noop("Dice are physical at this table: the roller or the host types them in."))
            return
        if type(actor) is not int or not 0 <= actor < st.n:
            raise NotAllowed(gettext_noop("%(actor)s is not a player at this table."), params={"actor": repr(actor)})
        if actor != p.seat:
            if p.kind in ("group", "keep"):
                raise NotAllowed(gettext_noop("This choice belongs to %(name)s."), params={"name": owner})
            if p.kind == "roll" and p.purpose in ("start", "pair"):
                raise NotAllowed(gettext_noop("This roll belongs to %(name)s."), params={"name": owner})
            raise NotAllowed(gettext_noop("It is %(name)s's turn."), params={"name": owner})
        if app_roll:
            raise NotAllowed(gettext_noop("The app rolls the dice at this table."))

    def apply(self, state: Mapping[str, Any], action: Mapping[str, Any], *, actor: Actor) -> JSON:
        st = _state(state)
        if not isinstance(action, Mapping):
            raise IllegalMove(gettext_noop('An action is a JSON object with a "type".'))
        kind = action.get("type")
        if not isinstance(kind, str):
            raise IllegalMove(gettext_noop('An action needs a "type": roll, flip, group, keep or end_on_time.'))
        if st.over:
            raise IllegalMove(gettext_noop("The game is over."))
        if actor not in (HOST, SYSTEM) and (type(actor) is not int or not 0 <= actor < st.n):
            raise NotAllowed(gettext_noop("%(actor)s is not a player at this table."), params={"actor": repr(actor)})
        if kind == "end_on_time":
            if actor not in (HOST, SYSTEM):
                raise NotAllowed(gettext_noop("Only the host can end the game on time."))
        elif kind in ("roll", "flip", "group", "keep") and st.pending is not None:
            self._permit(st, kind, actor)
        try:
            new = rules.apply(st, action)
        except rules.IllegalAction as e:
            raise IllegalMove(e.msgid, params=e.params) from None
        except GameError:
            raise
        except (TypeError, KeyError, IndexError, AttributeError, ValueError) as e:
            raise IllegalMove(gettext_noop("This action is not well formed (%(error)s)."), params={"error": str(e)}) from None
        return new.to_dict()

    def system_action(
        self, state: Mapping[str, Any], options: Mapping[str, Any], rng: random.Random
    ) -> JSON | None:
        st = _state(state)
        p = st.pending
        if st.over or p is None:
            return None
        if p.kind == "roll":
            return rules.roll_action(st, rng) if st.dice == "app" else None
        if p.kind in ("group", "keep"):
            auto = st.auto_balance or bool(options and options.get("auto_balance") is True)
            return rules.default_action(st) if auto else None
        return None

    # ------------------------------------------------------------ what phones see

    def view(self, state: Mapping[str, Any], seat: int | None) -> JSON:
        st = _state(state)
        d = st.to_dict()
        d.pop("todo", None)
        d["values"] = st.values()
        d["you"] = seat
        d["actors"] = sorted(self.actors(state))
        p = st.pending
        if st.over or p is None:
            return d
        mine = seat is None or seat == p.seat
        if p.kind == "flip" and seat == p.seat:
            d["legal_flips"] = [
                [a["victim"], a["own"], a["own_to"], a["other"], a["other_to"]]
                for a in rules.legal_actions(st)
            ]
        elif p.kind == "group" and mine:
            gs = rules.groupings(st.hands[p.seat].dice())
            d["groupings"] = [g.to_dict() for g in gs[:VIEW_GROUPINGS]]
            d["groupings_total"] = len(gs)
        elif p.kind == "keep" and mine:
            d["keep_options"] = [a["keep"] for a in rules.legal_actions(st)]
        elif p.kind == "roll":
            d["you_roll"] = st.dice == "physical" and (seat == p.seat or seat is None)
        return d

    def describe(
        self, state_before: Mapping[str, Any], action: Mapping[str, Any], *, names: Sequence[str]
    ) -> str:
        try:
            return rules.describe(State.from_dict(state_before), action, names)
        except Exception as e:  # the log must never break a table
            return f"({action.get('type', 'action') if isinstance(action, Mapping) else 'action'}: {e})"

    def describe_parts(
        self, state_before: Mapping[str, Any], action: Mapping[str, Any], *, names: Sequence[str]
    ) -> list[JSON]:
        """:meth:`describe` as structured parts (see :mod:`sixdice.rules.notation`)."""
        try:
            return rules.describe_parts(State.from_dict(state_before), action, names)
        except Exception:  # the log must never break a table: the English text stands alone
            return []

    def outcome(self, state: Mapping[str, Any]) -> Outcome | None:
        st = _state(state)
        if not st.over:
            return None
        return Outcome(winners=tuple(st.winners), end_reason=st.end_reason or "")


ENGINE = register(SixDiceEngine())
