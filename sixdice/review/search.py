"""Admin searches over names that ignore case and accents, on SQLite and on PostgreSQL.

The profiles already search this way: a name is compared in its
:func:`~sixdice.players.text.search_key` form (case-folded, accents stripped),
so ``joão`` finds João and ``RENÉE`` finds Renée.  Profiles keep that form in
a column; games, seats, events and notes are not the players app's and are
written in bulk (an import, the ledger), so here the stored text is folded
when searched instead:

* SQLite: the function ``sixdice_fold`` (and ``sixdice_fold_json`` for a JSON
  list of names, which SQLite stores with non-ASCII letters escaped) is
  registered on every connection and calls that same ``search_key``;
* PostgreSQL: ``unaccent(lower(text))`` (the ``unaccent`` extension, created
  by the review app's migration ``0006_unaccent``; ``jsonb`` read as text keeps
  its letters as they are).

The words typed are folded with ``search_key`` on both.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.db.models import Expression, F, Func, Q, QuerySet, TextField
from django.http import HttpRequest
from django.utils.text import smart_split, unescape_string_literal

from sixdice.players.text import search_key


def fold(value: Any) -> str | None:
    """``search_key`` of a stored text (SQLite's ``sixdice_fold``)."""
    return None if value is None else search_key(str(value))


def fold_json(value: Any) -> str | None:
    """The strings of a stored JSON value, folded and joined (SQLite's ``sixdice_fold_json``)."""
    if value is None:
        return None
    try:
        data = json.loads(value)
    except (TypeError, ValueError):
        return fold(value)
    items = data if isinstance(data, list) else [data]
    return " / ".join(search_key(item) for item in items if isinstance(item, str))


def register_sqlite_functions(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created``: give a new SQLite connection the two folding functions."""
    if connection.vendor != "sqlite":
        return
    connection.connection.create_function("sixdice_fold", 1, fold, deterministic=True)
    connection.connection.create_function("sixdice_fold_json", 1, fold_json, deterministic=True)


class Fold(Func):
    """A text column without case or accents (see the module's docstring)."""

    function = "sixdice_fold"
    output_field = TextField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, template="unaccent(lower((%(expressions)s)::text))", **extra)


class FoldJson(Fold):
    """A JSON list of names, folded: ``Game.players``."""

    function = "sixdice_fold_json"


def terms(search: str) -> list[str]:
    """The words of a search box, as Django's admin splits them (quotes keep words together), folded."""
    out = []
    for bit in smart_split(search):
        if bit[:1] in ('"', "'") and bit[-1:] == bit[:1] and len(bit) > 1:
            bit = unescape_string_literal(bit)
        folded = search_key(bit)
        if folded:
            out.append(folded)
    return out


def folded_search(queryset: QuerySet, search: str, fields: Sequence[str], json_fields: Sequence[str] = ()) -> QuerySet:
    """The rows where every word of ``search`` is in one of ``fields`` (or ``json_fields``), case and accents aside."""
    words = terms(search)
    if not words:
        return queryset
    folded: dict[str, Expression] = {}
    for i, path in enumerate(fields):
        folded[f"_fold{i}"] = Fold(F(path))
    for i, path in enumerate(json_fields):
        folded[f"_foldj{i}"] = FoldJson(F(path))
    queryset = queryset.alias(**folded)
    for word in words:
        match = Q()
        for name in folded:
            match |= Q(**{f"{name}__contains": word})
        queryset = queryset.filter(match)
    return queryset


class FoldedSearchMixin:
    """A ModelAdmin whose search box ignores case and accents: ``folded_search_fields`` (text) and
    ``folded_json_fields`` (JSON lists of names) are searched; ``search_fields`` only turns the box on."""

    folded_search_fields: Sequence[str] = ()
    folded_json_fields: Sequence[str] = ()

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str) -> tuple[QuerySet, bool]:
        if not search_term.strip():
            return queryset, False
        return folded_search(queryset, search_term, self.folded_search_fields, self.folded_json_fields), False
