"""A third game served end to end by the unchanged core (issue: every game a plug-in).

Dice Duel lives in ``tests/third_game/dice_duel`` and reaches the hub only through its entry
point (``conftest.py``). These tests play it as a table would: a table created over the API,
die faces tapped on real pseudo-terminal readers, a move refused and one applied, undo, the
public and private views, then its record exported and checked by ``replay``, and a sheet
scored by ``score``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion import games
from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.readers.virtual import SerialBank, VirtualReader
from tests.third_game.dice_duel import FACES
from tests.waiting import wait_for

READERS = ["bag-1", "bag-2"]
FACE = {value: uid for uid, value in FACES.items()}


class Table:
    """A hub on ptys with a Dice Duel table for Ana and Bob, and a test client."""

    def __init__(self, tmp: Path) -> None:
        self.bank = SerialBank([VirtualReader(r, resend_interval=0.3) for r in READERS],
                               tmp / "dev").start()
        self.hub = Hub(tmp / "hub.sqlite", readers=READERS).start(
            serial=[self.bank.path(r) for r in READERS])
        self.app, _ = create_app(self.hub, "246810")
        self.client = self.app.test_client()
        self.hub.registry.tag_kind("dice-duel", "face", {n - 1: u for u, n in FACES.items()})
        created = self.client.post("/api/tables", json={
            "game": "dice-duel", "players": ["Ana", "Bob"], "readers": READERS})
        assert created.status_code == 201, created.json
        self.info = created.json
        self.id = self.info["id"]

    def tap(self, reader: str, uid: str) -> str:
        seq = self.bank.tap(reader, uid)
        assert wait_for(lambda: self.feedback(reader, seq) is not None)
        level = self.feedback(reader, seq)
        assert level is not None
        return level

    def feedback(self, reader: str, seq: int) -> str | None:
        return next((f["level"] for f in self.bank.readers[reader].feedback
                     if f.get("seq") == seq), None)

    def view(self) -> dict:
        return self.client.get(f"/api/tables/{self.id}").json["view"]

    def move(self, move: dict):
        return self.client.post(f"/api/tables/{self.id}/moves", json={"move": move})

    def close(self) -> None:
        self.bank.stop()
        self.hub.stop()


@pytest.fixture
def table(installed, tmp_path: Path):
    """A started hub with a Dice Duel table."""
    t = Table(tmp_path)
    yield t
    t.close()


def test_the_registry_finds_the_third_game_by_its_entry_point(installed) -> None:
    """The registry lists it after the package's own games, and makes it."""
    assert games.game_ids()[-1] == "dice-duel"
    assert games.load("dice-duel").title == "Dice Duel"


def test_a_table_taps_refuses_applies_and_undoes(table: Table) -> None:
    """A face tapped is a roll; a move out of turn is refused with its code and changes
    nothing; a hold is applied; a tag that is no face is an alert; Undo takes back."""
    assert table.tap("bag-1", FACE[4]) == "ok"
    assert table.view()["turn"] == 4
    before = table.view()
    refused = table.move({"move": "hold", "player": 1})
    assert refused.status_code == 409 and refused.json["code"] == "NOT_YOUR_TURN"
    assert table.view() == before
    assert table.tap("bag-1", "04ffffffffffff") == "error"
    alerts = table.client.get(f"/api/tables/{table.id}").json["alerts"]
    assert alerts[-1]["code"] == "NOT_A_FACE" and table.view() == before
    assert table.move({"move": "hold", "player": 0}).status_code == 200
    assert table.view()["scores"] == [4, 0] and table.view()["current"] == 1
    undone = table.client.post(f"/api/tables/{table.id}/undo",
                               headers={"X-Table-Pin": table.info["pin"]})
    assert undone.status_code == 200
    assert table.view()["scores"] == [0, 0] and table.view()["turn"] == 4


