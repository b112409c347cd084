"""Alerts handled once for every device (dismissed, or fixed by the correction their fix
proposes), corrections that name a guest as the table sees it, and the one tap the
correction dialog asks for: logged, kept across a restart, pushed to the table's room."""

from __future__ import annotations

from pathlib import Path

from companion.games.popcorn.demo import box_book, card_uids
from companion.games.popcorn.engine import pawns as P
from companion.hub.hub import Hub
from companion.readers.virtual import SerialBank
from tests.hub.rig import Rig, in_zone
from tests.waiting import wait_for


def _pushes(rig: Rig) -> list[tuple[str, str, object]]:
    """Every notification the hub raises from now on, as ``(table, kind, payload)``."""
    seen: list[tuple[str, str, object]] = []
    rig.hub.listeners.append(lambda table, kind, payload: seen.append((table, kind, payload)))
    return seen


def _no_draw_alert(rig: Rig, info: dict) -> dict:
    """A pawn out of Ana's bag in the Buying phase (no draw expected): its open alert."""
    table = rig.hub.tables[info["id"]]
    before = len(table.alerts)
    pawn = in_zone(rig.state(info), P.bag(0))[0]
    seq = rig.tap("bag-1", rig.uids[pawn])
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "error")
    assert len(table.alerts) == before + 1
    return table.alerts[-1]


def _color_not_in_bag(rig: Rig) -> tuple[dict, dict, int]:
    """Bob taps a blue guest into his bag at setup, so the hub knows where it is; Ana draws
    every blue guest of her bag, then that blue one comes out on her reader: an alert whose
    fix is a correction. The table, and the alert with that blue pawn."""
    info = rig.table(fill={1: "blue"})
    rig.end_buying(info)
    state = rig.state(info)
    blue = next(q for q in in_zone(state, P.bag(1)) if state.known.certain(q) == P.bag(1))
    for pawn in [q for q in in_zone(state, P.bag(0)) if state.pawn_color[q] == "blue"]:
        seq = rig.tap("bag-1", rig.uids[pawn])
        assert wait_for(lambda seq=seq: rig.feedback("bag-1", seq) == "ok")
    seq = rig.tap("bag-1", rig.uids[blue])
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "error")
    alert = rig.hub.tables[info["id"]].alerts[-1]
    assert alert["code"] == "COLOR_NOT_IN_BAG"
    assert alert["params"]["zone"] == "bag" and alert["params"]["owner"] == "Bob"
    return info, alert, blue


def _restarted(rig: Rig, tmp_path: Path) -> Hub:
    rig.close()
    again = Hub(tmp_path / "hub.sqlite")
    rig.bank = SerialBank([], tmp_path / "dev2")
    rig.hub = again
    return again


def test_a_dismissed_alert_is_gone_for_every_device_and_after_a_restart(
        rig: Rig, tmp_path: Path) -> None:
    """An alert is pushed and listed with its id. Dismiss (no PIN, like a move) logs a
    ``handled`` event and pushes ``handled``; the
    table's alerts no longer list it, after a restart neither; the other alert stays. A
    second dismissal is ``404 ALERT_NOT_FOUND`` and logs nothing."""
    info = rig.table()
    tid = info["id"]
    pushes = _pushes(rig)
    first, second = _no_draw_alert(rig, info), _no_draw_alert(rig, info)
    assert first["id"] < second["id"]
    listed = rig.client.get(f"/api/tables/{tid}").json["alerts"]
    assert [a["id"] for a in listed] == [first["id"], second["id"]]
    assert rig.hub.settled() and (tid, "alert", first) in pushes  # pushed with its id
    answer = rig.client.post(f"/api/tables/{tid}/alerts/{first['id']}/dismiss")
    assert answer.status_code == 200, answer.json
    assert [a["id"] for a in rig.client.get(f"/api/tables/{tid}").json["alerts"]] == [second["id"]]
    assert rig.hub.settled()
    assert (tid, "handled", first["id"]) in pushes
    events = rig.hub.store.events(tid)
    assert events[-1][1:] == ("handled", {"alert": first["id"], "how": "dismiss"})
    again = rig.client.post(f"/api/tables/{tid}/alerts/{first['id']}/dismiss")
    assert (again.status_code, again.json["code"]) == (404, "ALERT_NOT_FOUND")
    assert len(rig.hub.store.events(tid)) == len(events)
    hub = _restarted(rig, tmp_path)
    try:
        assert [a["id"] for a in hub.tables[tid].alerts] == [second["id"]]
    finally:
        hub.store.close()


