"""The Six-Dice adapter: plugs :mod:`sixdice.rules` into the live tables.

No Django here: the adapter speaks plain JSON dicts (see
``docs/sixdice-engine.md`` for every action and state shape).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sixdice import ordinary_dice, rules, stickers
from sixdice.gamekit.engine import (
    DEFAULT,
    HOST,
    JSON,
    SYSTEM,
    TIMEOUT,
    Actor,
    BoardPicture,
    DieFace,
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
from sixdice.gamekit.errors import GameError, IllegalMove, NotAllowed, OptionsError
from sixdice.gamekit.notation import Part, gettext_noop, part, signed
from sixdice.gamekit.options import dice_mode, on_off, whole_number
from sixdice.gamekit.schema import Field
from sixdice.rules import bots
from sixdice.rules.dice import ZERO_GROUP_INDEX, counts_of
from sixdice.rules.game import START_DICE, Hand, State, compensation_lines, final_scores, leaders_to_flip
from sixdice.rules.variants import (
    AS_WRITTEN,
    MAX_COMPENSATION,
    MAX_FIRST_BONUS,
    MAX_REFILL,
    PRESETS,
    Variants,
    preset,
    preset_of,
    valid_compensation,
)

MAX_ROUNDS = 99
MAX_BANK_PER_PLAYER = 50
MAX_MINUTES = 24 * 60
VIEW_GROUPINGS = 60  # at most this many alternatives are sent to a phone
BANK_PER_PLAYER = 12  # the usual bank: 12 dice per player (the rules' default)
COACH_ROUNDS = 4  # a coached first game is short
HINTS_KEY = "hints"  # in the state dict: the table's hints option (see start)
HINTS_KEPT = 64  # hints remembered (the same position is viewed by every connection)


_SEAT = Field("int", required=False, nullable=True, low=0, high=99)
_INDEX = Field("int", low=0, high=999)
_FACE = Field("int", low=-6, high=6)
ACTION_SCHEMA: dict[str, dict[str, Field]] = {
    "roll": {"values": Field("ints", low=-6, high=6), "seat": _SEAT},
    "flip": {"victim": Field("int", low=0, high=99), "own": _INDEX, "own_to": _FACE, "other": _INDEX,
             "other_to": _FACE, "seat": _SEAT},
    "group": {"zero_groups": Field("int_lists", required=False, low=-6, high=6),
              "pairs": Field("int_lists", required=False, low=-6, high=6),
              "loose": Field("ints", required=False, nullable=True, low=-6, high=6), "seat": _SEAT},
    "keep": {"keep": Field("ints", low=0, high=999), "seat": _SEAT},
    "end_on_time": {"seat": _SEAT},
    "end_now": {"seat": _SEAT},
}
"""Every action a phone or the host may send, with its exact fields (anything else is refused)."""


@functools.lru_cache(maxsize=HINTS_KEPT)
def _hint(st: State) -> JSON | None:
    """The strong bot's suggestion for the pending decision of ``st`` (a frozen, hashable state), remembered:
    every connection at the table views the same position."""
    assert st.pending is not None
    h = bots.hint(st)
    if h is None:
        return None
    return {"kind": st.pending.kind, "action": h.action, "value": round(h.value, 1), "win": h.value >= bots.WIN}


class SixDicePresentation(Presentation):
    """How Six-Dice shows itself: signed dice, each hand's groups and value, the round and the bank; its
    words for moves, end reasons and presets; its rules page, lesson and the bank's plural."""

    engine: SixDiceEngine

    lesson = "sixdice.lesson"
    rules_template = "rules/sixdice"
    end_reasons = {
        "all_threes": gettext_noop("All threes"),
        "rounds": gettext_noop("All rounds played"),
        "time": gettext_noop("Time is up"),
        "ended": gettext_noop("The host ended the game"),
    }
    rule_sets = {  # the presets of sixdice.rules.variants, and any other house rules
        "as_written": gettext_noop("As written"),
        "recommended": gettext_noop("Recommended"),
        "custom": gettext_noop("Own house rules"),
    }
    end_reasons_by_rules = ("all_threes",)  # how often each set of rules ends at once, on all threes
    option_labels = {
        "bank": gettext_noop("Dice in the bank"),
        "rounds": gettext_noop("Rounds"),
        "time_limit_minutes": gettext_noop("Time limit in minutes"),
        "auto_balance": gettext_noop("Automatic balancing"),
        "hints": gettext_noop("Hints"),
        "last_turn_score": gettext_noop("A hand is scored at the end of its owner's last turn"),
        "reverse_last_round": gettext_noop("The last round is played in reverse order"),
        "no_flip_back": gettext_noop("No flip back at the player who just flipped you"),
        "flip_the_leader": gettext_noop("Flip the leader: every flip goes against the hand furthest from zero"),
        "refill": gettext_noop("The bank refills each round to this many dice per player"),
        "threes_dice": gettext_noop("The dice all threes needs"),
        "first_bonus": gettext_noop("Compensation for the first seats: points per player who moves after you"),
        "compensation": gettext_noop(
            "Compensation by place in the turn order: one figure per player, the first player first, such as 0 1.5 2"
        ),
    }
    moves = {
        "flip": MoveWords("flip", gettext_noop("flip")),
        "group": MoveWords("grouping", gettext_noop("grouping")),
        "keep": MoveWords("keep", gettext_noop("choice of groups to keep")),
        "roll": MoveWords("roll", gettext_noop("roll")),  # a typed-in roll (the app's own are never undone)
    }
    default_reason = gettext_noop("automatic balancing")  # "The app chose for Ivo (automatic balancing): …"

    def die_face(self, value: int) -> DieFace:
        """Blue +1..+3, red −1..−3."""
        return DieFace(signed(value), "pos" if value > 0 else "neg")

    def picture(self, state: Mapping[str, Any]) -> BoardPicture:
        st = self.engine._state(state)
        hands = tuple(
            HandPicture(groups=tuple(tuple(g) for g in h.groups), loose=tuple(h.loose), score=h.value) for h in st.hands
        )
        facts = ((gettext_noop("Round"), f"{st.round} / {st.rounds}"), (gettext_noop("Bank"), str(st.bank)))
        return BoardPicture(hands=hands, facts=facts)

    def asked_move(self, state: Mapping[str, Any], seat: int) -> Part | None:
        """The flip, grouping or choice of groups to keep the state waits for from ``seat``."""
        st = self.engine._state(state)
        p = st.pending
        if st.over or p is None or p.seat != seat or p.kind not in ("flip", "group", "keep"):
            return None
        return self.move_name({"type": p.kind})

    def play_record(self, state: Mapping[str, Any], *, players: int) -> PlayRecord:
        """Each seat's score is what its hand counts at the end (its absolute value, as the house rules count it),
        so the winner has the highest score; the note keeps the signed values ("Ana +2, Ben −3").

        After *all threes* the winner need not have the highest score: the
        record then says nothing of which way scores win (the ranks say it).
        No BoardGameGeek id: not verified that it lists the game.
        """
        st = self.engine._state(state)
        values = st.values()[:players]
        note = ", ".join(f"{name} {signed(value)}" for name, value in zip(st.players, values, strict=False))
        return PlayRecord(scores=tuple(float(v) for v in final_scores(st)[:players]),
                          highest_wins=None if st.end_reason == "all_threes" else True, note=note)

    def rules_context(self) -> JSON:
        """The dice in the usual game (the bank's size), per number of players (the rules page's table)."""
        players = range(self.engine.min_players, self.engine.max_players + 1)
        return {"bank_examples": [{"players": n, "dice": BANK_PER_PLAYER * n} for n in players]}

    sticker_sizes = (stickers.DEFAULT_SIZE, *(z for z in stickers.SIZES if z != stickers.DEFAULT_SIZE))

    def sticker_sheet(self, paper: str, size_mm: int, fmt: str) -> bytes | None:
        """Blue round pips for +, red square pips for −, one sticker per face (:mod:`sixdice.stickers`)."""
        return stickers.render(paper, size_mm, fmt)

    def dice_needed(self, options: Mapping[str, Any], *, players: int) -> JSON | None:
        """How many real dice a table with these (raw) options uses, from the cleaned options: the bank's dice
        in all (6 in each hand at the start, the rest in the bank) and, with the bank refill, how many may
        join at once (see :func:`sixdice.ordinary_dice.dice_needed`)."""
        opts = self.engine.clean_options(options, players=players)
        return ordinary_dice.dice_needed(opts["bank"], players, START_DICE, int(opts.get("refill") or 0))

    def plural_forms(self, ngettext: Callable[[str, str, int], str]) -> Mapping[str, Callable[[int], str]]:
        """The bank's count on the board, and the real-dice prompts (their words agree with the count: "the die",
        "the 2 dice"; "type it in", "type them in")."""
        return {
            "bank": lambda n: ngettext("Bank: %(n)s die", "Bank: %(n)s dice", n),
            "roll_you": lambda n: ngettext("Your turn: roll %(n)s die ({what}) and type it in",
                                           "Your turn: roll %(n)s dice ({what}) and type them in", n),
            "key_you": lambda n: ngettext("Type in the die you rolled ({what}):",
                                          "Type in the %(n)s dice you rolled ({what}):", n),
            "key_for": lambda n: ngettext("Type in the die {name} rolled ({what}):",
                                          "Type in the %(n)s dice {name} rolled ({what}):", n),
        }


