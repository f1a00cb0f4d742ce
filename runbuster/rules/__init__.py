"""Run Buster rules: pure Python, no Django, no I/O, no global random state.

See ``docs/runbuster-engine.md`` for the API, the JSON shapes and the
rulings this package follows.
"""

from .bots import POLICIES, bot_action, choose_straight, heuristic_scores, solver_scores, suggestion
from .game import (
    CHOOSE,
    END_TURN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROLL,
    IllegalAction,
    State,
    apply,
    legal_actions,
    new_game,
    replay,
)
from .notation import fmt_roll, fmt_straight, ordinal, parse_straight
from .series import RoundResult, Tally, next_first
from .solver import best_option, rank_options, solve, win_probability
from .straights import (
    FULL,
    HANDS,
    STRAIGHTS,
    as_hand,
    bust_chance,
    busts,
    complement,
    cup_size,
    hand_options,
    is_straight,
    roll_dice,
    roll_masks,
)

__all__ = [
    "CHOOSE",
    "END_TURN",
    "FULL",
    "HANDS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "POLICIES",
    "ROLL",
    "STRAIGHTS",
    "IllegalAction",
    "RoundResult",
    "State",
    "Tally",
    "apply",
    "as_hand",
    "best_option",
    "bot_action",
    "bust_chance",
    "busts",
    "choose_straight",
    "complement",
    "cup_size",
    "fmt_roll",
    "fmt_straight",
    "hand_options",
    "heuristic_scores",
    "is_straight",
    "legal_actions",
    "new_game",
    "next_first",
    "ordinal",
    "parse_straight",
    "rank_options",
    "replay",
    "roll_dice",
    "roll_masks",
    "solve",
    "solver_scores",
    "suggestion",
    "win_probability",
]
