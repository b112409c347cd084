"""B Movies token pile audits on a real hub: virtual token pads on pseudo-terminals, a real
SQLite log, the app's test client and a Socket.IO screen.

A player taps every popcorn token of their pile; the hub compares the taps with the pile it
believes in, value by value, and mends the differences as one batch. These tests play the
cases a table meets (a draw whose tap never reached the hub, a token the hub had in the
bucket, a token tapped twice, a pile that is right) and check the secret: the table's screen
learns how many tokens, never a value or a token id, and the player's phone learns the values.
Token corrections (``POST .../correct``) are checked here too, with their refusals.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.games.bmovies.facts_file import load_facts
from tests.bmovies.rig import Rig
from tests.waiting import wait_for

FACTS = load_facts()
ZERO, ONE, TWO, THREE, FOUR = 0, 25, 53, 78, 93
"""The first token id of each value (ids run through the values in ascending order)."""
assert [FACTS.token_value(t) for t in (ZERO, ONE, TWO, THREE, FOUR)] == [0, 1, 2, 3, 4]


@pytest.fixture
def rig(tmp_path: Path):
    rig = Rig(tmp_path, 4)
    yield rig
    rig.close()


def tap_ok(rig: Rig, seat: int, token: int) -> None:
    """Tap a token on ``seat``'s pad and wait for the pad's ok."""
    seq = rig.tap(seat, token)
    assert wait_for(lambda: rig.feedback(seat, seq) is not None)
    assert rig.feedback(seat, seq) == "ok"


def rejected_pitch(rig: Rig, info: dict[str, Any]) -> None:
    """The screenwriter pitches 2 cards and every producer votes No: each producer is owed
    one token (the rejected pitch's reward)."""
    state = rig.table(info).state
    writer = state.screenwriter
    assert rig.post(info, {"move": "pitch", "player": writer, "cards": 2}).status_code == 200
    for seat in state.producers():
        answer = rig.post(info, {"move": "vote", "player": seat, "vote": "no"},
                          token=info["tokens"][seat])
        assert answer.status_code == 200, answer.json
    assert rig.table(info).state.phase == "draw"


def first_turn(rig: Rig, info: dict[str, Any]) -> None:
    """Ana pitches, the pitch is rejected, and Bob, Chloe and Dev each tap the token they
    draw: a 1, a 2 and a 3. Then Bob pitches and is rejected: Ana, Chloe and Dev each owe a
    token."""
    rejected_pitch(rig, info)
    for seat, token in ((1, ONE), (2, TWO), (3, THREE)):
        tap_ok(rig, seat, token)
    rejected_pitch(rig, info)
    assert rig.table(info).state.owed == [1, 0, 1, 1]


def url(info: dict[str, Any], rest: str = "") -> str:
    return f"/api/tables/{info['id']}/audits{rest}"


def phone(info: dict[str, Any], seat: int) -> dict[str, str]:
    return {"X-Player-Token": info["tokens"][seat]}


def pin(info: dict[str, Any]) -> dict[str, str]:
    return {"X-Table-Pin": info["pin"]}


def audit_pile(rig: Rig, info: dict[str, Any], seat: int, tokens: list[int]) -> dict[str, Any]:
    """The player's phone starts the audit of their pile, they tap ``tokens``, the phone
    ends the tapping: the phone's answer (its report names the values)."""
    started = rig.client.post(url(info), json={"player": seat}, headers=phone(info, seat))
    assert started.status_code == 201, started.json
    assert started.json["by"] == "phone"
    table = rig.table(info)
    for token in tokens:
        tap_ok(rig, seat, token)
    assert wait_for(lambda: table.audit is not None and len(table.audit.taps) == len(tokens))
    done = rig.client.post(url(info, "/current/done"), headers=phone(info, seat))
    assert done.status_code == 200, done.json
    assert done.json["done"] is True
    return done.json


def no_secret_in(audit: dict[str, Any]) -> None:
    """What the table's screen may see of an audit: counts, and findings and fixes with no
    value, no token id and no other player (see ``docs/b-movies.md``)."""
    report = audit["report"]
    text = json.dumps(audit)
    assert '"value"' not in text and '"token"' not in text, text
    assert [set(c) for c in report["counts"]] == [{"key", "tapped", "expected"}]
    assert report["counts"][0]["key"] == "tokens"
    for finding in report["findings"] + report["refused"]:
        assert finding["code"].startswith("AUDIT_PILE_"), finding
        assert set(finding["params"]) <= {"player", "name", "uid", "kind"}, finding
        if "uid" not in finding["params"]:  # an unknown tag's UID is no secret
            assert not any(ch.isdigit() for ch in finding["message"]), finding
    for fix in report["fixes"]:
        shown = fix.get("correct") or fix["move"]
        assert set(shown) <= {"zone", "player", "move"}, fix


def test_a_missed_draw_is_found_mended_by_one_accept_and_taken_back_by_one_undo(rig: Rig
                                                                               ) -> None:
    """Chloe draws a 4 past her pad. Her audit taps are no draws (she stays owed, nothing is
    added); the report names the missed draw, whose fix is the ``draw_token`` move; one
    accept draws it, and one Undo takes the whole audit batch back."""
    info = rig.create()
    first_turn(rig, info)
    table = rig.table(info)
    before, alerts = table.state.to_dict(), len(table.alerts)
    report = audit_pile(rig, info, 2, [TWO, FOUR])["report"]
    assert table.state.to_dict() == before and len(table.alerts) == alerts  # never a draw
    assert [f["code"] for f in report["findings"]] == ["AUDIT_TOKEN_DRAWN"]
    finding = report["findings"][0]
    assert finding["params"] == {"player": 2, "name": "Chloe", "value": 4, "token": FOUR}
    assert "worth 4" in finding["message"]
    assert report["fixes"][finding["fix"]] == {
        "move": {"move": "draw_token", "player": 2, "value": 4, "token": FOUR}}
    assert {c["value"]: (c["tapped"], c["expected"]) for c in report["counts"]} == {
        2: (1, 1), 4: (1, 0)}
    accepted = rig.client.post(url(info, "/current/accept"), headers=phone(info, 2))
    assert accepted.status_code == 200, accepted.json
    assert accepted.json["applied"] == 1 and table.audit is None
    no_secret_in({"report": accepted.json["report"]})  # the answer holds the table's report
    state = table.state
    assert sorted(state.piles[2]) == [2, 4] and FOUR in state.pile_tokens[2]
    assert state.owed[2] == 0 and state.bucket[4] == FACTS.token_counts[4] - 1
    undone = rig.client.post(f"/api/tables/{info['id']}/undo", headers=pin(info))
    assert undone.status_code == 200
    assert table.state.to_dict() == before


def test_a_token_the_hub_had_in_the_bucket_while_nothing_is_owed_joins_the_pile(rig: Rig
                                                                               ) -> None:
    """Bob owes nothing and holds a 0 the hub never saw: a correction into his pile, and a
    token of his the hub had that he did not tap goes back to the bucket."""
    info = rig.create()
    first_turn(rig, info)
    table = rig.table(info)
    report = audit_pile(rig, info, 1, [ZERO])["report"]
    codes = [f["code"] for f in report["findings"]]
    assert codes == ["AUDIT_TOKEN_NOT_TAPPED", "AUDIT_TOKEN_FROM_BUCKET"]
    assert report["fixes"] == [{"correct": {"token": ONE, "zone": "bucket"}},
                               {"correct": {"token": ZERO, "zone": "pile", "player": 1}}]
    accepted = rig.client.post(url(info, "/current/accept"), headers=pin(info))
    assert accepted.status_code == 200 and accepted.json["applied"] == 2
    state = table.state
    assert state.piles[1] == [0] and state.pile_tokens[1] == [ZERO]
    assert state.owed == [1, 0, 1, 1]  # a correction is no draw
    assert state.bucket[0] == FACTS.token_counts[0] - 1
    assert state.bucket[1] == FACTS.token_counts[1]
    tap_ok(rig, 0, ONE)  # back in the bucket for the hub: Ana may draw it
    assert table.state.pile_tokens[0] == [ONE]


def test_a_token_tapped_twice_counts_once(rig: Rig) -> None:
    """Dev taps his 3 twice: said once, nothing to mend, and accepting changes nothing."""
    info = rig.create()
    first_turn(rig, info)
    table = rig.table(info)
    before = table.state.to_dict()
    report = audit_pile(rig, info, 3, [THREE, THREE, THREE])["report"]
    assert [f["code"] for f in report["findings"]] == ["AUDIT_PILE_TAPPED_TWICE"]
    assert report["findings"][0]["params"]["value"] == 3 and report["findings"][0]["fix"] is None
    assert report["fixes"] == [] and report["clean"] is False
    assert report["counts"] == [{"key": "3", "value": 3, "tapped": 1, "expected": 1}]
    accepted = rig.client.post(url(info, "/current/accept"), headers=phone(info, 3))
    assert accepted.status_code == 200 and accepted.json["applied"] == 0
    assert table.state.to_dict() == before


def test_a_pile_the_hub_has_right_is_clean(rig: Rig) -> None:
    """Every token tapped: a clean report on the phone and on the table's screen, and the
    accept changes nothing."""
    info = rig.create()
    first_turn(rig, info)
    table = rig.table(info)
    before = table.state.to_dict()
    report = audit_pile(rig, info, 1, [ONE])["report"]
    assert report["clean"] is True and report["findings"] == [] and report["fixes"] == []
    public = rig.client.get(url(info, "/current")).json["report"]
    assert public["clean"] is True and public["counts"] == [
        {"key": "tokens", "tapped": 1, "expected": 1}]
    accepted = rig.client.post(url(info, "/current/accept"), headers=pin(info))
    assert accepted.status_code == 200 and accepted.json["applied"] == 0
    assert table.state.to_dict() == before


def test_the_table_screen_sees_counts_and_the_phone_sees_values(rig: Rig) -> None:
    """Privacy: the public ``GET .../audits/current``, the table's ``state`` push and its
    public view carry no value, no token id and no other pile, while the audit runs and once
    it is done; the audited player's token reads the values, on the route and in the
    ``private`` push; another player's token reads only what the table sees."""
    info = rig.create()
    first_turn(rig, info)
    screen = rig.socketio.test_client(rig.app)
    screen.emit("join", {"table": info["id"]})
    own = rig.socketio.test_client(rig.app)
    own.emit("join_private", {"table": info["id"], "player": 2, "token": info["tokens"][2]})
    screen.get_received()
    own.get_received()
    pushed: list[dict[str, Any]] = []
    phone_pushed: list[dict[str, Any]] = []

    def collect() -> None:
        pushed.extend(m["args"][0]["view"] for m in screen.get_received() if m["name"] == "state")
        phone_pushed.extend(m["args"][0]["view"] for m in own.get_received()
                            if m["name"] == "private")

    def pushed_done() -> bool:
        collect()
        return any(v["audit"] and v["audit"]["done"] for v in pushed)

    def phone_pushed_done() -> bool:
        collect()
        return any(v.get("audit") and v["audit"]["done"] for v in phone_pushed)

    # Chloe missed a 4, holds Bob's 1 (the hub had it in Bob's pile), and taps an unknown tag
    started = rig.client.post(url(info), json={"player": 2}, headers=phone(info, 2))
    assert started.status_code == 201, started.json
    for token in (TWO, FOUR, ONE):
        tap_ok(rig, 2, token)
    rig.bank.tap(rig.readers[2], "04aabbccddee01")
    table = rig.table(info)
    assert wait_for(lambda: table.audit is not None and len(table.audit.taps) == 4)
    running = rig.client.get(url(info, "/current")).json
    no_secret_in(running)
    assert running["report"]["counts"] == [{"key": "tokens", "tapped": 3, "expected": 1}]
    assert rig.client.post(url(info, "/current/done"), headers=pin(info)).status_code == 200
    assert wait_for(pushed_done)
    for view in pushed:
        if view["audit"] is not None:
            no_secret_in(view["audit"])
    public = rig.client.get(f"/api/tables/{info['id']}").json["view"]["audit"]
    no_secret_in(public)
    codes = [f["code"] for f in public["report"]["findings"]]
    assert codes == ["AUDIT_PILE_UNKNOWN_TAG", "AUDIT_PILE_FROM_PILE", "AUDIT_PILE_DRAWN"]
    assert "another player's pile" in public["report"]["findings"][1]["message"]
    assert public["report"]["fixes"] == [{"correct": {"zone": "pile", "player": 2}},
                                         {"move": {"move": "draw_token", "player": 2}}]
    for seat in (0, 1):  # another player's token is no key to this pile
        other = rig.client.get(url(info, "/current"), headers=phone(info, seat)).json
        assert other == public
    mine = rig.client.get(url(info, "/current"), headers=phone(info, 2)).json
    assert [f["code"] for f in mine["report"]["findings"]] == [
        "AUDIT_PILE_UNKNOWN_TAG", "AUDIT_TOKEN_FROM_PILE", "AUDIT_TOKEN_DRAWN"]
    assert [f["params"].get("value") for f in mine["report"]["findings"]] == [None, 1, 4]
    assert mine["report"]["fixes"][0] == {"correct": {"token": ONE, "zone": "pile", "player": 2}}
    assert "Bob" not in json.dumps(mine)  # the phone learns the value, not whose pile it was
    assert wait_for(phone_pushed_done)
    private = [v for v in phone_pushed if v.get("audit") and v["audit"]["done"]][-1]
    assert private["audit"]["report"] == mine["report"]
    accepted = rig.client.post(url(info, "/current/accept"), headers=pin(info))
    assert accepted.json["applied"] == 2
    assert table.state.piles[1] == [] and sorted(table.state.piles[2]) == [1, 2, 4]


def test_token_corrections_with_the_pin(rig: Rig) -> None:
    """``POST .../correct`` at a B Movies table: a token by its id into a pile or back to
    the bucket, a value drawn without a tag back to the bucket; each keeps the bucket and
    the piles in step, and Undo takes it back."""
    info = rig.create()
    first_turn(rig, info)
    table = rig.table(info)
    start = table.state.to_dict()
    ok = rig.client.post(f"/api/tables/{info['id']}/correct",
                         json={"pin": info["pin"], "token": ONE, "zone": "pile", "player": 3})
    assert ok.status_code == 200, ok.json
    state = table.state
    assert state.piles[1] == [] and state.pile_tokens[3] == [THREE, ONE]
    assert state.bucket == start["bucket"]
    ok = rig.client.post(f"/api/tables/{info['id']}/correct", headers=pin(info),
                         json={"token": THREE, "zone": "bucket"})
    assert ok.status_code == 200 and table.state.bucket[3] == FACTS.token_counts[3]
    hand = rig.post(info, {"move": "draw_token", "player": 0, "value": 4}, pin=info["pin"])
    assert hand.status_code == 200 and table.state.piles[0] == [4]
    ok = rig.client.post(f"/api/tables/{info['id']}/correct", headers=pin(info),
                         json={"value": 4, "zone": "bucket", "player": 0})
    assert ok.status_code == 200, ok.json
    assert table.state.piles[0] == [] and table.state.bucket[4] == FACTS.token_counts[4]
    assert table.state.owed[0] == 0  # the draw stays drawn: a correction moves a token only
    for _ in range(4):
        assert rig.client.post(f"/api/tables/{info['id']}/undo", headers=pin(info)
                               ).status_code == 200
    assert table.state.to_dict() == start


def test_bad_token_corrections_change_nothing(rig: Rig) -> None:
    """Each bad correction has its code and a sentence, and the log does not move."""
    info = rig.create()
    first_turn(rig, info)
    table = rig.table(info)
    events, before = table.count, table.state.to_dict()

    def correct(**body: Any):
        return rig.client.post(f"/api/tables/{info['id']}/correct", headers=pin(info),
                               json=body)
    cases = [
        (correct(pawn=1, zone="box"), 400, "BAD_REQUEST"),
        (correct(token=ONE, zone="bag", player=0), 400, "BAD_REQUEST"),
        (correct(token=98, zone="bucket"), 400, "BAD_REQUEST"),
        (correct(token=True, zone="bucket"), 400, "BAD_REQUEST"),
        (correct(token=ONE, value=1, zone="bucket"), 400, "BAD_REQUEST"),
        (correct(token=ZERO, zone="pile"), 400, "BAD_REQUEST"),
        (correct(token=ZERO, zone="pile", player=4), 400, "BAD_REQUEST"),
        (correct(value=5, zone="bucket", player=0), 400, "BAD_REQUEST"),
        (correct(value=1, zone="bucket", player=1), 409, "NO_SUCH_TOKEN"),
        (correct(token=ZERO, zone="bucket"), 409, "TOKEN_ALREADY_THERE"),
        (correct(token=ONE, zone="pile", player=1), 409, "TOKEN_ALREADY_THERE"),
        (rig.client.post(f"/api/tables/{info['id']}/correct",
                         json={"token": ZERO, "zone": "bucket"}), 403, "PIN_REQUIRED"),
    ]
    for answer, status, code in cases:
        assert (answer.status_code, answer.json["code"]) == (status, code), answer.json
        assert answer.json["message"]
    assert table.count == events and table.state.to_dict() == before