class SixDiceEngine(GameEngine):
    """The :class:`~sixdice.gamekit.engine.GameEngine` of Six-Dice.

    A move goes through several hooks (``actors``, ``apply``,
    ``describe_parts``, ``system_action``, ``outcome``), each given the state
    as a dict.  The adapter parses a dict into a :class:`State` once: it
    remembers the last few dicts it parsed or returned, by identity (a state
    dict is a value: neither the services nor the adapter change one in
    place once it is made).
    """

    slug = "sixdice"
    label = "Six-Dice"
    min_players = 2
    max_players = 8
    bot_strengths = bots.STRENGTHS  # random, greedy, strong (weakest first)
    random_actions = frozenset({"roll"})  # the dice: rolled by the app, or real dice typed in
    presentation_class = SixDicePresentation

    def __init__(self) -> None:
        self._state: ParsedStates[State] = ParsedStates(State.from_dict)

    def _dump(self, st: State) -> JSON:
        d = st.to_dict()
        self._state.remember(d, st)
        return d

    # ------------------------------------------------------------ options and start

    def clean_options(self, raw: Mapping[str, Any], *, players: int) -> JSON:
        if not self.min_players <= players <= self.max_players:
            raise OptionsError(
                gettext_noop("Six-Dice takes %(low)s to %(high)s players, not %(players)s."),
                params={"low": self.min_players, "high": self.max_players, "players": players},
            )
        raw = raw or {}
        variants, per_player = self._clean_variants(raw, players)
        bank = whole_number(raw, "bank", part(gettext_noop("The bank")))
        if bank is None:
            bank = per_player * players
        low, high = 6 * players, MAX_BANK_PER_PLAYER * players
        if not low <= bank <= high:
            raise OptionsError(
                gettext_noop(
                    "The bank must hold %(low)s to %(high)s dice for %(players)s players "
                    "(each player starts with 6; 12 each is the usual)."
                ),
                params={"low": low, "high": high, "players": players},
            )
        rounds = whole_number(raw, "rounds", part(gettext_noop("The number of rounds")))
        if rounds is None:
            rounds = 12
        if not 1 <= rounds <= MAX_ROUNDS:
            raise OptionsError(gettext_noop("The number of rounds must be 1 to %(max)s."), params={"max": MAX_ROUNDS})
        minutes = whole_number(raw, "time_limit_minutes", part(gettext_noop("The time limit")))
        if minutes is not None and not 1 <= minutes <= MAX_MINUTES:
            raise OptionsError(
                gettext_noop("The time limit must be 1 to %(max)s minutes, or empty for none."), params={"max": MAX_MINUTES}
            )
        return {
            "bank": bank,
            "rounds": rounds,
            "time_limit_minutes": minutes,
            "dice": (mode := dice_mode(raw)),
            **ordinary_dice.clean_faces(raw, mode),  # ordinary dice, read by their pips
            "auto_balance": on_off(raw, "auto_balance", part(gettext_noop("Automatic balancing"))),
            "hints": on_off(raw, "hints", part(gettext_noop("Hints"))),
            **variants.to_dict(),  # house rules: only those that differ from the rules as written
        }

    def upgrade_options(self, options: Mapping[str, Any], *, version: int) -> JSON:
        """Format 1 to 2: ``hints`` came in later within format 1 (before it, no table had hints)."""
        upgraded = dict(options)
        if version == 1:
            upgraded.setdefault("hints", False)
        return upgraded

    def _clean_variants(self, raw: Mapping[str, Any], players: int) -> tuple[Variants, int]:
        """The house rules asked for, and the bank per player they suggest.

        ``rules``: ``as_written`` (the default), ``recommended`` (the preset, see
        :data:`sixdice.rules.variants.PRESETS`) or ``custom``; with ``custom``, or
        with no ``rules`` at all, each variant is read from its own key (a key
        left out is the rule as written).
        """
        rules_set = raw.get("rules") or "custom"
        if not isinstance(rules_set, str) or rules_set.strip().lower().replace("-", "_") not in (*PRESETS, "custom"):
            raise OptionsError(
                gettext_noop('The rules must be "as_written", "recommended" or "custom", not %(value)s.'),
                params={"value": repr(rules_set)},
            )
        rules_set = rules_set.strip().lower().replace("-", "_")
        if rules_set in PRESETS:
            return preset(rules_set, players)
        refill = whole_number(raw, "refill", part(gettext_noop("The bank refill")))
        if refill is not None and not 0 <= refill <= MAX_REFILL:
            raise OptionsError(
                gettext_noop("The bank refill must be 0 to %(max)s dice per player."), params={"max": MAX_REFILL}
            )
        bonus = whole_number(raw, "first_bonus", part(gettext_noop("The compensation for the first seats")))
        if bonus is not None and not 0 <= bonus <= MAX_FIRST_BONUS:
            raise OptionsError(
                gettext_noop("The compensation must be 0 to %(max)s points per seat."), params={"max": MAX_FIRST_BONUS}
            )
        threes = whole_number(raw, "threes_dice", part(gettext_noop("The dice all threes needs")))
        if threes is not None and threes not in (5, 6):
            raise OptionsError(gettext_noop("All threes needs 5 or 6 dice."))
        compensation = _compensation(raw.get("compensation"), players)
        v = Variants(
            compensation=compensation,
            last_turn_score=on_off(raw, "last_turn_score", part(gettext_noop("Score at the end of the last turn"))),
            reverse_last_round=on_off(raw, "reverse_last_round", part(gettext_noop("The last round in reverse order"))),
            no_flip_back=on_off(raw, "no_flip_back", part(gettext_noop("No flip back"))),
            flip_the_leader=on_off(raw, "flip_the_leader", part(gettext_noop("Flip the leader"))),
            refill=refill or 0,
            threes_dice=threes or AS_WRITTEN.threes_dice,
            first_bonus=bonus or 0,
        )
        return v, BANK_PER_PLAYER

    def start(self, *, players: Sequence[str], options: Mapping[str, Any], first: int = 0) -> JSON:
        opts = self.clean_options(options, players=len(players))
        st = rules.new_game(
            list(players),
            bank=opts["bank"],
            rounds=opts["rounds"],
            dice=opts["dice"],
            auto_balance=opts["auto_balance"],
            variants=Variants.from_dict(opts),
        )
        d = self._dump(st)
        if opts["hints"]:
            d[HINTS_KEY] = True  # the table's hints option travels with the state (the view sees only the state)
        if ordinary_dice.FACES_KEY in opts:
            d[ordinary_dice.FACES_KEY] = opts[ordinary_dice.FACES_KEY]  # so does ordinary dice: the boards draw pips
        return d

    def time_limit(self, options: Mapping[str, Any]) -> int | None:
        """The table's ``time_limit_minutes`` (R10: when it runs out the host may end the game), or ``None``."""
        minutes = options.get("time_limit_minutes")
        return minutes if isinstance(minutes, int) and not isinstance(minutes, bool) and minutes > 0 else None

    def end_action(self, state: Mapping[str, Any], *, time_up: bool = False) -> JSON | None:
        """The host ends the game now: on time (``end_on_time``, R10) once the time limit is up, else early
        (``end_now``); either way the largest absolute hand value wins, as at the round limit."""
        if self._state(state).over:
            return None
        return {"type": "end_on_time" if time_up else "end_now"}

    def system_reason(self, action: Mapping[str, Any]) -> str:
        """The app ends a game on time (``end_on_time``, R10); it rolls app dice and balances by default."""
        return TIMEOUT if action.get("type") == "end_on_time" else super().system_reason(action)

    # ------------------------------------------------------------ who acts

    def actors(self, state: Mapping[str, Any]) -> frozenset[int]:
        st = self._state(state)
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

    def action_schema(self) -> Mapping[str, Mapping[str, Field]]:
        """The fields of each action (``docs/sixdice-engine.md``); ``seat`` is optional everywhere."""
        return ACTION_SCHEMA

    def apply(self, state: Mapping[str, Any], action: Mapping[str, Any], *, actor: Actor) -> JSON:
        st = self._state(state)
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
        elif kind == "end_now":
            if actor != HOST:
                raise NotAllowed(gettext_noop("Only the host can end the game."))
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
        d = self._dump(new)
        if state.get(HINTS_KEY):
            d[HINTS_KEY] = True
        if ordinary_dice.FACES_KEY in state:  # ordinary dice: the table's option, and the dice a flip turns
            d[ordinary_dice.FACES_KEY] = state[ordinary_dice.FACES_KEY]
            turn = ordinary_dice.turn_over(st, new, action, state.get(ordinary_dice.TURN_OVER_KEY))
            if turn is not None:
                d[ordinary_dice.TURN_OVER_KEY] = turn
        return d

    def system_action(
        self, state: Mapping[str, Any], options: Mapping[str, Any], rng: random.Random
    ) -> JSON | None:
        st = self._state(state)
        p = st.pending
        if st.over or p is None:
            return None
        if p.kind == "roll":
            return rules.roll_action(st, rng) if st.dice == "app" else None
        if p.kind in ("group", "keep"):
            auto = st.auto_balance or bool(options and options.get("auto_balance") is True)
            return rules.default_action(st) if auto else None
        return None

    # ------------------------------------------------------------ bots and hints

    def bot_action(
        self, state: Mapping[str, Any], seat: int, rng: random.Random, *, strength: str | None = None
    ) -> JSON | None:
        """The decision of the bot in ``seat`` (:mod:`sixdice.rules.bots`), or ``None`` when it has none now.

        A bot decides its flips, groupings and keeps.  It never rolls: at an
        app-dice table the app rolls for every seat (a system action), and at a
        physical-dice table the host rolls real dice for a bot seat and types
        them in, as for any seat (``None`` here, so the driver waits).
        ``strength``: ``random``, ``greedy`` or ``strong`` (``None``: strong);
        ``DEFAULT``: the grouping or the groups to keep that automatic
        balancing would apply (R5–R7's default).
        """
        st = self._state(state)
        p = st.pending
        if strength == DEFAULT:
            if st.over or p is None or p.seat != seat or p.kind not in ("group", "keep"):
                return None
            return rules.default_action(st)
        if st.over or p is None or p.seat != seat or not bots.is_decision(st):
            return None
        level = strength or "strong"
        if level not in bots.STRENGTHS:  # strengths come from bot_strengths, never from a player
            raise ValueError(f"unknown bot strength {level!r}; expected one of {', '.join(bots.STRENGTHS)}")
        return bots.bot_action(st, level, rng)

    def hint(self, state: Mapping[str, Any], seat: int) -> JSON | None:
        """The strong bot's suggestion for ``seat``'s pending flip, grouping or keep, or ``None``.

        ``{"kind": "flip"|"group"|"keep", "action": {...}, "value": float,
        "win": bool}``: ``value`` is the search's estimate of the seat's lead
        (its score minus the best opponent's, see ``docs/sixdice-engine.md``);
        ``win`` when the suggestion wins at once.  The same state always gets
        the same hint (the search is deterministic); hints are cached.
        """
        st = self._state(state)
        p = st.pending
        if st.over or p is None or p.seat != seat or not bots.is_decision(st):
            return None
        found = _hint(st)
        return None if found is None else dict(found)

    # ------------------------------------------------------------ what phones see

    def view_parts(self, state: Mapping[str, Any]) -> tuple[JSON, Callable[[int | None], JSON]]:
        """The state with its values and actors; apart, what only the seat in turn (or the host) is offered.

        The board draws what it is told: which hands a flip broke (``broken_hands``), each hand's dice as
        parts with their kind and sum (``hand_parts``), and each keep choice's kept and returned groups
        (``keep_choices``); the page adds up and decides nothing of the rules.
        """
        st = self._state(state)
        shared = st.to_dict()
        shared.pop("todo", None)
        shared["values"] = st.values()
        shared["faces"] = state.get(ordinary_dice.FACES_KEY) or ordinary_dice.SIXDICE  # how the boards draw a die
        if ordinary_dice.TURN_OVER_KEY in state:
            shared["turn_over"] = state[ordinary_dice.TURN_OVER_KEY]
        broken = self._broken_hands(st)
        shared["broken_hands"] = sorted(broken)
        shared["hand_parts"] = [self._hand_parts(h, s in broken) for s, h in enumerate(st.hands)]
        # Who is ahead: the hand furthest from zero (what wins at the end), rank 1; a win at once ranks first.
        shared["ranks"] = competition_ranks([(0 if s in st.winners else 1, -abs(v)) for s, v in enumerate(shared["values"])])
        shared["actors"] = sorted(self.actors(state))
        if st.over and st.end_reason != "all_threes":  # the end screen says who added what: "Ben +1.5 for moving second"
            shared["compensation"] = [{"seat": seat, "points": pts, "place": place}
                                      for seat, pts, place in compensation_lines(st)]
            if shared["compensation"]:
                shared["final_scores"] = final_scores(st)  # what won: |value| plus the compensation
        p = st.pending
        if not (st.over or p is None):
            shared["hints_on"] = bool(state.get(HINTS_KEY))

        def own(seat: int | None) -> JSON:
            d: JSON = {"you": seat}
            if st.over or p is None:
                return d
            mine = seat is None or seat == p.seat
            if p.kind == "flip" and seat == p.seat:
                d["legal_flips"] = [
                    [a["victim"], a["own"], a["own_to"], a["other"], a["other_to"]]
                    for a in rules.legal_actions(st)
                ]
                lead = leaders_to_flip(st, p.seat)
                if lead and st.n >= 3:  # flip the leader: whom the flip must go against (the mover's phone says so)
                    d["must_flip"] = sorted(lead)
            elif p.kind == "group" and mine:
                gs = rules.groupings(st.hands[p.seat].dice())
                d["groupings"] = [g.to_dict() for g in gs[:VIEW_GROUPINGS]]
                d["groupings_total"] = len(gs)
            elif p.kind == "keep" and mine:
                d["keep_options"] = [a["keep"] for a in rules.legal_actions(st)]
                d["keep_choices"] = self._keep_choices(st.hands[p.seat], d["keep_options"], p.default)
                hand = st.hands[p.seat]
                loose = sum(hand.loose)  # the hand's value after each keep: its two groups and its loose dice
                d["keep_values"] = [sum(hand.groups[i]) + sum(hand.groups[j]) + loose for i, j in d["keep_options"]]
            elif p.kind == "roll":
                d["you_roll"] = st.dice == "physical" and (seat == p.seat or seat is None)
            if state.get(HINTS_KEY) and seat == p.seat and p.kind in ("flip", "group", "keep"):
                d["hint"] = self.hint(state, p.seat)  # only the phone of the seat whose choice it is (never seat None)
            return d

        return shared, own

    @staticmethod
    def _part(kind: str, dice: Sequence[int]) -> JSON:
        return {"kind": kind, "dice": list(dice), "sum": sum(dice)}

    @staticmethod
    def _group_part(group: Sequence[int]) -> JSON:
        """A group of a balanced hand: a zero-sum group, else a (non-zero) pair."""
        return SixDiceEngine._part("zero" if sum(group) == 0 else "pair", group)

    @staticmethod
    def _balanced(hand: Hand) -> bool:
        """Whether every group of ``hand`` is one a balancing may form (a listed zero-sum group, or a pair of both colours)."""
        return all(
            (sum(g) == 0 and counts_of(g) in ZERO_GROUP_INDEX)
            or (len(g) == 2 and sum(g) != 0 and (g[0] > 0) != (g[1] > 0))
            for g in hand.groups
        )

    @staticmethod
    def _broken_hands(st: State) -> set[int]:
        """The hands whose groups this turn's flip broke: they are grouped again from scratch in their balancing.

        The mover's until its grouping (after its draw), the victim's until its own; read from the steps
        still to do.  A game that ended meanwhile has none left: there a touched hand is broken when a group
        of it is no longer one a balancing forms.
        """
        m, victim = st.current, st.victim
        if m is None or victim is None:
            return set()
        if st.over:
            return {s for s in (m, victim) if not SixDiceEngine._balanced(st.hands[s])}
        p, todo = st.pending, st.todo

        def regrouped_later(seat: int) -> bool:
            return (p is not None and p.kind == "group" and p.seat == seat) or ("balance", seat) in todo or ("group", seat) in todo

        out = {m} if regrouped_later(m) else set()
        if ("balance_victim", -1) in todo or regrouped_later(victim):
            out.add(victim)
        return out

    @staticmethod
    def _hand_parts(hand: Hand, broken: bool) -> list[JSON]:
        """A hand as the board draws it, in the order of its dice (the indices a flip names).

        Each group is a ``zero`` (zero-sum) group or a ``pair``, or ``broken`` when a flip broke the hand's
        groups (its dice drawn loose); then the ``loose`` dice, when there are any.
        """
        parts = [SixDiceEngine._part("broken", g) if broken else SixDiceEngine._group_part(g) for g in hand.groups]
        if hand.loose:
            parts.append(SixDiceEngine._part("loose", hand.loose))
        return parts

    @staticmethod
    def _keep_choices(hand: Hand, options: Sequence[Sequence[int]], default: Sequence[int] | None) -> list[JSON]:
        """Each way to keep two groups, the default first: the kept groups and the groups returned to the bank."""

        def choice(keep: Sequence[int], is_default: bool) -> JSON:
            return {
                "keep": list(keep),
                "default": is_default,
                "kept": [SixDiceEngine._group_part(hand.groups[k]) for k in keep],
                "returned": [SixDiceEngine._group_part(g) for k, g in enumerate(hand.groups) if k not in keep],
            }

        chosen = sorted(default) if default is not None else None
        choices = [choice(keep, sorted(keep) == chosen) for keep in options]
        if chosen is not None and not any(c["default"] for c in choices):
            choices.append(choice(chosen, True))
        return sorted(choices, key=lambda c: not c["default"])

    def coach_options(self, options: Mapping[str, Any]) -> JSON:
        """A coached first game: hints on and at most :data:`COACH_ROUNDS` rounds."""
        return {**options, "hints": True, "rounds": min(int(options.get("rounds") or COACH_ROUNDS), COACH_ROUNDS)}

    def describe_parts(
        self, state_before: Mapping[str, Any], action: Mapping[str, Any], *, names: Sequence[str]
    ) -> list[Part]:
        """The action as structured parts (see :mod:`sixdice.rules.notation`); an illegal one reads "(illegal ...)"."""
        if not isinstance(action, Mapping):
            raise IllegalMove(gettext_noop('An action is a JSON object with a "type".'))
        try:
            return rules.describe_parts(self._state(state_before), action, names)
        except (TypeError, KeyError, IndexError, AttributeError, ValueError) as e:
            raise IllegalMove(gettext_noop("This action is not well formed (%(error)s)."), params={"error": str(e)}) from None

    def is_turn(self, actor: Actor, action: Mapping[str, Any]) -> bool:
        """A turn is a flip (the roll, balancing and keeping around it belong to it)."""
        return action.get("type") == "flip"

    def outcome(self, state: Mapping[str, Any]) -> Outcome | None:
        st = self._state(state)
        if not st.over:
            return None
        return Outcome(winners=tuple(st.winners), end_reason=st.end_reason or "")

    def final_ranks(self, state: Mapping[str, Any], *, players: int) -> list[int] | None:
        """The winners first, together (a shared win, R9/R10, is a tie); then the others by |hand value|.

        The largest absolute value of a final hand comes first; equal values
        are tied.  After *all threes* the player(s) with all threes come
        first whatever the others' values.  ``None`` while the game goes on.
        """
        st = self._state(state)
        if not st.over:
            return None
        won = set(st.winners)
        values = final_scores(st)  # the absolute values, as the house rules count them
        return competition_ranks([(seat not in won, -values[seat]) for seat in range(st.n)])

    # ------------------------------------------------------------ review pages, statistics and house rules

    def first_player(self, state: Mapping[str, Any]) -> FirstPlayer | None:
        """Once every start hand is balanced, the hand nearest to 0 begins (the lowest seat on a tie)."""
        st = self._state(state)
        if st.first is None:
            return None
        values = [f"{name} {signed(value)}" for name, value in zip(st.players, st.values(), strict=False)]
        return FirstPlayer(st.first, part(gettext_noop("the hand nearest to 0 after the start rolls (%(values)s)"),
                                          values=", ".join(values)))

    def rules_in_force(self, options: Mapping[str, Any], *, players: int) -> JSON:
        """The rules a game with these (cleaned) options plays: ``{"preset": ..., "variants": {...}, "bank": ...}``.

        ``preset`` is ``as_written``, ``recommended`` or ``custom``; ``variants``
        lists only the house rules that differ from the rules as written.
        """
        v = Variants.from_dict(options)
        bank = options.get("bank") or BANK_PER_PLAYER * players
        # ``bank`` is the bank's size: every die in the game (the bank and the hands); the board's "Bank: n dice"
        # is what the bank holds now, so a page that shows this figure says "dice in the game".
        out = {"preset": preset_of(v, bank / players, players), "variants": v.to_dict(), "bank": bank}
        if v.compensation:  # "0 / +1.5 / +2": the figures by place in the turn order, the first player first
            out["compensation_text"] = " / ".join(f"+{x:g}" if x else "0" for x in v.compensation)
        return out

    def rule_set(self, options: Mapping[str, Any], *, players: int) -> str:
        """The preset the options amount to: ``as_written``, ``recommended`` or ``custom`` (see :meth:`rules_in_force`)."""
        return str(self.rules_in_force(options, players=players)["preset"])


def _compensation(raw: Any, players: int) -> tuple[float, ...]:
    """The compensation by place in the turn order: a list of numbers, or a text such as ``0 1.5 2``
    (spaces, slashes or semicolons between; a decimal comma is read as a point); empty: none."""
    if raw is None or raw == "" or raw == []:
        return ()
    items: list[Any]
    if isinstance(raw, str):
        items = [x for x in re.split(r"[\s/;]+", raw.strip().replace(",", ".")) if x]
    elif isinstance(raw, list | tuple):
        items = list(raw)
    else:
        items = [raw]
    try:
        table = tuple(float(x) for x in items if not isinstance(x, bool))
    except (TypeError, ValueError):
        table = ()
    if len(table) != len(items) or not valid_compensation(table, players):
        raise OptionsError(
            gettext_noop(
                "The compensation is one figure per player in turn order, the first player first "
                "(%(players)s figures), each a whole or half point from 0 to %(max)s, such as 0 1.5 2."
            ),
            params={"players": players, "max": MAX_COMPENSATION},
        )
    return table


ENGINE = register(SixDiceEngine())
