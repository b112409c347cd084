"""Cinema mats at a hub: virtual mats on pseudo-terminals report their zones (protocol
version 2) beside virtual bag readers, and the table's game reads each change as moves
or an alert (issue 40).

A guest drawn by a bag reader's tap and set down on a theater's zone is placed in that
theater's next seat; set down on the exit zone from its seat, it leaves (``end_guest``);
a drawn guest with no seat goes to the exit zone. A state sent again, or older than the
zone's last one, plays nothing twice; a restarted hub rebuilds each zone from its log.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.games.popcorn.demo import enroll_box
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.mats import EXIT
from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.readers import protocol as proto
from companion.readers.virtual import SerialBank, VirtualMat, VirtualReader
from tests.waiting import wait_for

BAGS = ["bag-1", "bag-2"]
MATS = ["mat-1", "mat-2"]


class MatRig:
    """A hub with two bag readers and two mats, every pawn enrolled, a test client."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.mats = {m: VirtualMat(m, resend_interval=0.3) for m in MATS}
        bags = [VirtualReader(r, resend_interval=0.3) for r in BAGS]
        self.bank = SerialBank([*bags, *self.mats.values()], tmp / "dev").start()
        self.hub = self._hub()
        self.uids = enroll_box(self.hub, 1)
        self.pawn_of = {uid: pawn for pawn, uid in self.uids.items()}
        self.pins: dict[str, str] = {}
        """Each table's PIN."""

    def _hub(self) -> Hub:
        hub = Hub(self.tmp / "hub.sqlite", readers=BAGS, mats=MATS)
        hub.start(serial=[self.bank.path(r) for r in [*BAGS, *MATS]])
        self.app, _ = create_app(hub, "246810")
        self.client = self.app.test_client()
        return hub

    def restart(self) -> None:
        """Stop the hub and start another on the same file."""
        self.hub.stop()
        self.hub = self._hub()

    def table(self) -> str:
        """A table in its first Showings, each player's award kept."""
        table, pin, tokens = self.hub.create_table(["Ana", "Bob"], BAGS, deal_seed=3,
                                                   mats=MATS)
        self.pins[table.id] = pin
        for seat, token in enumerate(tokens):
            private = self.client.get(f"/api/tables/{table.id}/players/{seat}/private",
                                      headers={"X-Player-Token": token}).json
            if private["legal"]:
                self.play(table.id, private["legal"][0], token)
        while table.state.phase == "buying":
            self.play(table.id, {"move": "end_turn", "player": table.state.current})
        return table.id

    def play(self, table_id: str, move: dict, token: str | None = None) -> None:
        headers = {"X-Player-Token": token} if token else {}
        answer = self.client.post(f"/api/tables/{table_id}/moves", json={"move": move},
                                  headers=headers)
        assert answer.status_code == 200, answer.json

    def draw(self, table_id: str, player: int, count: int) -> list[int]:
        """``count`` guests tapped out of ``player``'s bag: the pawns drawn."""
        table = self.hub.tables[table_id]
        pawns = table.state.pawns_at(P.bag(player))[:count]
        for pawn in pawns:
            before = table.count
            self.bank.tap(BAGS[player], self.uids[pawn])
            assert wait_for(lambda before=before: table.count > before)
        return pawns

    def first_guest_seated(self, health: dict | None = None) -> Showing:
        """A table in its first Showings whose current player has drawn the audience and set
        the first guest down on theater 1 (its mat reports it; ``health``: what the mat's
        heartbeat said first)."""
        table_id = self.table()
        table = self.hub.tables[table_id]
        player = table.state.current
        drawn = self.draw(table_id, player, table.state.draw_value(player))
        mat = self.mats[MATS[player]]
        if health:
            mat.set_health(**health)
            mat.heartbeat()
        count = table.count  # before the mat's report: the hub may play it at once
        mat.set_down(0, self.uids[drawn[0]])
        self.settled(table_id, count + 1)
        return Showing(table_id, table, player, drawn, mat)

    def settled(self, table_id: str, count: int) -> None:
        """Wait for the table's log to reach ``count`` events and every mat to be acked."""
        table = self.hub.tables[table_id]
        assert wait_for(lambda: table.count >= count and self.bank.pending() == 0)

    def close(self) -> None:
        self.bank.stop()
        self.hub.stop()


