"""Run Buster's adapter to the shared machinery (:class:`sixdice.gamekit.engine.GameEngine`).

No Django here: the adapter only translates between the JSON the table
services store and :mod:`runbuster.rules`.

State dict: the rules state's ``to_dict()`` plus ``names`` (one per seat)
and ``options`` (the cleaned table options), so that ``apply``, ``view`` and
``describe_parts`` need nothing else.

Dice: in ``"app"`` mode a player's tap is ``{"type": "roll"}`` without values;
the service passes it through :meth:`RunBusterEngine.complete_action`, which
draws the values from the service's ``rng`` (and refuses values typed by a
seat).  In ``"physical"`` mode the roller, or the host, types the values in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from runbuster import rules
from runbuster.rules import CHOOSE, ROLL, State
from runbuster.rules.notation import fmt_roll, fmt_straight, ordinal_part
from sixdice.gamekit.engine import (
    DEFAULT,
    HOST,
    JSON,
    SYSTEM,
    Actor,
    BoardPicture,
    FirstPlayer,
    GameEngine,
    HandPicture,
    MoveWords,
    Outcome,
    ParsedStates,
    PlayRecord,
    Presentation,
    competition_ranks,
    register,
)
from sixdice.gamekit.errors import IllegalMove, NotAllowed, OptionsError
from sixdice.gamekit.notation import Part, gettext_noop, moved_by, part, personal, ruled
from sixdice.gamekit.options import dice_mode, on_off
from sixdice.gamekit.schema import Field

SERIES_LABEL = gettext_noop("Play a series of rounds (Player 1 moves on each round)")
DEFAULT_OPTIONS: JSON = {"dice": "app", "hints": False, "series": True}

ACTION_SCHEMA: dict[str, dict[str, Field]] = {
    "roll": {"values": Field("ints", required=False, nullable=True, low=1, high=6)},
    "choose": {"straight": Field("ints", low=1, high=6)},
    "end_turn": {},
    "end_now": {},
}
"""Every action a phone or the host may send, with its exact fields (anything else is refused)."""


def _roller_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"




class RunBusterPresentation(Presentation):
    """How Run Buster shows itself: each hand's straight with its place (or the loser's cross), the last roll;
    its words for moves and end reasons; its rules page and lesson; the solver's first-player chance."""

    engine: RunBusterEngine

    lesson = "runbuster.lesson"
    rules_template = "rules/runbuster"
    end_reasons = {"full_straight": gettext_noop("Full straight"), "ended": gettext_noop("The host ended the game")}
    option_labels = {"hints": gettext_noop("Hints"), "series": SERIES_LABEL}
    moves = {
        "roll": MoveWords("roll", gettext_noop("roll")),
        "choose": MoveWords("straight", gettext_noop("choice of straight")),
        "end_turn": MoveWords("end_turn", gettext_noop("end of turn")),
    }

    def picture(self, state: Mapping[str, Any]) -> BoardPicture:
        s = self.engine._state(state)
        names = self.engine._names(state)
        hands = []
        for seat, hand in enumerate(s.hands):
            mark = f"#{s.finished.index(seat) + 1}" if seat in s.finished else ("\u2717" if s.loser == seat else "")
            hands.append(HandPicture(loose=tuple(hand), mark=mark))
        facts: tuple[tuple[str, str], ...] = ()
        if s.last_roll:
            roller = "" if s.last_roller is None else f" ({_roller_name(names, s.last_roller)})"
            facts = ((gettext_noop("Roll"), fmt_roll(s.last_roll) + roller),)
        return BoardPicture(hands=tuple(hands), facts=facts)

    def play_record(self, state: Mapping[str, Any], *, players: int) -> PlayRecord:
        """Each seat's score is its place (1 for the first to complete a straight, the loser last): lowest wins."""
        ranks = self.engine.final_ranks(state, players=players)
        if ranks is None:
            return PlayRecord()
        return PlayRecord(scores=tuple(float(r) for r in ranks), highest_wins=False)

    def first_player_reference(self) -> float:
        """The solver's exact chance that the player about to roll first wins a two-player round."""
        return float(rules.win_probability((), ()))


