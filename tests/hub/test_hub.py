"""The hub in one process: tables, alerts with reader feedback, bad requests, isolation."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.popcorn import Popcorn
from companion.games.popcorn.engine import Move
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import loads_record, replay, upgraded
from companion.hub.hub import Hub
from companion.readers.virtual import SerialBank
from companion.table.store import HubStore
from companion.table.table import Table, config_dict, new_config
from tests.hub.rig import ADMIN, alert_case, in_zone
from tests.waiting import wait_for


def test_draws_from_the_reader_are_applied_with_ok_feedback(rig) -> None:
    """A pawn drawn from the right bag becomes a draw_pawn move; the reader hears ok."""
    info = rig.table()
    rig.end_buying(info)
    state = rig.state(info)
    pawn = in_zone(state, P.bag(0))[0]
    seq = rig.tap("bag-1", rig.uids[pawn])
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "ok")
    assert rig.state(info).loc[pawn] == P.hand(0)


def test_alert_unknown_tag(rig) -> None:
    """A tag that is not enrolled."""
    info = rig.table()
    alert_case(rig, info, "bag-1", "04ffffffffffff", "UNKNOWN_TAG")


def test_alert_pawn_of_another_player(rig) -> None:
    """A pawn Bob drew (so the hub knows it is in Bob's hand) tapped on Ana's reader."""
    info = rig.table()
    rig.end_buying(info)
    pawn = in_zone(rig.state(info), P.bag(1))[0]
    seq = rig.tap("bag-2", rig.uids[pawn])
    assert wait_for(lambda: rig.feedback("bag-2", seq) == "ok")
    alert_case(rig, info, "bag-1", rig.uids[pawn], "PAWN_OF_ANOTHER_PLAYER")
    assert rig.hub.tables[info["id"]].alerts[-1]["params"]["zone"] == "hand"


def test_a_pawn_of_the_right_color_from_another_bag_is_a_draw(rig) -> None:
    """Players fill their bags with any pawns of the right colors: a pawn the hub had in
    Bob's bag, tapped on Ana's reader while she draws, is a draw. The hub relabels it with
    a look-alike from Ana's bag; no alert, ok feedback."""
    info = rig.table()
    rig.end_buying(info)
    state = rig.state(info)
    pawn = in_zone(state, P.bag(1))[0]
    color = state.pawn_color[pawn]
    ana_before = sorted(state.pawn_color[q] for q in in_zone(state, P.bag(0)))
    seq = rig.tap("bag-1", rig.uids[pawn])
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "ok")
    after = rig.state(info)
    assert after.loc[pawn] == P.hand(0)
    assert not rig.hub.tables[info["id"]].alerts
    colors = sorted(after.pawn_color[q] for q in in_zone(after, P.bag(0)))
    assert colors == sorted(ana_before[:ana_before.index(color)]
                            + ana_before[ana_before.index(color) + 1:])


def test_a_pawn_from_another_bag_is_an_alert_when_no_look_alike_is_left(rig) -> None:
    """A real mistake: Ana has drawn every blue guest of her bag, and one more blue guest
    comes out on her reader. One that Bob tapped into his bag at setup is named there; one
    never tapped may be in several places, and the alert names none."""
    info = rig.table(fill={1: "blue"})
    rig.end_buying(info)
    state = rig.state(info)
    blues = [q for q in in_zone(state, P.bag(0)) if state.pawn_color[q] == "blue"]
    assert len(blues) < state.draw_value(0)
    for pawn in blues:
        seq = rig.tap("bag-1", rig.uids[pawn])
        assert wait_for(lambda seq=seq: rig.feedback("bag-1", seq) == "ok")
    bob_blue = next(q for q in in_zone(rig.state(info), P.bag(1))
                    if state.pawn_color[q] == "blue")
    alert_case(rig, info, "bag-1", rig.uids[bob_blue], "COLOR_NOT_IN_BAG")
    alert = rig.hub.tables[info["id"]].alerts[-1]
    assert alert["params"]["color"] == "blue" and "Bob's bag" in alert["message"]
    assert alert["correct"] == {"pawn": bob_blue, "zone": "bag", "player": 0}
    unknown = next(q for q in range(60) if state.pawn_color[q] == "blue"
                   and len(rig.state(info).known.maybe[q]) > 1 and P.bag(0) not in
                   rig.state(info).known.maybe[q])
    alert_case(rig, info, "bag-1", rig.uids[unknown], "COLOR_NOT_IN_BAG")
    alert = rig.hub.tables[info["id"]].alerts[-1]
    assert alert["params"]["kind"] == "unsure" and "zone" not in alert["params"]
    assert "correct" not in alert and "where it came from" in alert["fix"]


