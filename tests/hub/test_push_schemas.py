"""Every Socket.IO push a real table provokes matches its event's schema in the OpenAPI
document (``x-socketio-events``, built from :mod:`companion.hub.push_models`).

``tests/hub/test_openapi.py`` checks the pushes of a whole game. These tests provoke the
others the way a table does: enrollment taps on a reader (a piece enrolled, a UID left
pending, taps refused), an admin screen joining after them, a tap of an unknown tag, the
correction dialog's identify and the tap it waits for, a reader unplugged and plugged back,
a reader's heartbeats going bad, a seat's phone link replaced while its phone is joined,
and the admin PIN guessed too often. Each test waits for the events it provokes, so one that
receives nothing fails, then validates every event each of its clients got. The last test
records every event name the hub's Socket.IO server emits while all of that happens, and
checks the document against it both ways.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from companion.games.popcorn.demo import box_book, card_uids
from companion.games.popcorn.engine import pawns as P
from tests.hub.rig import ADMIN, Rig, in_zone
from tests.hub.test_reader_health import beats
from tests.waiting import wait_for

MAT = "mat-1"
"""The cinema mat beside the rig's bag readers."""

ROOT = Path(__file__).resolve().parents[2]

Payload = Any
"""An event's payload, as the client decoded it from JSON."""


def new_uid(n: int) -> str:
    """The ``n``-th made-up UID of these tests: a tag no piece of the box carries."""
    return f"04c0ffee{n:06x}"


class Screen:
    """A Socket.IO test client of the rig's app. Its events are read off its queue without
    being taken: the hub's notifier thread appends to that list while a test reads it, and
    :meth:`~flask_socketio.test_client.SocketIOTestClient.get_received` would rebuild it,
    losing what arrives in between."""

    def __init__(self, rig: Rig) -> None:
        self.client = rig.socketio.test_client(rig.app)

    def received(self) -> list[tuple[str, Payload]]:
        """Every event so far, in order: ``(name, payload)``."""
        return [(m["name"], m["args"][0]) for m in list(self.client.queue)
                if m["namespace"] == "/"]

    def payloads(self, name: str) -> list[Payload]:
        """The payloads of the events called ``name`` so far."""
        return [payload for got, payload in self.received() if got == name]

    def wait(self, name: str, where: Callable[[Payload], bool] = lambda _: True,
             after: int = 0) -> Payload:
        """The first ``name`` event, past the first ``after`` of them, whose payload
        ``where`` accepts; the test fails if none comes within :func:`wait_for`'s time."""
        def found() -> list[Payload]:
            return [p for p in self.payloads(name)[after:] if where(p)]
        assert wait_for(lambda: bool(found())), f"no {name} event came"
        return found()[0]


class Room:
    """A :class:`~tests.hub.rig.Rig`, the OpenAPI document its app serves, its screens,
    and the name of every event its Socket.IO server emitted (to a room, a client or
    everyone: ``SocketIO.emit`` is where they all go, the handlers' ``emit`` included)."""

    def __init__(self, rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rig = rig
        self.document: dict[str, Any] = rig.client.get("/api/openapi.json").json
        self.emitted: set[str] = set()
        self.screens: list[Screen] = []
        self.opened: dict[str, Any] | None = None
        emit = rig.socketio.emit

        def recording(event: str, *args: Any, **kwargs: Any) -> Any:
            self.emitted.add(event)
            return emit(event, *args, **kwargs)
        monkeypatch.setattr(rig.socketio, "emit", recording)

    def screen(self) -> Screen:
        """A new connected client."""
        screen = Screen(self.rig)
        self.screens.append(screen)
        return screen

    def admin(self) -> Screen:
        """A new client in the admin room: its ``admin`` answer has come."""
        screen = self.screen()
        screen.client.emit("join_admin", {"admin_pin": ADMIN})
        screen.wait("admin")
        return screen

    def table(self, mats: list[str | None] | None = None) -> dict[str, Any]:
        """A new 2-player table on bag-1 and bag-2 (:meth:`Rig.table
        <tests.hub.rig.Rig.table>`; ``mats``: a mat per seat), once the one this room opened
        before is closed, which frees its readers."""
        if self.opened is not None:
            closed = self.rig.client.post(f"/api/tables/{self.opened['id']}/close", json={},
                                          headers=self.pin_headers(self.opened))
            assert closed.status_code == 200, closed.json
        self.opened = self.rig.table(mats=mats)
        return self.opened

    def pin_headers(self, info: dict[str, Any]) -> dict[str, str]:
        """The headers of a request with a table's PIN."""
        return {"X-Table-Pin": info["pin"]}

    def enroll(self, body: dict[str, Any]) -> None:
        """Start an enrollment with the admin PIN."""
        answer = self.rig.client.post("/api/enroll", json=body,
                                      headers={"X-Admin-Pin": ADMIN})
        assert answer.status_code == 200, answer.json

    def tap(self, reader: str, uid: str) -> str:
        """Tap a tag on a reader; the reader's feedback once the hub has answered."""
        seq = self.rig.tap(reader, uid)
        assert wait_for(lambda: self.rig.feedback(reader, seq) is not None)
        level = self.rig.feedback(reader, seq)
        assert level is not None
        return level

    def validate(self) -> set[str]:
        """Once every push raised so far is out, check each event every screen got against
        its schema in ``x-socketio-events``; the names of the events checked."""
        assert self.rig.hub.settled()
        events = self.document["x-socketio-events"]
        names = set()
        for screen in self.screens:
            for name, payload in screen.received():
                assert name in events, f"{name} has no schema in x-socketio-events"
                errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                          for e in validator(self.document, events[name]).iter_errors(payload)]
                assert errors == [], (name, payload, errors)
                names.add(name)
        return names


