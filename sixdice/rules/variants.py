"""House rules: variants of Six-Dice that a table may agree on.

Every variant has a default that is the rule as written (the spec); a game
with every variant at its default is the game as written.  The variants are
named in the game's own words:

``last_turn_score``
    A hand is scored at the end of its owner's last turn: at the round limit
    each hand counts with the value it had when its owner's last turn ended
    (the victim's balancing included); a flip against it afterwards changes
    the dice but not the score.
``reverse_last_round``
    The last round is played in reverse order: the player who moved last in
    the round before moves again first, and the first player moves last.
``no_flip_back``
    No flip back: the mover may not choose as victim the player who flipped
    the mover in the turn just before (with 3 or more players; with 2 there
    is nobody else to flip, so the variant does nothing).
``flip_the_leader``
    Flip the leader: the mover's flip goes against the player whose hand is
    furthest from zero, of the others the mover may flip (a legal flip, and
    no flip back); when several are tied, against any of them.
``refill``
    The bank refills: at the start of every round after the first, new dice
    join the bank until it holds ``refill`` dice per player (0: never).
``threes_dice``
    All threes needs this many dice (the rule as written: 6; the variant: 5).
``first_bonus``
    A compensation for the first seats: at the round limit every player adds
    ``first_bonus`` points to their absolute value for each player who moves
    after them in the round (the first player adds the most).

``compensation``
    A compensation for moving later or earlier: at the round limit each player
    adds the points of their place in the turn order (``compensation[0]`` for
    the first player, ``[1]`` for the second, ...) to their absolute value;
    halves are allowed so that ties break (``(0, 1.5)``: with 2 players the
    second player adds 1.5).  Empty: none.  A game won by all threes ignores it.

A bigger bank is the table's ``bank`` option (12 dice per player as written).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

THREES_AS_WRITTEN = 6
MAX_REFILL = 10
MAX_FIRST_BONUS = 10


@dataclass(frozen=True)
class Variants:
    """The house rules of a game; ``Variants()`` is the game as written."""

    last_turn_score: bool = False
    reverse_last_round: bool = False
    no_flip_back: bool = False
    refill: int = 0
    threes_dice: int = THREES_AS_WRITTEN
    first_bonus: int = 0
    compensation: tuple[float, ...] = ()
    flip_the_leader: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Only the variants that differ from the rules as written (``{}`` for the game as written)."""
        default = AS_WRITTEN
        out = {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(default, f.name)}
        if "compensation" in out:
            out["compensation"] = [_number(x) for x in self.compensation]
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> Variants:
        """A missing key is the rule as written."""
        if not d:
            return AS_WRITTEN
        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in names}
        if "compensation" in kw:
            kw["compensation"] = tuple(float(x) for x in kw["compensation"] or ())
        return cls(**kw)

    def bonus(self, place: int) -> float:
        """The compensation of the player at ``place`` in the turn order (0: the first player)."""
        c = self.compensation
        return c[place] if 0 <= place < len(c) else 0.0

    @property
    def as_written(self) -> bool:
        return self == AS_WRITTEN


def _number(x: float) -> float | int:
    """``1.0`` as ``1`` (a whole number reads as one in the export and on the page), ``1.5`` as it is."""
    return int(x) if float(x).is_integer() else float(x)


def valid_compensation(c: tuple[float, ...], players: int | None = None) -> bool:
    """A compensation table: empty, or one figure per place (exactly ``players`` of them when given;
    a game takes any table of up to 8, a place past its end adding nothing), each a whole or half
    point from 0 to :data:`MAX_COMPENSATION`."""
    if not c:
        return True
    if len(c) != players if players is not None else len(c) > 8:
        return False
    return all(
        isinstance(x, int | float) and not isinstance(x, bool) and 0 <= x <= MAX_COMPENSATION
        and float(2 * x).is_integer() for x in c
    )


MAX_COMPENSATION = 20

AS_WRITTEN = Variants()
NAMES: tuple[str, ...] = tuple(f.name for f in fields(Variants))

