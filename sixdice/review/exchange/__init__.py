"""Export a game as one JSON document, and import such a document again (``docs/export-format.md``).

One module per job: :mod:`.export` (the document and its signature), :mod:`.csv_table` (the games list as a
spreadsheet), :mod:`.checks` (a document checked, an older version upgraded first) and :mod:`.importing` (checked
games written, all or none).  The names below are the package's public API, used as ``exchange.export_game``.
"""

from .checks import ImportRefused, NotSigned, load, upgrade
from .csv_table import CSV_COLUMNS, games_csv
from .export import (
    CHANGED,
    FORMAT,
    UNSIGNED,
    VERIFIED,
    VERSION,
    Document,
    dumps,
    export_game,
    sign,
    signature_of,
)
from .importing import import_documents, import_text

__all__ = [
    "CHANGED", "CSV_COLUMNS", "FORMAT", "UNSIGNED", "VERIFIED", "VERSION", "Document", "ImportRefused", "NotSigned",
    "dumps",
    "export_game", "games_csv", "import_documents", "import_text", "load", "sign", "signature_of", "upgrade",
]
