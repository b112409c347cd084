"""Hub databases written by older versions of the hub still load, play on and keep their tags.

Each ``tests/hub/old_hubs/<name>.sqlite`` was made by an older commit's own hub (see that
folder's README.md and ``make_fixtures.py``), with the facts that old hub's own app showed
saved beside it as ``<name>.json``. Every test opens a *copy* of the file with today's hub
and compares: the tables listed, each table's state rebuilt from its log (the public view
and each phone's private view), the finished game's scores and its place in the archive
(which older hubs did not have), and the tags. A restored table
must take its next move (by the API, and a tap through a real virtual reader), and the file
is upgraded in place to today's schema.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.games.popcorn.engine import Move as PopcornMove
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import loads_record, replay
from companion.games.popcorn.views import scores as popcorn_scores
from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.readers.store import SCHEMA_VERSION
from companion.readers.virtual import SerialBank, VirtualReader
from companion.table.store import HUB_SCHEMA_VERSION
from tests.waiting import wait_for

FOLDER = Path(__file__).parent / "old_hubs"
FIXTURES = sorted(FOLDER.glob("*.sqlite"))
ADMIN = "246810"
"""The admin PIN the fixtures' facts were read with (``make_fixtures.ADMIN``)."""


@dataclass
class Old:
    """One old hub database, copied for a test, and what its own hub showed."""

    name: str
    path: Path
    """The copy (the fixture itself is never opened by a hub)."""
    facts: dict[str, Any]

    def table(self, name: str) -> dict[str, Any]:
        """The facts of the table called ``name`` (Finished, Mid-game or B Movies)."""
        return next(t for t in self.facts["tables"] if t["table"]["name"] == name)

    def schemas(self) -> dict[str, str]:
        """The copy's ``meta`` table: its ``schema`` and ``hub_schema`` versions."""
        db = sqlite3.connect(self.path)
        try:
            return dict(db.execute("SELECT key, value FROM meta"))
        finally:
            db.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(params=FIXTURES, ids=lambda path: path.stem)
def old(request, tmp_path: Path) -> Iterator[Old]:
    """A copy of one fixture in ``tmp_path``; the fixture must be unchanged afterwards."""
    fixture: Path = request.param
    before = digest(fixture)
    copy = tmp_path / "hub.sqlite"
    shutil.copyfile(fixture, copy)
    yield Old(fixture.stem, copy, json.loads(fixture.with_suffix(".json").read_text()))
    assert digest(fixture) == before, f"{fixture.name} was modified"


@dataclass
class Opened:
    """Today's hub on an old file, its app's test client, and its virtual readers."""

    hub: Hub
    client: Any
    bank: SerialBank | None


@contextmanager
def opened(old: Old, serial: list[str] | None = None) -> Iterator[Opened]:
    """Today's hub on the copy. ``serial``: readers to give virtual serial readers (booted
    again since the old hub wrote the file: boot 2)."""
    hub = Hub(old.path, readers=serial or [])
    bank = None
    if serial:
        bank = SerialBank([VirtualReader(r, boot=2, resend_interval=0.3) for r in serial],
                          old.path.parent / "dev").start()
        hub.start(serial=[bank.path(r) for r in serial])
    app, _ = create_app(hub, ADMIN)
    try:
        yield Opened(hub, app.test_client(), bank)
    finally:
        if bank:
            bank.stop()
        hub.stop()


def test_there_is_a_fixture_for_each_era() -> None:
    """Schema 1, configs naming no game, configs naming Popcorn, B Movies tables, and hub
    schema 3 (the archive)."""
    for era in ("schema1-", "no-game-", "game-field-", "bmovies-", "archive-"):
        assert any(path.stem.startswith(era) for path in FIXTURES), era
    for path in FIXTURES:
        assert path.with_suffix(".json").exists()
        assert path.stat().st_size < 200_000, f"{path.name}: keep the fixtures small"


