"""The hub's guards, against a real ``serve`` process over real HTTP: the order of checks,
bounded bodies, throttled PIN guesses (from several loopback addresses), browser headers and
the origin check, and the admin PIN closing a table. Every refusal is a JSON error with a
stable code, changes nothing, and leaves the hub serving."""

from __future__ import annotations

import http.client
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.hub.bodies import MAX_BODY, MAX_DEPTH
from companion.hub.pin_tries import PER_ADDRESS, PER_PIN
from companion.hub.remote import ServeProcess

READERS = ["bag-1", "bag-2"]
_addresses = (f"127.0.{a}.{b}" for a, b in itertools.product(range(1, 200), range(2, 250)))


def fresh_address() -> str:
    """A loopback address no other test has sent from (the hub counts wrong PINs per
    address, and one hub serves the whole module)."""
    return next(_addresses)


class Reply:
    """A status, the headers and the decoded JSON of one answer."""

    def __init__(self, response: http.client.HTTPResponse) -> None:
        self.status = response.status
        self.headers = response.headers
        text = response.read().decode()
        self.json: Any = json.loads(text) if "json" in (self.headers["Content-Type"] or "") \
            else text

    @property
    def code(self) -> str | None:
        """The error code, if the answer is an error."""
        return self.json.get("code") if isinstance(self.json, dict) else None


def send(server: ServeProcess, method: str, path: str, body: Any = None, *,
         raw: bytes | Iterator[bytes] | None = None, headers: dict[str, str] | None = None,
         source: str = "127.0.0.1") -> Reply:
    """One request from ``source`` (a loopback address): ``body`` as JSON or ``raw`` bytes
    (an iterator is sent chunked)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30,
                                      source_address=(source, 0))
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    if isinstance(data, Iterator):
        all_headers["Transfer-Encoding"] = "chunked"
    try:
        conn.request(method, path, body=data, headers=all_headers,
                     encode_chunked=isinstance(data, Iterator))
        return Reply(conn.getresponse())
    finally:
        conn.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    """One hub process for the module (admin PIN 135790)."""
    hub = ServeProcess(tmp_path_factory.mktemp("guards") / "hub.db").start()
    yield hub
    hub.stop()


def new_table(server: ServeProcess) -> dict[str, Any]:
    """A fresh 2-player table on readers of its own."""
    new_table.n = getattr(new_table, "n", 0) + 1
    readers = [f"t{new_table.n}-{r}" for r in READERS]
    created = send(server, "POST", "/api/tables", {"players": ["Ana", "Bob"],
                                                   "readers": readers})
    assert created.status == 201, created.json
    return created.json


def events(server: ServeProcess, table: dict[str, Any]) -> int:
    """The table's log length (changes with every accepted change)."""
    return send(server, "GET", f"/api/tables/{table['id']}").json["events"]


def wrong(pin: str) -> str:
    """A PIN that is not ``pin``."""
    return f"{(int(pin) + 1) % 10**6:06d}"


# -- the order of checks (item 5) -----------------------------------------------------------

@pytest.mark.parametrize("method, route", [
    ("POST", "undo"), ("POST", "correct"), ("POST", "deal"), ("POST", "close"),
    ("POST", "identify"), ("POST", "alerts/1/dismiss"), ("GET", "record"), ("GET", "state")])
def test_an_unknown_table_is_404_before_the_pin_is_asked_for(server, method, route) -> None:
    """docs/api.md: the table is looked up (404) before the secret is checked (403)."""
    body = {} if method == "POST" else None
    for headers in ({}, {"X-Table-Pin": "123456"}):
        reply = send(server, method, f"/api/tables/nope0000/{route}", body, headers=headers)
        assert (reply.status, reply.code) == (404, "TABLE_NOT_FOUND"), reply.json
    bad = send(server, "POST", "/api/tables/nope0000/correct", raw=b"{not json")
    assert (bad.status, bad.code) == (400, "BAD_JSON")  # the body is parsed first


# -- bodies (item 6) ------------------------------------------------------------------------