@dataclass
class Showing:
    """A table of :meth:`MatRig.first_guest_seated`: its id, the table, the player acting,
    the guests drawn (the first seated in theater 1) and the player's mat."""

    table_id: str
    table: Any
    player: int
    drawn: list[int]
    mat: VirtualMat


@pytest.fixture
def rig(tmp_path: Path):
    made = MatRig(tmp_path)
    yield made
    made.close()


def astuple_(showing: Showing) -> tuple[str, Any, int, list[int], VirtualMat]:
    """A :class:`Showing`'s fields, in order."""
    return (showing.table_id, showing.table, showing.player, showing.drawn, showing.mat)


def _last_move(table) -> dict:
    return table.entries[-1]["move"]


def test_a_drawn_guest_set_down_in_a_theater_is_seated_there(rig: MatRig) -> None:
    """The mat's landing is the placement, in the theater's first free seat, with no tap
    on the tablet; a state sent again plays nothing twice."""
    table_id, table, player, drawn, mat = astuple_(rig.first_guest_seated())
    assert table.state.loc[drawn[0]] == P.seat(player, 0, 0)
    assert _last_move(table) == {"move": "place", "player": player, "pawn": drawn[0],
                                 "slot": 0, "seat": 0}
    assert table.mat_zones[(player, 0)] == (rig.uids[drawn[0]],)
    count = table.count
    mat.hello()  # every zone reported again, with new seqs
    assert wait_for(lambda: rig.bank.pending() == 0)
    assert table.count == count and table.state.loc[drawn[0]] == P.seat(player, 0, 0)


def test_leaving_for_the_exit_zone_ends_the_guest_and_a_seatless_guest_goes_there(
        rig: MatRig) -> None:
    """The seated guest carried to the exit zone is its end_guest; the drawn guests with
    no seat left go to the exit zone when set down there; the theater's emptied zone that
    follows the landing plays nothing."""
    table_id, table, player, drawn, mat = astuple_(rig.first_guest_seated())
    for pawn in drawn[1:]:
        if table.state.loc[pawn] == P.hand(player):
            count = table.count
            mat.set_down(EXIT, rig.uids[pawn])
            rig.settled(table_id, count + 1)
            assert table.state.loc[pawn] == P.exit_zone(player), table.alerts
    count = table.count
    mat.move(rig.uids[drawn[0]], EXIT)
    rig.settled(table_id, count + 2)
    assert any(e["move"]["move"] == "end_guest" for e in table.entries[-3:] if "move" in e)
    assert table.state.loc[drawn[0]] != P.seat(player, 0, 0)
    assert not table.alerts


def test_a_guest_not_drawn_is_an_alert_and_changes_nothing(rig: MatRig) -> None:
    """A guest still in the bag set down in a theater: the mat's own alert, in words that
    name the theater, and the game unchanged."""
    table_id = rig.table()
    table = rig.hub.tables[table_id]
    player = table.state.current
    in_bag = table.state.pawns_at(P.bag(player))[0]
    before = table.state.to_dict()
    count = table.count
    rig.mats[MATS[player]].set_down(0, rig.uids[in_bag])
    rig.settled(table_id, count + 1)
    alert = table.alerts[-1]
    assert alert["code"] == "GUEST_NOT_DRAWN" and "theater 1" in alert["message"]
    assert table.state.to_dict() == before


def test_an_unknown_tag_on_a_mat_is_an_alert(rig: MatRig) -> None:
    """A tag the registry does not know, set down on a mat: MAT_UNKNOWN_TAG."""
    table_id = rig.table()
    table = rig.hub.tables[table_id]
    count = table.count
    rig.mats[MATS[0]].set_down(1, "04ffffffffff01")
    rig.settled(table_id, count + 1)
    assert table.alerts[-1]["code"] == "MAT_UNKNOWN_TAG"
    assert "04ffffffffff01" in table.alerts[-1]["message"]