COMPENSATION: dict[int, tuple[float, ...]] = {
    # players: points by place in the turn order (the first player first), fitted on recorded games by
    # ``python -m sixdice.lab.tune fit --players N`` (docs/sixdice-balance.md, *Compensation*)
    # 2 players: none. Greedy play alone fits 0 / 0.5 (52.2 / 47.8 -> 48.1 / 51.9), strong play 0.5 / 0 (300 games,
    # 47.8 / 52.2); both together fit none, and with 0 / 0.5 strong play gave 45.3 / 54.7
    # 3 players, with flip the leader (since 7 December): the first player adds 1, fitted on greedy and strong play
    # together (without it: greedy 25.4 / 39.8 / 34.8, 1,000 games; strong 25.2 / 36.5 / 38.3, 300). Played by bots
    # that know it, every seat within 5 points and the early leader under the limit (greedy 1,000 games: 31.3 / 34.5 /
    # 34.2, 34.5%; strong 300: 32.2 / 34.4 / 33.4, 38.2%). It is not chased: the victim of a flip is the hand furthest
    # from zero, not the player a table favours. Before flip the leader every 3-player table was (0 / 2.5 / 1 known:
    # 42.7 / 25.8 / 31.5), so there was none (docs/sixdice-balance.md, "3 players: flip the leader")
    3: (1, 0, 0),
    # 4 players: played by bots that know it, every seat within 5 points (greedy 1,000 games: 28.4 / 21.2 / 21.0 /
    # 29.4; strong 300: 24.2 / 20.7 / 27.5 / 27.7); the table before, 0.5 / 2 / 0.5 / 0, left strong play's second
    # seat at 19.8 when known, and 0 / 1.5 / 0.5 / 0, fitted on greedy play alone, left it at 20.5 / 19.7 / 29.7 / 30.2
    4: (1, 2.5, 1, 0),
    # 5 players: played by bots that know it, every seat within 5 points (greedy 1,000 games: 16.1 / 16.0 / 21.9 /
    # 22.3 / 23.8; strong 300: 19.3 / 16.9 / 20.4 / 23.6 / 19.7); the table before, 2 / 2 / 0.5 / 0.5 / 0, left
    # strong play's fourth seat at 26.3 when known
    5: (2.5, 2, 1, 0, 0.5),
    # 6 players: played by bots that know it, every seat within 5 points (greedy 1,000 games: 11.7 / 14.2 / 15.9 /
    # 18.5 / 18.3 / 21.3; strong 200: 15.7 / 17.2 / 15.2 / 15.3 / 16.4 / 20.2); the fit 1 / 1 / 1 / 0 / 0.5 / 0 left
    # greedy play's fifth seat 5.8 over when known, and 2 / 1.5 / 1.5 / 1 / 0.5 / 0 strong play's last seat at 11.0
    6: (1, 1, 1, 0, 0, 0),
    # 7 players: played by bots that know it (the study command, seed 1): see docs/sixdice-balance.md. Tables that
    # give the first seats more were chased (the others flip the compensated players): 1.5 / 1.5 / 0 / 0 / 0 / 0 / 0
    # known gave greedy 8.0 / 15.0 / 8.5 / 15.0 / 10.9 / 19.9 / 22.7 (200 games), 2 / 1.5 / 0.5 / 0 / 0 / 0 / 0 gave
    # 9.1 / 11.2 / 8.5 / 13.2 / 13.3 / 22.5 / 22.3 (300); without a table greedy play gives 9.9 / 9.8 / 13.4 / 15.5 /
    # 14.1 / 17.3 / 20.0 (300 games, fair 14.3)
    7: (0.5, 0.5, 0.5, 0, 0, 0, 0),
    # 8 players: played by bots that know it, every seat within 5 points (docs/sixdice-balance.md). The table
    # before, 2 / 2 / 1.5 / 0 / 0.5 / 0 / 0 / 0 (fitted on 200 recorded games of each strength), left strong play's
    # seventh seat at 18.6 when known (300 games, fair 12.5); 2 / 2 / 1.5 / 0.5 / 1 / 0.5 / 0 / 0.5 kept strong play
    # within 3.7 but left greedy play's last seat at 19.3 (1,000 games)
    8: (1.5, 1.5, 1.5, 0.5, 0.5, 0.5, 0, 0.5),
}
"""The compensation of the recommended rules by number of players (none where not yet measured)."""

