"""Translated strings handed to scripts survive quotes, apostrophes and markup."""

from __future__ import annotations

import json
import re

from django.template import Context, Template


def test_json_strings_restores_quotes_and_escapes_markup():
    template = Template(
        '{% load tables %}{% filter json_strings:"t" %}{"a": "{{ a }}", "b": "{{ b }}"}{% endfilter %}'
    )
    html = template.render(Context({"a": "l'application \"dit\"", "b": "</script><b>"}))
    assert html.startswith('<script id="t" type="application/json">')
    body = re.search(r">(.*)</script>$", html, re.S).group(1)
    assert "</script>" not in body
    assert json.loads(body) == {"a": "l'application \"dit\"", "b": "</script><b>"}


def test_plural_forms_per_category_in_ukrainian():
    from django.utils import translation

    from sixdice.tables.core.plural_forms import plural_table

    with translation.override("uk"):
        forms = plural_table()["bank"]
    # Intl.PluralRules("uk") names 1 "one", 2-4 "few", 5-20 "many".
    assert forms["one"] == "Банк: %(n)s кубик"
    assert forms["few"] == "Банк: %(n)s кубики"
    assert forms["many"] == "Банк: %(n)s кубиків"
    with translation.override("en"):
        forms = plural_table()["dice_count"]
    assert (forms["one"], forms["other"]) == ("%(n)s die", "%(n)s dice")


def test_each_games_plural_keys_are_its_own():
    """The page gets one table of every game's plural strings: no game's key shadows another's or the tables' own."""
    from django.utils.translation import ngettext

    from sixdice.gamekit.engine import REGISTRY
    from sixdice.tables.core.plural_forms import FORMS, plural_table

    seen = set(FORMS)
    for engine in REGISTRY.values():
        keys = set(engine.presentation.plural_forms(ngettext))
        assert not keys & seen, f"{engine.slug} reuses {keys & seen}"
        seen |= keys
    assert set(plural_table()) == seen and "bank" in seen  # Six-Dice's bank, from its presentation
