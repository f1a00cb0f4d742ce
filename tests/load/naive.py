"""The second baseline: the app a competent developer writes from the Channels tutorial.

Served by daphne as its own ASGI application (``tests.load.naive:application``),
on the same database and channel layer settings as the app, at the same path,
so the benchmark's clients drive it exactly as they drive a table (in baseline
mode: the seats take turns by ``seq``).  Per action, in one transaction, one
ORM INSERT of an event and one ORM UPDATE of the game row; then a
``group_send`` of the game's state (about 1.5 KB of JSON) to the table's
group, and every member ``json.dumps`` it into its ``update`` frame.

No rules, no per-seat view, no log lines in several languages: it is the
yardstick for "a plain Channels + ORM app doing the same round trip", not a
second implementation of the game.  It uses the games the benchmark's set-up
created (``Game`` and ``Event`` of the app), continuing their ``seq``.
"""

from __future__ import annotations

import json
import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sixdice.settings")

import django  # noqa: E402

django.setup()

from channels.db import database_sync_to_async  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.db import transaction  # noqa: E402
from django.urls import path  # noqa: E402

from sixdice.tables.models import Event, Game  # noqa: E402


def _state(seq: int, players: list[str]) -> dict[str, Any]:
    """A game state of about 1.5 KB of JSON, the size of a Run Buster state with five seats."""
    return {
        "seq": seq,
        "current": seq % max(1, len(players)),
        "phase": "roll",
        "players": [
            {"name": name, "score": 100 + 7 * k, "runs": [[1, 2, 3], [2, 3, 4, 5]], "busted": False,
             "hand": [k % 6 + 1, (k + 2) % 6 + 1, (k + 4) % 6 + 1], "history": list(range(40))}
            for k, name in enumerate(players)
        ],
        "dice": [1, 2, 3, 4, 5, 6],
        "options": {"dice": "app", "target": 500, "series": True},
        "round": 1 + seq // 10,
        "note": "x" * 120,
    }


class NaiveConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        self.group = "naive." + code
        game = await self.load_game(code)
        if game is None:
            await self.close(code=4404)
            return
        self.game_id, number, seq, self.players = game
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        welcome = {"id": self.game_id, "number": number, "seq": seq, "status": "playing",
                   "view": _state(seq, self.players), "log": [{"seq": k} for k in range(1, seq + 1)]}
        await self.send(text_data=json.dumps({"type": "welcome", "game": welcome}))

    @database_sync_to_async
    def load_game(self, code: str) -> tuple[int, int, int, list[str]] | None:
        game = Game.objects.filter(table__code=code).order_by("-number").first()
        return None if game is None else (game.pk, game.number, game.seq, list(game.players))

    @database_sync_to_async
    def save_move(self, seq: int, action: dict[str, Any]) -> dict[str, Any]:
        state = _state(seq, self.players)
        with transaction.atomic():
            event = Event.objects.create(game_id=self.game_id, seq=seq, actor="0", action=action,
                                         text="a move", notation=[])
            Game.objects.filter(pk=self.game_id).update(seq=seq, state=state)
        return {"seq": event.seq, "actor": event.actor, "action": event.action, "text": event.text,
                "notation": event.notation, "at": event.created_at.isoformat()}

    async def disconnect(self, close_code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        msg = json.loads(text_data or "{}")
        if msg.get("type") != "action":
            return
        seq = int(msg["seq"]) + 1
        event = await self.save_move(seq, msg.get("action") or {})
        await self.channel_layer.group_send(self.group, {
            "type": "naive.update", "game": self.game_id, "seq": seq, "event": event,
            "state": _state(seq, self.players),
        })
        await self.send(text_data=json.dumps({"type": "ack", "ref": msg.get("id"), "seq": seq}))

    async def naive_update(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({
            "type": "update", "game": message["game"], "number": 1, "seq": message["seq"], "status": "playing",
            "events": [message["event"]], "view": message["state"],
        }))


application = ProtocolTypeRouter({"websocket": URLRouter([path("ws/t/<str:code>/", NaiveConsumer.as_asgi())])})
