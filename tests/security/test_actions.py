"""Issue 15, items 1 and 2: hostile frames are refused cleanly and nothing raw is ever stored.

Every refusal is an ``error`` frame with a code (never ``server_error``), the
game's ``seq`` does not move, and afterwards the game's export, replay and
admin pages still answer 200.
"""

from __future__ import annotations

import json
import logging
import math

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sixdice.gamekit.engine import get_engine
from sixdice.gamekit.schema import BadAction, check_json
from sixdice.tables.models import Event, Game
from sixdice.tables.writes import services
from tests.live_client import connect

KNOWN_CODES = {
    "bad_json", "bad_field", "unknown_type", "too_large", "not_allowed", "illegal", "stale",
    "spectator", "not_host", "paused", "game_over", "rate_limited",
}


def _table(game: str, options: dict) -> tuple[str, str, list[str], Game]:
    table, host = services.create_table(game=game, options=options, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    started = services.start_game(table=table).game
    return table.code, host, secrets, started


def _seq(game_id: int) -> int:
    return Game.objects.get(pk=game_id).seq


def _pages_answer(code: str, game: Game) -> None:
    """The export, the replay and the admin's game page all render (the things the issue saw fail)."""
    admin = get_user_model().objects.filter(username="root").first() or get_user_model().objects.create_superuser(
        "root", "root@example.com", "pw"
    )
    client = Client()
    client.force_login(admin)
    assert client.get(f"/t/{code}/export/{game.number}.json").status_code == 200  # staff export a game in play
    assert client.get(f"/admin/tables/game/{game.pk}/change/").status_code == 200
    assert client.get(f"/admin/tables/table/{game.table_id}/change/").status_code == 200
    services.close_table(table=game.table)  # the game is kept, abandoned: public replay, staff export
    assert Client().get(f"/t/{code}/replay/{game.number}/").status_code == 200
    assert client.get(f"/t/{code}/export/{game.number}.json").status_code == 200
    for event in Event.objects.filter(game=game):
        json.dumps(event.action, ensure_ascii=False).encode("utf-8")  # storable and printable as UTF-8


@pytest.mark.django_db(transaction=True)
class TestHostileActions:
    def _frames(self, code: str, secret: str | None, frames: list[str], *, host: str | None = None) -> list[dict]:
        async def run() -> list[dict]:
            held = {"seat": secret} if secret else {}
            if host:
                held["host"] = host
            comm, _ = await connect(code, **held)
            replies = []
            for frame in frames:
                await comm.send_to(text_data=frame)
                replies.append(await _reply(comm))
            await comm.disconnect()
            return replies

        return async_to_sync(run)()

    def test_host_command_of_the_wrong_type_from_a_spectator_is_not_host_without_a_traceback(self, caplog):
        code, host, secrets, game = _table("runbuster", {})
        caplog.set_level(logging.ERROR)
        frames = [json.dumps({"type": "host", "command": c}) for c in ([], {}, None, 3)]
        frames.append(json.dumps({"type": "host"}))
        replies = self._frames(code, None, frames)
        assert [r["code"] for r in replies] == ["not_host"] * 5
        replies = self._frames(code, None, frames, host=host)
        assert [r["code"] for r in replies] == ["bad_field"] * 5
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    @pytest.mark.parametrize(
        "extra",
        [
            {"pad": "x" * 50_000},  # 50 kB riding on a legal roll
            {"deep": json.loads("[" * 600 + "]" * 600)},  # 600 deep
            {"seat": "\ud800"},  # a lone surrogate
        ],
        ids=["50kB", "600-deep", "surrogate"],
    )
    def test_a_legal_action_with_an_unknown_or_bad_field_is_refused_and_nothing_is_stored(self, extra):
        code, host, secrets, game = _table("sixdice", {"dice": "physical"})
        seat = game.state["pending"]["seat"]
        action = {"type": "roll", "values": [1, 2, 3, -1, -2, -3], **extra}
        frame = json.dumps({"type": "action", "seq": 0, "action": action})
        assert len(frame.encode()) < 64 * 1024
        (reply,) = self._frames(code, secrets[seat], [frame])
        assert reply["type"] == "error" and reply["code"] == "bad_field" and reply["message"]
        assert _seq(game.pk) == 0 and not Event.objects.filter(game=game).exists()
        # the same roll without the extra field is accepted: only the field was wrong
        (reply,) = self._frames(code, secrets[seat], [json.dumps({"type": "action", "seq": 0, "action": {
            "type": "roll", "values": [1, 2, 3, -1, -2, -3]}})])
        assert reply["type"] == "ack"
        stored = Event.objects.get(game=game, seq=1).action
        assert stored == {"type": "roll", "values": [1, 2, 3, -1, -2, -3]}
        _pages_answer(code, Game.objects.get(pk=game.pk))

    def test_nan_and_infinity_are_bad_json_never_stale(self):
        code, host, secrets, game = _table("sixdice", {"dice": "physical"})
        seat = game.state["pending"]["seat"]
        frames = [
            '{"type": "action", "seq": 0, "action": {"type": "roll", "values": [NaN, 2, 3, -1, -2, -3]}}',
            '{"type": "action", "seq": 0, "action": {"type": "roll", "values": [1, 2, 3, -1, -2, -3], "x": Infinity}}',
            '{"type": "action", "seq": NaN, "action": {"type": "roll", "values": [1, 2, 3, -1, -2, -3]}}',
        ]
        replies = self._frames(code, secrets[seat], frames)
        assert [r["code"] for r in replies] == ["bad_json"] * 3
        assert _seq(game.pk) == 0

    def test_runbuster_refuses_fields_it_does_not_declare(self):
        code, host, secrets, game = _table("runbuster", {})
        seat = game.state["current"]
        frames = [json.dumps({"type": "action", "seq": 0, "action": a}) for a in (
            {"type": "roll", "note": "hi"},
            {"type": "roll", "values": "123456"},
            {"type": "roll", "values": [10**40]},
            {"type": "dance"},
            {"type": "\ud800"},
        )]
        replies = self._frames(code, secrets[seat], frames)
        assert [r["code"] for r in replies] == ["bad_field"] * 5
        assert _seq(game.pk) == 0


async def _reply(comm) -> dict:
    """The reply to the frame just sent (an ack, an error, a pong or a snapshot), skipping broadcasts."""
    while True:
        msg = await comm.receive_json_from(timeout=5)
        if msg["type"] in {"ack", "error", "pong", "handover"} or "ref" in msg:
            return msg


# ---------------------------------------------------------------- generated frames

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
    st.sampled_from(["\ud800", "\udfff", "roll", "choose", "end_turn", "flip", "group", "keep", "end_on_time"]),
)
json_values = st.recursive(
    json_leaf, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
    max_leaves=20,
)
action_keys = st.sampled_from(["type", "values", "straight", "seat", "keep", "victim", "own", "x", "\ud800"])
actions = st.dictionaries(action_keys, json_values, max_size=5)


