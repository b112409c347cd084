"""The answers of the most used routes match their schemas in the OpenAPI document, and those
schemas say what each key is: the hub's facts (health, games, readers), a table's info as
its creation, the list and its reading give it, an audit's steps, and the archive's
summaries. Each answer here is a real one, from the Flask test client of a hub with virtual
readers; each is then doctored one key at a time, and the schema must refuse it.
``tests/hub/test_fuzz_api.py`` checks the same against a real ``serve`` (Schemathesis's
``response_schema_conformance``), over many more requests and more slowly.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, get_args

import msgspec
import pytest
from jsonschema import Draft202012Validator

from companion.games.popcorn.engine import pawns as P
from companion.hub import push_models
from companion.readers import health
from tests.hub.rig import ADMIN, Rig, in_zone
from tests.hub.test_reader_health import beats
from tests.waiting import wait_for

RECORD = Path(__file__).resolve().parents[2] / "docs" / "examples" / "game-4p.jsonl"
"""A finished game's record, to import into the archive."""


class Answers:
    """A rig's client and the OpenAPI document its app serves; checks answers against it."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self.document: dict[str, Any] = rig.client.get("/api/openapi.json").json

    def schema(self, method: str, path: str, status: int = 200) -> dict[str, Any]:
        """The schema of the operation's answer of ``status``."""
        answer = self.document["paths"][path][method.lower()]["responses"][str(status)]
        return answer["content"]["application/json"]["schema"]

    def errors(self, method: str, path: str, body: Any, status: int = 200) -> list[str]:
        """Where ``body`` departs from the operation's answer schema (none: it matches)."""
        schema = {**self.schema(method, path, status), "components": self.document["components"]}
        return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                for e in Draft202012Validator(schema).iter_errors(body)]

    def check(self, method: str, url: str, path: str, status: int = 200,
              **request: Any) -> Any:
        """Send ``method`` to ``url`` (of the document's ``path``); the answer, once it has
        ``status`` and matches its schema."""
        answer = self.rig.client.open(url, method=method, **request)
        assert answer.status_code == status, answer.json
        assert self.errors(method, path, answer.json, status) == [], (path, answer.json)
        return answer.json

    def refuses(self, method: str, path: str, body: Any, changes: list[tuple[str, Any]],
                status: int = 200) -> None:
        """Each of ``changes`` (a key's path, ``a/0/b``, and its new value; ``DROP``: the key
        is gone) made to ``body`` alone makes it depart from the schema."""
        for where, value in changes:
            doctored = copy.deepcopy(body)
            *parents, last = where.split("/")
            holder = doctored
            for part in parents:
                holder = holder[int(part) if isinstance(holder, list) else part]
            if value is DROP:
                del holder[last]
            else:
                holder[last] = value
            assert self.errors(method, path, doctored, status) != [], (path, where, value)


DROP = object()
"""A change that removes the key (see :meth:`Answers.refuses`)."""

TABLE = "/api/tables/{table_id}"
AUDIT = f"{TABLE}/audits"


@pytest.fixture
def answers(rig: Rig) -> Answers:
    """The rig's document, and its checks."""
    return Answers(rig)


def test_the_hubs_facts_match_their_schemas(rig: Rig, answers: Answers) -> None:
    """``/api/health``, ``/api/games``, and ``/api/readers`` with a reader's health levels
    from its heartbeats and the others' unknown (the schema of the ``readers`` push)."""
    health_answer = answers.check("GET", "/api/health", "/api/health")
    answers.refuses("GET", "/api/health", health_answer, [("ok", False), ("tables", "1")])
    games = answers.check("GET", "/api/games", "/api/games")
    answers.refuses("GET", "/api/games", games, [
        ("0/min_players", "2"), ("0/features/deal", "yes"), ("0/screens/styles", "a.css"),
        ("1/words", DROP)])
    beats(rig, "bag-1", 3, supply_mv=3400, rssi=-60, read_fail=0)
    listed = answers.check("GET", "/api/readers", "/api/readers")
    first = next(r for r in listed if r["reader"] == "bag-1")
    assert first["battery"] == "low" and first["problems"] == ["battery"]
    assert first["transport"] == "serial" and isinstance(first["heartbeat_age"], float)
    assert answers.schema("GET", "/api/readers") == {
        "type": "array", "items": {"$ref": "#/components/schemas/ReaderStatus"}}
    answers.refuses("GET", "/api/readers", listed, [
        ("0/signal", "bad"), ("0/problems", ["cold"]), ("0/transport", "pigeon"),
        ("0/rssi", "-60"), ("1/fails_last_minute", None), ("1/heartbeat_age", DROP)])


