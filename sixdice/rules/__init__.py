"""Six-Dice rules: pure Python, no Django, no I/O, no global randomness.

See docs/sixdice-engine.md for the API and the action and state JSON shapes.
"""

from .balance import (
    Flip,
    Grouping,
    IllegalGrouping,
    check_grouping,
    default_keep,
    group_hand,
    groupings,
    is_all_threes,
    keep_options,
    legal_flips,
    max_zero_groups,
)
from .dice import FACES, ZERO_GROUPS, fmt_dice, fmt_group
from .game import (
    Hand,
    IllegalAction,
    Pending,
    State,
    apply,
    default_action,
    legal_actions,
    new_game,
    position,
    random_flip,
    roll_action,
)
from .notation import describe, describe_parts

__all__ = [
    "FACES",
    "ZERO_GROUPS",
    "Flip",
    "Grouping",
    "Hand",
    "IllegalAction",
    "IllegalGrouping",
    "Pending",
    "State",
    "apply",
    "check_grouping",
    "default_action",
    "default_keep",
    "describe",
    "describe_parts",
    "fmt_dice",
    "fmt_group",
    "group_hand",
    "groupings",
    "is_all_threes",
    "keep_options",
    "legal_actions",
    "legal_flips",
    "max_zero_groups",
    "new_game",
    "position",
    "random_flip",
    "roll_action",
]