def _deep(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def _encode(value: object) -> str:
    """JSON as a hostile client may send it: NaN/Infinity literals and lone surrogates escaped."""
    return json.dumps(value, allow_nan=True)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(action=actions)
def test_clean_action_accepts_only_declared_storable_actions(action):
    for slug in ("sixdice", "runbuster"):
        engine = get_engine(slug)
        try:
            cleaned = engine.clean_action(action)
        except BadAction as exc:
            assert exc.code == "bad_field" and str(exc)
            continue
        assert set(cleaned) <= {"type"} | set(engine.action_schema()[cleaned["type"]])
        json.dumps(cleaned, allow_nan=False, ensure_ascii=False).encode("utf-8")


@pytest.mark.parametrize("bad", [_deep(600), {"a": math.nan}, {"a": "\ud800"}, {"a": 2**80}, {"a": "x" * 10_000}])
def test_games_without_a_schema_still_get_bounded_json(bad):
    with pytest.raises(BadAction):
        check_json(bad)


@pytest.mark.django_db(transaction=True)
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(batch=st.lists(st.tuples(actions, st.sampled_from([0, 1, "0", None, math.nan, 10**20])), min_size=1, max_size=6),
       game=st.sampled_from(["sixdice", "runbuster"]))
def test_generated_frames_through_the_consumer_never_break_a_page(batch, game):
    code, host, secrets, started = _table(game, {"dice": "physical"} if game == "sixdice" else {})
    frames = [_encode({"type": "action", "seq": seq, "action": action}) for action, seq in batch]
    frames.append('{"type": "action", "seq": 0, "action": {"type": "roll", "deep": ' + "[" * 600 + "]" * 600 + "}}")

    async def run() -> list[dict]:
        out = []
        for held in ({"seat": secrets[0]}, {"seat": secrets[1]}, {"host": host}):
            comm, _ = await connect(code, **held)
            for frame in frames:
                await comm.send_to(text_data=frame)
                out.append(await _reply(comm))
            await comm.disconnect()
        return out

    for reply in async_to_sync(run)():
        assert reply["type"] == "ack" or reply["code"] in KNOWN_CODES, reply
    _pages_answer(code, Game.objects.get(pk=started.pk))