def test_an_alert_logged_by_an_older_hub_gets_its_id_and_can_be_dismissed(
        rig: Rig, tmp_path: Path) -> None:
    """A log from before alerts were handled holds each alert with no id: the replay gives
    it its event's number, so a restarted hub lists it and takes its dismissal."""
    info = rig.table()
    tid = info["id"]
    alert = _no_draw_alert(rig, info)
    n, kind, body = rig.hub.store.events(tid)[-1]
    assert (kind, n) == ("tag", alert["id"]) and "id" not in body["alert"]  # as before
    hub = _restarted(rig, tmp_path)
    try:
        assert [a["id"] for a in hub.tables[tid].alerts] == [n]
        hub.dismiss_alert(tid, n)
        assert not hub.tables[tid].alerts
    finally:
        hub.store.close()


def test_the_fix_of_an_alert_is_a_correction_that_handles_it(rig: Rig, tmp_path: Path) -> None:
    """``COLOR_NOT_IN_BAG`` carries the correction its fix proposes (the tapped guest into
    Ana's bag). Sent with the alert's id and the PIN, it is one ``correct`` event and one
    ``handled`` event; the guest is in Ana's bag, the alert gone, and a tap of the guest
    again is a draw. A restart agrees."""
    info, alert, blue = _color_not_in_bag(rig)
    tid, pin = info["id"], info["pin"]
    assert alert["correct"] == {"pawn": blue, "zone": "bag", "player": 0}
    pushes = _pushes(rig)
    body = {**alert["correct"], "alert": alert["id"], "pin": pin}
    assert rig.client.post(f"/api/tables/{tid}/correct", json=body).status_code == 200
    assert rig.state(info).loc[blue] == P.bag(0)
    assert not rig.hub.tables[tid].alerts
    assert [e[1:] for e in rig.hub.store.events(tid)[-2:]] == [
        ("correct", {"pawn": blue, "zone": "bag", "player": 0, "by": "tag"}),
        ("handled", {"alert": alert["id"], "how": "correct"})]
    assert rig.hub.settled() and (tid, "handled", alert["id"]) in pushes
    seq = rig.tap("bag-1", rig.uids[blue])
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "ok")
    assert rig.state(info).loc[blue] == P.hand(0)
    expected = rig.state(info).to_dict()
    hub = _restarted(rig, tmp_path)
    try:
        assert hub.tables[tid].state.to_dict() == expected and not hub.tables[tid].alerts
    finally:
        hub.store.close()


def test_an_alert_with_no_correction_to_offer_has_none(rig: Rig) -> None:
    """A draw when none is expected: the fix is to put the guest back, so no correction."""
    info = rig.table()
    assert "correct" not in _no_draw_alert(rig, info)