def test_views_record_replay_and_score(table: Table, tmp_path: Path) -> None:
    """Played to the end: the private view needs the seat's token; the exported record
    replays with ``popcorn-companion replay`` to the hub's scores; ``score`` scores a
    sheet of the game."""
    assert table.tap("bag-2", FACE[6]) == "error"  # not Bob's roll: an alert
    for face in (6, 5):  # Ana: 6 + 5, hold (11); Bob rolls a 1; Ana: 6, hold (17 wins)
        assert table.tap("bag-1", FACE[face]) == "ok"
    assert table.move({"move": "hold", "player": 0}).status_code == 200
    assert table.tap("bag-2", FACE[1]) == "ok"
    assert table.tap("bag-1", FACE[6]) == "ok"
    assert table.move({"move": "hold", "player": 0}).status_code == 200
    assert table.view()["over"]
    token = table.info["tokens"][1]
    mine = table.client.get(f"/api/tables/{table.id}/players/1/private",
                            headers={"X-Player-Token": token})
    assert mine.status_code == 200 and mine.json["score"] == 0
    other = table.client.get(f"/api/tables/{table.id}/players/0/private",
                             headers={"X-Player-Token": token})
    assert other.status_code == 403
    scores = table.client.get(f"/api/tables/{table.id}/scores").json
    assert scores["winners"] == ["Ana"]
    record = tmp_path / "game.jsonl"
    record.write_text(table.client.get(f"/api/tables/{table.id}/record",
                                       headers={"X-Table-Pin": table.info["pin"]}).get_data(
                                           as_text=True))
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(record)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == scores
    # the archive knows no game: a game without standings is listed with its players only,
    # and its record (the default, from the move log) reads back as the same game
    [archived] = table.client.get("/api/archive").json["games"]
    assert (archived["id"], archived["game"], archived["title"]) == (table.id, "dice-duel",
                                                                     "Dice Duel")
    assert archived["players"] == [{"name": n, "score": None, "place": None, "winner": False}
                                   for n in ("Ana", "Bob")]
    again = table.client.post("/api/archive", json={"record": record.read_text(),
                                                    "admin_pin": "246810"})
    assert again.status_code == 409 and again.json["code"] == "DUPLICATE_GAME"  # read back
    # the replay board knows no game: the table's moves, each public as the interface's
    # default (its kind and player), its views the game's public views; the archived game
    # replays the same from its record
    replay = table.client.get(f"/api/tables/{table.id}/replay").json
    assert replay["game"] == "dice-duel" and replay["over"] and replay["rounds"] == []
    assert replay["charts"] == [] and replay["analyzes"] is False
    assert replay["steps"][-1] == {"move": "hold", "player": 0, "round": None}
    last = table.client.get(f"/api/tables/{table.id}/replay/views?from={replay['moves']}")
    assert last.json["views"] == [{k: v for k, v in table.view().items()
                                   if k not in ("card_choice", "audit", "alert_rounds")}]
    archived_replay = table.client.get(f"/api/archive/{table.id}/replay")
    assert archived_replay.status_code == 200 and archived_replay.json["over"]
    assert archived_replay.json["steps"] == replay["steps"]
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps({"game": "dice-duel", "players": ["Ana", "Bob"],
                                 "scores": [3, 9]}))
    scored = subprocess.run([sys.executable, "-m", "companion", "score", str(sheet)],
                            capture_output=True, text=True, check=False)
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["winners"] == ["Bob"]


def test_a_screen_in_chromium_shows_the_game(installed, browser, tmp_path: Path) -> None:
    """The dashboard has no module for Dice Duel: its shell draws the table's public view
    as the hub sends it, and follows each state push (a die face tapped on a reader)."""
    from companion.hub.remote import ServeProcess
    from companion.kit.http import call
    from tests.web.room import TABLET

    bank = SerialBank([VirtualReader(r, resend_interval=0.3) for r in READERS],
                      tmp_path / "dev").start()
    server = ServeProcess(tmp_path / "hub.db", serial=[bank.path(r) for r in READERS],
                          readers=READERS).start()
    try:
        admin = {"admin_pin": server.admin_pin}
        call(f"{server.base}/api/enroll", "POST", {**admin, "game": "dice-duel",
                                                   "kind": "face", "next": True})
        for value in range(1, 7):  # the faces in order: 1 to 6
            bank.tap("bag-1", FACE[value])
        assert wait_for(lambda: call(f"{server.base}/api/tags/counts")["pieces"][-1][
            "values"][5]["enrolled"] == 1)
        call(f"{server.base}/api/enroll", "DELETE", admin)
        info = call(f"{server.base}/api/tables", "POST", {
            "game": "dice-duel", "players": ["Ana", "Bob"], "readers": READERS})
        page = browser.new_page(viewport=TABLET)
        errors: list[str] = []
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.goto(f"{server.base}/table/{info['id']}")
        view = page.get_by_test_id("generic-view")
        view.wait_for()
        assert page.get_by_test_id("generic-players").inner_text() == "Ana · Bob"
        assert page.get_by_test_id("generic-view-scores").inner_text() == "0, 0"
        bank.tap("bag-1", FACE[5])
        page.get_by_test_id("generic-view-turn").filter(has_text="5").wait_for()
        assert page.get_by_test_id("generic-view-rolls").inner_text() == "5"
        page.get_by_test_id("undo").click()  # the generic screen's Undo asks for the PIN
        page.get_by_test_id("pin-dialog").wait_for()
        page.locator("#pin-input").fill(info["pin"])
        page.locator("#pin-input").press("Enter")
        page.get_by_test_id("generic-view-turn").filter(has_text="0").wait_for()
        assert page.get_by_test_id("generic-view-rolls").inner_text() == ""  # no roll left
        pin = page.get_by_test_id("generic-pin")  # kept on this tablet: Forget takes it back
        assert pin.get_attribute("aria-pressed") == "true"
        pin.click()
        page.locator('[data-testid="generic-pin"][aria-pressed="false"]').wait_for()
        assert page.evaluate(f"localStorage.getItem('popcorn:pin:{info['id']}')") is None
        page.close()
        assert errors == [], errors
    finally:
        server.stop()
        bank.stop()
