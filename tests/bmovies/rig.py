"""A B Movies table on a hub in this process: virtual token pads on pseudo-terminals, every
popcorn token enrolled, and the app's test client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.games.bmovies.demo import enroll_tokens
from companion.games.bmovies.engine import Move
from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.readers.virtual import SerialBank, VirtualReader

ADMIN = "135790"
NAMES = ["Ana", "Bob", "Chloe", "Dev", "Eve", "Finn"]


class Rig:
    """A started hub with ``n`` virtual token pads, every token enrolled, and a client."""

    def __init__(self, tmp: Path, n: int) -> None:
        self.tmp, self.readers = tmp, [f"pad-{i + 1}" for i in range(n)]
        self.bank = SerialBank([VirtualReader(r, resend_interval=0.3) for r in self.readers],
                               tmp / "dev").start()
        self.hub = Hub(tmp / "hub.sqlite", readers=self.readers).start(
            serial=[self.bank.path(r) for r in self.readers])
        self.app, self.socketio = create_app(self.hub, ADMIN)
        self.client = self.app.test_client()
        self.uids = enroll_tokens(self.hub, 1)

    def create(self, variant: str = "standard", **extra: Any) -> dict[str, Any]:
        body = {"game": "b-movies", "players": NAMES[:len(self.readers)],
                "readers": self.readers, "variant": variant, **extra}
        created = self.client.post("/api/tables", json=body)
        assert created.status_code == 201, created.json
        return created.json

    def post(self, info: dict[str, Any], move: dict[str, Any], **secret: str):
        return self.client.post(f"/api/tables/{info['id']}/moves",
                                json={"move": move, **secret})

    def send_as_devices(self, info: dict[str, Any]):
        """How the scripted players' decisions reach the hub: a pitch as the tablet sends
        it, a vote with that player's phone token."""
        def send(move: Move) -> None:
            secret = {"token": info["tokens"][move.player]} if move.kind == "vote" else {}
            answer = self.post(info, move.to_dict(), **secret)
            assert answer.status_code == 200, answer.json
        return send

    def table(self, info: dict[str, Any]):
        return self.hub.tables[info["id"]]

    def tap(self, seat: int, token: int) -> int:
        return self.bank.tap(self.readers[seat], self.uids[token])

    def feedback(self, seat: int, seq: int) -> str | None:
        for fb in self.bank.readers[self.readers[seat]].feedback:
            if fb.get("seq") == seq:
                return fb["level"]
        return None

    def close(self) -> None:
        self.bank.stop()
        self.hub.stop()
