"""A hub in this process: a started hub on a temp database, four virtual bag readers on
pseudo-terminals, every pawn enrolled, and the app's test client."""

from __future__ import annotations

from pathlib import Path

from companion.games.popcorn.demo import enroll_box
from companion.games.popcorn.engine import pawns as P
from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.readers.virtual import SerialBank, VirtualMat, VirtualReader
from tests.waiting import wait_for

READERS = ["bag-1", "bag-2", "bag-3", "bag-4"]
ADMIN = "246810"


class Rig:
    """A started hub on a temp database, four virtual readers on ptys, and a test client."""

    def __init__(self, tmp: Path, mats: tuple[str, ...] = ()) -> None:
        """``mats``: virtual cinema mats beside the bag readers (none by default)."""
        readers = [VirtualReader(r, resend_interval=0.3) for r in READERS]
        self.bank = SerialBank([*readers, *(VirtualMat(m, resend_interval=0.3) for m in mats)],
                               tmp / "dev").start()
        self.hub = Hub(tmp / "hub.sqlite", readers=READERS, mats=list(mats)).start(
            serial=[self.bank.path(r) for r in [*READERS, *mats]])
        self.app, self.socketio = create_app(self.hub, ADMIN)
        self.client = self.app.test_client()
        self.uids = enroll_box(self.hub, 1)

    def table(self, players=("Ana", "Bob"), readers=None, seed=3, fill=None,
              mats=None) -> dict:
        """A new table at the start of its first Buying phase, each player's award kept by
        phone. ``fill``: seat -> color (or ``"*"``: every color), that seat's guests of that
        color tapped into its bag at setup (the hub then knows each of them by its tag);
        ``mats``: a mat id (or None) per seat."""
        body = {"players": list(players), "readers": readers or READERS[:len(players)],
                "deal_seed": seed}
        if mats:
            body["mats"] = list(mats)
        created = self.client.post("/api/tables", json=body)
        assert created.status_code == 201, created.json
        info = created.json
        for seat, color in (fill or {}).items():
            state = self.state(info)
            for pawn in [q for q in in_zone(state, P.bag(seat))
                         if color in ("*", state.pawn_color[q])]:
                seq = self.tap(body["readers"][seat], self.uids[pawn])
                assert wait_for(lambda seq=seq, seat=seat: self.feedback(
                    body["readers"][seat], seq) == "ok")
        for seat, token in enumerate(info["tokens"]):  # each player keeps an award by phone
            private = self.client.get(f"/api/tables/{info['id']}/players/{seat}/private",
                                      headers={"X-Player-Token": token}).json
            if private["legal"]:
                self.move(info, private["legal"][0], token=token)
        return info

    def move(self, info: dict, move: dict, token: str | None = None, pin: str | None = None):
        headers = {}
        if token:
            headers["X-Player-Token"] = token
        if pin:
            headers["X-Table-Pin"] = pin
        return self.client.post(f"/api/tables/{info['id']}/moves", json={"move": move},
                                headers=headers)

    def state(self, info: dict):
        return self.hub.tables[info["id"]].state

    def end_buying(self, info: dict) -> None:
        while self.state(info).phase == "buying":
            current = self.state(info).current
            assert self.move(info, {"move": "end_turn", "player": current}).status_code == 200

    def tap(self, reader: str, uid: str) -> int:
        return self.bank.tap(reader, uid)

    def feedback(self, reader: str, seq: int) -> str | None:
        for fb in self.bank.readers[reader].feedback:
            if fb.get("seq") == seq:
                return fb["level"]
        return None

    def close(self) -> None:
        self.bank.stop()
        self.hub.stop()


def in_zone(state, zone: int) -> list[int]:
    return state.pawns_at(zone)


def alert_case(rig: Rig, info: dict, reader: str, uid: str, code: str) -> None:
    """Tap, then expect an alert of ``code``, error feedback, and an unchanged game."""
    table = rig.hub.tables[info["id"]]
    before = table.state.to_dict()
    seq = rig.tap(reader, uid)
    assert wait_for(lambda: rig.feedback(reader, seq) is not None)
    assert rig.feedback(reader, seq) == "error"
    assert table.alerts[-1]["code"] == code
    assert table.state.to_dict() == before
    alert = table.alerts[-1]
    assert alert["message"] and alert["fix"]