def test_the_tables_are_listed_with_their_players_and_game(old: Old) -> None:
    """``GET /api/tables``: the old list, each table with its game (Popcorn for a table
    stored before tables named their game) and the same count of events."""
    with opened(old) as now:
        listed = {t["id"]: t for t in now.client.get("/api/tables").json}
    assert list(listed) == [t["id"] for t in old.facts["list"]]
    for before in old.facts["list"]:
        today = listed[before["id"]]
        assert today["game"] == before.get("game", "popcorn")
        for key in ("name", "players", "readers", "first_player", "events", "over", "closed",
                    "hints", "deal_for_us"):
            assert today[key] == before[key], (before["name"], key)
        assert today["options"] == before.get("options", {})


def test_each_table_is_restored_by_replaying_its_log(old: Old) -> None:
    """Round, phase and current player, then every field of the old public view (today's
    view may add fields), the alerts, and each phone's private view."""
    with opened(old) as now:
        client = now.client
        for facts in old.facts["tables"]:
            before = facts["table"]
            answer = client.get(f"/api/tables/{facts['id']}").json
            view = answer["view"]
            for key in ("round", "phase", "current"):
                assert view.get(key) == before["view"].get(key), (before["name"], key)
            assert {k: view.get(k) for k in before["view"]} == before["view"], before["name"]
            # today's alerts add their id, the number of the event that raised them (an
            # archive-era hub's had it already)
            assert [{k: v for k, v in a.items() if k != "id"} for a in answer["alerts"]] \
                == [{k: v for k, v in a.items() if k != "id"} for a in before["alerts"]]
            assert all(type(a["id"]) is int for a in answer["alerts"])
            for seat, token in enumerate(facts["tokens"]):
                private = client.get(f"/api/tables/{facts['id']}/players/{seat}/private",
                                     headers={"X-Player-Token": token})
                assert private.status_code == 200, private.json
                assert private.json == facts["private"][seat], (before["name"], seat)


def test_the_finished_game_keeps_its_scores(old: Old) -> None:
    """The old hub's scores, from ``/scores`` and from replaying the exported record."""
    facts = old.table("Finished")
    with opened(old) as now:
        client = now.client
        scores = client.get(f"/api/tables/{facts['id']}/scores")
        record = client.get(f"/api/tables/{facts['id']}/record",
                            headers={"X-Table-Pin": facts["pin"]})
    assert scores.status_code == 200 and scores.json == facts["scores"]
    assert record.status_code == 200
    state = replay(load_catalog(), loads_record(record.get_data(as_text=True)))
    assert state.is_over
    totals = {p["name"]: p["total"] for p in facts["scores"]["players"]}
    replayed = popcorn_scores(state)
    assert {p["name"]: p["total"] for p in replayed["players"]} == totals
    assert replayed["winners"] == facts["scores"]["winners"]


def test_the_finished_game_is_in_the_archive(old: Old) -> None:
    """An older hub's file had no archive: today's hub archives its finished game when it
    opens it, with the old hub's players, totals and winners, and its record."""
    facts = old.table("Finished")
    with opened(old) as now:
        listing = now.client.get("/api/archive").json
        record = now.client.get(f"/api/archive/{facts['id']}/record",
                                headers={"X-Admin-Pin": ADMIN})
    finished = [t for t in old.facts["tables"] if t["table"]["view"].get("phase") == "over"]
    assert listing["total"] == len(finished) == 1
    [game] = listing["games"]
    assert (game["id"], game["game"], game["source"]) == (facts["id"], "popcorn", "table")
    totals = {p["name"]: p["total"] for p in facts["scores"]["players"]}
    assert {p["name"]: p["score"] for p in game["players"]} == totals
    assert game["winners"] == facts["scores"]["winners"]
    assert record.status_code == 200
    assert replay(load_catalog(), loads_record(record.get_data(as_text=True))).is_over