def test_alert_draw_beyond_the_audience(rig) -> None:
    """A fourth pawn out of a bag when the audience is three."""
    info = rig.table()
    rig.end_buying(info)
    state = rig.state(info)
    bag = in_zone(state, P.bag(0))
    for pawn in bag[:state.draw_value(0)]:
        seq = rig.tap("bag-1", rig.uids[pawn])
        assert wait_for(lambda seq=seq: rig.feedback("bag-1", seq) == "ok")
    alert_case(rig, info, "bag-1", rig.uids[bag[state.draw_value(0)]], "DRAW_BEYOND_AUDIENCE")


def test_alert_pawn_not_in_the_bag(rig) -> None:
    """A guest Ana has just drawn (its place known from its tap: her hand) is tapped again
    while she still draws."""
    info = rig.table()
    rig.end_buying(info)
    pawn = in_zone(rig.state(info), P.bag(0))[0]
    seq = rig.tap("bag-1", rig.uids[pawn])
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "ok")
    alert_case(rig, info, "bag-1", rig.uids[pawn], "PAWN_NOT_IN_BAG")
    assert rig.hub.tables[info["id"]].alerts[-1]["params"]["zone"] == "hand"


def test_a_guest_picked_up_from_a_cinema_is_an_alert(rig) -> None:
    """A guest Ana drew and seated keeps its identity: picked up from her cinema and tapped
    on her reader, it is an alert naming its seat."""
    info = rig.table()
    rig.end_buying(info)
    drawn = in_zone(rig.state(info), P.bag(0))[:rig.state(info).draw_value(0)]
    for pawn in drawn:
        seq = rig.tap("bag-1", rig.uids[pawn])
        assert wait_for(lambda seq=seq: rig.feedback("bag-1", seq) == "ok")
    for seat in [m for m in rig.state(info).legal_moves(0) if m.kind == "place"][:1]:
        assert rig.move(info, seat.to_dict()).status_code == 200
    seated = next(q for q in drawn if P.is_seat(rig.state(info).loc[q]))
    alert_case(rig, info, "bag-1", rig.uids[seated], "UNEXPECTED_TAG")
    params = rig.hub.tables[info["id"]].alerts[-1]["params"]
    where = rig.state(info).known.maybe[seated]
    if len(where) == 1:  # no look-alike drawn with it: the hub knows its seat
        assert params["zone"] == "seat" and params["owner"] == "Ana"
    else:  # the hand seated any of two look-alikes: one of them is on that seat
        assert params["zone"] == "area" and params["owner"] == "Ana"


def test_an_exit_zone_pawn_drawn_from_the_bag_is_a_draw(rig) -> None:
    """At setup Ana put some blue pawn into her exit zone, maybe not the one the hub chose:
    the blue pawn the hub had there, drawn from her bag, is a draw."""
    info = rig.table()
    rig.end_buying(info)
    pawn = in_zone(rig.state(info), P.exit_zone(0))[0]
    seq = rig.tap("bag-1", rig.uids[pawn])
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "ok")
    assert rig.state(info).loc[pawn] == P.hand(0)
    exits = [rig.state(info).pawn_color[q] for q in in_zone(rig.state(info), P.exit_zone(0))]
    assert rig.state(info).pawn_color[pawn] in exits  # a look-alike took its place
    assert not rig.hub.tables[info["id"]].alerts