def test_a_correction_names_a_guest_by_color_and_where_the_companion_has_it(rig: Rig) -> None:
    """``{"color", "from"}`` in place of a pawn id: the lowest-numbered guest of that color
    there moves, and the log names that pawn, moved by its color (the hub learns nothing of
    which one it was). A place with no guest of that color is
    ``409 NO_SUCH_GUEST`` and changes nothing; a bad color or place is ``400``."""
    info = rig.table()
    tid, pin = info["id"], info["pin"]
    state = rig.state(info)
    exit_colors = {state.pawn_color[q] for q in in_zone(state, P.exit_zone(1))}
    color = sorted(exit_colors)[0]
    pawn = min(q for q in in_zone(state, P.exit_zone(1)) if state.pawn_color[q] == color)
    body = {"pin": pin, "color": color, "from": {"zone": "exit", "player": 1},
            "zone": "bag", "player": 0}
    answer = rig.client.post(f"/api/tables/{tid}/correct", json=body)
    assert answer.status_code == 200, answer.json
    assert rig.state(info).loc[pawn] == P.bag(0)
    assert rig.hub.store.events(tid)[-1][1:] == (
        "correct", {"pawn": pawn, "zone": "bag", "player": 0, "by": "color"})
    before, count = rig.state(info).to_dict(), rig.hub.tables[tid].count
    missing = next(c for c in ("white", "blue", "green", "red", "yellow")
                   if not any(rig.state(info).pawn_color[q] == c
                              for q in in_zone(rig.state(info), P.RESERVE)))
    refused = [
        ({**body, "color": missing, "from": {"zone": "reserve"}}, 409, "NO_SUCH_GUEST"),
        ({**body, "color": "purple"}, 400, "BAD_REQUEST"),
        ({**body, "from": "exit"}, 400, "BAD_REQUEST"),
        ({**body, "from": {"zone": "exit", "player": 9}}, 400, "BAD_REQUEST"),
        ({**body, "alert": "first"}, 400, "BAD_REQUEST"),
    ]
    for wrong, status, code in refused:
        answer = rig.client.post(f"/api/tables/{tid}/correct", json=wrong)
        assert (answer.status_code, answer.json["code"]) == (status, code), wrong
        assert answer.json["message"]
    assert rig.state(info).to_dict() == before and rig.hub.tables[tid].count == count


def test_the_correction_dialog_waits_for_one_tap_that_is_never_played(rig: Rig) -> None:
    """``identify`` (PIN): the next tap on any reader of the table is logged, gets ok
    feedback and an ``identify`` push naming the pawn, and is not played; the tap after
    it is a tap again. An unknown tag is pushed as no thing. Without the PIN it is
    ``403``; ``on`` must be a boolean; ``on: false`` stops waiting."""
    info = rig.table()
    rig.end_buying(info)
    tid, pin = info["id"], info["pin"]
    url = f"/api/tables/{tid}/identify"
    assert rig.client.post(url, json={"on": True}).json["code"] == "PIN_REQUIRED"
    assert rig.client.post(url, json={"on": "yes", "pin": pin}).json["code"] == "BAD_REQUEST"
    answer = rig.client.post(url, json={"on": True, "pin": pin})
    assert answer.status_code == 200 and answer.json["seconds"] > 0
    pushes = _pushes(rig)
    before, count = rig.state(info).to_dict(), rig.hub.tables[tid].count
    pawn = in_zone(rig.state(info), P.bag(1))[0]
    seq = rig.tap("bag-2", rig.uids[pawn])
    assert wait_for(lambda: rig.feedback("bag-2", seq) == "ok")
    assert rig.state(info).to_dict() == before
    n, kind, body = rig.hub.store.events(tid)[-1]
    piece = {"game": "popcorn", "kind": "pawn", "id": pawn,
             "value": rig.state(info).pawn_color[pawn]}
    assert (n, kind, body["identify"], body["player"]) == (count + 1, "tag", piece, 1)
    assert rig.hub.settled()
    assert (tid, "identify", {"player": 1, "thing": piece}) in pushes  # a pawn is public
    seq = rig.tap("bag-2", rig.uids[pawn])  # one tap only: this one is a draw
    assert wait_for(lambda: rig.feedback("bag-2", seq) == "ok")
    assert rig.state(info).loc[pawn] == P.hand(1)
    rig.client.post(url, json={"on": True, "pin": pin})
    seq = rig.tap("bag-1", "04aabbccddeeff")
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "ok")
    assert rig.hub.settled()
    assert (tid, "identify", {"player": 0, "thing": None}) in pushes
    award = next(u for (kind, _), u in card_uids(box_book(), 1).items() if kind == "award")
    rig.client.post(url, json={"on": True, "pin": pin})
    seq = rig.tap("bag-1", award)
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "ok")
    assert rig.hub.settled()  # an award is secret: every screen learns only its kind
    assert (tid, "identify", {"player": 0, "thing": {"game": "popcorn", "kind": "award"}}) in pushes
    assert rig.hub.store.events(tid)[-1][2]["identify"]["value"] is not None  # the log has it
    rig.client.post(url, json={"on": True, "pin": pin})
    assert rig.client.post(url, json={"on": False, "pin": pin}).json["seconds"] == 0
    seq = rig.tap("bag-1", "04aabbccddeeff")
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "error")  # an alert again
