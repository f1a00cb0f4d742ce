"""``{{ rate|percent }}``: a rate (0 to 1) as a percentage, rounded as people round, in the page's language."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext

register = template.Library()


@register.filter
def percent(value: float | None, digits: int = 0) -> str:
    """A rate as a percentage, rounded as people round (2 of 3 is 67%, a half goes up), in the active language's
    format (67 % in French, 67% in English); ``digits`` after the decimal sign (the solver's exact chance: 2)."""
    if value is None:
        return "–"
    rounded = (Decimal(repr(value)) * 100).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return gettext("{number}%").format(number=number_format(rounded, digits, use_l10n=True))
