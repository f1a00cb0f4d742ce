"""The review desk: a game's page answers the reviewer first, times in the club's zone, people found by name,
readable fields, only buttons that work, imports through the admin, downloads named for table and day."""

from __future__ import annotations

import csv
import html as html_lib
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.replay import is_undo, undone_by
from sixdice.review import exchange
from sixdice.review.decisions import decisions
from sixdice.review.desk import LOG_PAGE
from sixdice.review.local_time import local
from sixdice.review.models import ImportMark, ReviewNote, note_of, save_note
from sixdice.review.steps import replay_steps
from sixdice.review.summary import CORRECTION, TAKE_BACK, UNDO, summarise
from sixdice.review.tablelog import bots_by_event
from sixdice.tables.models import Event, Game, Seat, Table
from sixdice.tables.writes import services
from tests.load.infra import ROOT

from .conftest import play
from .desk_games import corrected_game, undone_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss():
    return get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-for-tests-1",
                                                     first_name="Bea", last_name="Oss")


@pytest.fixture
def staff(client, boss):
    client.force_login(boss)
    return client


@pytest.fixture
def corrected(db) -> Game:
    return corrected_game()


def _page(client: Client, game: Game, **params: str) -> str:
    response = client.get(reverse("admin:tables_game_change", args=[game.pk]), params)
    assert response.status_code == 200
    return response.content.decode()


def _section(page: str, marker: str) -> str:
    """The HTML from ``marker`` to the end of its <section>."""
    start = page.index(marker)
    return page[start:page.index("</section>", start)]


def _text(fragment: str) -> str:
    """What a reader sees of an HTML fragment: its words, one space apart, no space inside brackets."""
    text = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())
    return re.sub(r"\(\s+", "(", re.sub(r"\s+([),;.:])", r"\1", text))


def _results(page: str) -> str:
    """The result table of an admin list."""
    start = page.index('id="result_list"')
    return page[start:page.index("</table>", start)]


def _summary(game: Game):
    engine = get_engine(game.engine)
    events = list(game.events.order_by("seq"))
    steps = replay_steps(game, events)
    made = decisions(engine, steps, bots_by_event(game, events), game.players)
    return summarise(game, engine, events, steps, made), events, made


# ---------------------------------------------------------------- the summary


def test_the_summary_names_the_correction_with_its_old_and_new_values_and_what_it_took_back(corrected):
    summary, events, _made = _summary(corrected)
    engine = get_engine("sixdice")
    [fix] = [f for f in summary.fixes if f.kind == CORRECTION]
    undo = events[fix.line.seq - 1]
    roll, again = events[undo.action["corrects"] - 1], events[undo.seq]
    faces = [engine.presentation.die_face(v).text for v in roll.action["values"]]
    assert fix.old == " ".join(faces) and fix.new == " ".join(engine.presentation.die_face(v).text
                                                                  for v in again.action["values"])
    assert fix.old != fix.new and fix.who == "Host" and fix.roll is not None and fix.roll.seq == roll.seq
    assert fix.new_roll is not None and fix.new_roll.seq == undo.seq + 1
    code = corrected.table.code
    assert fix.line.url == f"/t/{code}/replay/1/#step-{undo.seq}"
    assert fix.roll.url == f"/t/{code}/replay/1/#step-{roll.seq}"
    taken = [t.line.seq for t in fix.taken]
    assert taken == list(range(roll.seq, undo.seq))  # everything from the roll to the correction
    for t in fix.taken:  # a move made again is the same seat's same action, after the correction
        if t.again is not None:
            first, second = events[t.line.seq - 1], events[t.again.seq - 1]
            assert (first.actor, first.action) == (second.actor, second.action) and second.seq > undo.seq
    assert any(t.again for t in fix.taken) and fix.still_undone  # this seed: some made again, some not


def test_the_game_page_opens_on_result_host_correction_and_note(staff, corrected, boss):
    save_note(corrected, note="Ivo says the die showed another face.", disputed=True, author=boss)
    page = _page(staff, corrected)
    summary = _section(page, 'id="review-summary"')
    assert page.index('id="review-summary"') < page.index('id="review-note"') < page.index('id="event-log"')
    text = _text(summary)
    winners = ", ".join(corrected.players[w] for w in corrected.winners)
    assert f"Won by {winners} — All rounds played" in text
    assert "Hana (seat 1)" in text  # the host, seated
    fix = _summary(corrected)[0].fixes[0]
    assert f"old {fix.old} (move {fix.roll.seq}) → new {fix.new} (move {fix.new_roll.seq})" in text
    assert "Ivo says the die showed another face." in text and "Disputed" in text
    note = note_of(corrected)
    assert f"by Bea Oss, {local(note.updated_at)} (UTC)" in text
    for href in (f"#step-{fix.line.seq}", f"#step-{fix.roll.seq}", f"#step-{corrected.seq}"):
        assert f'/t/{corrected.table.code}/replay/1/{href}"' in summary


