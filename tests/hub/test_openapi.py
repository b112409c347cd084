"""The hub's OpenAPI document (``GET /api/openapi.json``): a valid OpenAPI 3.1 document,
every ``/api/`` rule of the app in it, its body models true to the bodies the hub takes, and
every Socket.IO push of a whole game true to its event's schema."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from companion.games.popcorn.engine import pawns as P
from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.hub.openapi import api_rules
from tests.hub.archive_games import popcorn_first_player, popcorn_game
from tests.hub.client import READERS
from tests.hub.rig import ADMIN, Rig, in_zone
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def served(tmp_path: Path):
    """A started hub, its app, and the document the app serves."""
    hub = Hub(tmp_path / "hub.sqlite", readers=READERS).start()
    app, _ = create_app(hub, "246810")
    answer = app.test_client().get("/api/openapi.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    yield app, answer.json
    hub.stop()


def test_the_document_is_valid_openapi_3_1(served) -> None:
    """openapi-spec-validator finds nothing wrong."""
    _, document = served
    assert document["openapi"] == "3.1.0"
    validate(document)


def test_every_api_rule_of_the_app_is_described(served) -> None:
    """Each method of each ``/api/`` rule of ``app.url_map`` has its operation, with a body
    model where the route reads one; none is left undescribed."""
    app, document = served
    listed = {(method.upper(), path) for path, item in document["paths"].items()
              for method in item}
    rules = {(method, rule.replace("<int:", "<").replace("<path:", "<")
              .replace("<", "{").replace(">", "}")) for method, rule in api_rules(app)}
    assert rules == listed
    undescribed = [(m, p) for p, item in document["paths"].items() for m, op in item.items()
                   if op.get("x-undescribed")]
    assert undescribed == []
    writes = [(m, p) for p, item in document["paths"].items() for m, op in item.items()
              if m in ("put",) or (m == "post" and "dismiss" not in p and "analysis" not in p)]
    assert all("requestBody" in document["paths"][p][m] for m, p in writes)


def test_every_refusal_is_the_hubs_error_shape(served) -> None:
    """Every operation's ``default`` answer is the hub's error body."""
    _, document = served
    for item in document["paths"].values():
        for operation in item.values():
            schema = operation["responses"]["default"]["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorBody"}


def _validator(document: dict[str, Any], schema: dict[str, Any]) -> Draft202012Validator:
    """A validator of ``schema`` whose references reach the document's components."""
    return Draft202012Validator({**schema, "components": document["components"]})