def test_a_stale_zone_state_is_dropped_and_a_restart_keeps_the_zones(rig: MatRig) -> None:
    """A zones message older than the zone's last state (a lower seq of the same boot)
    changes nothing; a new hub on the same file rebuilds each zone's state from the log."""
    table_id, table, player, drawn, mat = astuple_(rig.first_guest_seated())
    state, zones, count = table.state.to_dict(), dict(table.mat_zones), table.count
    n, uid = mat.seq, rig.uids[drawn[0]]
    mat.seq = n + 2  # seq n + 1 is late: the hub takes n + 2 once its wait for n + 1 ends
    mat.unacked[n + 2] = proto.encode(proto.zones(MATS[player], mat.boot, n + 2, 0, [uid]))
    mat.resend()
    assert wait_for(lambda: rig.hub.store.seen(MATS[player], mat.boot, n + 2), timeout=10)
    mat.unacked[n + 1] = proto.encode(proto.zones(MATS[player], mat.boot, n + 1, 0, []))
    mat.resend()  # the late state: the zone emptied, before n + 2 said it holds the guest
    assert wait_for(lambda: rig.bank.pending() == 0, timeout=10)
    assert table.mat_zones[(player, 0)] == zones[(player, 0)] == (uid,)
    assert table.state.to_dict() == state and table.count == count
    rig.restart()
    again = rig.hub.tables[table_id]
    assert again.mat_zones[(player, 0)] == (rig.uids[drawn[0]],)
    assert again.state.to_dict() == state and again.count >= count


def test_a_mat_cannot_tap_and_a_bag_reader_cannot_report_zones(rig: MatRig) -> None:
    """A tag from a mat, or a zones message from a bag reader, is refused (WRONG_KIND) and
    counted; the link goes on."""
    rig.bank.readers["bag-1"].unacked[99] = proto.encode(
        proto.zones("bag-1", 1, 99, 0, ["04a1b2c3"]))
    rig.bank.readers["bag-1"].resend()
    rig.mats[MATS[0]].unacked[99] = proto.encode(proto.tag(MATS[0], 1, 99, "04a1b2c3"))
    rig.mats[MATS[0]].resend()
    assert wait_for(lambda: rig.hub.ingest.rejected["bag-1"]["WRONG_KIND"] > 0
                    and rig.hub.ingest.rejected[MATS[0]]["WRONG_KIND"] > 0)


def test_a_table_binds_its_mats_through_the_api_and_refuses_bad_ones(rig: MatRig) -> None:
    """``POST /api/tables`` with ``mats`` binds a mat per seat (``null`` for none); a mat's
    id that is a bag reader's, a wrong count, or mats for a game that reads none are
    refused with ``BAD_REQUEST``, and nothing is created."""
    made = rig.client.post("/api/tables", json={"players": ["Ana", "Bob"], "readers": BAGS,
                                                "mats": [MATS[0], None]})
    assert made.status_code == 201, made.json
    assert made.json["mats"] == [MATS[0], None]
    assert rig.hub.seats[MATS[0]] == (made.json["id"], 0)
    before = len(rig.hub.tables)
    for mats, game in (([BAGS[0], None], "popcorn"), ([MATS[1]], "popcorn"),
                       ([None, 7], "popcorn"), ([MATS[1], None], "b-movies")):
        body = {"players": ["Cy", "Di"], "readers": ["bag-8", "bag-9"], "mats": mats,
                "game": game}
        answer = rig.client.post("/api/tables", json=body)
        assert answer.status_code == 400, (mats, game, answer.json)
        assert answer.json["code"] == "BAD_REQUEST"
    assert len(rig.hub.tables) == before


