"""The baseline: a bare Channels consumer that only relays a message to its group.

Served by daphne as its own ASGI application (``tests.load.baseline:application``)
with the same channel layer settings as the app, at the same path, so the
benchmark's clients drive it exactly as they drive a table: one client sends
``{"type": "action", "seq": n}``, every member of the group gets an
``update`` with ``seq`` n + 1.  No database, no rules, no per-seat view.
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sixdice.settings")

import django  # noqa: E402

django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = "relay." + self.scope["url_route"]["kwargs"]["code"]
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        game = {"id": 1, "number": 1, "seq": 0, "status": "playing", "view": {}, "log": []}
        await self.send(text_data=json.dumps({"type": "welcome", "game": game}))

    async def disconnect(self, close_code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        msg = json.loads(text_data or "{}")
        if msg.get("type") != "action":
            return
        seq = int(msg["seq"]) + 1
        await self.channel_layer.group_send(self.group, {"type": "relay.update", "seq": seq})
        await self.send(text_data=json.dumps({"type": "ack", "ref": msg.get("id"), "seq": seq}))

    async def relay_update(self, event: dict) -> None:
        seq = event["seq"]
        await self.send(text_data=json.dumps(
            {"type": "update", "game": 1, "number": 1, "seq": seq, "status": "playing",
             "events": [{"seq": seq}], "view": {}}
        ))


application = ProtocolTypeRouter({"websocket": URLRouter([path("ws/t/<str:code>/", RelayConsumer.as_asgi())])})
