"""Player tokens: kept as salted hashes, re-issued with the table PIN, old databases migrated.

docs/api.md, "Phone links and QR codes": the create answer is the only place a table's
tokens appear; ``POST /api/tables/{id}/players/{seat}/token`` gives a seat a new one and
ends the old link, and the re-issue is a ``token`` event, so it survives a restart.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.hub.network import is_loopback, link_base
from companion.hub.phones import qr_svg
from companion.table.store import HubStore
from companion.table.table import config_dict, hash_pin

PLAYERS = ["Ana", "Bob", "Cy"]


class Site:
    """A hub on a temp database (no readers plugged in) and a Flask test client."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.hub = Hub(db).start()
        self.app, self.socketio = create_app(self.hub, "246810")
        self.client = self.app.test_client()

    def create(self) -> dict:
        answer = self.client.post("/api/tables", json={"players": PLAYERS,
                                                       "readers": ["r1", "r2", "r3"]})
        assert answer.status_code == 201, answer.json
        assert answer.headers["Cache-Control"] == "no-store"
        return answer.json

    def private(self, table_id: str, seat: int, token: str):
        return self.client.get(f"/api/tables/{table_id}/players/{seat}/private",
                               headers={"X-Player-Token": token})

    def reissue(self, table_id: str, seat: object, pin: str | None):
        body = {} if pin is None else {"pin": pin}
        return self.client.post(f"/api/tables/{table_id}/players/{seat}/token", json=body)

    def stop(self) -> None:
        self.hub.stop()


@pytest.fixture
def site(tmp_path: Path):
    s = Site(tmp_path / "hub.sqlite")
    yield s
    s.stop()


def stored_configs(db: Path) -> list[str]:
    """The configurations as the database holds them (JSON text)."""
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT config FROM hub_tables")]


def test_the_create_answer_gives_links_and_qr_codes_and_the_database_only_hashes(site) -> None:
    info = site.create()
    assert [p["seat"] for p in info["phones"]] == [0, 1, 2]
    for seat, phone in enumerate(info["phones"]):
        assert phone["name"] == PLAYERS[seat]
        assert phone["url"] == (f"http://localhost/phone/{info['id']}/{seat}"
                                f"#token={info['tokens'][seat]}")
        assert phone["qr_svg"].startswith('<svg xmlns="http://www.w3.org/2000/svg"')
        assert site.private(info["id"], seat, info["tokens"][seat]).status_code == 200
    (config,) = stored_configs(site.db)
    assert all(token not in config for token in info["tokens"])
    assert '"tokens"' not in config and len(json.loads(config)["token_hashes"]) == 3


def test_the_qr_svg_has_no_style_or_script_for_the_csp() -> None:
    svg = qr_svg("http://hub.local:8000/phone/abc/0#token=xyz")
    assert "style" not in svg and "<script" not in svg and "on" + "load" not in svg
    assert svg.count("<path") == 2  # the white square, then the dark modules


def test_a_reissued_token_replaces_the_old_one_and_survives_a_restart(tmp_path: Path) -> None:
    site = Site(tmp_path / "hub.sqlite")
    info = site.create()
    tid, old = info["id"], info["tokens"][1]
    answer = site.reissue(tid, 1, info["pin"])
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    new = answer.json
    assert new["seat"] == 1 and new["name"] == "Bob" and new["token"] != old
    assert new["url"] == f"http://localhost/phone/{tid}/1#token={new['token']}"
    assert new["qr_svg"].startswith("<svg")
    refused = site.private(tid, 1, old)
    assert (refused.status_code, refused.json["code"]) == (403, "WRONG_TOKEN")
    assert site.private(tid, 1, new["token"]).status_code == 200
    assert site.private(tid, 0, info["tokens"][0]).status_code == 200  # other seats keep theirs
    assert all(new["token"] not in c for c in stored_configs(site.db))
    site.stop()
    again = Site(tmp_path / "hub.sqlite")
    try:
        assert again.private(tid, 1, new["token"]).status_code == 200
        assert again.private(tid, 1, old).json["code"] == "WRONG_TOKEN"
        assert again.hub.tables[tid].count == 1  # the token event, nothing else
    finally:
        again.stop()


