"""``GET /api/tables/<id>/placement`` and the table's ``hints`` setting: the placement the
table screen pre-fills, the advisor's or the first free seats, sent back as one batch."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.popcorn.engine import pawns as P
from companion.hub.app import create_app
from companion.hub.hub import Hub
from tests.hub.client import READERS, advice, draw_for_ana


@pytest.fixture
def make(tmp_path: Path):
    """A factory of (hub, client, table id, pin) for a 2-player table with ``hints``."""
    hubs = []

    def table(**extra):
        hub = Hub(tmp_path / f"hub{len(hubs)}.sqlite", readers=READERS).start()
        hubs.append(hub)
        client = create_app(hub, "246810")[0].test_client()
        created = client.post("/api/tables", json={"players": ["Ana", "Bob"],
                                                   "readers": READERS, "deal_seed": 4, **extra})
        assert created.status_code == 201, created.json
        return hub, client, created.json["id"], created.json["pin"]
    yield table
    for hub in hubs:
        hub.stop()


def placement(client, table_id: str):
    """The route's answer for Ana."""
    return client.get(f"/api/tables/{table_id}/placement?player=0")


def test_hints_are_on_by_default_and_the_placement_is_the_advisors(make) -> None:
    """With hints on, the placement is the advisor's placing moves, and as a batch it
    seats every drawn guest."""
    hub, client, table_id, _ = make()
    assert client.get(f"/api/tables/{table_id}").json["hints"] is True
    assert placement(client, table_id).status_code == 409  # nobody has drawn yet
    draw_for_ana(hub, client, table_id)
    answer = placement(client, table_id).json
    best = advice(client, table_id).json["best"]
    seated = len(answer["moves"])
    assert answer["hints"] is True and answer["moves"] == best["moves"][:seated]
    assert {m["move"] for m in answer["moves"]} <= {"place", "to_exit"}
    stop = min([w["after"] for w in best["waits"]] + [len(best["moves"])])
    assert answer["then"] == best["moves"][seated:stop]  # "Seat and play as suggested"
    assert answer["gains"] == best["gains"]  # what the table screen says it brings
    sent = client.post(f"/api/tables/{table_id}/moves",
                       json={"moves": answer["moves"] + answer["then"]})
    assert sent.status_code == 200, sent.json
    assert hub.tables[table_id].state.pawns_at(P.hand(0)) == []


def test_with_hints_off_each_guest_takes_the_first_free_seat_in_draw_order(make) -> None:
    """Hints off at creation: the drawn guests in draw order, each on the first free seat
    (left first, lowest seat first), the others to the exit zone."""
    hub, client, table_id, _ = make(hints=False)
    draw_for_ana(hub, client, table_id)
    state = hub.tables[table_id].state
    drawn = [e["move"]["pawn"] for e in hub.tables[table_id].entries
             if e["move"].get("move") == "draw_pawn" and e["move"]["player"] == 0]
    answer = placement(client, table_id).json
    assert answer["hints"] is False and answer["then"] == [] and answer["gains"] is None
    moves = answer["moves"]
    hand = state.pawns_at(P.hand(0))
    assert [m["pawn"] for m in moves] == [p for p in drawn if p in hand]
    places = [(m["slot"], m["seat"]) for m in moves if m["move"] == "place"]
    assert places == sorted(places) and places
    assert moves[0]["move"] == "place"
    sent = client.post(f"/api/tables/{table_id}/moves", json={"moves": moves})
    assert sent.status_code == 200, sent.json


def test_hints_change_with_the_pin_and_survive_a_restart(make, tmp_path: Path) -> None:
    """``POST .../hints`` needs the PIN and booleans; the settings (the hints, and whether the
    advice plays on) are logged and rebuilt."""
    hub, client, table_id, pin = make()
    url = f"/api/tables/{table_id}/hints"
    assert client.post(url, json={"hints": False}).json["code"] == "PIN_REQUIRED"
    bad = client.post(url, json={"hints": "no", "pin": pin})
    assert bad.status_code == 400 and bad.json["code"] == "BAD_REQUEST"
    assert client.post(url, json={"hints": True, "play_on": True, "pin": pin}).json == {
        "ok": True, "hints": True, "play_on": True}
    assert client.post(url, json={"hints": False, "pin": pin}).json == {
        "ok": True, "hints": False, "play_on": True}  # play_on left out: kept
    assert client.post(url, json={"hints": False, "play_on": "on", "pin": pin}
                       ).status_code == 400
    hub.stop()
    again = Hub(tmp_path / "hub0.sqlite", readers=READERS)
    try:
        assert again.tables[table_id].hints is False
        assert again.tables[table_id].play_on is True
    finally:
        again.store.close()


def test_hints_at_creation_must_be_a_boolean(make) -> None:
    """A table request with ``hints`` that is not true or false is refused."""
    hub, client, _, _ = make()
    answer = client.post("/api/tables", json={"players": ["Cy", "Di"], "readers": ["x", "y"],
                                               "hints": 1})
    assert answer.status_code == 400 and answer.json["code"] == "BAD_REQUEST"


def suggestion(client, table_id: str):
    """The ``suggestion`` route's answer for Ana."""
    return client.get(f"/api/tables/{table_id}/suggestion?player=0")


def test_the_suggestion_is_the_advisors_plan_for_the_seated_guests(make) -> None:
    """Hints on: nothing is suggested while Ana's guests wait for seats; once they are
    seated, the suggestion is the advisor's plan up to its first pending step, it posts as one
    batch, and asking again gives only what is left."""
    hub, client, table_id, _ = make()
    draw_for_ana(hub, client, table_id)
    assert suggestion(client, table_id).json["moves"] == []  # the placement comes first
    seating = placement(client, table_id).json["moves"]
    assert client.post(f"/api/tables/{table_id}/moves", json={"moves": seating}).status_code == 200
    best = advice(client, table_id).json["best"]
    answer = suggestion(client, table_id).json
    stop = min([w["after"] for w in best["waits"]] + [len(best["moves"])])
    assert answer["hints"] is True and answer["moves"] == best["moves"][:stop]
    assert answer["moves"], "seated guests always have something to do or to end"
    sent = client.post(f"/api/tables/{table_id}/moves", json={"moves": answer["moves"]})
    assert sent.status_code == 200, sent.json
    state = hub.tables[table_id].state
    assert state.phase != "showings" or state.task_for(0) is not None \
        or suggestion(client, table_id).json["moves"] != answer["moves"]
    # an unknown table (not the id's upper case: an id of digits only is its own)
    assert suggestion(client, "no-such-table").status_code == 404
    assert client.get(f"/api/tables/{table_id}/suggestion?player=x").status_code == 400


def test_with_hints_off_nothing_is_suggested(make) -> None:
    """Hints off: the route answers, with no moves (the table plays its own choices)."""
    hub, client, table_id, _ = make(hints=False)
    draw_for_ana(hub, client, table_id)
    seating = placement(client, table_id).json["moves"]
    client.post(f"/api/tables/{table_id}/moves", json={"moves": seating})
    answer = suggestion(client, table_id).json
    assert answer["hints"] is False and answer["moves"] == []