def test_alert_no_draw_expected(rig) -> None:
    """A pawn out of Ana's bag during the Buying phase, one she tapped into it at setup (so
    the hub knows it came out of her bag)."""
    info = rig.table(fill={0: "white"})
    pawn = next(q for q in in_zone(rig.state(info), P.bag(0))
                if rig.state(info).known.certain(q) == P.bag(0))
    alert_case(rig, info, "bag-1", rig.uids[pawn], "NO_DRAW_EXPECTED")
    assert "back into Ana's bag" in rig.hub.tables[info["id"]].alerts[-1]["fix"]


def test_alert_unexpected_tag(rig) -> None:
    """A reserve pawn pushed into Ana's bag when nothing gains a guest: the hub cannot say
    where it came from (any pawn of its color may be in the reserve or a bag)."""
    info = rig.table()
    pawn = in_zone(rig.state(info), P.RESERVE)[0]
    alert_case(rig, info, "bag-1", rig.uids[pawn], "UNEXPECTED_TAG")


def test_a_premiers_guest_is_an_addition(rig) -> None:
    """Buying a Premiers movie expects a guest of its color into the bag: tapping it adds it."""
    info = rig.table()
    state = rig.state(info)
    state.players[0].money = 20
    premier = state.premiers[0]
    assert rig.move(info, {"move": "buy_movie", "player": 0, "card": premier,
                           "slot": 1}).status_code == 200
    gains = [m for m in rig.state(info).legal_moves() if m.kind == "gain_pawn"]
    seq = rig.tap("bag-1", rig.uids[gains[0].pawn])
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "ok")
    assert rig.state(info).loc[gains[0].pawn] == P.bag(0)


