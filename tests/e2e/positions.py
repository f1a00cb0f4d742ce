"""Start where the test begins: a live table at a position of a recorded game.

A test about the end of a game, or its last round, need not play the whole
game through the phones first.  A *recorded game* is a game log in the export
format (``docs/export-format.md``: ``players``, ``game.options``,
``game.first``, ``initial_state`` and ``events``, each an ``actor`` and an
``action``): an exported game, or one recorded here by :func:`record` (the
app's own players, with seeded dice, through the real engine) or by
:func:`scripted` (moves the test writes down, dice included, each checked by
the engine: a bust, a win, exactly where the test needs it).

:func:`table_at` puts a new table in the browser tests' server at the
position after the first ``upto`` events of a recorded game.  A short script
runs against the server's own database (its environment, ``manage.py
shell``): it makes the table with the recorded names and options, opens the
game from the recorded start and appends the recorded events through the
ledger, each replayed by the engine (as an import does, and the export format
replays exactly).  It returns the table's code and a browser session for the
host and for each seat; :func:`open_as` opens a phone holding one of them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from tests.e2e.conftest import ROOT

LOADER = r'''
import json
from importlib import import_module

from django.conf import settings
from django.db import transaction

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.replay import replay
from sixdice.tables.models import Game, Table, TableChange
from sixdice.tables.writes import ledger, services
from sixdice.tables.writes.ledger import Applied

spec = json.loads(SPEC)
record, upto = spec["record"], spec["upto"]
engine = get_engine(record["game"]["engine"])
names = [p["name"] for p in sorted(record["players"], key=lambda p: p["seat"])]
options = record["game"]["options"]
events = record["events"][:upto]
table, host = services.create_table(game=engine.slug, options=record["table"]["options"], capacity=len(names))
seats = [services.join_table(table=table, name=name)[1] for name in names]
with transaction.atomic():
    table = Table.objects.select_for_update().get(pk=table.pk)
    initial = record["initial_state"]
    game = Game(table=table, number=1, engine=engine.slug, options=options, players=names,
                first=record["game"]["first"], initial_state=initial, state=initial)
    ledger.open_game(table, game, kind=TableChange.Kind.START, table_status=Table.Status.PLAYING)
    applied = Applied(game=game, bots=False, timer=False)
    state = initial
    for step in replay(engine, initial, [(e["actor"], e["action"]) for e in events]):
        ledger.add_event(engine, game, applied, step.actor, dict(step.action), step.before)
        state = step.after
    game.state = state
    ledger.save(game, applied, expected_seq=0, table=table)
store = import_module(settings.SESSION_ENGINE).SessionStore
def session(**held):
    s = store()
    s["tables"] = {table.code: held}
    s.create()
    return s.session_key
print(json.dumps({"code": table.code, "host": session(host=host), "seats": [session(seat=s) for s in seats],
                  "cookie": settings.SESSION_COOKIE_NAME, "seq": len(events)}))
'''

# A recorded game's script starts a game of the spec's engine and ends by printing it in the export format; the
# middle (RECORDER, SCRIPTED) appends its events.
_GAME_START = r'''
import json, random
from sixdice.gamekit.engine import get_engine

spec = json.loads(SPEC)
engine = get_engine(spec["game"])
names = spec["names"]
options = {**engine.clean_options(spec["options"], players=len(names)), **spec.get("table_options", {})}
first = spec.get("first", 0)
state = engine.start(players=names, options=options, first=first)
initial, events = state, []
'''

_GAME_EXPORT = r'''
print(json.dumps({"format": "sixdice-game", "game": {"engine": engine.slug, "options": options, "first": first},
                  "table": {"options": spec["options"]}, "players": [{"seat": i, "name": n, "bot": False}
                  for i, n in enumerate(names)], "initial_state": initial, "events": events}))
'''

RECORDER = _GAME_START + r'''
rng = random.Random(spec["seed"])
while engine.outcome(state) is None and len(events) < 5000:
    action = engine.system_action(state, options, rng)
    actor = "system"
    if action is None:
        seat = min(engine.actors(state))
        action, actor = engine.bot_action(state, seat, rng, strength=spec["strength"]), str(seat)
    state = engine.apply(state, action, actor=int(actor) if actor != "system" else actor)
    # "round": where the game is after the event (not part of an export; a test finds its moment by it)
    events.append({"seq": len(events) + 1, "actor": actor, "action": action, "round": state.get("round")})
''' + _GAME_EXPORT

SCRIPTED = _GAME_START + r'''
for actor, action in spec["moves"]:
    state = engine.apply(state, action, actor=int(actor) if actor not in ("system", "host") else actor)
    events.append({"seq": len(events) + 1, "actor": str(actor), "action": action, "round": state.get("round")})
''' + _GAME_EXPORT


def _run(server_env: dict[str, str], script: str, spec: dict[str, Any]) -> dict[str, Any]:
    code = f"SPEC = {json.dumps(json.dumps(spec))}\n" + script
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=server_env,
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def record(server, game: str, names: list[str], options: dict[str, Any], *, seed: int = 1,
           first: int = 0, strength: str | None = "greedy") -> dict[str, Any]:
    """A whole game of ``game`` played by the app's players (seeded, ``strength``), as a recorded game log."""
    return _run(server.env, RECORDER, {"game": game, "names": names, "options": options, "seed": seed,
                                       "first": first, "strength": strength})


def scripted(server, game: str, names: list[str], options: dict[str, Any], moves: list[tuple[int | str, dict[str, Any]]],
             *, first: int = 0) -> dict[str, Any]:
    """A recorded game of ``game`` made of the given ``moves`` (each an actor and a complete action, dice included),
    each checked by the real engine: a position a test needs exactly (a bust, a win), without luck."""
    return _run(server.env, SCRIPTED, {"game": game, "names": names, "options": options, "first": first,
                                       "moves": [[str(actor), action] for actor, action in moves]})


@dataclass(frozen=True)
class Position:
    """A live table at a recorded position: its code, and a browser session for the host and each seat."""

    code: str
    host: str
    seats: list[str]
    cookie: str
    seq: int


def table_at(server, recorded: dict[str, Any], upto: int | None = None) -> Position:
    """A new table in ``server`` at the position after the first ``upto`` events (all: the end) of ``recorded``."""
    upto = len(recorded["events"]) if upto is None else upto
    out = _run(server.env, LOADER, {"record": recorded, "upto": upto})
    return Position(out["code"], out["host"], out["seats"], out["cookie"], out["seq"])


def open_as(phone, server, position: Position, who: str | int, path: str = "", **kwargs: Any):
    """A phone holding the host's (``"host"``) or a seat's session at the table; opens ``path`` (default: its page)."""
    page = phone(**kwargs)
    key = position.host if who == "host" else position.seats[int(who)]
    page.context.add_cookies([{"name": position.cookie, "value": key, "url": server.url}])
    page.goto(server.url + (path or (f"/t/{position.code}/host/" if who == "host" else f"/t/{position.code}/")))
    return page


def ends_at(recorded: dict[str, Any], predicate) -> int:
    """The number of the first event for which ``predicate(event)`` holds."""
    return next(e["seq"] for e in recorded["events"] if predicate(e))
