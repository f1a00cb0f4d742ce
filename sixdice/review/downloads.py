"""Names of downloaded files, and reading an uploaded export for the admin's import.

A download is named for its game, table and day on the club's calendar
(``sixdice-887PK-2026-12-01.json``; a rematch adds its number,
``…-2026-12-01-game2.json``), so a folder of exports sorts by table and date.
Several games at once are named for what they share (one game's name, one
table's code, one day) and otherwise say how many tables and which days.

An upload is checked exactly as ``manage.py import_game`` checks a file: read
with the same size bound, parsed by :func:`sixdice.review.exchange.load`,
imported by :func:`sixdice.review.exchange.import_documents` (all or
nothing).  A zip (the admin's "zip, one JSON file per game" export) is read
member by member under the same bounds, and its games imported together.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable
from typing import IO, Any

from django.utils.translation import gettext

from sixdice.tables.models import Game

from . import exchange, limits
from .local_time import local_date


def game_filename(game: Game, ext: str = "json") -> str:
    """``sixdice-887PK-2026-12-01.json``: the game's slug, its table, the day it began (club's time zone)."""
    day = local_date(game.started_at)
    number = "" if game.number == 1 else f"-game{game.number}"
    return f"{game.engine}-{game.table.code}-{day.isoformat() if day else 'undated'}{number}.{ext}"


def games_filename(games: Iterable[Game], ext: str) -> str:
    """One name for several games: what they share, else how many tables and the first and last day."""
    games = list(games)
    if len(games) == 1:
        return game_filename(games[0], ext)
    slugs = sorted({g.engine for g in games})
    codes = sorted({g.table.code for g in games})
    days = sorted(d for d in (local_date(g.started_at) for g in games) if d is not None)
    kind = slugs[0] if len(slugs) == 1 else "games"
    where = codes[0] if len(codes) == 1 else f"{len(codes)}-tables"
    when = "undated" if not days else days[0].isoformat() if days[0] == days[-1] else \
        f"{days[0].isoformat()}_{days[-1].isoformat()}"
    return f"{kind}-{where}-{when}.{ext}"


def attachment(name: str) -> str:
    """A ``Content-Disposition`` value for ``name`` (made of slugs, codes and digits: nothing to escape)."""
    return f'attachment; filename="{name}"'


class UploadRefused(ValueError):
    """An upload that is not an export; the message is one line for a person, in the active language."""


def documents(upload: IO[bytes]) -> list[Any]:
    """The game documents of an uploaded file: one JSON export (one game or a list) or a zip of JSON exports.

    Raises :class:`sixdice.review.exchange.ImportRefused` (the import's own checks), :class:`UploadRefused`
    or :class:`sixdice.review.limits.TooLarge`.
    """
    raw = limits.read_bounded(upload)
    if not raw.startswith(b"PK"):
        return exchange.load(raw)
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, OSError):
        raise UploadRefused(gettext("The file is neither a JSON export nor a zip of them.")) from None
    docs: list[Any] = []
    total = 0
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir()]
        if not members:
            raise UploadRefused(gettext("The zip file holds no file."))
        if len(members) > limits.MAX_DOCUMENTS:
            raise UploadRefused(gettext("The zip file holds %(n)s files; at most %(max)s are read.")
                                % {"n": len(members), "max": limits.MAX_DOCUMENTS})
        for member in members:
            if not member.filename.lower().endswith(".json"):
                raise UploadRefused(gettext("%(name)s in the zip file is not a JSON export.")
                                    % {"name": member.filename})
            try:
                with archive.open(member) as fh:  # read within the bound whatever the zip claims
                    data = limits.read_bounded(fh, limits.MAX_FILE_BYTES - total)
            except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError):
                raise UploadRefused(gettext("%(name)s in the zip file cannot be read.")
                                    % {"name": member.filename}) from None
            total += len(data)
            docs.extend(exchange.load(data))
    return docs