def _body_schema(document: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    body = document["paths"][path][method]["requestBody"]
    return body["content"]["application/json"]["schema"]


def test_the_body_models_take_the_hubs_real_bodies(served) -> None:
    """The bodies the docs and the tests send validate against their models."""
    _, document = served
    record = (ROOT / "docs" / "examples" / "game-4p.jsonl").read_text()
    moves = [json.loads(line) for line in record.splitlines()[1:21]]
    bodies = [
        ("post", "/api/tables", {"players": ["Ana", "Bob"], "readers": ["bag-1", "bag-2"],
                                 "deal_seed": 7}),
        ("post", "/api/tables", {"game": "b-movies", "players": ["A", "B", "C"],
                                 "readers": ["r1", "r2", "r3"],
                                 "options": {"variant": "hidden"}}),
        ("post", "/api/tables/{table_id}/moves", {"move": moves[0], "pin": 271808}),
        ("post", "/api/tables/{table_id}/moves", {"moves": moves, "forced": True}),
        ("put", "/api/tags", {"registry": {"format": "companion-tags", "version": 3,
                                           "pieces": []}, "admin_pin": "123456"}),
        ("post", "/api/enroll", {"game": "b-movies", "kind": "token", "value": 1}),
        ("post", "/api/enroll", {"cards": "movie"}),
        ("post", "/api/archive", {"record": record}),
        ("post", "/api/tables/{table_id}/hints", {"hints": False, "pin": "271808"}),
        ("post", "/api/tables/{table_id}/correct", {"pawn": 3, "zone": "bag", "player": 0}),
        ("post", "/api/tables/{table_id}/correct", {"pin": "271808", "color": "blue", "from": {
            "zone": "exit", "player": 1}, "zone": "bag", "player": 0, "alert": 57}),
        ("post", "/api/tables/{table_id}/correct", {"token": 57, "zone": "pile", "player": 1}),
        ("post", "/api/tables/{table_id}/correct", {"value": 3, "zone": "bucket", "player": 1}),
    ]
    for method, path, body in bodies:
        errors = list(_validator(document, _body_schema(document, method, path))
                      .iter_errors(body))
        assert errors == [], (path, body)


def test_a_correction_names_each_hosted_games_model(served) -> None:
    """``POST .../correct`` takes the core's fields and one game's own: Popcorn's
    ``PawnCorrection`` or B Movies' ``TokenCorrection`` (each game's contract), each a
    schema of the document."""
    _, document = served
    schema = _body_schema(document, "post", "/api/tables/{table_id}/correct")
    ref = "#/components/schemas/{}".format
    assert schema == {"allOf": [{"$ref": ref("CorrectBody")}, {"anyOf": [
        {"$ref": ref("PawnCorrection")}, {"$ref": ref("TokenCorrection")}]}]}
    token = document["components"]["schemas"]["TokenCorrection"]
    assert token["required"] == ["zone"] and set(token["properties"]) == {
        "token", "value", "zone", "player"}


def test_every_push_of_a_whole_game_matches_its_event_schema(tmp_path: Path) -> None:
    """Screens joined to a table, a phone and the admin room see a game played to its end,
    an alert and its dismissal, and refused joins: every event they get validates against
    its schema in ``x-socketio-events``."""
    rig = Rig(tmp_path)
    try:
        document = rig.client.get("/api/openapi.json").json
        events = document["x-socketio-events"]
        alerted = rig.table()
        text, moves = popcorn_game(2, 5)
        played = rig.client.post("/api/tables", json={
            "players": ["Ana", "Bob"], "readers": ["bag-3", "bag-4"],
            "first_player": popcorn_first_player(text)}).json
        screen = rig.socketio.test_client(rig.app)
        phone = rig.socketio.test_client(rig.app)
        admin = rig.socketio.test_client(rig.app)
        for info in (played, alerted):
            screen.emit("join", {"table": info["id"]})
        screen.emit("join", {"table": "nope"})
        phone.emit("join_private", {"table": played["id"], "player": 0,
                                    "token": played["tokens"][0]})
        phone.emit("join_private", {"table": played["id"], "player": 1, "token": "bad"})
        admin.emit("join_admin", {"admin_pin": ADMIN})
        pawn = in_zone(rig.state(alerted), P.bag(0))[0]
        seq = rig.tap("bag-1", rig.uids[pawn])  # out of a bag while buying: an alert
        assert wait_for(lambda: rig.feedback("bag-1", seq) == "error")
        alert = rig.hub.tables[alerted["id"]].alerts[-1]
        dismissed = rig.client.post(f"/api/tables/{alerted['id']}/alerts/{alert['id']}/dismiss")
        assert dismissed.status_code == 200
        for move in moves:
            rig.hub.submit(played["id"], move)
        assert rig.hub.tables[played["id"]].state.is_over
        assert rig.hub.settled()
        got = [m for client in (screen, phone, admin) for m in client.get_received()]
        assert {m["name"] for m in got} >= {"state", "private", "alert", "handled", "admin",
                                            "error"}
        for message in got:
            validator = _validator(document, events[message["name"]])
            errors = [e.message for e in validator.iter_errors(message["args"][0])]
            assert errors == [], (message["name"], errors)
    finally:
        rig.close()


def test_a_route_no_operation_describes_is_still_listed() -> None:
    """A game's route that gives no operation is in the document by its method and path,
    marked ``x-undescribed``; a described one carries its body model and secrets."""
    from flask import Flask

    from companion.hub.models import PinBody
    from companion.hub.openapi import document
    from companion.kit.contract import TABLE_PIN, Operation, keys

    app = Flask(__name__)
    app.add_url_rule("/api/things/<int:n>", "thing", lambda n: "", methods=["GET"])
    app.add_url_rule("/api/things", "things", lambda: "", methods=["POST"])
    described = [Operation("POST", "/api/things", "Add a thing", "things", body=PinBody,
                           secrets=(TABLE_PIN,), answer=keys("ok"))]
    built = document(app, described)
    validate(built)
    lone = built["paths"]["/api/things/{n}"]["get"]
    assert lone["x-undescribed"] is True
    assert lone["parameters"][0] == {"name": "n", "in": "path", "required": True,
                                     "schema": {"type": "integer", "minimum": 0}}
    added = built["paths"]["/api/things"]["post"]
    assert added["security"] == [{"tablePin": []}]
    assert added["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/PinBody"}


METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
"""The methods tried at every path."""


def test_a_method_a_path_does_not_take_is_405_with_allow(served) -> None:
    """Every documented path answers each method it does not list with ``405`` in the
    hub's error shape, and an ``Allow`` header naming the methods the document lists for
    the paths that URL matches (RFC 9110; ``/api/archive/export.zip`` is also an
    ``/api/archive/{game_id}``): what Schemathesis's ``unsupported_method`` check asks."""
    app, document = served
    client = app.test_client()
    samples = {"table_id": "t1", "game_id": "g1", "seat": "0", "alert_id": "1",
               "lang": "en", "name": "Ana"}
    shapes = {path: re.compile("^" + re.sub(r"\\{\w+\\}", "[^/]+", re.escape(path)) + "$")
              for path in document["paths"]}
    tried = 0
    for path in document["paths"]:
        url = re.sub(r"{(\w+)}", lambda m: samples[m.group(1)], path)
        listed = {method.upper() for other, shape in shapes.items() if shape.match(url)
                  for method in document["paths"][other]}
        for method in set(METHODS) - listed:
            answer = client.open(url, method=method)
            tried += 1
            assert answer.status_code == 405, (method, path)
            assert answer.json["code"] == "METHOD_NOT_ALLOWED"
            allowed = {m.strip() for m in answer.headers["Allow"].split(",")}
            assert allowed - {"HEAD", "OPTIONS"} == listed, (method, path, allowed)
    assert tried > 3 * len(document["paths"])