_R = Variants(refill=3, threes_dice=5)  # the bank refill and all threes of every version but the first 2-player one
_RECOMMENDED_BASE: dict[int, tuple[Variants, int]] = {
    2: (replace(_R, reverse_last_round=True), 12),
    # 3 players: each hand scored at its owner's last turn, not the reversed last round (docs/sixdice-balance.md,
    # *3 players under another rule*), and every flip against the hand furthest from zero: the early leader of greedy
    # play won 52.0% without it (limit 50%), 34.5% with it (*3 players: flip the leader*)
    3: (replace(_R, last_turn_score=True, flip_the_leader=True), 12),
    4: (replace(_R, reverse_last_round=True), 12),
    5: (replace(_R, last_turn_score=True, no_flip_back=True), 12),
}


def _recommended(players: int) -> tuple[Variants, int]:
    v, bank = _RECOMMENDED_BASE[max(k for k in _RECOMMENDED_BASE if k <= players)]
    return replace(v, compensation=tuple(float(x) for x in COMPENSATION.get(players, ()))), bank


PRESETS: dict[str, dict[int, tuple[Variants, int]]] = {
    # name: {from this many players on: (variants, bank dice per player)}
    "as_written": {2: (AS_WRITTEN, 12)},
    "recommended": {n: _recommended(n) for n in range(2, 9)},
}
"""The two rule sets a table is offered; ``recommended`` is chosen from the balance study
(``docs/sixdice-balance.md``) and may differ with the number of players (its compensation
always does)."""


def preset(name: str, players: int) -> tuple[Variants, int]:
    """The variants and the bank per player of preset ``name`` for ``players`` players."""
    table = PRESETS[name]
    return table[max(k for k in table if k <= players)]


EARLIER_RECOMMENDED: dict[int, tuple[Variants, ...]] = {
    # The recommended rules of earlier versions (from the history of this file): a game played under them, or a
    # file exported then, still reads as played under the recommended rules of its day, not as house rules.
    2: (Variants(reverse_last_round=True), replace(_R, reverse_last_round=True, compensation=(0, 0.5))),
    3: (replace(_R, reverse_last_round=True), replace(_R, reverse_last_round=True, compensation=(0, 2.5, 1)),
        replace(_R, last_turn_score=True)),
    4: (replace(_R, last_turn_score=True), replace(_R, reverse_last_round=True),
        replace(_R, reverse_last_round=True, compensation=(0, 0.5, 0, 0)),
        replace(_R, reverse_last_round=True, compensation=(0, 1.5, 0.5, 0)),
        replace(_R, reverse_last_round=True, compensation=(0.5, 2, 0.5, 0))),
    5: (replace(_R, last_turn_score=True), replace(_R, last_turn_score=True, no_flip_back=True),
        replace(_R, last_turn_score=True, no_flip_back=True, compensation=(2, 2, 0.5, 0.5, 0))),
    6: (replace(_R, last_turn_score=True), replace(_R, last_turn_score=True, no_flip_back=True),
        replace(_R, last_turn_score=True, no_flip_back=True, compensation=(2, 1.5, 1.5, 1, 0.5, 0)),
        replace(_R, last_turn_score=True, no_flip_back=True, compensation=(1, 1, 1, 0, 0.5, 0))),
    7: (replace(_R, last_turn_score=True),
        replace(_R, last_turn_score=True, no_flip_back=True, compensation=(1.5, 1.5, 0, 0, 0, 0, 0)),
        replace(_R, last_turn_score=True, no_flip_back=True)),
    8: (replace(_R, last_turn_score=True), replace(_R, last_turn_score=True, no_flip_back=True),
        replace(_R, last_turn_score=True, no_flip_back=True, compensation=(2, 2, 1.5, 0, 0.5, 0, 0, 0))),
}


def preset_of(variants: Variants, bank_per_player: float, players: int) -> str:
    """The preset that these rules are for ``players`` players (``"custom"`` when none); the recommended
    rules of an earlier version count as ``"recommended"``."""
    for name in PRESETS:
        if preset(name, players) == (variants, bank_per_player):
            return name
    if bank_per_player == preset("recommended", players)[1] and variants in EARLIER_RECOMMENDED.get(players, ()):
        return "recommended"
    return "custom"


PRESET_FIGURES: dict[str, dict[str, str]] = {
    # What the new-table form says of each preset: 4 greedy bots, from docs/sixdice-balance.md
    # (``python -m sixdice.lab.study --report``); copied by hand when the study runs again.
    "as_written": {"players": "4", "games": "1000", "seats": "16–40%", "bank": "52%", "threes": "18%"},
    "recommended": {"players": "4", "games": "1000", "seats": "21–27%", "bank": "1%", "threes": "15%"},
}
