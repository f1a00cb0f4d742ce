"""Names made searchable in every script: NFKD, case-folded, accents stripped."""

from __future__ import annotations

import unicodedata


def search_key(text: str) -> str:
    """The form a name is stored and searched in: ``search_key("Inês") == search_key("INES")``.

    >>> search_key("Олена"), search_key("Inês"), search_key("Françoise"), search_key("Ĳsbrand")
    ('олена', 'ines', 'francoise', 'ijsbrand')
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(unicodedata.normalize("NFKC", stripped).casefold().split())