def test_bad_requests_get_4xx_and_change_nothing(rig) -> None:
    """Wrong PIN, another player's token, unknown table, malformed JSON, out of turn."""
    info = rig.table()
    tid = info["id"]
    before = rig.state(info).to_dict()
    cases = [
        (rig.client.post(f"/api/tables/{tid}/undo", json={"pin": "000000"}), 403, "WRONG_PIN"),
        (rig.client.post(f"/api/tables/{tid}/undo"), 403, "PIN_REQUIRED"),
        (rig.client.get(f"/api/tables/{tid}/players/0/private",
                        headers={"X-Player-Token": info["tokens"][1]}), 403, "WRONG_TOKEN"),
        (rig.client.get("/api/tables/nope"), 404, "TABLE_NOT_FOUND"),
        (rig.client.post(f"/api/tables/{tid}/moves", data="{not json",
                         content_type="application/json"), 400, "BAD_JSON"),
        (rig.move(info, {"move": "end_turn", "player": 1}), 409, "NOT_YOUR_TURN"),
        (rig.move(info, {"move": "teleport"}), 400, "UNKNOWN_MOVE"),
        (rig.move(info, {"move": "correct", "pawn": in_zone(rig.state(info), P.bag(0))[0],
                         "zone": "reserve"}), 403, "PIN_REQUIRED"),
        (rig.client.post("/api/tables", json={"players": ["A"], "readers": []}), 400,
         "BAD_REQUEST"),
        (rig.client.post("/api/tables", json={"players": ["A", "B"],
                                              "readers": ["bag-1", "bag-9"]}), 409,
         "READER_IN_USE"),
        (rig.client.put("/api/tags", json={"registry": {}, "admin_pin": "1"}), 403, "WRONG_PIN"),
        (rig.client.get("/api/tags"), 403, "WRONG_PIN"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, (code, response.json)
        assert response.json["code"] == code and response.json["message"]
    assert rig.state(info).to_dict() == before


def test_undo_and_correct_are_logged_and_survive_a_restart(rig, tmp_path: Path) -> None:
    """Undo takes the last move back; a correction moves a pawn; a rebuild agrees."""
    info = rig.table()
    tid, pin = info["id"], info["pin"]
    assert rig.move(info, {"move": "end_turn", "player": 0}).status_code == 200
    assert rig.state(info).current == 1
    assert rig.client.post(f"/api/tables/{tid}/undo", json={"pin": pin}).status_code == 200
    assert rig.state(info).current == 0
    pawn = in_zone(rig.state(info), P.exit_zone(0))[0]
    ok = rig.client.post(f"/api/tables/{tid}/correct", json={"pin": pin, "pawn": pawn,
                                                             "zone": "exit", "player": 1})
    assert ok.status_code == 200 and rig.state(info).loc[pawn] == P.exit_zone(1)
    bad = rig.client.post(f"/api/tables/{tid}/correct", json={"pin": pin, "pawn": 99,
                                                              "zone": "exit", "player": 1})
    assert bad.status_code == 400
    expected = rig.state(info).to_dict()
    rig.close()
    again = Hub(tmp_path / "hub.sqlite")
    try:
        assert again.tables[tid].state.to_dict() == expected
    finally:
        again.store.close()
    rig.bank = SerialBank([], tmp_path / "dev2")
    rig.hub = again


def test_closing_a_table_frees_its_readers_and_refuses_input(rig, tmp_path: Path) -> None:
    """Close (PIN): the readers serve a new table; every input to the old one is refused;
    taps on a freed reader get error feedback; the close survives a restart."""
    info = rig.table(("Ana", "Bob"), ["bag-1", "bag-2"])
    tid, pin = info["id"], info["pin"]
    assert rig.client.post(f"/api/tables/{tid}/close").json["code"] == "PIN_REQUIRED"
    before = rig.state(info).to_dict()
    closed = rig.client.post(f"/api/tables/{tid}/close", json={"pin": pin})
    assert closed.status_code == 200 and closed.json["table"]["closed"] is True
    refused = [rig.move(info, {"move": "end_turn", "player": 0}),
               rig.client.post(f"/api/tables/{tid}/undo", json={"pin": pin}),
               rig.client.post(f"/api/tables/{tid}/deal", json={"pin": pin, "seed": 2}),
               rig.client.post(f"/api/tables/{tid}/close", json={"pin": pin})]
    assert [(r.status_code, r.json["code"]) for r in refused] == [(409, "TABLE_CLOSED")] * 4
    pawn = in_zone(rig.state(info), P.bag(0))[0]
    seq = rig.tap("bag-1", rig.uids[pawn])
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "error")
    assert rig.state(info).to_dict() == before
    record = rig.client.get(f"/api/tables/{tid}/record", headers={"X-Table-Pin": pin})
    assert record.status_code == 200
    again = rig.table(("Cy", "Di"), ["bag-2", "bag-1"])
    assert rig.hub.seats["bag-1"] == (again["id"], 1)
    rig.close()
    rebuilt = Hub(tmp_path / "hub.sqlite")
    try:
        assert rebuilt.tables[tid].closed and rebuilt.seats["bag-1"] == (again["id"], 1)
        assert rebuilt.tables[tid].state.to_dict() == before
    finally:
        rebuilt.store.close()
    rig.bank = SerialBank([], tmp_path / "dev2")
    rig.hub = rebuilt


def test_a_finished_game_gives_its_readers_to_a_new_table(rig) -> None:
    """A table whose game is over is closed for you when a new table takes a reader."""
    import random

    from companion.games.popcorn.engine.simulator import play_random

    info = rig.table(("Ana", "Bob"), ["bag-1", "bag-2"])
    table = rig.hub.tables[info["id"]]
    played = play_random(load_catalog(), 2, random.Random(4)).state
    assert played.is_over
    busy = rig.client.post("/api/tables", json={"players": ["Cy", "Di"],
                                                "readers": ["bag-1", "bag-3"]})
    assert busy.status_code == 409 and busy.json["code"] == "READER_IN_USE"
    table.state = played  # the game ended at this table
    new = rig.client.post("/api/tables", json={"players": ["Cy", "Di"],
                                               "readers": ["bag-1", "bag-3"]})
    assert new.status_code == 201, new.json
    assert table.closed and "bag-2" not in rig.hub.seats
    assert rig.hub.seats["bag-1"] == (new.json["id"], 0)


def test_the_record_export_replays(rig, tmp_path: Path) -> None:
    """A table's game record (PIN) is accepted by ``popcorn-companion replay``."""
    from companion.games.popcorn.record import loads_record, replay

    info = rig.table()
    rig.end_buying(info)
    text = rig.client.get(f"/api/tables/{info['id']}/record",
                          headers={"X-Table-Pin": info["pin"]}).get_data(as_text=True)
    state = replay(load_catalog(), loads_record(text))
    assert state.to_dict() == rig.state(info).to_dict()


def test_two_tables_do_not_see_each_others_events(rig) -> None:
    """Socket.IO rooms: a draw at one table is pushed to that table's dashboards only."""
    first = rig.table(("Ana", "Bob"), ["bag-1", "bag-2"])
    second = rig.table(("Cy", "Di"), ["bag-3", "bag-4"])
    one, two = rig.socketio.test_client(rig.app), rig.socketio.test_client(rig.app)
    one.emit("join", {"table": first["id"]})
    two.emit("join", {"table": second["id"]})
    rig.end_buying(first)
    assert rig.hub.settled()
    one.get_received()
    two.get_received()
    pawn = in_zone(rig.state(first), P.bag(0))[0]
    seq = rig.tap("bag-1", rig.uids[pawn])
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "ok")
    assert rig.hub.settled()
    got_one = [m for m in one.get_received() if m["name"] == "state"]
    got_two = [m for m in two.get_received() if m["name"] == "state"]
    assert got_one and all(m["args"][0]["table"] == first["id"] for m in got_one)
    assert got_two == []