def test_a_body_over_the_limit_is_413_json_and_changes_nothing(server) -> None:
    """Just over the limit, 10 MB, and a chunked body with no length: 413 BODY_TOO_LARGE."""
    table = new_table(server)
    before = events(server, table)
    path = f"/api/tables/{table['id']}/correct"
    just_over = b'{"pin": "' + b"1" * (MAX_BODY - 10) + b'"}'
    chunks = iter([b'{"pin": "'] + [b"1" * 4096] * (MAX_BODY // 4096 + 1) + [b'"}'])
    for raw in (just_over, b'{"a": "' + b"x" * 10_000_000 + b'"}', chunks):
        reply = send(server, "POST", path, raw=raw)
        assert (reply.status, reply.code) == (413, "BODY_TOO_LARGE"), reply.json
        assert "KiB" in reply.json["message"]
    assert events(server, table) == before
    assert send(server, "GET", "/api/health").json["ok"]


def test_the_largest_legitimate_body_fits(server) -> None:
    """A tag-registry import of the whole box (60 tags, with colors) is far under the limit,
    and is accepted."""
    registry = {"format": "popcorn-tags", "version": 1, "tags": [
        {"uid": f"04{pawn:012x}", "pawn": pawn} for pawn in range(60)]}
    body = {"registry": registry, "admin_pin": server.admin_pin}
    assert len(json.dumps(body)) * 10 < MAX_BODY
    reply = send(server, "PUT", "/api/tags", body)
    assert (reply.status, reply.json) == (200, {"ok": True, "tags": 60})


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
@pytest.mark.parametrize("route", ["correct", "undo", "close"])
def test_a_body_nested_too_deep_is_bad_json(server, depth: int, route: str) -> None:
    """Nesting past the limit is 400 BAD_JSON, never a 500 (``undo`` and ``close``, whose
    body is optional, included)."""
    table = new_table(server)
    inner = b"[" * (depth - 1) + b"]" * (depth - 1)
    raw = b'{"pin": "' + table["pin"].encode() + b'", "x": ' + inner + b"}"
    reply = send(server, "POST", f"/api/tables/{table['id']}/{route}", raw=raw)
    assert (reply.status, reply.code) == (400, "BAD_JSON"), reply.json
    assert f"more than {MAX_DEPTH} deep" in reply.json["message"]
    assert send(server, "GET", f"/api/tables/{table['id']}").json["closed"] is False


def test_a_body_at_the_nesting_limit_is_read(server) -> None:
    """``MAX_DEPTH`` levels are fine: the request goes on to its own checks."""
    table = new_table(server)
    inner = b"[" * (MAX_DEPTH - 1) + b"]" * (MAX_DEPTH - 1)
    raw = b'{"pin": "' + table["pin"].encode() + b'", "x": ' + inner + b"}"
    reply = send(server, "POST", f"/api/tables/{table['id']}/undo", raw=raw)
    assert (reply.status, reply.code) == (409, "NOTHING_TO_UNDO"), reply.json


# -- PIN guesses (item 7) -------------------------------------------------------------------

def guess_until_throttled(server, path: str, header: str, pin: str, source: str) -> Reply:
    """Wrong PINs from ``source`` until the hub says 429; each before it is a 403."""
    for n in range(PER_ADDRESS[0].amount):
        reply = send(server, "GET", path, headers={header: f"{n:06d}"}, source=source)
        assert (reply.status, reply.code) == (403, "WRONG_PIN"), (n, reply.json)
    throttled = send(server, "GET", path, headers={header: pin}, source=source)
    assert (throttled.status, throttled.code) == (429, "TOO_MANY_TRIES"), throttled.json
    return throttled


def test_wrong_table_pins_from_one_address_are_throttled(server) -> None:
    """After 5 wrong PINs an address gets 429 with Retry-After, even for the right PIN; the
    right PIN from another address works at once; the table playing with its right PIN from
    its own device is never throttled."""
    table = new_table(server)
    path = f"/api/tables/{table['id']}/state"
    throttled = guess_until_throttled(server, path, "X-Table-Pin", table["pin"],
                                      fresh_address())
    assert 0 < int(throttled.headers["Retry-After"]) <= 60
    assert "wait" in throttled.json["message"]
    assert send(server, "GET", path, headers={"X-Table-Pin": table["pin"]},
                source=fresh_address()).status == 200
    tablet = fresh_address()
    for _ in range(3 * PER_ADDRESS[0].amount):
        assert send(server, "GET", path, headers={"X-Table-Pin": table["pin"]},
                    source=tablet).status == 200


def test_guesses_from_many_addresses_are_throttled_per_table(server) -> None:
    """Addresses that have guessed wrong share a limit per table; a device that never sent
    a wrong PIN still gets in at once with the right one."""
    table = new_table(server)
    path = f"/api/tables/{table['id']}/record"
    guessers = [fresh_address() for _ in range(PER_PIN[0].amount // 4)]
    for source in guessers:
        for n in range(4):
            reply = send(server, "GET", path, headers={"X-Table-Pin": f"{n:06d}"},
                         source=source)
            assert reply.code == "WRONG_PIN"
    late = fresh_address()
    assert send(server, "GET", path, headers={"X-Table-Pin": "999999"}, source=late).code \
        == "WRONG_PIN"  # its first wrong try: not yet one of the guessers
    again = send(server, "GET", path, headers={"X-Table-Pin": table["pin"]}, source=late)
    assert (again.status, again.code) == (429, "TOO_MANY_TRIES")
    assert send(server, "GET", path, headers={"X-Table-Pin": table["pin"]},
                source=fresh_address()).status == 200
    other = new_table(server)  # another table's PIN is not held back
    assert send(server, "GET", f"/api/tables/{other['id']}/state",
                headers={"X-Table-Pin": wrong(other["pin"])},
                source=fresh_address()).code == "WRONG_PIN"


def test_wrong_admin_pins_are_throttled(server) -> None:
    """The admin PIN is throttled the same way, and a throttled close changes nothing."""
    source = fresh_address()
    guess_until_throttled(server, "/api/tags", "X-Admin-Pin", server.admin_pin, source)
    table = new_table(server)
    close = send(server, "POST", f"/api/tables/{table['id']}/close",
                 {"admin_pin": server.admin_pin}, source=source)
    assert (close.status, close.code) == (429, "TOO_MANY_TRIES")
    assert "Retry-After" in close.headers
    assert send(server, "GET", f"/api/tables/{table['id']}").json["closed"] is False
    assert send(server, "GET", "/api/tags", headers={"X-Admin-Pin": server.admin_pin},
                source=fresh_address()).status == 200


def test_only_wrong_pins_count(server) -> None:
    """Missing PINs and right PINs, however many, never lead to a 429."""
    table = new_table(server)
    source = fresh_address()
    path = f"/api/tables/{table['id']}/state"
    for _ in range(3 * PER_ADDRESS[0].amount):
        assert send(server, "GET", path, source=source).code == "PIN_REQUIRED"
        assert send(server, "GET", path, headers={"X-Table-Pin": table["pin"]},
                    source=source).status == 200
        assert send(server, "GET", "/api/tags", source=source).code == "WRONG_PIN"


# -- browsers (item 9) ----------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/setup", "/web/js/app.js", "/api/health", "/nope"])
def test_every_answer_carries_the_browser_protections(server, path: str) -> None:
    """A Content Security Policy (own origin only, no framing) and nosniff, on pages, files,
    API answers and errors alike."""
    reply = send(server, "GET", path)
    policy = reply.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert f"ws://127.0.0.1:{server.port}" in policy
    assert reply.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("origin", ["http://evil.example", "null",
                                    "http://127.0.0.1:1", "https://127.0.0.1:{port}"])
def test_a_change_sent_from_another_site_is_refused(server, origin: str) -> None:
    """An Origin that is not the hub's is 403 BAD_ORIGIN on every state-changing route, and
    nothing changes; the hub's own origin, and no Origin at all, are fine."""
    table = new_table(server)
    before = send(server, "GET", "/api/tables").json
    evil = {"Origin": origin.format(port=server.port)}
    for method, path, body in [
            ("POST", "/api/tables", {"players": ["A", "B"], "readers": ["x-1", "x-2"]}),
            ("POST", f"/api/tables/{table['id']}/close", {"pin": table["pin"]}),
            ("PUT", "/api/tags", {"admin_pin": server.admin_pin, "registry": {}}),
            ("DELETE", "/api/enroll", {"admin_pin": server.admin_pin})]:
        reply = send(server, method, path, body, headers=evil)
        assert (reply.status, reply.code) == (403, "BAD_ORIGIN"), (path, reply.json)
        assert reply.json["message"]
    assert send(server, "GET", "/api/tables").json == before
    assert send(server, "GET", "/api/tables", headers=evil).status == 200  # reads are fine
    own = {"Origin": f"http://127.0.0.1:{server.port}"}
    assert send(server, "POST", f"/api/tables/{table['id']}/close", {"pin": table["pin"]},
                headers=own).status == 200
    assert send(server, "DELETE", "/api/enroll", {"admin_pin": server.admin_pin}).status == 200


# -- the admin PIN closes any table (item 11) -----------------------------------------------

def test_the_admin_pin_closes_a_table_whose_pin_is_lost(server, tmp_path: Path) -> None:
    """``close`` with the admin PIN frees the readers; a wrong admin PIN changes nothing."""
    table = new_table(server)
    path = f"/api/tables/{table['id']}/close"
    refused = send(server, "POST", path, {"admin_pin": wrong(server.admin_pin)},
                   source=fresh_address())
    assert (refused.status, refused.code) == (403, "WRONG_PIN")
    assert send(server, "GET", f"/api/tables/{table['id']}").json["closed"] is False
    closed = send(server, "POST", path, headers={"X-Admin-Pin": server.admin_pin})
    assert closed.status == 200 and closed.json["table"]["closed"] is True
    again = send(server, "POST", "/api/tables", {"players": ["Cy", "Di"],
                                                 "readers": table["readers"]})
    assert again.status == 201, again.json
