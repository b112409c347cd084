"""Every operation the document says needs a secret refuses a request without it, or with a
wrong one: Schemathesis's ``ignored_auth`` check, against a real ``serve``.

For each such operation a request a table or the admin really sends succeeds with its
secrets; then the check sends it again without them, and with each secret wrong, and each
of those must be refused (401 or 403). Each operation is sent from its own loopback address,
so that the wrong PINs of the probes never reach the hub's limit on wrong tries from one
address.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import urllib3
from schemathesis.specs.openapi.checks import ignored_auth

from companion.hub.remote import ServeProcess
from companion.kit.http import call
from tests.hub.archive_games import popcorn_game

ADDRESSES = (f"127.0.0.{n}" for n in itertools.count(10))
"""A loopback address for each operation."""


@pytest.fixture
def from_address(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Moves every new HTTP connection to the next loopback address when called: the
    check's probes open connections of their own (Schemathesis drops a session from them),
    so the source address is set where urllib3 connects."""
    address = [next(ADDRESSES)]
    connect = urllib3.util.connection.create_connection

    def bound(where: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs["source_address"] = (address[0], 0)
        return connect(where, *args, **kwargs)

    monkeypatch.setattr(urllib3.util.connection, "create_connection", bound)

    def move() -> None:
        address[0] = next(ADDRESSES)

    return move


def secured(document: dict[str, Any]) -> set[tuple[str, str]]:
    """The operations whose every request needs one of their secrets."""
    return {(method.upper(), path) for path, item in document["paths"].items()
            for method, op in item.items()
            if op.get("security") and {} not in op["security"]}


def requests_of_a_table(base: str, admin: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Each secured operation once, as a table and the admin send it, in an order where each
    succeeds: ``(method, path, parts)``, ``parts`` its path parameters, body and secrets."""
    made = call(base + "/api/tables", "POST", {"players": ["Ana", "Bob"],
                                               "readers": ["au-1", "au-2"]})
    table, pin, tokens = made["id"], made["pin"], made["tokens"]
    at = {"table_id": table}
    by_pin = {"X-Table-Pin": pin}
    yield "POST", "/api/tables/{table_id}/deal", {"path": at, "body": {"seed": 3},
                                                  "headers": by_pin}
    for method, tail, body in (("GET", "record", None), ("GET", "state", None),
                               ("POST", "hints", {"hints": False}),
                               ("POST", "identify", {"on": False})):
        yield method, "/api/tables/{table_id}/" + tail, {"path": at, "body": body,
                                                         "headers": by_pin}
    seat = {**at, "seat": 0}
    yield "POST", "/api/tables/{table_id}/players/{seat}/link", {"path": seat,
                                                                 "headers": by_pin}
    yield "GET", "/api/tables/{table_id}/players/{seat}/private", {
        "path": seat, "headers": {"X-Player-Token": tokens[0]}}
    yield "POST", "/api/tables/{table_id}/players/{seat}/token", {
        "path": {**at, "seat": 1}, "headers": by_pin}
    yield "POST", "/api/tables/{table_id}/correct", {"path": at, "headers": by_pin, "body": {
        "color": "white", "from": {"zone": "bag", "player": 0}, "zone": "exit", "player": 0}}
    yield "POST", "/api/tables/{table_id}/mats/{seat}/accept", {"path": seat,
                                                                  "headers": by_pin}
    yield "POST", "/api/tables/{table_id}/undo", {"path": at, "headers": by_pin}
    yield from _audits(at, by_pin)
    yield "POST", "/api/tables/{table_id}/close", {"path": at, "headers": by_pin}
    yield from _admin(base, admin)


def _audits(at: dict[str, Any], by_pin: dict[str, str]
            ) -> Iterator[tuple[str, str, dict[str, Any]]]:
    audit = "/api/tables/{table_id}/audits"
    for method, path, body in (("POST", audit, {"player": 0}), ("POST", audit + "/current/done",
                                                                None),
                               ("POST", audit + "/current/accept", None),
                               ("POST", audit, {"player": 1}),
                               ("DELETE", audit + "/current", None)):
        yield method, path, {"path": at, "body": body, "headers": by_pin}


def _admin(base: str, admin: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    by_admin = {"X-Admin-Pin": admin}
    registry = call(base + "/api/tags", headers=by_admin)
    record, _ = popcorn_game(2, 11)
    steps: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", "/api/tags", {}), ("PUT", "/api/tags", {"body": {"registry": registry}}),
        ("POST", "/api/enroll", {"body": {"game": "b-movies", "kind": "token", "next": True}}),
        ("DELETE", "/api/enroll", {}),
        ("POST", "/api/enroll/piece", {"body": {"uid": "04A1B2C3", "game": "b-movies",
                                               "kind": "token", "value": 1}}),
        ("POST", "/api/enroll/card", {"body": {"uid": "04A1B2C4", "kind": "movie",
                                              "card": "henrietta"}}),
        ("POST", "/api/archive", {"body": {"record": record}}),
        ("GET", "/api/archive/export.zip", {}),
    ]
    for method, path, parts in steps:
        yield method, path, {**parts, "headers": by_admin}
    game = call(base + "/api/archive?limit=1")["games"][0]["id"]
    for method, tail in (("GET", "/record"), ("DELETE", "")):
        yield method, "/api/archive/{game_id}" + tail, {"path": {"game_id": game},
                                                        "headers": by_admin}


@pytest.mark.slow
def test_every_secured_operation_refuses_a_request_without_its_secret(
        tmp_path: Path, from_address: Callable[[], None]) -> None:
    """Every operation whose requests all need a secret is sent once with it (2xx), and
    ``ignored_auth`` finds each refused without it and with it wrong."""
    server = ServeProcess(tmp_path / "hub.db", readers=["au-1", "au-2"]).start()
    try:
        document = call(server.base + "/api/openapi.json")
        schema = schemathesis.openapi.from_dict(document)
        sent = set()
        for method, path, parts in requests_of_a_table(server.base, server.admin_pin):
            operation = schema[path][method]
            body = {} if parts.get("body") is None else {"body": parts["body"],
                                                         "media_type": "application/json"}
            case = operation.Case(path_parameters=parts.get("path") or {}, **body)
            from_address()
            kwargs = {"base_url": server.base, "headers": parts["headers"], "timeout": 30}
            response = case.call(**kwargs)
            assert 200 <= response.status_code < 300, (method, path, response.text[:300])
            case.validate_response(response, checks=[ignored_auth], transport_kwargs=kwargs)
            sent.add((method, path))
        assert sent == secured(document)
    finally:
        server.stop()