def test_a_private_channel_needs_the_players_token(rig) -> None:
    """The private room is joined with the player's own token only."""
    info = rig.table()
    client = rig.socketio.test_client(rig.app)
    client.emit("join_private", {"table": info["id"], "player": 0, "token": info["tokens"][1]})
    assert [m["name"] for m in client.get_received()] == ["error"]
    client.emit("join_private", {"table": info["id"], "player": 0, "token": info["tokens"][0]})
    received = client.get_received()
    assert received[0]["name"] == "private"
    assert received[0]["args"][0]["view"]["awards"]
    public = rig.client.get(f"/api/tables/{info['id']}").json["view"]
    assert all(isinstance(c["awards"], int) for c in public["cinemas"])


def test_enrollment_refuses_duplicates_and_full_colors(rig) -> None:
    """Enrollment: taps on any reader while a color is chosen; duplicates are refused."""
    assert rig.client.put("/api/tags", json={"admin_pin": ADMIN, "registry": {
        "format": "popcorn-tags", "version": 1, "tags": []}}).status_code == 200
    assert rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "color": "red"}).json
    seqs = [rig.tap("bag-1", f"04aa00000000{i:02x}") for i in range(11)]
    assert wait_for(lambda: all(rig.feedback("bag-1", s) for s in seqs))
    assert [rig.feedback("bag-1", s) for s in seqs] == ["ok"] * 10 + ["error"]
    again = rig.tap("bag-2", "04aa0000000000")
    assert wait_for(lambda: rig.feedback("bag-2", again) == "error")
    assert rig.client.get("/api/tags/counts").json["counts"]["red"] == 10


