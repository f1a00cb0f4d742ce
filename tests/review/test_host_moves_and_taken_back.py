"""The summary lists every host decision, marked when taken back; the Events list strikes taken-back moves and
filters by the players' names (issue 39: "The host, for a seat 3 … 2 (moves 9, 40)" listed two of three and did not
say move 9 was taken back; the Events list did not strike it; its filter said "Seat 1 … Seat 8")."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from sixdice.gamekit.replay import undone_by

from .conftest import page_text, play
from .desk_games import host_typed_game

pytestmark = pytest.mark.django_db


def test_the_summary_lists_every_host_move_and_marks_the_one_taken_back(staff):
    game, typed = host_typed_game()
    events = list(game.events.order_by("seq"))
    host_moves = [e.seq for e in events if e.actor == "host" and e.action.get("type") != "undo"]
    gone = undone_by((e.actor, e.action) for e in events)
    assert set(typed) <= set(host_moves) and any(seq in gone for seq in host_moves)
    page = staff.get(reverse("admin:tables_game_change", args=[game.pk])).content.decode()
    listed = page[page.index('id="host-moves"'):]
    listed = listed[:listed.index("</p>")]
    assert [int(n) for n in re.findall(r"#step-(\d+)", listed)] == host_moves  # every one, in order
    for seq in host_moves:
        marked = re.search(rf'#step-{seq}"[^>]*>(<s>)?{seq}(</s>)?</a>( <span class="taken-back">\(taken back\))?',
                           listed)
        assert marked, seq
        assert bool(marked.group(1)) == bool(marked.group(3)) == (seq in gone), seq
    assert f"The host's {len(host_moves)} moves, for a seat:" in page_text(listed)


def test_the_events_list_strikes_taken_back_moves_and_filters_by_names(staff):
    game, _typed = host_typed_game()
    other = play("runbuster", ("Chloé", "Dev"), seed=8)
    events = list(game.events.order_by("seq"))
    gone = undone_by((e.actor, e.action) for e in events)
    url = reverse("admin:tables_event_changelist")
    page = staff.get(url, {"game": game.pk}).content.decode()
    rows = re.findall(r'<tr[^>]*>.*?</tr>', page, re.S)
    struck = {int(m.group(1)) for row in rows if '<s class="undone">' in row
              for m in [re.search(r'class="field-seq"><a [^>]*>(\d+)</a>', row)] if m}
    assert struck == set(gone) and struck
    assert "undone by the host at move" in page
    filters = page[page.index('id="changelist-filter"'):]
    assert "Ana (seat 1)</a>" in filters and "Bo (seat 2)</a>" in filters and "Seat 1</a>" not in filters
    everything = staff.get(url).content.decode()
    filters = everything[everything.index('id="changelist-filter"'):]
    for name in ("Ana", "Bo", "Chloé", "Dev"):
        assert f"{name}</a>" in filters
    assert "Seat 1</a>" not in filters and "Seat 8</a>" not in filters
    chloe = staff.get(url, {"actor": "@Chloé"})
    assert chloe.status_code == 200
    shown = chloe.context["cl"].result_list
    assert shown and {(e.game_id, e.actor) for e in shown} == {(other.pk, "0")}
    assert staff.get(url, {"actor": "@Nobody"}).context["cl"].result_count == 0

