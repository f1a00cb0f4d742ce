"""Player-facing text in plain words: no ruling number ("R8", "B2") and no event number ("#75").

Seeded games of both games are played at the engine level and through the
table services (with the host's undo, a player's take-back and a corrected
roll); every log line is rendered in every language, and the frames a phone
gets (prompts in the view, the end screen's standings) are searched too.
The rules pages and the review pages may keep the codes: they are not here.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.conf import settings

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.replay import describe_parts, replay
from sixdice.rules.dice import FACES
from sixdice.tables.core.i18n import localize_frame, render_notation
from sixdice.tables.core.keys import Credentials
from sixdice.tables.live.host_commands import host_command
from sixdice.tables.policies.undo import take_back
from sixdice.tables.reads import selectors, table_frame
from sixdice.tables.writes import checked_path, services

CODE = re.compile(r"\b[RB]\d{1,2}\b|#\s?\d|\bn[°º]\s?\d|№\s?\d")
LANGUAGES = [code for code, _name in settings.LANGUAGES]


def _clean(text: str, where: str) -> None:
    assert not CODE.search(text), f"{where}: {text!r}"


def _strings(value: Any) -> list[str]:
    """Every string inside a frame (keys that only a program reads are left in: they never hold codes)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


NAMES = ["Ana", "Bea", "Cal", "Dan"]


def _random_game(slug: str, seed: int, players: int) -> tuple[Any, dict[str, Any], list[tuple[Any, dict[str, Any]]]]:
    engine = get_engine(slug)
    names = NAMES[:players]
    # Six-Dice with a short bank: the draws and the pairs run out, dice go back to the bank (the automatic steps)
    raw = {"rounds": 6, "bank": 6 * players + seed % 3} if slug == "sixdice" else {}
    options = engine.clean_options(raw, players=players)
    state = engine.start(players=names, options=options)
    rng = random.Random(seed)
    events: list[tuple[Any, dict[str, Any]]] = []
    for _ in range(2000):
        if engine.outcome(state) is not None:
            break
        system = engine.system_action(state, options, rng)
        if system is not None:
            actor: Any = "system"
            action = system
        else:
            actor = min(engine.actors(state))
            action = engine.bot_action(state, actor, rng) or {}
        events.append((actor, action))
        state = engine.apply(state, action, actor=actor)
    return engine, engine.start(players=names, options=options), events


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
@pytest.mark.parametrize("seed", range(6))
def test_engine_log_lines_in_every_language_have_no_codes(slug, seed):
    players = 2 + seed % 3
    engine, initial, events = _random_game(slug, seed, players)
    names = NAMES[:players]
    said = ""
    for step in replay(engine, initial, events):
        parts = describe_parts(engine, step.before, step.action, names=names)
        said += render_notation(parts, "en") + "\n"
        for language in LANGUAGES:
            _clean(render_notation(parts, language), f"{slug} seed {seed} event {step.index} ({language})")
        for seat in range(len(names)):
            _clean(" ".join(_strings(engine.view(step.after, seat))), f"{slug} view of seat {seat}")
    if slug == "sixdice":  # the automatic steps were met, and said in words
        assert "to the bank" in said and ("no draw for" in said or "no pair from the bank" in said)


