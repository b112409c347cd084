"""Bag audits on a real hub: virtual readers on pseudo-terminals, a real SQLite log.

A player taps every guest in their bag; the hub compares the taps with what it believes the
bag holds and mends the differences as one batch. These tests play the cases a table meets:
a draw whose tap never reached the hub, a guest tapped twice, a guest from another player's
bag, a guest the rules hold on a seat, and the audit that finds nothing; and the bad
requests, each with its code and nothing changed.
"""

from __future__ import annotations

from pathlib import Path

from companion.games.popcorn.engine import pawns as P
from companion.hub.hub import Hub
from tests.hub.rig import Rig, in_zone
from tests.waiting import wait_for


def tap_ok(rig: Rig, reader: str, pawn: int) -> None:
    """Tap a pawn and wait for the reader's ok."""
    seq = rig.tap(reader, rig.uids[pawn])
    assert wait_for(lambda: rig.feedback(reader, seq) is not None)
    assert rig.feedback(reader, seq) == "ok"


def audit_url(info: dict, rest: str = "") -> str:
    return f"/api/tables/{info['id']}/audits{rest}"


def start(rig: Rig, info: dict, player: int = 0, **auth) -> dict:
    answer = rig.client.post(audit_url(info), json={"player": player, **auth})
    assert answer.status_code == 201, answer.json
    return answer.json


def pin(info: dict) -> dict:
    return {"X-Table-Pin": info["pin"]}


def audit_bag(rig: Rig, info: dict, reader: str, pawns: list[int]) -> dict:
    """Start an audit of seat 0 with the PIN, tap ``pawns``, end the tapping: the report."""
    start(rig, info, 0, pin=info["pin"])
    table = rig.hub.tables[info["id"]]
    for pawn in pawns:
        tap_ok(rig, reader, pawn)
    assert wait_for(lambda: table.audit is not None and len(table.audit.taps) == len(pawns))
    done = rig.client.post(audit_url(info, "/current/done"), headers=pin(info))
    assert done.status_code == 200, done.json
    assert done.json["done"] is True
    return done.json["report"]


def test_an_audit_that_finds_nothing_says_so(rig: Rig) -> None:
    """Every guest of the bag tapped: a clean report, and accepting changes nothing."""
    info = rig.table()
    table = rig.hub.tables[info["id"]]
    bag = in_zone(table.state, P.bag(0))
    before, events = table.state.to_dict(), table.count
    report = audit_bag(rig, info, "bag-1", bag)
    assert report["clean"] is True and report["findings"] == [] and report["fixes"] == []
    assert all(c["tapped"] == c["expected"] for c in report["counts"])
    assert sum(c["tapped"] for c in report["counts"]) == len(bag)
    accepted = rig.client.post(audit_url(info, "/current/accept"), headers=pin(info))
    assert accepted.status_code == 200, accepted.json
    assert accepted.json["applied"] == 0
    assert table.state.to_dict() == before and table.audit is None
    assert table.count > events  # the audit and its taps are in the log


def test_a_draw_whose_tap_was_dropped_is_found_and_one_tap_mends_it(rig: Rig) -> None:
    """Open Cinema: a guest drawn past the reader is still in the bag for the hub. Its
    audit names it, and the accept draws it, as one batch that one Undo takes back."""
    info = rig.table()
    rig.end_buying(info)
    table = rig.hub.tables[info["id"]]
    bag = in_zone(table.state, P.bag(0))
    tap_ok(rig, "bag-1", bag[0])  # a draw the hub heard
    owed = table.state.showings[0].to_draw
    hidden = bag[1]  # drawn past the reader: physically out of the bag
    report = audit_bag(rig, info, "bag-1", bag[2:])
    assert table.state.showings[0].to_draw == owed  # audit taps are never draws
    assert [f["code"] for f in report["findings"]] == ["AUDIT_NOT_TAPPED_DRAWN"]
    finding = report["findings"][0]
    assert finding["params"]["color"] == table.state.pawn_color[hidden]
    assert report["fixes"][finding["fix"]]["move"]["move"] == "draw_pawn"
    before = table.state.to_dict()
    accepted = rig.client.post(audit_url(info, "/current/accept"), headers=pin(info))
    assert accepted.status_code == 200, accepted.json
    assert accepted.json["applied"] == 1
    assert table.state.showings[0].to_draw == owed - 1
    assert table.state.loc[hidden] == P.hand(0)
    undone = rig.client.post(f"/api/tables/{info['id']}/undo", headers=pin(info))
    assert undone.status_code == 200
    assert table.state.to_dict() == before