def test_the_finished_games_analysis_is_kept_in_the_upgraded_file(old: Old) -> None:
    """Hub schema 4 keeps analyses (``archive_analyses``), which no older file had: today's
    hub analyses the old file's finished game once, keeps it in the file, and reads it back
    when the file opens again; an archive-era file's archived game is the one its own hub
    listed."""
    facts = old.table("Finished")
    if "archive" in old.facts:
        assert [g["id"] for g in old.facts["archive"]["games"]] == [facts["id"]]
    with opened(old) as now:
        path = f"/api/archive/{facts['id']}/analysis"
        assert now.client.get(path).json == {"state": "none"}
        assert now.client.post(path).status_code in (200, 202)
        assert wait_for(lambda: now.client.get(path).json["state"] == "done")
        done = now.client.get(path).json
        record = now.client.get(f"/api/archive/{facts['id']}/record",
                                headers={"X-Admin-Pin": ADMIN}).get_data(as_text=True)
        assert done["analysis"] == now.hub.games["popcorn"].advisor.analyze(record)
        assert [p["name"] for p in done["analysis"]["players"]] == ["Ana", "Bob"]
    with opened(old) as now:
        assert now.client.get(path).json == done
        replayed = now.client.get(f"/api/archive/{facts['id']}/replay").json
        assert replayed["over"] and replayed["moves"] == len(record.splitlines()) - 1


