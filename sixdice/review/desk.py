"""The review page of one game: its summary and one page of its event log, the view model of the admin's game page.

Worked out from one replay of the log per page (:func:`replayed`, kept on the game object the page shows); the log
is paged by Django's :class:`~django.core.paginator.Paginator`, ``?log=<page>``, :data:`LOG_PAGE` moves a page
(the whole log: the Events list, filtered to the game).
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from sixdice.gamekit.engine import REGISTRY
from sixdice.gamekit.replay import is_undo, undone_by
from sixdice.tables.models import Event, Game

from .decisions import decisions
from .local_time import heading, local
from .steps import actor_name, replay_steps, undone_text
from .summary import step_url, summarise
from .tablelog import bots_by_event

LOG_PAGE = 25
"""Events per page of a game's log on its admin page (the whole log: the Events list, filtered to the game)."""


def replayed(game: Game) -> tuple[list[Event], list[Any]]:
    """The game's events and replay steps, worked out once per page (kept on the game object the page shows)."""
    cached = vars(game).get("_review_replay")
    if cached is None:
        events = list(game.events.order_by("seq"))
        cached = (events, replay_steps(game, events) if game.engine in REGISTRY else [])
        vars(game)["_review_replay"] = cached
    return cached


def _at_least_one(raw: str | None) -> str | int | None:
    """``?log=`` as the paginator takes it; a page before the first is the first (one past the last: the last)."""
    try:
        return max(int(raw or ""), 1)
    except ValueError:
        return raw  # not a number: the paginator shows the first page


def review_desk(game: Game, raw_page: str | None) -> dict[str, Any]:
    """The game page's summary and one page of its log (``?log=<page>``: a page that is not one shows the nearest)."""
    events, steps = replayed(game)
    engine = REGISTRY.get(game.engine)
    made = decisions(engine, steps, bots_by_event(game, events), game.players) if engine else []
    summary = summarise(game, engine, events, steps, made) if engine else None
    paginator = Paginator(events, LOG_PAGE, allow_empty_first_page=True)
    page = paginator.get_page(_at_least_one(raw_page))
    shown = list(page.object_list)
    gone = undone_by((e.actor, e.action) for e in events)
    rows = []
    for e in shown:
        d = made[e.seq - 1] if e.seq - 1 < len(made) else None
        default: SafeString | str = ""
        if d is not None and d.default is not None and not is_undo(e.action):
            default = format_html('<strong class="differs">≠ {}</strong>', d.default_text) if d.differs else \
                mark_safe('<span class="same">= {}</span>'.format(gettext("default")))  # noqa: S308 - our words
        line = steps[e.seq].line() if e.seq < len(steps) else e.text
        undo = gone.get(e.seq)
        rows.append({
            "seq": e.seq, "url": step_url(game, e.seq), "line": line, "time": local(e.created_at, "%H:%M:%S"),
            "who": d.label(game.players) if d else actor_name(e.actor, game.players),
            "kind": d.kind if d else "", "default": default,
            "undone": undone_text(events[undo - 1].actor, events[undo - 1].action, undo, game.players) if undo else "",
            "undone_url": step_url(game, undo) if undo else "",
        })
    return {
        "summary": summary,
        "log": {
            "rows": rows, "page": page.number, "pages": paginator.num_pages,
            "first": page.start_index(), "last": page.end_index(), "total": paginator.count,
            "previous": page.previous_page_number() if page.has_previous() else None,
            "next": page.next_page_number() if page.has_next() else None,
            "page_links": list(paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1)),
            "gap": Paginator.ELLIPSIS,
            "events_url": reverse("admin:tables_event_changelist") + f"?game={game.pk}",
            "time_heading": heading(gettext("time")),
        },
    }
