"""Reader health at the hub: the readers list carries it, and a reader going bad tells its
table once (a ``reader_health`` push), not at every heartbeat.

A real hub with virtual readers on pseudo-terminals: each heartbeat goes over the serial
link, is parsed, and reaches the hub as a reader's would.
"""

from __future__ import annotations

from typing import Any

from companion.commands import demo
from tests.hub.rig import Rig
from tests.waiting import wait_for


class Heard:
    """Every push the hub raises, in order."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self.pushes: list[tuple[str, str, Any]] = []
        rig.hub.listeners.append(lambda table, kind, payload: self.pushes.append(
            (table, kind, payload)))

    def health(self) -> list[tuple[str, Any]]:
        """The ``reader_health`` pushes: (table, payload)."""
        return [(t, p) for t, kind, p in self.pushes if kind == "reader_health"]


def status(rig: Rig, reader: str) -> dict[str, Any]:
    """The reader's entry in the hub's readers list."""
    return next(r for r in rig.hub.reader_status() if r["reader"] == reader)


def beats(rig: Rig, reader: str, count: int, **health: int | None) -> None:
    """``count`` heartbeats of ``reader`` with ``health``, then one whose ``too_fast`` grows
    (a count change, no problem), and wait until the hub has taken all of them: a serial
    line keeps their order."""
    virtual = rig.bank.readers[reader]
    virtual.set_health(**health)
    for _ in range(count):
        virtual.heartbeat()
    marker = virtual.health.get("too_fast", 0) + 1
    virtual.set_health(too_fast=marker)
    virtual.heartbeat()
    assert wait_for(lambda: status(rig, reader)["too_fast"] == marker)
    assert rig.hub.pushes.settled()


def test_a_weak_reader_tells_its_table_once(rig) -> None:
    """Five weak heartbeats: one push naming the reader, its seat and the problem; a signal
    back to fair clears it, and weak again tells the table again."""
    info = rig.table(("Ana", "Bob"))
    heard = Heard(rig)
    beats(rig, "bag-2", 5, rssi=-86, supply_mv=4900, read_fail=0)
    ((table, push),) = heard.health()
    assert table == info["id"]
    assert (push["reader"], push["seat"], push["problems"]) == ("bag-2", 1, ["signal"])
    assert push["status"]["signal"] == "weak" and push["status"]["rssi"] == -86
    entry = status(rig, "bag-2")
    assert (entry["signal"], entry["battery"], entry["reads"]) == ("weak", "ok", "ok")
    assert entry["problems"] == ["signal"] and 0 <= entry["heartbeat_age"] < 30
    beats(rig, "bag-2", 3, rssi=-79)  # inside the margin: still weak, nothing new
    assert len(heard.health()) == 1 and status(rig, "bag-2")["signal"] == "weak"
    beats(rig, "bag-2", 2, rssi=-70)
    assert status(rig, "bag-2")["problems"] == [] and len(heard.health()) == 1
    beats(rig, "bag-2", 2, rssi=-90)
    assert [p["problems"] for _, p in heard.health()] == [["signal"], ["signal"]]


def test_each_new_problem_is_told_and_an_unbound_reader_tells_no_table(rig) -> None:
    """A low battery, then many failed reads on the same reader: one push each; a reader
    bound to no table is in the list but raises no push."""
    info = rig.table(("Ana", "Bob"))
    heard = Heard(rig)
    beats(rig, "bag-1", 3, supply_mv=3400)
    beats(rig, "bag-1", 1, read_fail=40)
    assert [(t, p["seat"], p["problems"]) for t, p in heard.health()] == [
        (info["id"], 0, ["battery"]), (info["id"], 0, ["reads"])]
    assert status(rig, "bag-1")["problems"] == ["battery", "reads"]
    beats(rig, "bag-3", 3, rssi=-95, supply_mv=3000)
    assert status(rig, "bag-3")["problems"] == ["battery", "signal"]
    assert len(heard.health()) == 2


def test_the_list_and_the_push_reach_the_screens(rig) -> None:
    """``GET /api/readers`` carries the levels; a screen in the table's room gets the
    ``reader_health`` event, a screen of another table does not."""
    info = rig.table(("Ana", "Bob"))
    other = rig.table(("Chloe", "Dev"), readers=["bag-3", "bag-4"])
    screen, elsewhere = rig.socketio.test_client(rig.app), rig.socketio.test_client(rig.app)
    screen.emit("join", {"table": info["id"]})
    elsewhere.emit("join", {"table": other["id"]})
    screen.get_received()
    elsewhere.get_received()
    beats(rig, "bag-1", 2, supply_mv=3300, rssi=-60)
    listed = {r["reader"]: r for r in rig.client.get("/api/readers").json}
    assert (listed["bag-1"]["battery"], listed["bag-1"]["signal"]) == ("low", "good")
    assert (listed["bag-4"]["battery"], listed["bag-4"]["problems"]) == ("unknown", [])
    got = [m["args"][0] for m in screen.get_received() if m["name"] == "reader_health"]
    assert [(g["table"], g["reader"], g["problems"]) for g in got] == [
        (info["id"], "bag-1", ["battery"])]
    assert not [m for m in elsewhere.get_received() if m["name"] == "reader_health"]


def test_the_demos_ailing_readers_go_bad_after_a_while(rig, monkeypatch) -> None:
    """``demo --ailing-readers``: sound heartbeats first, then bag-2's battery runs low (its
    table is told) and bag-3's Wi-Fi weakens."""
    info = rig.table(("Ana", "Bob"))
    heard = Heard(rig)
    monkeypatch.setattr(demo, "AILING_AFTER", 0.2)
    virtual = [rig.bank.readers[r] for r in ("bag-1", "bag-2", "bag-3", "bag-4")]
    demo._health(virtual, wifi=True, ailing=True)
    assert virtual[1].health == {"supply_mv": 4950, "read_fail": 0, "too_fast": 0, "rssi": -58}
    assert wait_for(lambda: virtual[2].health["rssi"] == -84)
    beats(rig, "bag-2", 1)
    beats(rig, "bag-3", 1)
    assert [(t, p["reader"], p["problems"]) for t, p in heard.health()] == [
        (info["id"], "bag-2", ["battery"])]
    assert status(rig, "bag-3")["problems"] == ["signal"]