def test_the_reader_levels_of_the_schema_are_the_health_modules() -> None:
    """The levels ``ReaderStatus`` lists are :mod:`companion.readers.health`'s own."""
    fields = {f.name: f.type for f in msgspec.structs.fields(push_models.ReaderStatus)}
    assert set(get_args(fields["signal"])) == set(health.SIGNAL_LEVELS)
    assert set(get_args(fields["battery"])) == set(health.BATTERY_LEVELS)
    assert set(get_args(fields["reads"])) == set(health.READS_LEVELS)
    assert set(get_args(get_args(fields["problems"])[0])) == set(health.PROBLEMS)


def test_a_tables_info_matches_its_schema(rig: Rig, answers: Answers) -> None:
    """A table created (with its PIN, tokens and phone links), listed, read with its view
    and alerts, and listed again once closed."""
    info = answers.check("POST", "/api/tables", "/api/tables", 201, json={
        "players": ["Ana", "Bob"], "readers": ["bag-1", "bag-2"], "deal_seed": 3})
    answers.refuses("POST", "/api/tables", info, [
        ("events", "0"), ("over", None), ("players", ["Ana", 2]), ("first_player", -1),
        ("phones/0/seat", "0"), ("tokens", DROP), ("closed", DROP)], 201)
    url = f"/api/tables/{info['id']}"
    read = answers.check("GET", url, TABLE)
    answers.refuses("GET", TABLE, read, [("alerts", {}), ("view", DROP), ("hints", "on")])
    closed = rig.client.post(f"{url}/close", json={}, headers={"X-Table-Pin": info["pin"]})
    assert closed.status_code == 200, closed.json
    listed = answers.check("GET", "/api/tables", "/api/tables")
    assert [t["closed"] for t in listed] == [True]
    answers.refuses("GET", "/api/tables", listed, [("0/id", 1), ("0/readers", "bag-1")])


def test_an_audits_steps_match_their_schemas(rig: Rig, answers: Answers) -> None:
    """A whole-table check: started, read, ended with a guest of the bag not tapped (a
    finding and its fix), accepted (the next seat's audit follows), read as that seat's
    phone, dropped."""
    info = rig.table()
    pin = {"X-Table-Pin": info["pin"]}
    base = f"/api/tables/{info['id']}/audits"
    started = answers.check("POST", base, AUDIT, 201, json={"all": True}, headers=pin)
    assert started["then"] == [1]
    answers.refuses("POST", AUDIT, started, [
        ("by", "robot"), ("then", [-1]), ("done", DROP), ("report/clean", "yes")], 201)
    seq = rig.tap("bag-1", rig.uids[in_zone(rig.state(info), P.bag(0))[0]])
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "ok")
    answers.check("GET", f"{base}/current", f"{AUDIT}/current")
    done = answers.check("POST", f"{base}/current/done", f"{AUDIT}/current/done",
                         headers=pin)
    assert done["done"] is True and done["report"]["findings"]
    answers.refuses("POST", f"{AUDIT}/current/done", done, [
        ("report/findings/0/fix", "0"), ("report/findings/0/code", DROP), ("taps", 1.5)])
    accepted = answers.check("POST", f"{base}/current/accept", f"{AUDIT}/current/accept",
                             headers=pin)
    assert accepted["applied"] > 0 and accepted["next"]["player"] == 1
    answers.refuses("POST", f"{AUDIT}/current/accept", accepted, [
        ("next/then", None), ("applied", []), ("report/fixes", {})])
    phone = {"X-Player-Token": info["tokens"][1]}
    answers.check("GET", f"{base}/current", f"{AUDIT}/current", headers=phone)
    answers.check("DELETE", f"{base}/current", f"{AUDIT}/current", headers=pin)


def test_the_archives_summaries_match_their_schema(rig: Rig, answers: Answers) -> None:
    """A record imported, the archive's page, and the game read with its scores."""
    admin = {"X-Admin-Pin": ADMIN}
    added = answers.check("POST", "/api/archive", "/api/archive", 201, headers=admin,
                          json={"record": RECORD.read_text()})
    assert added["source"] == "import" and added["table"] is None
    answers.refuses("POST", "/api/archive", added, [
        ("source", "mail"), ("players/0/winner", 1), ("players/0/score", "12"),
        ("winners", [{"name": "Ana"}]), ("record", DROP), ("date", 2025)], 201)
    page = answers.check("GET", "/api/archive", "/api/archive")
    assert page["total"] == 1
    answers.refuses("GET", "/api/archive", page, [("total", "1"), ("games/0/variant", 3)])
    game = answers.check("GET", f"/api/archive/{added['id']}", "/api/archive/{game_id}")
    answers.refuses("GET", "/api/archive/{game_id}", game, [("scores", DROP), ("id", None)])