def test_moves_for_the_table_go_through_the_engine(rig) -> None:
    """Tablet decisions are checked by the engine; a refused one names the rule."""
    info = rig.table()
    refused = rig.move(info, Move("buy_theater", player=0, card="one_seat_2_money",
                                  slot=2).to_dict())
    assert refused.status_code == 409
    assert refused.json["code"] in ("FIRST_TURN_NO_THEATER", "CARD_NOT_AVAILABLE")


@pytest.mark.parametrize("method, path, body", [
    ("post", "/moves", {"move": {"move": ["end_turn"]}}),
    ("post", "/moves", {"move": "end_turn"}),
    ("post", "/moves", [1, 2]),
    ("post", "/correct", {"pin": None}),
])
def test_malformed_bodies_get_a_json_4xx(rig, method: str, path: str, body) -> None:
    """Wrong shapes anywhere in a body are a 4xx with a code, never a 500."""
    info = rig.table()
    response = getattr(rig.client, method)(f"/api/tables/{info['id']}{path}", json=body)
    assert 400 <= response.status_code < 500 and response.json["code"]


def test_odd_socket_messages_get_an_error_reply(rig) -> None:
    """A join with a table id of the wrong type is answered, not crashed on."""
    client = rig.socketio.test_client(rig.app)
    client.emit("join", {"table": ["x"]})
    client.emit("join_private", {"table": {"a": 1}, "player": 0, "token": 3})
    assert [m["name"] for m in client.get_received()] == ["error", "error"]


def test_undo_takes_back_the_cards_dealt_after_the_move(rig) -> None:
    """With "deal for us", undoing a player's move also takes back what was dealt after it."""
    info = rig.table(seed=4)
    state = rig.state(info)
    before = state.to_dict()
    rig.end_buying(info)
    assert rig.state(info).phase == "showings"
    for _ in range(2):
        assert rig.client.post(f"/api/tables/{info['id']}/undo",
                               json={"pin": info["pin"]}).status_code == 200
    assert rig.state(info).to_dict() == before


def test_enrollment_uids_go_only_to_clients_that_joined_with_the_admin_pin(rig) -> None:
    """An ``enroll`` push names the UID, which lets its holder forge taps: only a client that
    emitted ``join_admin`` with the admin PIN gets it. A wrong PIN gets an error."""
    assert rig.client.put("/api/tags", json={"admin_pin": ADMIN, "registry": {
        "format": "popcorn-tags", "version": 1, "tags": []}}).status_code == 200
    table_screen, intruder, setup = (rig.socketio.test_client(rig.app) for _ in range(3))
    table_screen.emit("join", {"table": rig.table()["id"]})
    intruder.emit("join_admin", {"admin_pin": "000000"})
    setup.emit("join_admin", {"admin_pin": ADMIN})
    answers = [m for m in intruder.get_received() if m["name"] != "readers"]  # pushed to all
    assert [(m["name"], m["args"][0]["code"]) for m in answers] == [("error", "WRONG_PIN")]
    joined = [m for m in setup.get_received() if m["name"] != "readers"]
    assert [m["name"] for m in joined] == ["admin"] and "counts" in joined[0]["args"][0]
    assert rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "color": "red"}).json
    table_screen.get_received()
    seq = rig.tap("bag-1", "04aa0000000077")
    assert wait_for(lambda: rig.feedback("bag-1", seq) == "ok")
    assert rig.hub.settled()
    pushes: list[dict] = []  # the reader's feedback goes out just before the push

    def pushed() -> bool:
        pushes.extend(m["args"][0] for m in setup.get_received() if m["name"] == "enroll")
        return bool(pushes)

    assert wait_for(pushed, 5)
    assert [(p["ok"], p["uid"]) for p in pushes] == [(True, "04aa0000000077")]
    for other in (table_screen, intruder):
        assert all(m["name"] != "enroll" for m in other.get_received())
    late = rig.socketio.test_client(rig.app)
    late.emit("join_admin", {"admin_pin": ADMIN})
    (answer,) = [m["args"][0] for m in late.get_received() if m["name"] == "admin"]
    assert answer["last"]["uid"] == "04aa0000000077", "a screen joining late misses the tap"
    assert rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "color": "blue"}).json
    late.emit("join_admin", {"admin_pin": ADMIN})
    (answer,) = [m["args"][0] for m in late.get_received() if m["name"] == "admin"]
    assert answer["last"] is None, "a new enrollment starts with no last tap"


