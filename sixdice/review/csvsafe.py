"""CSV that spreadsheets open safely: no formulas run, accents survive, one cell per value.

* A text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
  return is written with a leading ``'`` (OWASP's advice against CSV
  injection), so ``=HYPERLINK(...)`` in a player's name stays text.
* The file starts with a UTF-8 byte order mark: Excel then reads Chloé and
  Олег as they are.
* Numbers stay numbers; every other value is quoted by :mod:`csv` when needed.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

BOM = "\ufeff"
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` as a cell that never starts a formula."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, str):
        return value
    if value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


def write_csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """The whole file: the BOM, the header, then each row with every cell made safe."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out)
    writer.writerow([safe_cell(h) for h in header])
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()
