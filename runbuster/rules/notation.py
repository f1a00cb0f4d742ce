"""How straights, rolls and actions are written for people."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sixdice.gamekit.notation import gettext_noop, part

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal_part(n: int) -> dict[str, Any]:
    """A place as a part: ``1st``, ``2nd``, ``3rd``, ``4th``... (places go up to 7)."""
    if n == 1:
        return part(gettext_noop("1st"))
    if n == 2:
        return part(gettext_noop("2nd"))
    if n == 3:
        return part(gettext_noop("3rd"))
    return part(gettext_noop("%(n)sth"), n=n)


def fmt_straight(straight: Iterable[int]) -> str:
    """``(1, 2, 3, 4)`` -> ``"1-2-3-4"``; the empty hand is ``"—"``."""
    s = tuple(straight)
    return "-".join(map(str, s)) if s else "—"


def fmt_roll(values: Iterable[int]) -> str:
    """``[6, 1, 3]`` -> ``"1 3 6"`` (sorted, as people read dice)."""
    return " ".join(map(str, sorted(values)))


def ordinal(n: int) -> str:
    """``1`` -> ``"1st"``, ``12`` -> ``"12th"``."""
    if 10 <= n % 100 <= 20 or n % 10 not in ORDINALS:
        return f"{n}th"
    return f"{n}{ORDINALS[n % 10][1:]}"


def parse_straight(text: str) -> tuple[int, ...]:
    """``"3-4-5"``, ``"345"`` or ``"3 4 5"`` -> ``(3, 4, 5)``; ``"—"``/``""`` -> ``()``."""
    digits = [int(c) for c in text if c.isdigit()]
    return tuple(digits)