def test_decisions_are_counted_by_who_made_them_and_against_the_default(staff, corrected):
    summary, events, made = _summary(corrected)
    groups = {g.key: g for g in summary.groups}
    moves = [d for e, d in zip(events, made, strict=True) if not is_undo(e.action)]
    assert sum(g.moves for g in groups.values()) == len(moves)
    assert groups["host"].moves == sum(1 for e in events if e.actor == "host" and not is_undo(e.action))
    assert summary.choices == sum(1 for d in moves if d.default is not None)
    assert summary.differed == sum(1 for d in moves if d.differs)
    assert [x.seq for g in groups.values() for x in g.differed] == sorted(d.seq for d in moves if d.differs)
    page = _page(staff, corrected)
    assert f"{summary.differed} of {summary.choices} choices with an engine default differed from it." in page


def test_every_undo_and_take_back_is_listed_with_who_made_it_and_what_it_took_back(staff):
    game = undone_game()
    summary, events, _made = _summary(game)
    undos = [e for e in events if is_undo(e.action)]
    assert [f.line.seq for f in summary.fixes] == [e.seq for e in undos]
    assert [f.kind for f in summary.fixes] == [UNDO, TAKE_BACK]
    gone = undone_by((e.actor, e.action) for e in events)
    for fix, undo in zip(summary.fixes, undos, strict=True):
        assert [t.line.seq for t in fix.taken] == sorted(s for s, u in gone.items() if u == undo.seq)
        assert fix.taken and all(t.again is None for t in fix.taken)  # only a correction makes moves again
    assert summary.fixes[0].who == "Host"
    assert summary.fixes[1].who == game.players[int(undos[1].actor)]
    page = _page(staff, game)
    fixes = _text(page[page.index('id="summary-fixes"'):page.index("</section>", page.index('id="summary-fixes"'))])
    assert "Undo" in fixes and "Take-back" in fixes and "None: every move stood." not in fixes
    for fix in summary.fixes:
        assert f"move {fix.line.seq} · {fix.who} ·" in fixes
    plain = play("runbuster", ("Ana", "Bo"), seed=7)
    assert "None: every move stood." in _page(staff, plain)


# ---------------------------------------------------------------- the log, paged


