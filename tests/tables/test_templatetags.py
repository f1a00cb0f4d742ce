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
