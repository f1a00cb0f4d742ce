"""Template helpers for the table pages."""

from __future__ import annotations

import html
import json

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

from sixdice.tables.core.plural_forms import plural_table

register = template.Library()


@register.simple_tag
def plural_strings(element_id: str = "plurals") -> SafeString:
    """The plural forms scripts need, as ``<script type="application/json">`` (see ``core/plural_forms.py``)."""
    return json_script(plural_table(), element_id)


@register.filter(is_safe=True)
def json_strings(block: str, element_id: str) -> SafeString:
    """Turn a block of translated strings into a safe ``<script type="application/json">``.

    Templates write the strings for scripts as a JSON object whose values are
    ``{% translate %}`` tags, so ``makemessages`` finds them.  Autoescaping
    turns quotes and apostrophes inside translations into HTML entities; this
    reads the object, restores the real characters and writes it out with
    Django's ``json_script`` (which escapes what a script element must not hold).
    """
    strings = {key: html.unescape(value) for key, value in json.loads(block).items()}
    return json_script(strings, element_id)