def test_twice_tapped_and_another_bags_guest_are_named(rig: Rig) -> None:
    """A guest tapped twice counts once; a guest the hub knows is in Bob's bag (he tapped it
    in at setup) is named with its place, and the fix puts it into Ana's bag; a guest the
    hub cannot place (never tapped: in Chloe's bag or the reserve) is named with no fix: no
    correction could take it from the right place."""
    info = rig.table(players=("Ana", "Bob", "Chloe"), fill={0: "*", 1: "*"})
    table = rig.hub.tables[info["id"]]
    state = table.state
    bag = in_zone(state, P.bag(0))
    stranger = in_zone(state, P.bag(1))[0]
    unknown = next(q for q in range(60) if state.known.certain(q) is None)
    assert P.bag(0) not in state.known.maybe[unknown]  # Ana's bag is full of known guests
    report = audit_bag(rig, info, "bag-1", [*bag, bag[0], stranger, unknown])
    codes = [f["code"] for f in report["findings"]]
    assert "AUDIT_TAPPED_TWICE" in codes and "AUDIT_FOUND_ELSEWHERE" in codes
    twice = next(f for f in report["findings"] if f["code"] == "AUDIT_TAPPED_TWICE")
    assert twice["params"]["color"] == state.pawn_color[bag[0]] and twice["fix"] is None
    found = next(f for f in report["findings"] if f["code"] == "AUDIT_FOUND_ELSEWHERE")
    assert found["params"]["zone"] == "bag" and found["params"]["owner"] == "Bob"
    assert "Bob's bag" in found["message"]
    unsure = next(f for f in report["findings"] if f["code"] == "AUDIT_FOUND_UNSURE")
    assert unsure["params"]["pawn"] == unknown and unsure["fix"] is None
    accepted = rig.client.post(audit_url(info, "/current/accept"), headers=pin(info))
    assert accepted.status_code == 200, accepted.json
    assert accepted.json["applied"] == 1
    assert table.state.loc[stranger] == P.bag(0)
    assert all(table.state.known.certain(q) == P.bag(0) for q in [*bag, stranger])


def test_a_seated_guest_is_refused_with_the_rules_code(rig: Rig) -> None:
    """A guest the hub has drawn cannot be put back by a correction: the report refuses it
    with ``PAWN_IN_PLAY``, and accepting applies the rest."""
    info = rig.table()
    rig.end_buying(info)
    table = rig.hub.tables[info["id"]]
    bag = in_zone(table.state, P.bag(0))
    tap_ok(rig, "bag-1", bag[0])  # drawn: in Ana's hand now
    report = audit_bag(rig, info, "bag-1", bag)
    assert [r["code"] for r in report["refused"]] == ["PAWN_IN_PLAY"]
    assert report["clean"] is False and report["fixes"] == []
    accepted = rig.client.post(audit_url(info, "/current/accept"), headers=pin(info))
    assert accepted.status_code == 200 and accepted.json["applied"] == 0
    assert table.state.loc[bag[0]] == P.hand(0)


def test_an_audit_does_not_disturb_the_other_players(rig: Rig) -> None:
    """During Open Cinema, Ana audits while Bob draws: Bob's taps are draws, Ana's are
    not, and the turn goes on."""
    info = rig.table()
    rig.end_buying(info)
    table = rig.hub.tables[info["id"]]
    start(rig, info, 0, pin=info["pin"])
    ana, bob = in_zone(table.state, P.bag(0)), in_zone(table.state, P.bag(1))
    tap_ok(rig, "bag-1", ana[0])
    tap_ok(rig, "bag-2", bob[0])
    assert table.state.loc[ana[0]] == P.bag(0)
    assert table.state.loc[bob[0]] == P.hand(1)
    assert len(table.audit.taps) == 1


