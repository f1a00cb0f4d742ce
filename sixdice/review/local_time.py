"""Times in the club's time zone (``TIME_ZONE``, see the README's settings), each labelled with that zone.

A reviewer reads "21:14" as the time on the club's wall clock: every time the
review desk shows is converted to that zone and says which zone it is in, a
column by its heading, a lone time by a suffix.  The date filters (Today,
Yesterday, the past 7 days) count days in that zone too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.utils import formats, timezone
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, gettext_noop


def zone() -> str:
    """The zone times are shown in (the current one: ``TIME_ZONE`` unless a request activated another)."""
    return timezone.get_current_timezone_name()


def local(value: dt.datetime | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """``value`` on the club's clock, without the zone (for a column whose heading names it); "—" for none."""
    if value is None:
        return "—"
    return timezone.localtime(value).strftime(fmt)


def labelled(value: dt.datetime | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """``value`` on the club's clock with its zone: "2026-12-01 21:14 (Europe/Lisbon)"."""
    if value is None:
        return "—"
    return f"{local(value, fmt)} ({zone()})"


def spoken(value: dt.datetime | None, fmt: str = "DATETIME_FORMAT") -> str:
    """``value`` on the club's clock in the active language's own format, with its zone:
    "4 décembre 2026 17:18 (Europe/Kyiv)" in French, "Dec. 4, 2026, 5:18 p.m. (Europe/Kyiv)" in English; "" for none.

    ``fmt`` is one of Django's format names (``SHORT_DATETIME_FORMAT``, ``DATETIME_FORMAT``) or a format string.
    """
    if value is None:
        return ""
    return gettext("%(time)s (%(zone)s)") % {"time": formats.date_format(timezone.localtime(value), fmt),
                                             "zone": zone()}


def heading(label: str) -> str:
    """A column heading that names the zone of its times: "Started (Europe/Lisbon)".

    A zero-width space after each "/" lets a long zone name wrap in a narrow column.
    """
    return gettext("%(label)s (%(zone)s)") % {"label": label, "zone": zone().replace("/", "/\u200b")}


def zoned_heading(label: str) -> Any:
    """:func:`heading` worked out when shown (the language and zone of the request): a column's description."""
    return lazy(lambda: heading(gettext(label)), str)()


def club_time(field: str, label: str, *, seconds: bool = False, sortable: bool = True) -> Callable[[Any, Any], str]:
    """An admin column (or read-only field) that shows the model's time ``field`` on the club's clock, its heading
    ``label`` (marked with ``gettext_noop``) naming the zone: ``joined_local = club_time("joined_at", "joined")``."""

    @admin.display(description=zoned_heading(label), ordering=field if sortable else None)
    def column(model_admin: Any, obj: Any) -> str:
        return local(getattr(obj, field), "%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")

    column.__name__ = column.__qualname__ = f"{field}_local"
    return column


def local_date(value: dt.datetime | None) -> dt.date | None:
    """The day of ``value`` on the club's calendar (downloads are named by it)."""
    return timezone.localdate(value) if value is not None else None


#: The date filters' titles, by field (the models' own field names are not translated).
DATE_TITLES = {"started_at": gettext_noop("started at"), "created_at": gettext_noop("created at"),
               "joined_at": gettext_noop("joined at")}


class LocalDateFilter(admin.DateFieldListFilter):
    """Django's date filter, in the club's days, with "Yesterday" after "Today", its title naming the zone."""

    def __init__(self, field, request, params, model, model_admin, field_path):
        super().__init__(field, request, params, model, model_admin, field_path)
        today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
        yesterday = (today - dt.timedelta(days=1), today)
        links = list(self.links)
        links.insert(2, (gettext_lazy("Yesterday"), {self.lookup_kwarg_since: yesterday[0],
                                                    self.lookup_kwarg_until: yesterday[1]}))
        self.links = tuple(links)
        self.title = heading(gettext(DATE_TITLES[field_path]) if field_path in DATE_TITLES else str(self.title))
