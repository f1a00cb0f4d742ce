"""Models built from a plain database row, converted as the ORM converts it, without the ORM's per-row cost.

The connect path and the move path each read what they need in one plain
statement (``docs/performance.md``); this is how they turn its columns into
model instances.  Fields not read stay deferred, as after ``.only()``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connection, models
from django.db.backends.base.base import BaseDatabaseWrapper

M = TypeVar("M", bound=models.Model)


def ordered(model: type[models.Model], names: Sequence[str]) -> tuple[str, ...]:
    """``names`` (attnames) in the model's field order, as :meth:`Model.from_db` takes a row's values."""
    order = [f.attname for f in model._meta.concrete_fields]
    return tuple(sorted(names, key=order.index))


def columns(alias: str, model: type[models.Model], names: Sequence[str]) -> str:
    return ", ".join(f"{alias}.{field(model, name).column}" for name in names)


def field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    found = model._meta.get_field(name)
    assert isinstance(found, models.Field)
    return found


@functools.cache
def reader(
    alias: str, vendor: str, model: type[models.Model], names: tuple[str, ...],
) -> tuple[list[Any], tuple[int, ...], tuple[tuple[Any, list[Any]] | None, ...]]:
    """How to build ``model`` from a row of ``names``: the model's row with every field deferred, where each
    name goes in it, and the ORM's own converters of each column's values (JSON, dates, booleans on SQLite).

    Looked up once per database and columns: finding the converters is most of what the ORM spends
    converting a row.
    """
    fields = [f.attname for f in model._meta.concrete_fields]
    converters: list[tuple[Any, list[Any]] | None] = []
    for name in names:
        column = field(model, name).get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        converters.append((column, found) if found else None)
    return [models.DEFERRED] * len(fields), tuple(fields.index(name) for name in names), tuple(converters)


def from_db(model: type[M], names: tuple[str, ...], values: Sequence[Any], db: BaseDatabaseWrapper) -> M:
    """An instance from a plain row's ``values`` of ``names``, each converted as the ORM converts it.

    The model's other fields are deferred (:meth:`Model.from_db`): reading
    one loads it with a query, as after ``.only()``; none is read on the
    connect path.  ``db``: the connection itself, not Django's proxy to
    this thread's (each look through the proxy costs a thread-local lookup).
    """
    deferred, slots, converters = reader(db.alias, db.vendor, model, names)
    row = list(deferred)
    for value, slot, conv in zip(values, slots, converters, strict=True):
        if conv is not None and value is not None:
            column, functions = conv
            for function in functions:
                value = function(value, column, db)
        row[slot] = value
    return model.from_db(db.alias, names, row)