def test_the_log_is_paged_each_row_links_its_replay_step_and_the_events_list_shows_one_game(staff):
    game = play("runbuster", ("Ana", "Bo", "Cy", "Di"), seed=2, options={"series": True})
    other = play("runbuster", ("Ana", "Bo"), seed=7)
    total = game.events.count()
    assert total > 2 * LOG_PAGE, "the seed should give a game of three pages or more"
    replay = reverse("review:replay", args=[game.table.code, game.number])
    first = _page(staff, game)
    rows = re.findall(r'<tr data-seq="(\d+)"', first)
    assert rows == [str(n) for n in range(1, LOG_PAGE + 1)]
    assert f'<a href="{replay}#step-1"' in first and f"Moves 1–{LOG_PAGE} of {total}" in first
    second = _page(staff, game, log="2")
    assert re.findall(r'<tr data-seq="(\d+)"', second)[0] == str(LOG_PAGE + 1)
    pages = -(-total // LOG_PAGE)
    for odd in ("999", "0", "-3", "abc", ""):  # out of range or not a number: a page, never an error
        page = _page(staff, game, log=odd)
        shown = re.findall(r'<tr data-seq="(\d+)"', page)
        assert shown and int(shown[-1]) in (LOG_PAGE, total), odd
    assert f'?log={pages}#event-log"' in first
    events_url = reverse("admin:tables_event_changelist") + f"?game={game.pk}"
    assert events_url.replace("&", "&amp;") in first
    listed = staff.get(reverse("admin:tables_event_changelist"), {"game": game.pk}).content.decode()
    results = _results(listed)
    assert f"{total} results" in _text(listed)
    assert results.count("<tr") == min(total, 100) + 1 and other.table.code not in results
    assert f'{replay}#step-1"' in results  # the list links each event to its replay step


# ---------------------------------------------------------------- notes: author, time, empty


def _note_form(game: Game, note: str, disputed: bool, *, existing: ReviewNote | None = None) -> dict:
    data = {
        "review_note-TOTAL_FORMS": "1", "review_note-INITIAL_FORMS": "1" if existing else "0",
        "review_note-MIN_NUM_FORMS": "0", "review_note-MAX_NUM_FORMS": "1",
        "review_note-0-note": note, "review_note-0-game": str(game.pk), "_continue": "1",
    }
    if existing:
        data["review_note-0-id"] = str(existing.pk)
    if disputed:
        data["review_note-0-disputed"] = "on"
    return data


def test_a_note_records_its_author_and_an_empty_note_is_no_note(staff, boss):
    game = play("runbuster", ("Ana", "Bo"), seed=7)
    url = reverse("admin:tables_game_change", args=[game.pk])
    blank = _page(staff, game)
    editor = blank[blank.index('id="review-note"'):blank.index('<fieldset class="module aligned ', blank.index(
        'id="review-note"') + 200)]
    assert "Write a reviewer note" in _text(editor) and "#1" not in _text(editor)
    assert "inline-deletelink" not in editor and "delete" not in editor.lower()
    assert "No reviewer note." in _text(_section(blank, 'id="review-summary"'))
    assert staff.post(url, _note_form(game, "", False)).status_code == 302  # saving the page: no note made
    assert not ReviewNote.objects.exists()
    assert staff.post(url, _note_form(game, "Bo disputes the last roll.", False)).status_code == 302
    note = note_of(Game.objects.get(pk=game.pk))
    assert note is not None and note.author == boss and note.author_name == "Bea Oss"
    shown = _page(staff, game)
    assert "Last written by Bea Oss," in shown and "(UTC)" in shown
    listed = staff.get(reverse("admin:tables_game_changelist"), {"note": "yes"}).content.decode()
    assert game.table.code in _results(listed) and 'class="column-has_note' in listed
    assert staff.post(url, _note_form(game, "  ", False, existing=note)).status_code == 302  # emptied: removed
    assert not ReviewNote.objects.exists()
    listed = staff.get(reverse("admin:tables_game_changelist"), {"note": "yes"}).content.decode()
    assert 'id="result_list"' not in listed or game.table.code not in _results(listed)
    assert game.table.code in _results(staff.get(reverse("admin:tables_game_changelist"), {"note": "no"}).content.decode())


# ---------------------------------------------------------------- the club's time zone


def test_times_are_the_clubs_and_say_their_zone(staff, settings):
    settings.TIME_ZONE = "Asia/Kolkata"  # +05:30 all year: no daylight saving to make the test depend on the day
    game = play("sixdice", ("Ana", "Bo"), seed=3, options={"rounds": 1, "auto_balance": True})
    page = _page(staff, game)
    started = timezone.localtime(game.started_at, timezone.get_fixed_timezone(330))
    assert f"{started:%Y-%m-%d %H:%M:%S}" in page
    assert "Started (Asia/\u200bKolkata)" in page  # the zone may wrap after its "/" in a narrow column
    first = timezone.localtime(game.events.get(seq=1).created_at, timezone.get_fixed_timezone(330))
    assert f"{first:%H:%M:%S}" in _section(page, 'id="event-log"') and "time (Asia/\u200bKolkata)" in page
    listed = staff.get(reverse("admin:tables_game_changelist")).content.decode()
    assert "When (Asia/\u200bKolkata)" in listed
    assert f"{started:%H:%M}" in _results(listed) and f"{started:%Y-%m-%d}" in _results(listed)


def test_time_zone_comes_from_the_environment_and_a_wrong_one_stops_the_server():
    def settings_with(zone: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "TIME_ZONE": zone, "DJANGO_SETTINGS_MODULE": "sixdice.settings", "PYTHONPATH": str(ROOT)}
        return subprocess.run([sys.executable, "-c", "import django; django.setup(); from django.conf import "
                               "settings; print(settings.TIME_ZONE)"], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)

    assert settings_with("Europe/Lisbon").stdout.strip() == "Europe/Lisbon"
    assert settings_with("").stdout.strip() == "UTC"
    wrong = settings_with("Mars/Olympus")
    assert wrong.returncode != 0 and "TIME_ZONE='Mars/Olympus' is not a time zone name" in wrong.stderr
    assert "Traceback" in wrong.stderr  # Django's own start-up error, with our one-line message at its end


def test_the_date_filter_has_today_yesterday_and_the_past_seven_days(staff, settings):
    settings.TIME_ZONE = "Asia/Kolkata"
    today = play("runbuster", ("Ana", "Bo"), seed=7)
    yesterday = play("runbuster", ("Cy", "Di"), seed=8)
    Game.objects.filter(pk=yesterday.pk).update(started_at=timezone.now() - timedelta(days=1))
    url = reverse("admin:tables_game_changelist")
    page = staff.get(url).content.decode()
    links = dict((_text(label), html_lib.unescape(href)) for href, label in
                 re.findall(r'<a href="(\?started_at__gte=[^"]*)"[^>]*>([^<]+)</a>', page))
    assert {"Today", "Yesterday", "Past 7 days"} <= set(links)
    assert "By started at (Asia/\u200bKolkata)" in _text(page)

    def shown(query: str) -> str:
        return staff.get(url + query).content.decode()

    assert today.table.code in shown(links["Today"]) and yesterday.table.code not in shown(links["Today"])
    assert yesterday.table.code in shown(links["Yesterday"]) and today.table.code not in shown(links["Yesterday"])
    assert today.table.code in shown(links["Past 7 days"]) and yesterday.table.code in shown(links["Past 7 days"])


# ---------------------------------------------------------------- search by name, case and accents aside


@pytest.fixture
def accented(db):
    joao = play("runbuster", ("João", "Bo"), seed=7)
    renee = play("sixdice", ("Renée", "Cy"), seed=3, options={"rounds": 1, "auto_balance": True})
    other = play("runbuster", ("Ana", "Di"), seed=8)
    save_note(joao, note="João contests his last roll.", disputed=True)
    return joao, renee, other


SEARCHES = [
    ("admin:tables_game_changelist", "joão", 0), ("admin:tables_game_changelist", "RENÉE", 1),
    ("admin:tables_game_changelist", "joao", 0), ("admin:tables_game_changelist", "renee", 1),
    ("admin:tables_seat_changelist", "joão", 0), ("admin:tables_seat_changelist", "RENÉE", 1),
    ("admin:tables_event_changelist", "joão", 0), ("admin:tables_event_changelist", "RENÉE", 1),
    ("admin:review_reviewnote_changelist", "JOAO", 0),
]


@pytest.mark.parametrize(("name", "query", "which"), SEARCHES)
def test_admin_searches_ignore_case_and_accents(staff, accented, name, query, which):
    page = staff.get(reverse(name), {"q": query}).content.decode()
    results = _results(page)
    found, other = accented[which], accented[2]
    assert found.table.code in results, (name, query)
    assert other.table.code not in results


def test_a_search_of_two_words_needs_both_and_quotes_keep_them_together(staff, accented):
    url = reverse("admin:tables_game_changelist")
    joao = accented[0]
    assert joao.table.code in staff.get(url, {"q": f"joão {joao.table.code.lower()}"}).content.decode()
    assert joao.table.code not in staff.get(url, {"q": "joão renée"}).content.decode()
    assert staff.get(url, {"q": '"unclosed'}).status_code == 200


# ---------------------------------------------------------------- readable fields


def test_fields_read_in_words_hands_signed_seats_from_one(staff):
    game = play("sixdice", ("Ana", "Bo", "Cy"), seed=3, options={"rounds": 1, "auto_balance": True})
    page = _page(staff, game)
    hands = _text(page[page.index('class="hands"'):page.index("</table>", page.index('class="hands"'))])
    values = [h.score for h in get_engine("sixdice").presentation.picture(game.state).hands]
    for name, value in zip(game.players, values, strict=True):
        sign = "+" if value > 0 else "\u2212" if value < 0 else ""
        assert f"{name} ({sign}{abs(value)})" in hands
    assert "(-" not in hands
    assert "<dt>Dice</dt><dd>The app rolls them</dd>" in page
    assert "<dt>Automatic balancing</dt><dd>yes</dd>" in page
    table = staff.get(reverse("admin:tables_table_change", args=[game.table_id])).content.decode()
    seats = table[table.index('id="seats-group"'):table.index('id="games-group"')]
    assert re.findall(r'<td class="field-seat">\s*<p>(\d+)</p>', seats) == ["1", "2", "3"]
    assert "All rounds played" in table and ">rounds<" not in table
    assert "Dice in the bank" in table and "auto_balance" not in table


def test_no_delete_is_offered_where_it_would_be_refused(staff):
    game = play("runbuster", ("Ana", "Bo"), seed=7)
    tables = staff.get(reverse("admin:tables_table_changelist")).content.decode()
    assert "delete_selected" not in tables
    page = staff.get(reverse("admin:tables_table_change", args=[game.table_id])).content.decode()
    assert "deletelink" not in page and 'name="_save"' not in page  # nothing on it that saves or deletes
    assert staff.get(reverse("admin:tables_table_delete", args=[game.table_id])).status_code == 403
    assert Table.objects.filter(pk=game.table_id).exists()
    for name in ("admin:tables_game_changelist", "admin:tables_seat_changelist", "admin:tables_event_changelist"):
        assert "delete_selected" not in staff.get(reverse(name)).content.decode()


# ---------------------------------------------------------------- files out and in


def test_downloads_are_named_for_the_game_table_and_day_and_the_csv_names_winners(staff, settings):
    settings.TIME_ZONE = "Asia/Kolkata"
    game = play("runbuster", ("Ana", "Bo"), seed=7)
    rematch = play("runbuster", seed=8, table=game.table)
    other = play("sixdice", ("Cy", "Di"), seed=3, options={"rounds": 1, "auto_balance": True})
    day = timezone.localtime(game.started_at).date().isoformat()
    code = game.table.code
    export = staff.get(reverse("review:export", args=[code, 1]))
    assert export["Content-Disposition"] == f'attachment; filename="runbuster-{code}-{day}.json"'
    second = staff.get(reverse("review:export", args=[code, 2]))
    assert second["Content-Disposition"] == f'attachment; filename="runbuster-{code}-{day}-game2.json"'
    url = reverse("admin:tables_game_changelist")
    both = [str(game.pk), str(rematch.pk)]
    response = staff.post(url, {"action": "export_zip", "_selected_action": both})
    assert response["Content-Disposition"] == f'attachment; filename="runbuster-{code}-{day}.zip"'
    assert sorted(zipfile.ZipFile(io.BytesIO(response.content)).namelist()) == [
        f"runbuster-{code}-{day}-game2.json", f"runbuster-{code}-{day}.json"]
    mixed = staff.post(url, {"action": "export_csv", "_selected_action": [*both, str(other.pk)]})
    other_day = timezone.localtime(other.started_at).date().isoformat()
    days = sorted({day, other_day})
    when = days[0] if len(days) == 1 else f"{days[0]}_{days[1]}"
    assert mixed["Content-Disposition"] == f'attachment; filename="games-2-tables-{when}.csv"'
    rows = list(csv.DictReader(io.StringIO(mixed.content.decode("utf-8-sig"))))
    for row, g in zip(rows, (game, rematch, other), strict=True):
        assert row["winners"] == "; ".join(g.players[w] for w in g.winners) and row["winners"]


def _upload(staff: Client, name: str, content: bytes, *, unsigned: bool = False):
    data: dict = {"file": SimpleUploadedFile(name, content)}
    if unsigned:
        data["unsigned"] = "on"
    return staff.post(reverse("admin:tables_game_import"), data)


def _counts() -> tuple[int, ...]:
    return (Table.objects.count(), Seat.objects.count(), Game.objects.count(), Event.objects.count(),
            ImportMark.objects.count())


def test_an_export_is_imported_through_the_admin_json_or_zip(staff):
    game = play("runbuster", ("Ana", "Bo"), seed=7)
    rematch = play("runbuster", seed=8, table=game.table)
    single = exchange.dumps(exchange.export_game(game)).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.json", single)
        archive.writestr("b.json", exchange.dumps(exchange.export_game(rematch)))
    game.table.delete()  # the same games are refused while they are here
    listed = staff.get(reverse("admin:tables_game_changelist")).content.decode()
    assert reverse("admin:tables_game_import") in listed
    form = staff.get(reverse("admin:tables_game_import"))
    assert form.status_code == 200 and 'type="file"' in form.content.decode()
    response = _upload(staff, "night.zip", buffer.getvalue())
    assert response.status_code == 302 and response["Location"].endswith("?imported=yes")
    imported = list(Game.objects.filter(import_mark__source="night.zip").order_by("number"))
    assert [g.number for g in imported] == [1, 2] and all(g.import_mark.verified for g in imported)
    followed = staff.get(response["Location"]).content.decode()
    assert "Imported 2 games" in followed
    # The same file again: refused, in words, and nothing written.
    before = _counts()
    again = _upload(staff, "night.zip", buffer.getvalue())
    assert again.status_code == 400 and _counts() == before
    assert "is already here (the same game was imported or played before)" in _text(again.content.decode())


@pytest.mark.parametrize(("content", "reason"), [
    (b"{not json", "The file is not valid JSON"),
    (b"PK\x03\x04 broken", "The file is neither a JSON export nor a zip of them."),
    (b"[]", "The file holds an empty list: no game to import."),
])
def test_a_refused_upload_shows_its_reason_and_writes_nothing(staff, content, reason):
    before = _counts()
    response = _upload(staff, "bad.json", content)
    page = response.content.decode()
    assert response.status_code == 400 and reason in _text(page) and 'id="import-refused"' in page
    assert _counts() == before


def test_a_changed_or_unsigned_file_is_refused_as_import_game_refuses_it(staff):
    game = play("runbuster", ("Ana", "Bo"), seed=7)
    doc = exchange.export_game(game)
    game.table.delete()
    changed = json.loads(json.dumps(doc))
    changed["players"][1]["bot"] = not changed["players"][1].get("bot", False)  # "the app played Bo": a forgery
    before = _counts()
    response = _upload(staff, "changed.json", json.dumps(changed).encode())
    assert response.status_code == 400 and "was changed after it was exported" in _text(response.content.decode())
    unsigned = {key: value for key, value in doc.items() if key != "signature"}
    response = _upload(staff, "other.json", json.dumps(unsigned).encode())
    assert response.status_code == 400 and "is not signed by this install" in _text(response.content.decode())
    assert _counts() == before
    response = _upload(staff, "other.json", json.dumps(unsigned).encode(), unsigned=True)
    assert response.status_code == 302
    assert Game.objects.get(import_mark__source="other.json").import_mark.verified is False


def test_import_needs_the_add_permission_on_games(db):
    user = get_user_model().objects.create_user("viewer", "v@example.com", "pw-for-tests-1", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_game"))
    viewer = Client()
    viewer.force_login(user)
    assert viewer.get(reverse("admin:tables_game_import")).status_code == 403
    assert reverse("admin:tables_game_import") not in viewer.get(reverse("admin:tables_game_changelist")).content.decode()


# ---------------------------------------------------------------- who hosted


def test_the_new_table_form_asks_the_hosts_name_and_the_game_records_it(client):
    page = client.get(reverse("tables:new", args=["runbuster"])).content.decode()
    assert 'name="host_name"' in page
    response = client.post(reverse("tables:new", args=["runbuster"]), {"players": "2", "host_name": "  Hana "})
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.host_name == "Hana" and table.host_seat is None
    response = client.post(reverse("tables:new", args=["runbuster"]), {"players": "2", "host_name": "H" * 25})
    assert response.status_code == 400 and "at most 24 characters" in response.content.decode()
    assert Table.objects.count() == 1
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    game = play("runbuster", seed=7, table=table)
    from sixdice.review.summary import host_of

    assert host_of(game) == "Hana (not seated)"


def test_a_host_who_takes_a_seat_is_recorded_by_that_seat(client):
    client.post(reverse("tables:new", args=["runbuster"]), {"players": "2", "host_name": "Hana"})
    table = Table.objects.get()
    client.post(reverse("tables:host_sit", args=[table.code]), {"name": "Hana B"})
    table.refresh_from_db()
    assert table.host_seat == 0
    services.join_table(table=table, name="Bo")
    game = play("runbuster", seed=7, table=table)
    from sixdice.review.summary import host_of

    assert host_of(game) == "Hana B (seat 1)"


def test_staff_who_may_only_look_get_the_page_without_buttons(db):
    game = play("runbuster", ("Ana", "Bo"), seed=7)
    user = get_user_model().objects.create_user("viewer", "v@example.com", "pw-for-tests-1", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_game"))
    viewer = Client()
    viewer.force_login(user)
    page = _page(viewer, game)
    assert "Save the note" not in page and "Write one" not in page and 'name="_save"' not in page
    save_note(game, note="Checked.", disputed=False)
    user.user_permissions.add(Permission.objects.get(codename="view_reviewnote"))
    viewer.force_login(get_user_model().objects.get(pk=user.pk))
    page = _page(viewer, game)
    assert "Checked." in _text(_section(page, 'id="review-summary"')) and "Save the note" not in page
    assert 'href="#review-note">edit</a>' not in page