def _play(table: Any, n: int) -> None:
    for i in range(n):
        game = table_frame.current_game(table)
        if game is None or game.status != "playing":
            return
        engine = get_engine(game.engine)
        seat = min(engine.actors(game.state))
        rng = random.Random(f"{i}-{game.seq}")
        action = engine.bot_action(game.state, seat, rng)
        if action is None:  # a physical roll: typed in
            count = engine.view(game.state, seat)["pending"]["count"]
            faces = FACES if game.engine == "sixdice" else (1, 2, 3, 4, 5, 6)
            action = {"type": "roll", "values": [rng.choice(faces) for _ in range(count)]}
        checked_path.apply_action(table_code=table.code, credentials=Credentials(), action=action,
                              expected_seq=game.seq, bot_seat=seat)


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_table_log_with_undo_take_back_and_correction_and_end_screen_have_no_codes(slug):
    options: dict[str, Any] = {"dice": "physical"}
    if slug == "sixdice":
        options["rounds"] = 1
    table, host = services.create_table(game=slug, options=options, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    services.start_game(table=table, rng=random.Random(3))
    _play(table, 4)
    # A correction of the first typed roll, a host undo, then a take-back of the next seat move.
    game = table_frame.current_game(table)
    roll = next(e for e in game.events.order_by("seq") if e.action.get("type") == "roll")
    faces = list(FACES) if slug == "sixdice" else [1, 2, 3, 4, 5, 6]
    fixed = [faces[(faces.index(v) + 1) % len(faces)] for v in roll.action["values"]]
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="correct",
                 fields={"expected_seq": game.seq, "seq": roll.seq, "values": fixed})
    _play(table, 3)
    host_command(table_code=table.code, credentials=Credentials(host_secret=host), command="undo",
                 fields={"expected_seq": table_frame.current_game(table).seq})
    took_back = False
    for _ in range(400):
        game = table_frame.current_game(table)
        if game.status != "playing":
            break
        engine = get_engine(game.engine)
        seat = min(engine.actors(game.state))
        action = engine.bot_action(game.state, seat, random.Random(game.seq))
        if action is not None and action.get("type") != "roll" and not took_back:
            checked_path.apply_action(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                                  action=action, expected_seq=game.seq)
            take_back(table_code=table.code, credentials=Credentials(seat_secret=secrets[seat]),
                      expected_seq=table_frame.current_game(table).seq)
            took_back = True
            continue
        _play(table, 1)
    game = table_frame.current_game(table)
    assert game.status == "finished" and took_back
    kinds = [e.action.get("type") for e in game.events.order_by("seq")]
    assert kinds.count("undo") >= 3  # the correction, the host's undo and the take-back
    for position in (None, 0, 1):
        frame = selectors.snapshot(table.pk, seat=position, host=position is None)
        for language in LANGUAGES:
            local = localize_frame(json.loads(json.dumps(frame)), language)
            for text in _strings(local):
                _clean(text, f"{slug} frame for seat {position} ({language})")
    for event in game.events.order_by("seq"):
        for language in LANGUAGES:
            _clean(render_notation(event.notation, language), f"{slug} event {event.seq} ({language})")


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_log_lines_link_to_a_rule_that_each_rules_page_has(slug):
    """A line that applies a rule carries its anchor; every language's rules page has that anchor."""
    from pathlib import Path

    from sixdice.gamekit.notation import first_rule
    from sixdice.tables.core.i18n import localize_events

    anchors: set[str] = set()
    for seed in range(4):
        engine, initial, events = _random_game(slug, seed, 3)
        for step in replay(engine, initial, events):
            parts = describe_parts(engine, step.before, step.action, names=NAMES[:3])
            rule = first_rule(parts)
            if rule:
                anchors.add(rule)
                [payload] = localize_events([{"seq": step.index, "notation": parts, "text": ""}], "fr")
                assert payload["rule"] == rule and "notation" not in payload
    assert anchors, "no line links to a rule"
    root = Path(__file__).resolve().parents[2] / "templates" / "rules"
    for language in LANGUAGES:
        page = (root / f"{slug}.{language}.html").read_text(encoding="utf-8")
        for anchor in anchors:
            assert f'id="{anchor}"' in page, (language, anchor)


@pytest.mark.parametrize("slug", ["sixdice", "runbuster"])
def test_automatic_steps_are_worded_for_the_seat_whose_dice_moved(slug):
    """A line about a seat's dice moved by the app carries, for that seat's phone, the same news in words to it."""
    from sixdice.tables.core.i18n import localize_events

    said: dict[str, set[str]] = {}
    for seed in range(6):
        engine, initial, events = _random_game(slug, seed, 3)
        for step in replay(engine, initial, events):
            parts = describe_parts(engine, step.before, step.action, names=NAMES[:3])
            for language in LANGUAGES:
                [payload] = localize_events([{"seq": step.index, "notation": parts, "text": ""}], language)
                for seat, text in (payload.get("yours") or {}).items():
                    assert seat in {"0", "1", "2"}
                    _clean(text, f"{slug} personal line ({language})")
                    if language == "en":
                        said.setdefault(text.split(":")[0], set()).add(seat)
    if slug == "sixdice":
        assert any(k.startswith("Your hand was regrouped") for k in said), said
    else:
        assert any("busted your" in k for k in said), said
