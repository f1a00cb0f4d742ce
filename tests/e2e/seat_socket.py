"""A seat a browser test moves without a page: the table's WebSocket, spoken as live.js speaks it.

A test about some phones (the seat under test, the host, the table screen) still needs the other seats to
move.  An open page draws every move of the game, and that drawing is most of a many-player test's time;
a seat the test never looks at joins through its page (the join is part of the story), hands its session
to a :class:`SeatSocket`, and its page is put away.  The socket keeps the seat's view as the page would
(the welcome, then each update in order, a resync on a gap) and sends a move as the page does, waiting for
the server's answer: an ack, or the refusal as a failed assertion.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from playwright.sync_api import Page
from websockets.sync.client import ClientConnection, connect

WAIT = 30.0  # seconds: the longest a move of another seat may take to arrive


class SeatSocket:
    """The seat whose session ``page``'s cookie holds, played over its own WebSocket."""

    def __init__(self, server_url: str, code: str, session: str) -> None:
        ws_url = server_url.replace("http", "ws", 1) + f"/ws/t/{code}/"
        # Unread frames queue up without a bound: a seat waiting for its turn never holds back the server's sends.
        opened = connect(ws_url, origin=server_url, additional_headers={"Cookie": f"sessionid={session}"},  # type: ignore[arg-type]
                         max_queue=None, max_size=2**22)
        self.ws: ClientConnection = opened.__enter__()  # closed by close()
        self.game: dict[str, Any] | None = None
        self.next_id = 1
        self.answers: dict[int, dict[str, Any]] = {}
        self.welcomed = False
        self._read_until(lambda: self.welcomed)  # in the lobby, a welcome without a game

    @classmethod
    def take_over(cls, page: Page, server_url: str, code: str) -> SeatSocket:
        """The seat ``page`` holds, from now on played from the test; the caller puts the page away."""
        session = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")
        page.goto("about:blank")  # the page lets go of its socket first: one connection holds the seat
        return cls(server_url, code, session)

    @property
    def view(self) -> dict[str, Any]:
        assert self.game is not None
        return self.game["view"]

    @property
    def seq(self) -> int:
        return int(self.game["seq"]) if self.game else -1

    def wait_seq(self, at_least: int) -> None:
        """Wait until this seat has move ``at_least`` (or a later one)."""
        self._read_until(lambda: self.seq >= at_least)

    def act(self, action: dict[str, Any]) -> None:
        """Send the seat's move and wait for the server's answer; a refusal fails the test with its message."""
        ref = self._send({"type": "action", "seq": self.seq, "action": action, "as_host": False,
                          "action_id": uuid.uuid4().hex})
        self._read_until(lambda: ref in self.answers)
        answer = self.answers.pop(ref)
        assert answer["type"] == "ack", f"the server refused {action}: {answer}"

    def close(self) -> None:
        self.ws.close()

    def _send(self, msg: dict[str, Any]) -> int:
        ref = self.next_id
        self.next_id += 1
        self.ws.send(json.dumps({**msg, "id": ref}))
        return ref

    def _read_until(self, done: Any) -> None:
        deadline = time.monotonic() + WAIT
        while not done():
            left = deadline - time.monotonic()
            assert left > 0, f"the seat's socket waited {WAIT:.0f} s in vain (at move {self.game and self.game['seq']})"
            self._take(json.loads(self.ws.recv(timeout=left)))

    def _take(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if "ref" in msg and kind in ("ack", "error"):
            self.answers[int(msg["ref"])] = msg
        self.welcomed = self.welcomed or kind == "welcome"
        if kind in ("welcome", "snapshot", "revoked") and msg.get("game"):
            g = msg["game"]
            if not (self.game and self.game["id"] == g["id"] and g["seq"] < self.game["seq"]):  # not an older picture
                self.game = {"id": g["id"], "seq": g["seq"], "view": g["view"]}
        elif kind == "update":
            if self.game is None or msg["game"] != self.game["id"]:  # a game this seat has not seen yet: ask for it
                self._send({"type": "resync", "game": None, "since": 0})
                return
            fresh = [e for e in msg["events"] if e["seq"] > self.game["seq"]]
            if not fresh:
                return
            if fresh[0]["seq"] != self.game["seq"] + 1:  # a gap: ask for what was missed, as live.js
                self._send({"type": "resync", "game": self.game["id"], "since": self.game["seq"]})
                return
            self.game.update(seq=msg["seq"], view=msg["view"])