def test_a_phone_joined_with_the_old_token_is_told_and_dropped(site) -> None:
    info = site.create()
    phone = site.socketio.test_client(site.app)
    phone.emit("join_private", {"table": info["id"], "player": 2, "token": info["tokens"][2]})
    assert [m["name"] for m in phone.get_received()] == ["private"]
    assert site.reissue(info["id"], 2, info["pin"]).status_code == 200
    assert site.hub.settled()
    errors = [m["args"][0]["code"] for m in phone.get_received() if m["name"] == "error"]
    assert errors == ["WRONG_TOKEN"]
    phone.emit("join_private", {"table": info["id"], "player": 2, "token": info["tokens"][2]})
    assert [m["args"][0]["code"] for m in phone.get_received()] == ["WRONG_TOKEN"]


def test_bad_reissue_requests_get_specific_errors_and_change_nothing(site) -> None:
    info = site.create()
    tid, pin = info["id"], info["pin"]
    cases = [
        (site.reissue("nope", 0, None), 404, "TABLE_NOT_FOUND"),  # before any PIN check
        (site.reissue("nope", 0, pin), 404, "TABLE_NOT_FOUND"),
        (site.reissue(tid, 3, pin), 400, "BAD_SEAT"),
        (site.reissue(tid, "x", pin), 400, "BAD_SEAT"),
        (site.reissue(tid, "-1", pin), 400, "BAD_SEAT"),
        (site.reissue(tid, "\u00b2", pin), 400, "BAD_SEAT"),  # a digit to str.isdigit only
        (site.reissue(tid, 0, None), 403, "PIN_REQUIRED"),
        (site.reissue(tid, 0, "000000" if pin != "000000" else "111111"), 403, "WRONG_PIN"),
    ]
    for answer, status, code in cases:
        assert (answer.status_code, answer.json["code"]) == (status, code), answer.json
        assert answer.json["message"]
    assert "0 to 2" in cases[2][0].json["message"]
    assert site.hub.tables[tid].count == 0
    for seat, token in enumerate(info["tokens"]):
        assert site.private(tid, seat, token).status_code == 200
    assert site.client.post(f"/api/tables/{tid}/close", json={"pin": pin}).status_code == 200
    closed = site.reissue(tid, 0, pin)
    assert (closed.status_code, closed.json["code"]) == (409, "TABLE_CLOSED")


def test_an_old_database_with_plain_tokens_loads_and_is_migrated(tmp_path: Path) -> None:
    """A hub before hashed tokens stored ``"tokens": [...]`` in clear: its links keep working,
    and the first start rewrites the configuration with hashes only."""
    db = tmp_path / "hub.sqlite"
    store = HubStore(db)
    old = {"id": "old1", "name": "Old", "players": ["Ana", "Bob"], "first_player": 0,
           "readers": ["r1", "r2"], "tokens": ["plain-token-ana", "plain-token-bob"],
           "pin_salt": "s4lt", "pin_hash": hash_pin("123456", "s4lt"), "deal_seed": None,
           "created": 1, "extra": {}}
    store.add_table("old1", old, 1)
    store.close()
    site = Site(db)
    try:
        assert site.private("old1", 1, "plain-token-bob").status_code == 200
        assert site.private("old1", 0, "plain-token-bob").json["code"] == "WRONG_TOKEN"
        (config,) = stored_configs(db)
        assert "plain-token" not in config and "token_hashes" in json.loads(config)
        assert json.loads(config) == config_dict(site.hub.tables["old1"].config)
        assert site.reissue("old1", 0, "123456").status_code == 200
        assert site.private("old1", 0, "plain-token-ana").json["code"] == "WRONG_TOKEN"
    finally:
        site.stop()
    again = Site(db)  # the migrated form loads as it is
    try:
        assert again.private("old1", 1, "plain-token-bob").status_code == 200
    finally:
        again.stop()


