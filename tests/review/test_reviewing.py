"""Reviewing a game: who decided each move and the engine's default, who began and why, reviewer notes,
abandoned games, the replay and the statistics in every language."""

from __future__ import annotations

import html as html_lib
import json
import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from sixdice.gamekit.engine import DEFAULT, get_engine
from sixdice.review import exchange
from sixdice.review.decisions import APP_DEFAULT, APP_ROLL, BOT, HOST_KIND, SEAT, decisions
from sixdice.review.desk import LOG_PAGE
from sixdice.review.models import ReviewNote, note_of, save_note
from sixdice.review.stats import end_reason_label
from sixdice.review.steps import replay_steps
from sixdice.rules.game import State, group_actions, keep_actions, random_flip
from sixdice.tables.core.i18n import render_notation
from sixdice.tables.core.keys import Credentials
from sixdice.tables.models import Game, Table
from sixdice.tables.writes import checked_path, services

from .conftest import _table, play

pytestmark = pytest.mark.django_db
LANGS = ("uk", "pt", "fr", "nl")


def host_balanced(seed: int = 11, names=("Ana", "Bo", "Cy")) -> tuple[Game, int]:
    """A Six-Dice game whose balancing the host does, choosing the engine's last option rather than its
    default whenever there is a choice; returns the game and how many host choices differed."""
    rng = random.Random(seed)
    table, host_secret = services.create_table(game="sixdice", options={"rounds": 1}, capacity=len(names))
    for name in names:
        services.join_table(table=table, name=name)
    game = services.start_game(table=table, rng=rng).game
    engine = get_engine("sixdice")
    host = Credentials(host_secret=host_secret)
    differed = 0
    for _ in range(3000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game, differed
        st = State.from_dict(game.state)
        assert st.pending is not None
        if st.pending.kind in ("group", "keep"):
            options = group_actions(st) if st.pending.kind == "group" else keep_actions(st)
            action = options[-1]
            before = game.state
            differed += engine.apply(before, action, actor="host") != engine.apply(
                before, engine.bot_action(before, st.pending.seat, random.Random(0), strength=DEFAULT), actor="host")
            checked_path.apply_action(table_code=table.code, credentials=host, action=action, expected_seq=game.seq,
                                  as_host=True, rng=rng)
        else:
            seat = st.pending.seat
            action = random_flip(st, rng) if st.pending.kind == "flip" else {"type": "roll"}
            checked_path.apply_action(table_code=table.code, credentials=Credentials(), action=action,
                                  expected_seq=game.seq, bot_seat=seat, rng=rng)
    raise AssertionError("the game did not end")


def _payload(response) -> dict:
    match = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', response.content.decode(), re.S)
    assert match, "the replay page has no data"
    return json.loads(match.group(1))


# ---------------------------------------------------------------- who decided, and the default


def test_host_choices_show_the_engine_default_and_which_differed(staff):
    game, differed = host_balanced()
    assert differed > 0, "the seed should give host choices that are not the default"
    steps = replay_steps(game)
    made = decisions(get_engine("sixdice"), steps, [False] * 3, game.players)
    by_kind = {d.kind for d in made}
    assert HOST_KIND in by_kind and SEAT in by_kind and APP_ROLL in by_kind
    choices = [d for d in made if d.default is not None]
    assert choices and all(d.kind == HOST_KIND for d in choices)  # the host did every balancing choice
    assert sum(d.differs for d in choices) == differed
    assert all(d.default_text for d in choices)

    url = reverse("admin:tables_game_change", args=[game.pk])
    page = staff.get(url).content.decode()
    assert f"{differed} of {len(choices)} choices with an engine default differed from it." in page
    log = "".join(staff.get(url, {"log": n}).content.decode() for n in range(1, -(-game.seq // LOG_PAGE) + 1))
    assert log.count('class="differs"') == differed  # the log, a page at a time
    assert log.count('data-kind="host"') == sum(1 for d in made if d.kind == HOST_KIND)

    steps_json = _payload(staff.get(reverse("review:replay", args=[game.table.code, game.number])))["steps"]
    assert [s.get("differs") for s in steps_json[1:]] == [d.differs for d in made]
    assert {s["who"] for s in steps_json[1:] if s["kind"] == HOST_KIND} == {"Host"}
    assert all(s["default"] for s in steps_json[1:] if s["kind"] == HOST_KIND and s["seq"] in
               {d.seq for d in choices})


def test_automatic_balancing_is_the_apps_default_and_never_differs():
    game = play("sixdice", ("Ana", "Bo"), seed=4, options={"rounds": 1, "auto_balance": True})
    made = decisions(get_engine("sixdice"), replay_steps(game), [False, False], game.players)
    auto = [d for d in made if d.kind == APP_DEFAULT]
    assert auto and all(d.default is not None and not d.differs for d in auto)


def test_bot_seats_are_marked_in_the_admin_and_the_replay(staff):
    table = _table("runbuster", ("Ana", "Bo"), {})
    services.set_bot(table=table, position=1)  # "Let the app play" before the game: in the table log
    game = play("runbuster", seed=7, table=table)
    page = staff.get(reverse("admin:tables_game_change", args=[game.pk])).content.decode()
    assert "1. Ana, 2. Bo (bot)" in page
    steps = _payload(staff.get(reverse("review:replay", args=[game.table.code, 1])))["steps"][1:]
    assert {s["who"] for s in steps if s["seat"] == 1} == {"Bo (bot)"}
    assert {s["kind"] for s in steps if s["seat"] == 1} == {BOT}
    assert {s["kind"] for s in steps if s["seat"] == 0} == {SEAT}


def test_the_admin_says_who_began_and_why_one_based(staff):
    for seed in range(1, 40):  # a game where R1 picks another seat than the table did
        game = play("sixdice", ("Ana", "Bo", "Cy"), seed=seed, options={"rounds": 1, "auto_balance": True})
        if game.state["first"] != game.first:
            break
    else:
        pytest.fail("no seed gave a first player other than the table's pick")
    first = game.state["first"]
    page = html_lib.unescape(staff.get(reverse("admin:tables_game_change", args=[game.pk])).content.decode())
    assert f"{first + 1}. {game.players[first]} — the hand nearest to 0 after the start rolls (" in page
    assert not re.search(r"\bR\d+:", page), "plain words for the reviewer, no ruling numbers"
    assert (f"(the table's random draw had named {game.players[game.first]} to begin; the game's own rule "
            "decided instead)") in page
    rb = play("runbuster", ("Ana", "Bo"), seed=7)
    page = html_lib.unescape(staff.get(reverse("admin:tables_game_change", args=[rb.pk])).content.decode())
    assert f"{rb.first + 1}. {rb.players[rb.first]} — Player 1, chosen by the table" in page


def test_admin_filters_show_labels_not_codes(staff):
    play("runbuster", ("Ana", "Bo"), seed=7)
    play("sixdice", ("Ana", "Bo"), seed=3, options={"rounds": 1, "auto_balance": True})
    page = staff.get(reverse("admin:tables_game_changelist")).content.decode()
    filters = page[page.index('id="changelist-filter"'):]
    for label in ("Six-Dice", "Run Buster", "Full straight", "All rounds played", "All threes", "Time is up"):
        assert f">{label}<" in filters or f"{label}</a>" in filters, label
    for code in ("runbuster", "sixdice", "full_straight", "all_threes"):
        assert f">{code}<" not in filters and f">{code}</a>" not in filters, code
    events = staff.get(reverse("admin:tables_event_changelist")).content.decode()
    events = events[events.index('id="changelist-filter"'):]
    assert "Ana</a>" in events and "Host</a>" in events and "App</a>" in events and "Seat 1</a>" not in events
    assert ">system</a>" not in events


# ---------------------------------------------------------------- reviewer notes


def test_a_note_and_the_disputed_flag_are_edited_in_the_admin_and_shown_to_staff_only(staff):
    game = play("runbuster", ("Ana", "Bo"), seed=7)
    url = reverse("admin:tables_game_change", args=[game.pk])
    form = staff.get(url).content.decode()
    assert 'name="review_note-0-note"' in form and 'name="review_note-0-disputed"' in form
    response = staff.post(url, {
        "review_note-TOTAL_FORMS": "1", "review_note-INITIAL_FORMS": "0", "review_note-MIN_NUM_FORMS": "0",
        "review_note-MAX_NUM_FORMS": "1", "review_note-0-note": "Bo says the app misread a 5.",
        "review_note-0-disputed": "on", "review_note-0-game": str(game.pk), "_continue": "1",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    note = note_of(Game.objects.get(pk=game.pk))
    assert note is not None and note.disputed and note.note == "Bo says the app misread a 5."
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.events.count() == game.seq  # the game itself unchanged

    replay_url = reverse("review:replay", args=[game.table.code, game.number])
    seen = staff.get(replay_url).content.decode()
    assert "Bo says the app misread a 5." in seen and "Disputed" in seen
    public = Client().get(replay_url).content.decode()
    assert "misread" not in public and 'id="staff-note"' not in public
    listed = staff.get(reverse("admin:tables_game_changelist"), {"disputed": "yes"}).content.decode()
    assert game.table.code in listed


def test_notes_survive_an_export_and_import_round_trip():
    game = play("sixdice", ("Ana", "Bo"), seed=3, options={"rounds": 1, "auto_balance": True})
    save_note(game, note="Check turn 4: Bo's flip.", disputed=True)
    doc = exchange.export_game(Game.objects.get(pk=game.pk))
    assert doc["review"] == {"note": "Check turn 4: Bo's flip.", "disputed": True}
    original = game.pk
    game.delete()  # the same game is refused while it is here (issue 15)
    [copy] = exchange.import_documents([doc])
    note = note_of(copy)
    assert copy.pk != original and note is not None
    assert (note.note, note.disputed) == ("Check turn 4: Bo's flip.", True)
    assert exchange.export_game(copy)["review"] == doc["review"]
    # A document without a note imports with none; an empty note that is not disputed keeps no row.
    del doc["review"]
    copy.delete()
    [plain] = exchange.import_documents([doc])
    assert note_of(plain) is None
    assert save_note(plain, note="  ", disputed=False) is None and not ReviewNote.objects.filter(game=plain).exists()


def test_a_bad_review_section_is_refused():
    game = play("runbuster", ("Ana", "Bo"), seed=7)
    doc = exchange.export_game(game)
    doc["review"] = {"note": "x", "disputed": "yes"}
    with pytest.raises(exchange.ImportRefused, match='"review.disputed" must be true or false'):
        exchange.import_documents([doc])


# ---------------------------------------------------------------- abandoned games


def _abandoned() -> Game:
    rng = random.Random(2)
    table, _secret = services.create_table(game="runbuster", options={}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    game = services.start_game(table=table, rng=rng).game
    engine = get_engine("runbuster")
    for move in range(6):
        if move == 3:  # the host pauses after the third move, then resumes
            services.set_paused(table=Table.objects.get(pk=table.pk), paused=True)
            services.set_paused(table=Table.objects.get(pk=table.pk), paused=False)
        game.refresh_from_db()
        seat = min(engine.actors(game.state))
        checked_path.apply_action(table_code=table.code, credentials=Credentials(),
                              action=engine.bot_action(game.state, seat, rng), expected_seq=game.seq,
                              bot_seat=seat, rng=rng)
    services.close_table(table=Table.objects.get(pk=table.pk))
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED and game.seq > 0
    return game


def test_an_abandoned_game_replays_up_to_where_it_stopped(staff):
    game = _abandoned()
    response = Client().get(reverse("review:replay", args=[game.table.code, game.number]))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="abandoned"' in page and f"closed after {game.seq} moves" in page
    data = _payload(response)
    assert len(data["steps"]) == game.seq + 1 and data["game"]["status"] == "abandoned"
    assert data["steps"][-1]["view"] == get_engine("runbuster").view(game.state, None)
    log = page[page.index('id="table-log"'):]
    assert log.index("The host paused the game.") < log.index("The host resumed the game.") \
        < log.index("The host closed the table.")
    assert 'href="#step-3">After move 3</a>: The host paused the game.' in log
    assert f'href="#step-{game.seq}">After move {game.seq}</a>: The host closed the table.' in log
    admin_page = staff.get(reverse("admin:tables_game_change", args=[game.pk])).content.decode()
    assert "(abandoned: up to where it stopped)" in admin_page
    replay = reverse("review:replay", args=[game.table.code, game.number])
    assert f'<td><a href="{replay}#step-3">3</a></td>' in admin_page and "The host paused the game." in admin_page
    assert "Abandoned: the table was closed" in admin_page


def test_an_abandoned_game_exports_and_imports_marked_abandoned(client):
    game = _abandoned()
    export = reverse("review:export", args=[game.table.code, game.number])
    assert client.get(export).status_code == 403  # staff with the view permission only (docs/reviewing.md)
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.com", "pw"))
    response = client.get(export)
    assert response.status_code == 200
    doc = json.loads(response.content)
    assert doc["game"]["status"] == "abandoned" and len(doc["events"]) == game.seq
    game.delete()  # the same game is refused while it is here (issue 15)
    [copy] = exchange.import_documents([doc])
    assert copy.status == Game.Status.ABANDONED and copy.seq == game.seq and copy.state == game.state
    assert copy.table.status == Table.Status.CLOSED and copy.winners == [] and copy.end_reason == "closed"
    assert all(e.notation for e in copy.events.all())  # rebuilt, so the replay reads in every language
    doc["game"]["winners"] = [0]
    with pytest.raises(exchange.ImportRefused, match="an abandoned game has no winners"):
        exchange.import_documents([doc])


def test_a_game_still_being_played_has_no_replay_yet(client):
    table, _secret = services.create_table(game="runbuster", options={}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    services.start_game(table=table, rng=random.Random(1))
    assert client.get(reverse("review:replay", args=[table.code, 1])).status_code == 409
    assert client.get(reverse("review:export", args=[table.code, 1])).status_code == 409


# ---------------------------------------------------------------- the replay and the statistics in every language


ENGLISH_WORDS = re.compile(r"\b(rolls|takes|ends the turn|groups|keeps|draws|flips|wins|Host|App|default|"
                           r"Step|Turn|Replay|Before the first move|Previous|Next|Statistics|Seats)\b")


SAME_WORD = {"nl": {"App"}}  # words these languages share with English ("de app")


def english_left(text: str, lang: str) -> list[str]:
    return [w for w in ENGLISH_WORDS.findall(text.replace("Six-Dice", "").replace("Run Buster", ""))
            if w not in SAME_WORD.get(lang, set())]


def _visible(page: str) -> str:
    page = re.sub(r"<script.*?</script>|<style.*?</style>", " ", page, flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("engine", ["sixdice", "runbuster"])
def test_the_replay_reads_in_the_readers_language(client, lang, engine):
    if engine == "sixdice":
        game, _ = host_balanced(seed=5, names=("Ana", "Bo"))
    else:
        game = play("runbuster", ("Ana", "Bo"), seed=7)
    client.cookies["django_language"] = lang
    response = client.get(reverse("review:replay", args=[game.table.code, game.number]))
    page = response.content.decode()
    assert f'<html lang="{lang}"' in page
    visible = _visible(page)
    assert not english_left(visible, lang)
    steps = _payload(response)["steps"]
    events = list(game.events.order_by("seq"))
    for step, event in zip(steps[1:], events, strict=True):
        assert step["text"] == render_notation(event.notation, lang) != event.text, step["text"]
        assert not english_left(step["text"] + " " + step["who"] + " " + (step["default"] or ""), lang), step


@pytest.mark.parametrize("lang", LANGS)
def test_statistics_in_every_language_with_no_raw_codes(client, lang):
    play("runbuster", ("Ana", "Bo"), seed=7)
    play("runbuster", ("Ana", "Bo"), seed=8)
    play("sixdice", ("Ana", "Bo"), seed=3, options={"rounds": 1, "auto_balance": True})
    client.cookies["django_language"] = lang
    page = client.get(reverse("review:stats")).content.decode()
    visible = _visible(page)
    for code in ("full_straight", "all_threes", "rounds", "time", "unknown"):
        assert not re.search(rf"\b{code}\b", visible), code
    spoken = visible + " ".join(html_lib.unescape(x) for x in re.findall(r'aria-label="([^"]*)"', page))
    for english in ("All games", "2 players", "solver", "Wins per player", "games ended", "first player's",
                    "Full straight", "All rounds played"):
        assert english not in spoken, english
    with translation.override(lang):
        assert end_reason_label("runbuster", "full_straight") in visible
        assert end_reason_label("sixdice", "rounds") in visible
    assert not re.search(r"\d\.\d+\s?%", visible), "percentages in the locale's format (a decimal comma)"
    assert re.search(r"\d,\d+\u202f?%", visible)
    for svg in re.findall(r"<svg.*?</svg>", page, re.S):
        label = re.search(r'aria-label="([^"]+)"', svg)
        assert label and ":" in label.group(1) and "<desc>" in svg  # the chart's values, spoken