def next_move(hub: Hub, facts: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """A legal move of a restored open table, and the headers its secret needs."""
    table = hub.tables[facts["id"]]
    if table.game.id == "popcorn":
        return table.view()["legal"][0], {}
    seat = table.view()["waiting"][0]  # B Movies: a vote, from that player's phone
    move = next(m for m in table.state.legal_moves() if m.player == seat)
    return move.to_dict(), {"X-Player-Token": facts["tokens"][seat]}


def test_a_restored_table_accepts_its_next_move_and_restarts_with_it(old: Old) -> None:
    """An open table takes a legal move (logged after the old events); a restart replays
    old and new events to the same state. The finished table stays closed."""
    finished = old.table("Finished")
    open_tables = [t for t in old.facts["tables"] if not t["table"]["closed"]]
    states = {}
    with opened(old) as now:
        hub, client = now.hub, now.client
        for facts in open_tables:
            move, headers = next_move(hub, facts)
            answer = client.post(f"/api/tables/{facts['id']}/moves", json={"move": move},
                                 headers=headers)
            assert answer.status_code == 200, (facts["table"]["name"], answer.json)
            table = hub.tables[facts["id"]]
            assert table.count == facts["table"]["events"] + 1
            states[facts["id"]] = table.state.to_dict()
        refused = client.post(f"/api/tables/{finished['id']}/moves",
                              json={"move": {"move": "end_turn", "player": 0}})
        assert refused.status_code == 409 and refused.json["code"] == "TABLE_CLOSED"
    with opened(old) as now:
        for table_id, state in states.items():
            assert now.hub.tables[table_id].state.to_dict() == state


def test_an_old_hubs_alert_is_dismissed_for_good(old: Old) -> None:
    """An alert logged by an old hub (no id in its event) is listed with its event's number;
    dismissed, it is gone, and it stays gone when the file opens again."""
    tables = [t for t in old.facts["tables"] if t["table"]["alerts"] and not t["table"]["closed"]]
    if not tables:
        pytest.skip(f"{old.name} has no open table with an alert")
    facts = tables[0]
    with opened(old) as now:
        alerts = now.client.get(f"/api/tables/{facts['id']}").json["alerts"]
        first = alerts[0]["id"]
        answer = now.client.post(f"/api/tables/{facts['id']}/alerts/{first}/dismiss")
        assert answer.status_code == 200, answer.json
    with opened(old) as now:
        again = now.client.get(f"/api/tables/{facts['id']}").json["alerts"]
    assert [a["id"] for a in again] == [a["id"] for a in alerts[1:]]


def test_a_restored_popcorn_table_reads_a_tapped_pawn(old: Old) -> None:
    """A pawn drawn from a bag is tapped on a (rebooted) virtual reader: today's hub reads
    it with the old registry as that player's draw, acks it, and logs it."""
    facts = old.table("Mid-game")
    readers = facts["table"]["readers"]
    with opened(old, serial=readers) as now:
        hub, bank = now.hub, now.bank
        assert bank is not None
        table = hub.tables[facts["id"]]
        uids = {n: uid for uid, (_, kind, n) in hub.store.pieces().items() if kind == "pawn"}
        draw = _a_draw(hub, facts["id"])
        assert draw is not None and draw.player is not None and draw.pawn is not None
        before = table.count
        reader = readers[draw.player]
        seq = bank.tap(reader, uids[draw.pawn])
        assert wait_for(lambda: table.count > before)
        feedback = bank.readers[reader].feedback
        assert wait_for(lambda: any(f.get("seq") == seq for f in feedback))
        levels = [f["level"] for f in feedback if f.get("seq") == seq]
        assert levels == ["ok"], table.alerts
        assert table.state.loc[draw.pawn] == P.hand(draw.player)


def _a_draw(hub: Hub, table_id: str) -> PopcornMove | None:
    """Play the table on (tablet moves) until someone is to draw a pawn from their bag."""
    table = hub.tables[table_id]
    for _ in range(200):
        state = table.state
        draws = [m for p in state.waiting_players()
                 for m in state.chance_outcomes(p) if m.kind == "draw_pawn"]
        if draws:
            return draws[0]
        legal = state.legal_moves()
        hub.submit(table_id, legal[0])
    return None


def test_the_tags_resolve_to_the_same_pawns_cards_and_tokens(old: Old) -> None:
    """Every UID the old registry exported is the same pawn, card or token today: the piece
    of its game, with the pawn's number, the card's id as its value, the token's number."""
    registry = old.facts["registry"]
    with opened(old) as now:
        hub, client = now.hub, now.client
        for item in registry["tags"]:
            piece = hub.registry.piece_of(item["uid"])
            assert piece is not None and (piece.game, piece.kind, piece.id) == (
                "popcorn", "pawn", item["pawn"])
        for item in registry.get("cards", []):
            piece = hub.registry.piece_of(item["uid"])
            assert piece is not None and (piece.kind, piece.value) == (item["kind"], item["card"])
        for item in registry.get("tokens", []):
            piece = hub.registry.piece_of(item["uid"])
            assert piece is not None and (piece.game, piece.kind, piece.id) == (
                "b-movies", "token", item["token"])
        counts = client.get("/api/tags/counts").json
    assert sum(counts["counts"].values()) == len(registry["tags"]) == 60
    assert sum(counts["cards"].values()) == len(registry.get("cards", []))
    assert sum(counts["tokens"].values()) == len(registry.get("tokens", []))


def test_the_file_is_upgraded_in_place(old: Old) -> None:
    """The copy had the old hub's schema; today's hub writes its own into the same file, which
    then takes what only today's schema holds (a card tag) and opens again."""
    assert old.schemas()["hub_schema"] == old.facts["hub_schema"]
    with opened(old) as now:
        assert old.schemas()["hub_schema"] == str(HUB_SCHEMA_VERSION)
        assert old.schemas()["schema"] == str(SCHEMA_VERSION)  # the reader store's: mats
        if not old.facts["registry"].get("cards"):
            now.hub.registry.enroll("04000000000012", "popcorn", "movie", _first_movie())
    with opened(old) as now:
        assert len(now.hub.tables) == len(old.facts["tables"])
        if not old.facts["registry"].get("cards"):
            piece = now.hub.registry.piece_of("04000000000012")
            assert piece is not None and piece.value == _first_movie()


def _first_movie() -> str:
    return next(iter(load_catalog().movies))
