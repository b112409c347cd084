"""``POST /api/tables/<id>/moves`` with ``"moves"``: a batch of moves made all or none, logged
move by move, and taken back by one undo, also after a hub restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import loads_record, replay
from companion.hub.hub import Hub
from tests.hub.client import READERS, advice, draw_for_ana


def batch(client, table_id: str, moves: list, **extra):
    """Post a batch of moves."""
    return client.post(f"/api/tables/{table_id}/moves", json={"moves": moves, **extra})


def seating(hub: Hub, client, table_id: str) -> list[dict]:
    """Ana's placement moves from the advisor, once her draw is done."""
    draw_for_ana(hub, client, table_id)
    best = advice(client, table_id).json["best"]["moves"]
    placing = [m for m in best if m["move"] in ("place", "to_exit")]
    assert len(placing) >= 2
    return placing


def undo(client, table_id: str, pin: str):
    """Undo with the table PIN."""
    return client.post(f"/api/tables/{table_id}/undo", json={"pin": pin})


@pytest.fixture
def pinned(tmp_path: Path):
    """Like ``api``, but with the table PIN too: (hub, client, table id, pin)."""
    from companion.hub.app import create_app

    hub = Hub(tmp_path / "hub.sqlite", readers=READERS).start()
    app, _ = create_app(hub, "246810")
    client = app.test_client()
    created = client.post("/api/tables", json={"players": ["Ana", "Bob"], "readers": READERS,
                                               "deal_seed": 4})
    info = created.json
    yield hub, client, info["id"], info["pin"]
    hub.stop()


def test_a_batch_is_applied_whole_and_logged_move_by_move(pinned) -> None:
    """The advisor's placement as one batch: every move applied, each one in the log, in the
    record, and a replay of the record gives the same game."""
    hub, client, table_id, pin = pinned
    moves = seating(hub, client, table_id)
    events = hub.tables[table_id].count
    answer = batch(client, table_id, moves)
    assert answer.status_code == 200, answer.json
    assert answer.json["applied"] == moves
    logged = hub.store.events(table_id)[events:]
    assert [body["move"] for _, kind, body in logged if kind == "move"] == moves
    assert len({body["batch"] for _, _, body in logged}) == 1
    text = client.get(f"/api/tables/{table_id}/record",
                      headers={"X-Table-Pin": pin}).get_data(as_text=True)
    assert replay(load_catalog(), loads_record(text)).to_dict() == \
        hub.tables[table_id].state.to_dict()


def test_a_batch_refused_in_the_middle_changes_nothing(pinned) -> None:
    """A bad move in the middle: the first bad move's code and index, no state change, and
    nothing written to the log."""
    hub, client, table_id, _ = pinned
    moves = seating(hub, client, table_id)
    table = hub.tables[table_id]
    before, events = table.state.to_dict(), table.count
    bad = moves[:1] + [moves[0]] + moves[1:]  # the same pawn placed twice
    answer = batch(client, table_id, bad)
    assert answer.status_code == 409, answer.json
    assert answer.json["index"] == 1
    assert answer.json["message"].startswith(f"Move 2 of {len(bad)} was refused")
    assert table.state.to_dict() == before and table.count == events
    assert len(hub.store.events(table_id)) == events


@pytest.mark.parametrize(("moves", "code", "index"), [
    ([], "BAD_MOVE", None),
    ({"move": "end_turn", "player": 0}, "BAD_MOVE", None),
    ([{"move": "end_turn", "player": 0}, {"move": "fly", "player": 0}], "UNKNOWN_MOVE", 1),
    ([{"move": "end_turn", "player": 0}, {"move": "end_turn"}], "BAD_MOVE", 1),
    ([{"move": "end_turn", "player": 0}] * 65, "BAD_MOVE", None),
])
def test_malformed_batches_are_400(api, moves, code, index) -> None:  # noqa: F811
    """An empty list, not a list, a malformed move (with its index), too many moves."""
    hub, client, table_id = api
    events = hub.tables[table_id].count
    answer = batch(client, table_id, moves)
    assert answer.status_code == 400, answer.json
    assert answer.json["code"] == code and answer.json.get("index") == index
    assert hub.tables[table_id].count == events


def test_move_and_moves_together_are_refused(api) -> None:  # noqa: F811
    """One body says one thing: a move or a batch."""
    _, client, table_id = api
    answer = batch(client, table_id, [{"move": "end_turn", "player": 0}],
                   move={"move": "end_turn", "player": 0})
    assert answer.status_code == 400 and answer.json["code"] == "BAD_MOVE"


def test_a_private_move_in_a_batch_needs_its_token(api) -> None:  # noqa: F811
    """A keep_award in a batch without the player's token: 403 with its index."""
    hub, client, table_id = api
    keep = [m.to_dict() for m in hub.tables[table_id].state.legal_moves()
            if m.kind == "keep_award"]
    answer = batch(client, table_id, keep[:1])
    assert answer.status_code == 403 and answer.json["code"] == "WRONG_TOKEN"
    assert answer.json["index"] == 0


def test_one_undo_takes_back_the_batch_also_after_a_restart(pinned, tmp_path: Path) -> None:
    """Undo takes back the whole batch at once; a hub started again on the same file rebuilds
    the batches from the log, so its undo does the same."""
    hub, client, table_id, pin = pinned
    moves = seating(hub, client, table_id)
    table = hub.tables[table_id]
    before = table.state.to_dict()
    assert batch(client, table_id, moves).status_code == 200
    after = table.state.to_dict()
    assert undo(client, table_id, pin).status_code == 200
    assert table.state.to_dict() == before
    assert batch(client, table_id, moves).status_code == 200
    hub.stop()
    again = Hub(tmp_path / "hub.sqlite", readers=READERS)
    try:
        assert again.tables[table_id].state.to_dict() == after
        again.undo(table_id)
        assert again.tables[table_id].state.to_dict() == before
    finally:
        again.store.close()