def test_join_admin_is_throttled_with_the_rest_api(rig) -> None:
    """Wrong admin PINs over Socket.IO count like wrong PINs over HTTP from that address:
    past the limit even the right PIN is refused with TOO_MANY_TRIES, on both."""
    from companion.hub.pin_tries import PER_ADDRESS

    client = rig.socketio.test_client(rig.app, flask_test_client=rig.client)  # one address
    for n in range(PER_ADDRESS[0].amount):
        client.emit("join_admin", {"admin_pin": f"{n:06d}"})
    client.emit("join_admin", {"admin_pin": ADMIN})
    codes = [m["args"][0]["code"] for m in client.get_received() if m["name"] == "error"]
    assert codes == ["WRONG_PIN"] * PER_ADDRESS[0].amount + ["TOO_MANY_TRIES"]
    refused = rig.client.get("/api/tags", headers={"X-Admin-Pin": ADMIN})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    client.emit("join_admin", ["not", "an", "object"])
    assert [m["args"][0]["code"] for m in client.get_received()
            if m["name"] == "error"] == ["WRONG_PIN"]


def test_a_log_written_before_moves_named_their_guest_still_loads(tmp_path: Path) -> None:
    """docs/game-record.md, Versioning: a hub log whose activation moves lack ``seat`` (the
    version-1 shape) loads into the same game; its record is written as version 2."""
    catalog = load_catalog()
    example = Path(__file__).parents[2] / "docs" / "examples" / "game-4p-v1.jsonl"
    old = loads_record(example.read_text())
    store = HubStore(tmp_path / "hub.sqlite")
    try:
        config, _, _ = new_config("old", "Old", list(old.names), old.first_player, [], None, 0)
        store.add_table(config.id, config_dict(config), 0)
        for n, move in enumerate(old.moves, start=1):
            store.append(config.id, n, "move", {"move": move.to_dict(), "source": "tablet"})
        table = Table(config, Popcorn(catalog), store)
        table.replay(store.events(config.id))
        assert table.state == replay(catalog, old) and table.state.is_over
        assert loads_record(table.record_text()).moves == upgraded(catalog, old).moves
    finally:
        store.close()


def test_a_table_stored_before_there_were_two_games_loads_as_popcorn(tmp_path: Path) -> None:
    """A hub database written before B Movies: its tables' configurations name no ``game``
    and no ``options``. A hub that finds its games by entry point still opens them as
    Popcorn tables, replays their logs, and plays on."""
    catalog = load_catalog()
    example = Path(__file__).parents[2] / "docs" / "examples" / "game-4p.jsonl"
    played = loads_record(example.read_text())
    store = HubStore(tmp_path / "hub.sqlite")
    config, _, _ = new_config("old", "Old", list(played.names), played.first_player,
                              ["bag-1", "bag-2", "bag-3", "bag-4"], None, 0)
    stored = config_dict(config)
    del stored["game"], stored["options"]
    store.add_table(config.id, stored, 0)
    half = played.moves[: len(played.moves) // 2]
    for n, move in enumerate(half, start=1):
        store.append(config.id, n, "move", {"move": move.to_dict(), "source": "tablet"})
    store.close()
    hub = Hub(tmp_path / "hub.sqlite")
    try:
        table = hub.tables["old"]
        assert table.game.id == "popcorn" and table.config.options == {}
        expected = replay(catalog, type(played)(played.names, played.first_player, half))
        assert table.state == expected
        hub.submit("old", played.moves[len(half)])
        assert table.count == len(half) + 1
    finally:
        hub.stop()