def test_a_link_is_shown_again_unchanged_and_not_after_a_restart(tmp_path: Path) -> None:
    """``POST .../players/{seat}/link`` (table PIN) answers the seat's current link, which
    keeps working; after a re-issue it answers the new one; a restarted hub (which keeps
    only hashes) answers ``409 LINK_NOT_KEPT`` and changes nothing."""
    site = Site(tmp_path / "hub.sqlite")
    info = site.create()
    route = f"/api/tables/{info['id']}/players/1/link"
    assert site.client.post(route, json={}).json["code"] == "PIN_REQUIRED"
    assert site.client.post(f"/api/tables/{info['id']}/players/7/link",
                            json={"pin": info["pin"]}).json["code"] == "BAD_SEAT"
    again = site.client.post(route, json={"pin": info["pin"]})
    assert again.status_code == 200 and again.headers["Cache-Control"] == "no-store"
    assert again.json["url"] == info["phones"][1]["url"]
    assert again.json["qr_svg"] == info["phones"][1]["qr_svg"]
    assert site.private(info["id"], 1, info["tokens"][1]).status_code == 200  # still works
    new = site.reissue(info["id"], 1, info["pin"]).json
    assert site.client.post(route, json={"pin": info["pin"]}).json["url"] == new["url"]
    site.stop()
    restarted = Site(tmp_path / "hub.sqlite")
    try:
        refused = restarted.client.post(route, json={"pin": info["pin"]})
        assert (refused.status_code, refused.json["code"]) == (409, "LINK_NOT_KEPT")
        assert restarted.private(info["id"], 1, new["token"]).status_code == 200
    finally:
        restarted.stop()


def test_links_use_the_network_address_for_a_loopback_tablet_when_the_hub_listens_there(
        tmp_path: Path) -> None:
    """docs/api.md, "Phone links and QR codes": a request to 127.0.0.1 or localhost gets
    links on the address the hub listens on (the machine's network address for 0.0.0.0);
    a hub on loopback only, or a request by any other name, keeps the request's address."""
    hub = Hub(tmp_path / "hub.sqlite").start()
    try:
        for n, (listen, asked, expected) in enumerate((
                ("192.0.2.7", "127.0.0.1:8000", "http://192.0.2.7:8000/"),
                ("192.0.2.7", "localhost:8000", "http://192.0.2.7:8000/"),
                ("192.0.2.7", "popcorn.local:8000", "http://popcorn.local:8000/"),
                ("127.0.0.1", "127.0.0.1:8000", "http://127.0.0.1:8000/"),
                (None, "127.0.0.1:8000", "http://127.0.0.1:8000/"))):
            app, _ = create_app(hub, "246810", host=listen)
            answer = app.test_client().post(
                "/api/tables", headers={"Host": asked},
                json={"players": ["Ana", "Bob"], "readers": [f"r{n}a", f"r{n}b"]})
            assert answer.status_code == 201, answer.json
            assert answer.json["phones"][0]["url"].startswith(expected + "phone/"), (listen, asked)
    finally:
        hub.stop()


def test_link_base_and_loopback_names() -> None:
    """The pieces: which names are loopback, and an IPv6 address in a URL."""
    assert is_loopback("127.0.0.1") and is_loopback("127.1.2.3") and is_loopback("::1")
    assert is_loopback("localhost") and is_loopback("[::1]") and is_loopback("app.localhost")
    assert not is_loopback("192.168.1.20") and not is_loopback("popcorn.local")
    assert not is_loopback("") and not is_loopback("0.0.0.0")
    assert link_base("http://[::1]:8000/", "fd00::5") == "http://[fd00::5]:8000/"
    assert link_base("http://127.0.0.1/", "10.0.0.2") == "http://10.0.0.2/"