def test_the_reader_list_shows_each_mats_zones_and_scan(rig: MatRig) -> None:
    """``GET /api/readers``: a mat is of kind ``mat``, with its tags per zone as its table
    keeps them, the age of its last zone state and its last scan time from its heartbeat;
    a bag reader has none of these; each entry matches the document's schema."""
    from jsonschema import Draft202012Validator

    table_id, table, player, drawn, mat = astuple_(rig.first_guest_seated({"scan_ms": 47}))
    assert wait_for(lambda: rig.hub.ingest.readers[MATS[player]].health.scan_ms == 47)
    entries = {e["reader"]: e for e in rig.client.get("/api/readers").json}
    mine = entries[MATS[player]]
    assert mine["kind"] == "mat" and mine["zones"] == [1, 0, 0, 0]
    assert mine["scan_ms"] == 47 and mine["zones_age"] is not None
    assert entries[BAGS[0]]["kind"] == "bag" and entries[BAGS[0]]["zones"] is None
    document = rig.client.get("/api/openapi.json").json
    schema = {**document["paths"]["/api/readers"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"], "components": document["components"]}
    assert list(Draft202012Validator(schema).iter_errors(list(entries.values()))) == []


def test_an_exit_zone_poured_while_the_bag_holds_guests_is_an_alert(rig: MatRig) -> None:
    """Two guests the hub has on the exit zone taken off it at once while the bag still
    holds guests: EXIT_POURED_EARLY, naming the player, and nothing moved in the game;
    one guest taken off (a gain on its way to a bag) is no alert."""
    table_id, table, player, drawn, mat = astuple_(rig.first_guest_seated())
    out = [p for p in drawn[1:] if table.state.loc[p] == P.hand(player)]
    for pawn in out:
        count = table.count
        mat.set_down(EXIT, rig.uids[pawn])
        rig.settled(table_id, count + 1)
    assert len(table.state.pawns_at(P.exit_zone(player))) >= 2 and table.state.pawns_at(
        P.bag(player))
    state = table.state.to_dict()
    mat.take_up(*(rig.uids[p] for p in table.state.pawns_at(P.exit_zone(player))))
    assert wait_for(lambda: rig.bank.pending() == 0 and table.alerts)
    assert table.alerts[-1]["code"] == "EXIT_POURED_EARLY"
    assert table.alerts[-1]["params"]["name"] == table.config.players[player]
    assert table.state.to_dict() == state


def test_a_guest_taken_out_before_its_showing_is_an_alert_that_putting_it_back_mends(
        rig: MatRig) -> None:
    """A seated guest taken off its theater's zone while other guests are still to be
    placed (it may not leave yet): GUEST_TAKEN_OUT, naming the guest, the theater and the
    seat, pushed to the screens; the game unchanged. Set back down, it closes the alert
    (``handled``, ``"how": "mat"``) and plays nothing."""
    table_id, table, player, drawn, mat = astuple_(rig.first_guest_seated())
    pushed = _pushes(rig)
    assert table.state.pawns_at(P.hand(player)), "other guests wait to be placed"
    state, uid = table.state.to_dict(), rig.uids[drawn[0]]
    mat.take_up(uid)
    assert wait_for(lambda: rig.bank.pending() == 0 and table.alerts)
    alert = table.alerts[-1]
    assert wait_for(lambda: ("alert", alert) in pushed)
    assert alert["code"] == "GUEST_TAKEN_OUT", alert
    assert alert["params"]["slot"] == 1 and alert["params"]["seat"] == 1
    assert "theater 1" in alert["message"] and "seat #1" in alert["fix"]
    assert table.state.to_dict() == state
    count = table.count
    mat.set_down(0, uid)
    rig.settled(table_id, count + 2)
    assert not table.alerts and table.state.to_dict() == state
    assert wait_for(lambda: ("handled", alert["id"]) in pushed)
    handled = rig.hub.store.events(table_id)[-1]
    assert handled[1] == "handled" and handled[2] == {"alert": alert["id"], "how": "mat"}


def _pushes(rig: MatRig) -> list[tuple[str, Any]]:
    """Every push the hub makes from now on, as ``(kind, payload)``."""
    pushed: list[tuple[str, Any]] = []
    rig.hub.listeners.append(lambda table, kind, payload: pushed.append((kind, payload)))
    return pushed


def _to_next_rounds_buying(rig: MatRig, table) -> None:
    """Play the rest of the round from the tablet (moves picked at random, seed 5): the
    mats are told nothing, so whatever lies on them stays."""
    import random

    from companion.games.popcorn.engine.simulator import random_move

    rng = random.Random(5)
    while not (table.state.phase == "buying" and table.state.round == 2):
        rig.play(table.id, random_move(table.state, rng, "eager").to_dict())


def test_a_guest_left_in_a_theater_after_the_showings_is_caught_at_the_next_first_turn(
        rig: MatRig) -> None:
    """The guest set down on theater 1 is played out from the tablet and never carried
    off its zone: nothing is said while the Showings end (the hand may still be on its
    way); once the next round's first Buying turn ends, GUEST_LEFT_IN_THEATER names it,
    once. Taking it off the theater's zone closes the alert."""
    table_id, table, player, drawn, mat = astuple_(rig.first_guest_seated())
    pushed = _pushes(rig)
    _to_next_rounds_buying(rig, table)
    assert not table.alerts, table.alerts
    first = table.state.current
    rig.play(table_id, {"move": "end_turn", "player": first})
    assert wait_for(lambda: table.alerts)
    left = [a for a in table.alerts if a["code"] == "GUEST_LEFT_IN_THEATER"]
    assert len(left) == 1 and left[0]["params"]["pawn"] == drawn[0], table.alerts
    assert left[0]["params"]["slot"] == 1 and "exit zone" in left[0]["fix"]
    assert wait_for(lambda: ("alert", left[0]) in pushed)
    turn = table.state.current
    rig.play(table_id, {"move": "end_turn", "player": turn})
    assert len([a for a in table.alerts if a["code"] == "GUEST_LEFT_IN_THEATER"]) == 1
    count = table.count
    mat.move(rig.uids[drawn[0]], EXIT)
    rig.settled(table_id, count + 2)
    assert not [a for a in table.alerts if a["code"] == "GUEST_LEFT_IN_THEATER"]


def _set_down_while_down(rig: MatRig, mat: VirtualMat, zone: int, *uids: str) -> None:
    """The hub stopped, the hand sets ``uids`` down on ``zone``, and a new hub starts on
    the same file: the mat's report of it is the first it hears (resent, then its hello)."""
    rig.hub.stop()
    mat.set_down(zone, *uids)
    rig.hub = rig._hub()


def test_a_mat_that_disagrees_after_a_restart_is_an_alert_that_setting_right_mends(
        rig: MatRig) -> None:
    """While the hub is down, a guest still in the bag is set down on theater 1: the first
    state after the restart cannot be read without an alert, so it plays nothing and is
    compared instead: MAT_EXTRA_GUEST names the guest and the theater, and the zone is
    disputed. Taken off again, the zone agrees: the alert closes (``"how": "mat"``) and the
    mat's next change is read as moves again."""
    table_id, table, player, drawn, mat = astuple_(rig.first_guest_seated())
    in_bag = table.state.pawns_at(P.bag(player))[0]
    state = table.state.to_dict()
    _set_down_while_down(rig, mat, 0, rig.uids[in_bag])
    again = rig.hub.tables[table_id]
    assert wait_for(lambda: rig.bank.pending() == 0 and again.alerts, timeout=10)
    codes = [a["code"] for a in again.alerts]
    assert codes == ["MAT_EXTRA_GUEST"], again.alerts
    alert = again.alerts[-1]
    assert alert["params"]["slot"] == 1 and alert["params"]["pawn"] == in_bag
    assert "theater 1" in alert["message"] and "accept" in alert["fix"]
    assert again.state.to_dict() == state and again.disputed(player)
    count = again.count
    mat.take_up(rig.uids[in_bag])
    rig.settled(table_id, count + 2)
    assert not again.alerts and not again.disputed(player)
    assert rig.hub.store.events(table_id)[-2][1:] == (
        "handled", {"alert": alert["id"], "how": "mat"})
    hand = next(p for p in drawn if again.state.loc[p] == P.hand(player))
    count = again.count
    mat.set_down(EXIT, rig.uids[hand])  # theater 1's one seat is taken: no seat left
    rig.settled(table_id, count + 1)
    assert again.state.loc[hand] == P.exit_zone(player), again.alerts


def test_the_tables_pin_accepts_what_the_mat_shows(rig: MatRig) -> None:
    """While the hub is down, a drawn guest and one still in the bag are set down on
    theater 1: disputed, one alert per guest. ``POST .../mats/{seat}/accept`` without the
    PIN is refused and changes nothing; with it, the mat's change is read as moves (the
    drawn guest seated, the other the mat's own alert), and the dispute's alerts are
    handled (``"how": "correct"``). A second accept finds nothing to do, and a seat the
    table does not have is BAD_SEAT. A new hub on the same file rebuilds the same state and
    alerts."""
    table_id = rig.table()
    table = rig.hub.tables[table_id]
    player = table.state.current
    hand = rig.draw(table_id, player, table.state.draw_value(player))[:1]
    in_bag = table.state.pawns_at(P.bag(player))[0]
    mat = rig.mats[MATS[player]]
    _set_down_while_down(rig, mat, 0, *(rig.uids[p] for p in [*hand, in_bag]))
    again = rig.hub.tables[table_id]
    assert wait_for(lambda: rig.bank.pending() == 0 and again.disputed(player), timeout=10)
    disputed = [a["id"] for a in again.alerts]
    assert {a["code"] for a in again.alerts} == {"MAT_EXTRA_GUEST"} and len(disputed) == 2
    url = f"/api/tables/{table_id}/mats/{player}/accept"
    refused = rig.client.post(url, json={})
    assert refused.status_code in (401, 403) and again.disputed(player)
    pushed = _pushes(rig)
    answer = rig.client.post(url, json={"pin": rig.pins[table_id]})
    assert answer.status_code == 200, answer.json
    assert answer.json["handled"] == disputed
    assert not [note for note in rig.hub.pushes._deferred if note[1] == "alert"], \
        "the route's alert waits for a reader batch to be pushed"
    assert wait_for(lambda: any(kind == "alert" and p["code"] == "GUEST_NOT_DRAWN"
                                for kind, p in pushed))
    assert [again.state.loc[p] for p in hand] == [P.seat(player, 0, 0)]
    assert [a["code"] for a in again.alerts] == ["GUEST_NOT_DRAWN"]
    assert not again.disputed(player)
    state, alerts = again.state.to_dict(), list(again.alerts)
    twice = rig.client.post(url, json={"pin": rig.pins[table_id]})
    assert twice.status_code == 200 and twice.json["handled"] == []
    assert again.state.to_dict() == state and list(again.alerts) == alerts
    bad = rig.client.post(f"/api/tables/{table_id}/mats/7/accept",
                          json={"pin": rig.pins[table_id]})
    assert bad.status_code == 400 and bad.json["code"] == "BAD_SEAT"
    rig.restart()
    rebuilt = rig.hub.tables[table_id]
    assert rebuilt.state.to_dict() == state and list(rebuilt.alerts) == alerts
    assert not rebuilt.disputed(player)


def test_a_bag_tap_that_comes_in_after_the_mats_state_settles_the_dispute(
        rig: MatRig) -> None:
    """While the hub is down, the audience is drawn (the bag reader keeps its taps) and the
    first guest set down on theater 1. The new hub hears the mat first (the bag reader's
    cable is out): the mat shows a guest the hub has in the bag, a dispute. Once the taps
    come in, the disputed zone is read again on each new state: the guest is seated, and
    the dispute's alert closes, with no tablet input."""
    table_id = rig.table()
    table = rig.hub.tables[table_id]
    player = table.state.current
    bag, mat = BAGS[player], rig.mats[MATS[player]]
    pawns = table.state.pawns_at(P.bag(player))[:table.state.draw_value(player)]
    rig.hub.stop()
    rig.bank.unplug(bag)
    for pawn in pawns:
        rig.bank.tap(bag, rig.uids[pawn])
    mat.set_down(0, rig.uids[pawns[0]])
    rig.hub = rig._hub()
    again = rig.hub.tables[table_id]
    pushed = _pushes(rig)
    assert wait_for(lambda: again.disputed(player), timeout=10)
    assert [a["code"] for a in again.alerts] == ["MAT_EXTRA_GUEST"]
    alert = again.alerts[-1]["id"]
    rig.bank.plug(bag)
    assert wait_for(lambda: again.state.loc[pawns[0]] == P.seat(player, 0, 0), timeout=20)
    assert not again.alerts and not again.disputed(player)
    assert wait_for(lambda: ("handled", alert) in pushed)
