"""Plural forms for strings that scripts fill with a live number.

A script cannot run gettext's plural formula, but every browser has
``Intl.PluralRules``, which names the plural category of a number in the
page's language (``one``, ``few``, ``many``, ``other`` ...).  For each string
we send the translation for one sample number of every category, and the
script picks by category: Ukrainian gets "1 кубик", "2 кубики", "5 кубиків".

The strings are the tables' own (:data:`FORMS`) and each registered game's
(its presentation's ``plural_forms``): the tables never name a game's words.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import ngettext

from sixdice.gamekit.engine import REGISTRY

# A number from each CLDR plural category, for the languages we support.
CATEGORY_SAMPLES = {"zero": 0, "one": 1, "two": 2, "few": 3, "many": 5, "other": 10}

FORMS: dict[str, Callable[[int], str]] = {
    "dice_count": lambda n: ngettext("%(n)s die", "%(n)s dice", n),
}
"""The strings every table page may count with, whatever the game."""


def all_forms() -> dict[str, Callable[[int], str]]:
    """The tables' forms and every registered game's, by key (a game's key never replaces the tables' own)."""
    forms: dict[str, Callable[[int], str]] = {}
    for engine in REGISTRY.values():
        forms.update(engine.presentation.plural_forms(ngettext))
    return {**forms, **FORMS}


def plural_table() -> dict[str, dict[str, str]]:
    """Every string's form per plural category, in the active language (``%(n)s`` left in)."""
    return {key: {cat: form(n) for cat, n in CATEGORY_SAMPLES.items()} for key, form in all_forms().items()}
