"""Names at one table must not look alike: Unicode TR39-style skeletons.

Two names collide when their skeletons are equal.  A skeleton is the name
NFKC-normalised (fullwidth ``Ａｎａ`` becomes ``Ana``), case-folded, with
invisible characters dropped, and each character replaced by one
representative of its confusable class from the Unicode confusables data
shipped with ``confusable_homoglyphs`` (Cyrillic ``А`` and Latin ``A`` both
become ``A``), then NFD-normalised.  Names made only of invisible fillers
(U+3164 and the like) are refused outright.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables

# Default_Ignorable_Code_Point characters that Python counts as printable (letters such as U+3164).
_INVISIBLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)


def is_invisible(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in _INVISIBLE_RANGES)


def has_invisible(name: str) -> bool:
    return any(is_invisible(ch) for ch in name)


@lru_cache(maxsize=4096)
def _prototype(ch: str) -> str:
    """One representative of ``ch``'s confusable class: the smallest code point among it and its homoglyphs."""
    data = confusables.confusables_data.get(ch)
    if not data:
        return ch
    candidates = [ch] + [h["c"] for h in data if len(h["c"]) == 1]
    return min(candidates, key=ord)


def skeleton(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(ch for ch in text if not is_invisible(ch) and not ch.isspace())
    text = "".join(_prototype(ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", "".join(_prototype(ch) for ch in text.casefold()))  # again: a prototype may be upper case


def confusable_with(name: str, others: list[str]) -> str | None:
    """The first of ``others`` that looks like ``name``, or ``None``."""
    mine = skeleton(name)
    return next((other for other in others if skeleton(other) == mine), None)