def documented(event: str) -> list[Payload]:
    """The payloads of ``event`` that docs/api.md shows received (``recv  <event>  {...}``
    lines)."""
    text = (ROOT / "docs" / "api.md").read_text()
    return [json.loads(line.split(None, 2)[2]) for line in text.splitlines()
            if line.startswith("recv  ") and line.split()[1] == event]


def validator(document: dict[str, Any], schema: dict[str, Any]) -> Draft202012Validator:
    """A validator of ``schema`` whose references reach the document's components."""
    return Draft202012Validator({**schema, "components": document["components"]})


@pytest.fixture
def rig(tmp_path: Path):
    """The hub's four bag readers, and a cinema mat (:data:`MAT`)."""
    made = Rig(tmp_path, mats=(MAT,))
    yield made
    made.close()


@pytest.fixture
def room(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> Room:
    """The rig's hub, its document, and a record of the events its server emits."""
    return Room(rig, monkeypatch)


# -- what a table does, one part each (the last test runs them all on one hub) --------------


def enrollment(room: Room) -> None:
    """An admin screen follows an enrollment: taps enroll new tags (a B Movies token value
    to its cap, then older-shaped tokens), refuse a known or a spare tag, leave UIDs pending
    in ``pick`` mode until one is bound; an admin screen that joins afterwards gets the
    counts, the pending UIDs and the last push."""
    registry = room.rig.hub.registry
    watcher = room.admin()
    assert watcher.payloads("admin")[0]["last"] is None
    cap = registry.kind("b-movies", "token").capacity()["1"]
    room.enroll({"game": "b-movies", "kind": "token", "value": 1})
    for n in range(cap):
        assert room.tap("bag-1", new_uid(n)) == "ok"
        done = watcher.wait("enroll", lambda p, n=n: p.get("uid") == new_uid(n))
        assert done["ok"] and done["piece"]["value"] == 1
    assert room.tap("bag-1", new_uid(cap)) == "error"
    full = watcher.wait("enroll", lambda p: p.get("code") == "VALUE_FULL")
    assert full["ok"] is False and full["params"]["cap"] == cap
    assert room.tap("bag-2", new_uid(0)) == "error"  # that tag is a token now
    again = watcher.wait("enroll", lambda p: p.get("params", {}).get("uid") == new_uid(0))
    assert again["code"] == "DUPLICATE_UID"
    room.enroll({"tokens": 2})  # an older screen's mode: older fields, older codes
    assert room.tap("bag-3", new_uid(100)) == "ok"
    older = watcher.wait("enroll", lambda p: p.get("uid") == new_uid(100))
    assert older["shape"] == "token" and older["token"] == older["piece"]["id"]
    room.enroll({"color": "white"})  # every pawn has its tag already
    assert room.tap("bag-1", new_uid(101)) == "error"
    assert watcher.wait("enroll", lambda p: p.get("code") == "COLOR_FULL")["ok"] is False
    room.enroll({"pick": True})
    for n in (200, 201):
        assert room.tap("bag-4", new_uid(n)) == "ok"
        pending = watcher.wait("enroll", lambda p, n=n: p.get("pending") == new_uid(n))
        assert new_uid(n) in pending["waiting"]
    bound = room.rig.client.post("/api/enroll/piece", headers={"X-Admin-Pin": ADMIN}, json={
        "uid": new_uid(200), "game": "b-movies", "kind": "token", "value": 3})
    assert bound.status_code == 200, bound.json
    assert watcher.wait("enroll", lambda p: p.get("uid") == new_uid(200))["waiting"] == [
        new_uid(201)]
    late = room.admin().payloads("admin")[0]
    assert late["pending"] == [new_uid(201)] and late["last"]["uid"] == new_uid(200)
    assert room.rig.client.delete("/api/enroll", headers={"X-Admin-Pin": ADMIN}).status_code == 200


def older_shapes(room: Room) -> None:
    """An older screen's modes, with a white pawn and the first movie card of the box left
    without a tag: a tap enrolls the pawn by color, another the card in catalog order, and
    their pushes carry the older fields; the box's tags are put back afterwards."""
    admin = {"X-Admin-Pin": ADMIN}
    box = room.rig.client.get("/api/tags", headers=admin).json
    pawn = next(p for p in box["pieces"] if p["kind"] == "pawn" and p["value"] == "white")
    card = next(p for p in box["pieces"] if p["kind"] == "movie" and p["id"] == 0)
    fewer = {**box, "pieces": [p for p in box["pieces"] if p not in (pawn, card)]}
    assert room.rig.client.put("/api/tags", json={"registry": fewer},
                               headers=admin).status_code == 200
    watcher = room.admin()
    room.enroll({"color": "white"})
    assert room.tap("bag-1", new_uid(400)) == "ok"
    told = watcher.wait("enroll", lambda p: p.get("uid") == new_uid(400))
    assert (told["shape"], told["pawn"], told["color"]) == ("pawn", pawn["id"], "white")
    room.enroll({"cards": "movie"})
    assert room.tap("bag-1", new_uid(401)) == "ok"
    told = watcher.wait("enroll", lambda p: p.get("uid") == new_uid(401))
    assert (told["shape"], told["kind"], told["card"]) == ("card", "movie", card["value"])
    assert room.rig.client.delete("/api/enroll", headers=admin).status_code == 200
    assert room.rig.client.put("/api/tags", json={"registry": box},
                               headers=admin).status_code == 200


def unknown_tag(room: Room) -> None:
    """A tag the registry does not know, tapped at a table: an ``alert``; dismissed, a
    ``handled``."""
    info = room.table()
    screen = room.screen()
    screen.client.emit("join", {"table": info["id"]})
    screen.wait("state")
    assert room.tap("bag-1", new_uid(300)) == "error"
    alert = screen.wait("alert", lambda p: p["table"] == info["id"])["alert"]
    dismissed = room.rig.client.post(f"/api/tables/{info['id']}/alerts/{alert['id']}/dismiss")
    assert dismissed.status_code == 200
    assert screen.wait("handled")["alert"] == alert["id"]


def identify(room: Room) -> None:
    """The correction dialog asks the table to name the next tap: a pawn is named with its
    number and value, an award card by its kind alone (a secret), an unknown tag as null;
    with identify turned off again, a tap is played, not named."""
    info = room.table()
    screen = room.screen()
    screen.client.emit("join", {"table": info["id"]})
    award = next(u for (kind, _), u in card_uids(box_book(), 1).items() if kind == "award")
    pawn = in_zone(room.rig.state(info), P.bag(1))[0]
    url = f"/api/tables/{info['id']}/identify"

    def named(reader: str, uid: str) -> Payload:
        count = len(screen.payloads("identify"))
        answer = room.rig.client.post(url, json={"on": True}, headers=room.pin_headers(info))
        assert answer.status_code == 200 and answer.json["seconds"] > 0
        assert room.tap(reader, uid) == "ok"
        return screen.wait("identify", after=count)

    told = named("bag-2", room.rig.uids[pawn])
    assert (told["table"], told["player"]) == (info["id"], 1)
    assert told["thing"] == {"game": "popcorn", "kind": "pawn", "id": pawn,
                             "value": room.rig.state(info).pawn_color[pawn]}
    assert named("bag-1", award)["thing"] == {"game": "popcorn", "kind": "award"}
    assert named("bag-1", new_uid(301))["thing"] is None
    off = room.rig.client.post(url, json={"on": False}, headers=room.pin_headers(info))
    assert off.status_code == 200 and off.json["seconds"] == 0
    alerts = len(screen.payloads("alert"))
    assert room.tap("bag-1", new_uid(302)) == "error"  # played: an unknown tag's alert
    screen.wait("alert", after=alerts)
    assert len(screen.payloads("identify")) == 3


def readers(room: Room) -> None:
    """A reader's cable pulled, then plugged back: every client gets the reader list with
    it offline, then online again."""
    room.table()  # bag-1 and bag-2 are bound: their entries name a table and a seat
    screen = room.screen()

    def bag_2(online: bool) -> Callable[[Payload], bool]:
        return lambda listed: any(r["reader"] == "bag-2" and r["online"] is online
                                  for r in listed)

    room.rig.bank.unplug("bag-2")
    gone = screen.wait("readers", bag_2(False))
    assert next(r for r in gone if r["reader"] == "bag-2")["seat"] == 1
    count = len(screen.payloads("readers"))
    room.rig.bank.plug("bag-2")
    screen.wait("readers", bag_2(True), after=count)


def reader_health(room: Room) -> None:
    """A bound reader's heartbeats report a low battery, then a weak signal: the table's
    screen gets a ``reader_health`` push for each, and every client a ``readers`` list."""
    info = room.table()
    screen = room.screen()
    screen.client.emit("join", {"table": info["id"]})
    beats(room.rig, "bag-1", 3, supply_mv=3400)
    low = screen.wait("reader_health", lambda p: p["problems"] == ["battery"])
    assert (low["table"], low["reader"], low["seat"]) == (info["id"], "bag-1", 0)
    assert low["status"]["battery"] == "low"
    beats(room.rig, "bag-2", 5, rssi=-90)
    weak = screen.wait("reader_health", lambda p: p["problems"] == ["signal"])
    assert (weak["reader"], weak["seat"], weak["status"]["signal"]) == ("bag-2", 1, "weak")
    screen.wait("readers", lambda listed: any(r.get("battery") == "low" for r in listed))


def replaced_token(room: Room) -> None:
    """A seat's phone link is replaced while its phone is joined: that phone gets an
    ``error`` (``WRONG_TOKEN``) and its private room is closed."""
    info = room.table()
    phone = room.screen()
    phone.client.emit("join_private", {"table": info["id"], "player": 0,
                                       "token": info["tokens"][0]})
    phone.wait("private")
    answer = room.rig.client.post(f"/api/tables/{info['id']}/players/0/token", json={},
                                  headers=room.pin_headers(info))
    assert answer.status_code == 200 and answer.json["token"] != info["tokens"][0]
    assert phone.wait("error")["code"] == "WRONG_TOKEN"


def admin_pin_guessed(room: Room) -> None:
    """Wrong admin PINs on ``join_admin``: ``WRONG_PIN`` errors, then ``TOO_MANY_TRIES``
    with the seconds to wait (``retry_after``), even for the right PIN."""
    guesser = room.screen()
    while not guesser.payloads("error") or guesser.payloads("error")[-1]["code"] == "WRONG_PIN":
        assert len(guesser.payloads("error")) < 50, "the admin PIN is never throttled"
        tried = len(guesser.payloads("error"))
        guesser.client.emit("join_admin", {"admin_pin": "000000"})
        guesser.wait("error", after=tried)
    guesser.client.emit("join_admin", {"admin_pin": ADMIN})
    refused = guesser.wait("error", lambda p: "retry_after" in p)
    assert refused["code"] == "TOO_MANY_TRIES" and refused["retry_after"] > 0


def mat_zones(room: Room) -> None:
    """A guest set down on the cinema mat under Ana's cinema: the table's screen gets the
    mat's new counts (``mat_zones``) with the table's event count once the zone's state is
    logged, and no ``readers`` list comes of it."""
    info = room.table(mats=[MAT, None])
    screen = room.screen()
    screen.client.emit("join", {"table": info["id"]})
    screen.wait("state")
    listed = len(screen.payloads("readers"))
    room.rig.bank.readers[MAT].set_down(0, room.rig.uids[0])
    pushed = screen.wait("mat_zones", lambda p: p["reader"] == MAT and p["zones"][0] == 1)
    assert pushed["table"] == info["id"] and pushed["zones"] == [1, 0, 0, 0]
    assert len(screen.payloads("readers")) == listed
    table = room.rig.hub.tables[info["id"]]  # the zone's state is logged: the count it ends
    assert pushed["events"] == table.count > screen.payloads("state")[0]["events"]


PARTS = [enrollment, older_shapes, unknown_tag, identify, readers, reader_health, replaced_token,
         admin_pin_guessed, mat_zones]
"""What a table does, each part provoking some pushes."""


# -- the tests --------------------------------------------------------------------------------


def test_enrollment_pushes_match_their_schemas(room: Room) -> None:
    """``enroll`` pushes (enrolled, older-shaped, pending, bound, refused) and ``admin``
    answers before and after them validate against their schemas."""
    enrollment(room)
    assert room.validate() >= {"admin", "enroll"}


def test_older_shaped_enrollments_match_their_schemas(room: Room) -> None:
    """``enroll`` pushes of a pawn enrolled by color and a card in catalog order."""
    older_shapes(room)
    assert "enroll" in room.validate()


def test_the_enroll_schema_takes_one_shape_at_a_time(room: Room) -> None:
    """The ``enroll`` pushes of docs/api.md's "Enrollment" validate, and each departure
    from their shapes is refused: a piece without its older shape's fields, a shape that
    is not its own, a refusal said to be ok, a push without its revision, a pending UID
    without the waiting ones."""
    schema = room.document["x-socketio-events"]["enroll"]
    pushes = documented("enroll")
    assert len(pushes) >= 5

    def valid(push: Payload) -> bool:
        return validator(room.document, schema).is_valid(push)

    assert all(valid(p) for p in pushes), [p for p in pushes if not valid(p)]
    pawn, refused, _, card, pending = pushes[:5]
    assert not valid({k: v for k, v in pawn.items() if k != "color"})
    assert not valid({**pawn, "shape": "token"})
    assert not valid({**card, "card": None})
    assert not valid({**refused, "ok": True})
    assert not valid({k: v for k, v in pending.items() if k != "revision"})
    assert not valid({k: v for k, v in pending.items() if k != "waiting"})


def test_a_secret_piece_is_named_by_its_kind_alone(room: Room) -> None:
    """An ``identify`` push's ``thing``: a public piece with its number and value, a secret
    one by its game and kind only (its value would tell a secret), or null."""
    schema = room.document["x-socketio-events"]["identify"]

    def valid(thing: Payload) -> bool:
        push = {"table": "t1", "player": 0, "thing": thing}
        return validator(room.document, schema).is_valid(push)

    assert valid({"game": "popcorn", "kind": "pawn", "id": 3, "value": "white"})
    assert valid({"game": "popcorn", "kind": "award"}) and valid(None)
    assert not valid({"game": "popcorn", "kind": "award", "value": "guest_count"})
    assert not valid({"game": "popcorn", "kind": "pawn", "id": "3", "value": "white"})
    assert not valid({"kind": "pawn"})


def test_an_unknown_tags_alert_and_its_dismissal_match_their_schemas(room: Room) -> None:
    """The ``alert`` of a tag no piece carries, and its ``handled``."""
    unknown_tag(room)
    assert room.validate() >= {"state", "alert", "handled"}


def test_identify_pushes_match_their_schema(room: Room) -> None:
    """``identify`` pushes naming a pawn, a secret card and an unknown tag."""
    identify(room)
    assert room.validate() >= {"state", "identify", "alert"}


def test_a_mats_zone_push_matches_its_schema(room: Room) -> None:
    """``mat_zones`` of a guest set down on a mat, to its table's screen alone."""
    mat_zones(room)
    assert "mat_zones" in room.validate()


def test_reader_lists_match_their_schema(room: Room) -> None:
    """``readers`` pushes of a reader going offline and coming back."""
    readers(room)
    assert "readers" in room.validate()


def test_reader_health_pushes_match_their_schema(room: Room) -> None:
    """``reader_health`` pushes of a low battery and a weak signal."""
    reader_health(room)
    assert room.validate() >= {"reader_health", "readers"}


def test_the_error_of_a_replaced_phone_link_matches_its_schema(room: Room) -> None:
    """The ``error`` a joined phone gets when its seat's token is replaced."""
    replaced_token(room)
    assert room.validate() >= {"private", "error"}


def test_a_throttled_admin_join_matches_the_error_schema(room: Room) -> None:
    """The ``error`` of too many wrong admin PINs, with its ``retry_after``."""
    admin_pin_guessed(room)
    assert "error" in room.validate()


def test_every_event_the_hub_emits_is_in_the_document(room: Room) -> None:
    """Everything above on one hub, a phone following a played move too: every event name
    its Socket.IO server emitted (whoever it went to) is a key of ``x-socketio-events``, and
    every key is an event it emitted, so the document names no event the hub never sends."""
    for part in PARTS:
        part(room)
    info = room.table()
    phone = room.screen()
    phone.client.emit("join_private", {"table": info["id"], "player": 1,
                                       "token": info["tokens"][1]})
    phone.wait("private")
    count = len(phone.payloads("private"))
    ended = room.rig.move(info, {"move": "end_turn", "player": room.rig.state(info).current})
    assert ended.status_code == 200, ended.json
    phone.wait("private", after=count)
    room.validate()
    documented = set(room.document["x-socketio-events"])
    assert room.emitted - documented == set(), "events the document does not name"
    assert documented - room.emitted == set(), "documented events no part provoked"