def test_the_players_phone_audits_only_its_own_bag(rig: Rig) -> None:
    """A phone's token starts its own player's audit; another player's token, or none, is
    refused; the PIN starts any."""
    info = rig.table()
    bob = {"X-Player-Token": info["tokens"][1]}
    refused = rig.client.post(audit_url(info), json={"player": 0}, headers=bob)
    assert refused.status_code == 403 and refused.json["code"] == "PIN_REQUIRED"
    own = rig.client.post(audit_url(info), json={"player": 1}, headers=bob)
    assert own.status_code == 201 and own.json["by"] == "phone"
    stop = rig.client.delete(audit_url(info, "/current"),
                             headers={"X-Player-Token": info["tokens"][0]})
    assert stop.status_code == 403
    assert rig.client.delete(audit_url(info, "/current"), headers=bob).status_code == 200


def test_bad_audit_requests_change_nothing(rig: Rig) -> None:
    """Each bad request has its code, and the log does not move."""
    info = rig.table()
    table = rig.hub.tables[info["id"]]
    events = table.count
    cases = [
        (rig.client.get(audit_url(info, "/current")), 404, "NO_AUDIT"),
        (rig.client.post(audit_url(info, "/current/accept"), headers=pin(info)), 404,
         "NO_AUDIT"),
        (rig.client.post(audit_url(info, "/current/accept")), 403, "PIN_REQUIRED"),
        (rig.client.delete(audit_url(info, "/current")), 403, "PIN_REQUIRED"),
        (rig.client.post(audit_url(info), json={"player": 7}, headers=pin(info)), 400,
         "BAD_SEAT"),
        (rig.client.post(audit_url(info), json={"player": "Ana"}, headers=pin(info)), 400,
         "BAD_SEAT"),
        (rig.client.post(audit_url(info), json={}, headers=pin(info)), 400, "BAD_REQUEST"),
        (rig.client.post(audit_url(info), json={"player": 0}), 403, "PIN_REQUIRED"),
    ]
    for answer, status, code in cases:
        assert (answer.status_code, answer.json["code"]) == (status, code), answer.json
        assert answer.json["message"]
    assert table.count == events
    start(rig, info, 0, pin=info["pin"])
    again = rig.client.post(audit_url(info), json={"player": 1}, headers=pin(info))
    assert again.status_code == 409 and again.json["code"] == "AUDIT_UNDER_WAY"
    assert again.json["params"]["name"] == "Ana"


def test_an_audit_survives_a_restart(rig: Rig, tmp_path: Path) -> None:
    """The audit, its taps and its end live in the log: a restarted hub has them."""
    info = rig.table()
    table = rig.hub.tables[info["id"]]
    bag = in_zone(table.state, P.bag(0))
    report = audit_bag(rig, info, "bag-1", bag[1:])
    rig.close()
    hub = Hub(tmp_path / "hub.sqlite", readers=["bag-1", "bag-2"])
    try:
        again = hub.tables[info["id"]]
        assert again.audit is not None and again.audit.done
        assert len(again.audit.taps) == len(bag) - 1
        assert again.audit_report(False).to_dict() == report
    finally:
        hub.stop()


def test_a_whole_table_check_audits_every_bag_in_turn(rig: Rig) -> None:
    """``all``: after Ana's bag is accepted, Bob's audit starts by itself."""
    info = rig.table()
    table = rig.hub.tables[info["id"]]
    answer = rig.client.post(audit_url(info), json={"all": True}, headers=pin(info))
    assert answer.status_code == 201 and answer.json["player"] == 0
    assert answer.json["then"] == [1]
    for pawn in in_zone(table.state, P.bag(0)):
        tap_ok(rig, "bag-1", pawn)
    accepted = rig.client.post(audit_url(info, "/current/accept"), headers=pin(info))
    assert accepted.json["next"]["player"] == 1
    assert table.audit is not None and table.audit.player == 1
    for pawn in in_zone(table.state, P.bag(1)):
        tap_ok(rig, "bag-2", pawn)
    last = rig.client.post(audit_url(info, "/current/accept"), headers=pin(info))
    assert last.json["next"] is None and table.audit is None
    bob = {"X-Player-Token": info["tokens"][1]}
    whole = rig.client.post(audit_url(info), json={"all": True, "player": 1}, headers=bob)
    assert whole.status_code == 403  # a phone audits its own bag, not the table