class RunBusterEngine(GameEngine):
    slug = "runbuster"
    label = "Run Buster"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    bot_strengths = tuple(reversed(rules.POLICIES))  # random, greedy, heuristic, optimal
    random_actions = frozenset({"roll"})  # the dice: rolled by the app when the roller taps, or typed in
    presentation_class = RunBusterPresentation

    # -- options and start -------------------------------------------------
    def clean_options(self, raw: Mapping[str, Any], *, players: int) -> JSON:
        if not self.min_players <= players <= self.max_players:
            raise OptionsError(
                gettext_noop("Run Buster is played by %(low)s to %(high)s players, not %(players)s."),
                params={"low": self.min_players, "high": self.max_players, "players": players},
            )
        raw = raw or {}
        return {
            "dice": dice_mode(raw),
            "hints": on_off(raw, "hints", part(gettext_noop("Hints"))),
            "series": on_off(raw, "series", part(SERIES_LABEL), default=True),
        }

    def upgrade_options(self, options: Mapping[str, Any], *, version: int) -> JSON:
        """Format 1 to 2: the first tables kept an unused ``bots`` list (the seats say which the app plays)."""
        upgraded = dict(options)
        if version == 1:
            upgraded.pop("bots", None)
        return upgraded

    def upgrade_state(self, state: Mapping[str, Any], *, version: int) -> JSON:
        """The state holds the game's options: upgraded as :meth:`upgrade_options` does."""
        upgraded = dict(state)
        if isinstance(upgraded.get("options"), Mapping):
            upgraded["options"] = self.upgrade_options(upgraded["options"], version=version)
        return upgraded

    def plays_series(self, options: Mapping[str, Any]) -> bool:
        """A series of rounds (Player 1 moving on), or one round and the table closes."""
        return bool(options.get("series", True))

    def start(self, *, players: Sequence[str], options: Mapping[str, Any], first: int = 0) -> JSON:
        names = [str(p) for p in players]
        try:
            state = rules.new_game(len(names), first=first)
        except ValueError as exc:
            raise OptionsError(str(exc)) from None
        opts = {**DEFAULT_OPTIONS, **dict(options or {})}
        return {**state.to_dict(), "names": names, "options": opts}

    # -- helpers ----------------------------------------------------------
    def __init__(self) -> None:
        self._state: ParsedStates[State] = ParsedStates(State.from_dict)  # States are frozen

    def _dump(self, before: Mapping[str, Any], new: State) -> JSON:
        d = {**new.to_dict(), "names": list(before.get("names", [])), "options": dict(before.get("options", {}))}
        self._state.remember(d, new)
        return d

    @staticmethod
    def _names(state: Mapping[str, Any]) -> list[str]:
        names = list(state.get("names") or [])
        n = int(state.get("players", len(state.get("hands", []))))
        return names + [f"Player {k + 1}" for k in range(len(names), n)]

    # -- the protocol -----------------------------------------------------
    def actors(self, state: Mapping[str, Any]) -> frozenset[int]:
        if state.get("over"):
            return frozenset()
        return frozenset({int(state["current"])})

    def action_schema(self) -> Mapping[str, Mapping[str, Field]]:
        """The fields of each action (``docs/runbuster-engine.md``); app dice: a roll without values."""
        return ACTION_SCHEMA

    def apply(self, state: Mapping[str, Any], action: Mapping[str, Any], *, actor: Actor) -> JSON:
        s = self._state(state)
        if s.over:
            raise IllegalMove(gettext_noop("The game is over."))
        if not isinstance(action, Mapping):
            raise IllegalMove(gettext_noop('An action is a JSON object with a "type".'))
        names = self._names(state)
        mode = (state.get("options") or {}).get("dice", "app")
        kind = action.get("type")
        if actor == SYSTEM:
            pass
        elif kind == "end_now":
            pass  # only the host (checked below)
        elif actor == HOST:
            if not (kind == "roll" and mode == "physical"):
                raise NotAllowed(gettext_noop("The host may only type in the dice rolled at the table."))
        elif isinstance(actor, int) and not isinstance(actor, bool):
            if actor != s.current:
                raise NotAllowed(gettext_noop("It is %(name)s's turn."), params={"name": names[s.current]})
        else:
            raise NotAllowed(gettext_noop("Unknown sender %(actor)s."), params={"actor": repr(actor)})
        if kind == "end_now" and actor != HOST:
            raise NotAllowed(gettext_noop("Only the host can end the game."))
        try:
            new = rules.apply(s, action)
        except rules.IllegalAction as exc:
            raise IllegalMove(exc.msgid, params=exc.params) from None
        return self._dump(state, new)

    def end_action(self, state: Mapping[str, Any], *, time_up: bool = False) -> JSON | None:
        """The host ends the round now (``end_now``): the hands as they stand decide (:func:`rules.end_now`)."""
        return None if self._state(state).over else {"type": "end_now"}

    def complete_action(
        self,
        state: Mapping[str, Any],
        action: Mapping[str, Any],
        options: Mapping[str, Any] | None,
        rng: random.Random,
        *,
        actor: Actor | None = None,
    ) -> JSON:
        """Fill in what the sender cannot know before :meth:`apply`.

        App dice: a roll gets ``6 - len(hand)`` values from ``rng``; a roll
        that comes with values from a seat (``actor`` a seat number) is
        refused, and any values from elsewhere are drawn again.  Physical
        dice: the values must be there (typed in).  Other actions are
        returned unchanged (as a copy).
        """
        out = dict(action)
        if out.get("type") != "roll":
            return out
        opts = options if options is not None else (state.get("options") or {})
        mode = opts.get("dice", "app")
        s = self._state(state)
        count = 6 - len(s.hand)
        if mode == "app":
            if isinstance(actor, int) and not isinstance(actor, bool) and out.get("values") is not None:
                raise IllegalMove(gettext_noop("The app rolls the dice at this table: tap to roll, no values."))
            out["values"] = rules.roll_dice(rng, count)
            return out
        if out.get("values") is None:
            raise IllegalMove(gettext_noop("Type in the %(count)s dice you rolled."), params={"count": count})
        return out

    # Nothing happens by itself in Run Buster (no system_action): rolls follow a tap, bots use bot_action.

    def bot_action(
        self, state: Mapping[str, Any], seat: int, rng: random.Random, *, strength: str | None = None
    ) -> JSON | None:
        """The complete action (dice drawn from ``rng``) the bot in ``seat`` takes now.

        Apply it with ``actor=SYSTEM`` (or the seat).  ``strength`` is one of
        :attr:`bot_strengths`; the default, ``"optimal"``, plays the solver
        with two players and the heuristic of :mod:`runbuster.rules.bots` with more.
        ``DEFAULT``: ``None`` (the rules make no choice by themselves).
        """
        if strength == DEFAULT:
            return None
        s = self._state(state)
        if s.over:
            raise IllegalMove(gettext_noop("The game is over."))
        if seat != s.current:
            raise NotAllowed(gettext_noop("It is %(name)s's turn."), params={"name": self._names(state)[s.current]})
        policy = strength or "optimal"
        if policy not in rules.POLICIES:  # strengths come from bot_strengths, never from a player
            raise ValueError(f"unknown bot strength {policy!r}; expected one of {', '.join(self.bot_strengths)}")
        return rules.bot_action(s, rng, policy)

    def hint(self, state: Mapping[str, Any], seat: int) -> JSON | None:
        """Win chances and a suggestion for the player whose turn it is (``None`` for the others)."""
        s = self._state(state)
        if s.over or seat != s.current:
            return None
        return self._hints(s)

    def view_parts(self, state: Mapping[str, Any]) -> tuple[JSON, Callable[[int | None], JSON]]:
        """The state with every seat's complement, cups and who is in; apart, a seat's turn, options and hints."""
        s = self._state(state)
        shared: JSON = {**dict(state)}
        shared["complements"] = [list(rules.complement(h)) for h in s.hands]
        shared["cups"] = [6 - len(h) for h in s.hands]
        shared["active"] = list(s.active)
        # Who is ahead: finished seats by place, then the longest straight in hand (rank 1 leads); the loser last.
        shared["ranks"] = competition_ranks([
            (0, s.finished.index(p)) if p in s.finished else (2, 0) if p == s.loser else (1, -len(h))
            for p, h in enumerate(s.hands)])
        hints_on = bool((state.get("options") or {}).get("hints"))

        def own(seat: int | None) -> JSON:
            your_turn = seat is not None and not s.over and seat == s.current
            return {
                "seat": seat,
                "your_turn": your_turn,
                "hand_options": [list(o) for o in s.options()] if your_turn else [],
                "hints": self.hint(state, seat) if hints_on and your_turn and seat is not None else None,
            }

        return shared, own

    @staticmethod
    def _hints(s: State) -> JSON:
        two = len(s.active) == 2
        hints: JSON = {"kind": "exact" if two else "heuristic"}
        if two:
            (opp,) = [p for p in s.active if p != s.current]
            if s.phase == ROLL:
                hints["win"] = rules.win_probability(s.hand, s.hands[opp])
            if s.phase == CHOOSE:
                hints["options"] = [{"straight": list(o), "win": p} for o, p in rules.solver_scores(s)]
        if s.phase == CHOOSE:
            hints["suggestion"] = list(rules.suggestion(s) or ())
            if hints["suggestion"]:  # the move suggested (a roll's hint only gives chances)
                hints["action"] = {"type": "choose", "straight": list(hints["suggestion"])}
        return hints

    def coach_options(self, options: Mapping[str, Any]) -> JSON:
        """A coached first game: hints on (a round of Run Buster is short already)."""
        return {**options, "hints": True}

    def describe_parts(
        self, state_before: Mapping[str, Any], action: Mapping[str, Any], *, names: Sequence[str]
    ) -> list[Part]:
        """The action as structured parts (see :mod:`runbuster.rules.notation`)."""
        s = self._state(state_before)
        names = list(names) or self._names(state_before)
        who = _roller_name(names, s.current)
        seat = s.current
        kind = action.get("type")
        # Each move is marked as the seat's (moved_by): the tables then say who decided it when the app played
        # for the seat ("The app played for Ben (time ran out): rolls ⚂ ⚄ …").
        if kind == "roll":
            values = list(action.get("values") or [])
            if not values:
                return [moved_by(part(gettext_noop("%(name)s rolls"), name=who), seat, "roll", gettext_noop("rolls"),
                                 choice=False)]
            roll = fmt_roll(values)
            try:
                after = rules.apply(s, action)
            except rules.IllegalAction:
                return [moved_by(part(gettext_noop("%(name)s rolls %(dice)s"), name=who, dice=roll), seat, "roll",
                                 gettext_noop("rolls %(dice)s"), choice=False)]
            victims = [
                part(gettext_noop("%(name)s's %(straight)s"), name=_roller_name(names, b), straight=fmt_straight(s.hands[b]))
                for b in after.busted
            ]
            stuck = after.phase != CHOOSE and bool(s.hand)
            hand = fmt_straight(s.hand)
            if victims and stuck:
                msg = gettext_noop("%(name)s rolls %(dice)s — busts %(victims)s — cannot extend %(hand)s")
                bare = gettext_noop("rolls %(dice)s — busts %(victims)s — cannot extend %(hand)s")
            elif victims:
                msg = gettext_noop("%(name)s rolls %(dice)s — busts %(victims)s")
                bare = gettext_noop("rolls %(dice)s — busts %(victims)s")
            elif stuck:
                msg = gettext_noop("%(name)s rolls %(dice)s — cannot extend %(hand)s")
                bare = gettext_noop("rolls %(dice)s — cannot extend %(hand)s")
            else:
                msg = gettext_noop("%(name)s rolls %(dice)s")
                bare = gettext_noop("rolls %(dice)s")
            args: JSON = {"name": who, "dice": roll}
            if victims:
                args["victims"] = victims
            if stuck:
                args["hand"] = hand
            line = part(msg, **args)
            line = ruled(line, "bust") if victims else ruled(line, "build") if stuck else line
            for b in after.busted:  # the busted player's own phone says it to them
                line = personal(line, b, gettext_noop("%(name)s's roll busted your %(straight)s: it went back into "
                                                      "your cup"), name=who, straight=fmt_straight(s.hands[b]))
            return [moved_by(line, seat, "roll", bare, choice=False)]
        if kind == "choose":
            straight = tuple(action.get("straight") or ())
            if len(straight) == 6:
                place = ordinal_part(len(s.finished) + 1)
                left = [p for p in s.active if p != s.current]
                if len(left) == 1:
                    return [moved_by(ruled(
                        part(
                            gettext_noop("%(name)s completes the straight: %(place)s place; %(loser)s loses the round"),
                            name=who,
                            place=place,
                            loser=_roller_name(names, left[0]),
                        ), "win"), seat, "straight",
                        gettext_noop("completes the straight: %(place)s place; %(loser)s loses the round"))
                    ]
                return [moved_by(ruled(part(gettext_noop("%(name)s completes the straight: %(place)s place"), name=who,
                                            place=place), "win"),
                                 seat, "straight", gettext_noop("completes the straight: %(place)s place"))]
            return [moved_by(part(gettext_noop("%(name)s takes %(straight)s"), name=who, straight=fmt_straight(straight)),
                             seat, "straight", gettext_noop("takes %(straight)s"))]
        if kind == "end_turn":
            return [moved_by(part(gettext_noop("%(name)s ends the turn"), name=who), seat, "end_turn",
                             gettext_noop("ends the turn"))]
        if kind == "end_now":
            try:
                after = rules.apply(s, action)
            except rules.IllegalAction:
                return [part(gettext_noop("The host ended the round"))]
            assert after.loser is not None
            return [part(gettext_noop("The host ended the round: the hands as they stand decide; %(loser)s loses "
                                      "the round"), loser=_roller_name(names, after.loser))]
        return [part(gettext_noop("%(name)s: %(kind)s"), name=who, kind=kind)]

    def outcome(self, state: Mapping[str, Any]) -> Outcome | None:
        s = self._state(state)
        if not s.over:
            return None
        assert s.loser is not None
        return Outcome(
            winners=(s.finished[0],),
            end_reason="ended" if s.ended else "full_straight",
            places=s.finished + (s.loser,),
            loser=s.loser,
        )

    def final_ranks(self, state: Mapping[str, Any], *, players: int) -> list[int] | None:
        """The drop-out order: the first to complete a full straight is 1, the next 2, ..., the loser last.

        Never a tie (one seat finishes per straight completed).  ``None``
        while the round goes on.
        """
        s = self._state(state)
        if not s.over:
            return None
        assert s.loser is not None
        order = s.finished + (s.loser,)
        return competition_ranks([order.index(seat) for seat in range(s.players)])

    def is_turn(self, actor: Actor, action: Mapping[str, Any]) -> bool:
        """A turn is a roll (by the seat, the host typing physical dice in, or the app for a bot)."""
        return action.get("type") == "roll"

    # -- review pages -----------------------------------------------------
    def first_player(self, state: Mapping[str, Any]) -> FirstPlayer | None:
        """Player 1 rolls first: the table draws it for its first round and moves it one seat on each round."""
        st = self._state(state)
        return FirstPlayer(st.first, part(gettext_noop(
            "Player 1, chosen by the table: drawn at random for the first round, then the next seat each round")))


ENGINE = register(RunBusterEngine())
