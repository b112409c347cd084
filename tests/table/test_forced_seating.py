"""The seating the rules leave no choice about (:func:`companion.games.popcorn.placement.
forced_seating`) over random games, and the moves route's ``"forced": true``, which adds it to a
seating tap's batch."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games.popcorn.engine import new_game, random_move
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.placement import forced_seating
from companion.hub.app import create_app
from companion.hub.hub import Hub
from tests.hub.client import READERS, draw_for_ana

CATALOG = load_catalog()
SEATING = ("place", "to_exit")


def choices(state, p: int) -> set[tuple]:
    """What ``p``'s legal seating moves decide: seat and color; exits, once no seat is left,
    decide nothing."""
    return {("to_exit",) if m.kind == "to_exit" else (m.slot, m.seat, state.pawn_color[m.pawn])
            for m in state.legal_moves(p) if m.kind in SEATING}


def test_forced_seating_takes_only_steps_without_a_choice_and_stops_at_one() -> None:
    """At every Showings moment of random games, for every player: each listed move is legal
    and was that player's only choice when it came (up to look-alikes); after the last, the
    player has a choice again, or nothing left to seat."""
    forced_moves = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(CATALOG, ["Ana", "Bob", "Chloe"], 0)
        while not state.is_over:
            if state.phase == "showings":
                for p in range(state.n):
                    before = state.to_dict()
                    moves = forced_seating(state, p)
                    assert state.to_dict() == before  # the live state is untouched
                    trial = state.clone()
                    for move in moves:
                        assert len(choices(trial, p)) == 1 and move in trial.legal_moves(p)
                        trial.apply(move)
                    waits = trial.showings[p].to_draw or trial.task_for(p) is not None
                    assert waits or len(choices(trial, p)) != 1
                    forced_moves += len(moves)
            state.apply(random_move(state, rng))
    assert forced_moves > 20


@pytest.fixture
def api2(tmp_path: Path):
    """A hub, its test client and a 2-player table where Ana's draw is done."""
    hub = Hub(tmp_path / "hub.sqlite", readers=READERS).start()
    client = create_app(hub, "246810")[0].test_client()
    created = client.post("/api/tables", json={"players": ["Ana", "Bob"], "readers": READERS,
                                               "deal_seed": 4})
    table_id = created.json["id"]
    draw_for_ana(hub, client, table_id)
    yield hub, client, table_id
    hub.stop()


def test_a_seating_tap_with_forced_brings_the_forced_rest_in_its_batch(api2) -> None:
    """Ana seats her guests one tap at a time with ``"forced": true``: each answer lists the
    tap's move and then what the rules forced, all in one batch that one Undo takes back;
    without the flag only the move itself is made."""
    hub, client, table_id = api2
    table = hub.tables[table_id]
    seen_forced = False
    while table.state.pawns_at(P.hand(0)):
        state = table.state
        move = next(m for m in state.legal_moves(0) if m.kind in SEATING)
        trial = state.clone()
        trial.apply(move)
        expected = [move.to_dict()] + [m.to_dict() for m in forced_seating(trial, 0)]
        before, events = state.to_dict(), table.count
        answer = client.post(f"/api/tables/{table_id}/moves",
                             json={"moves": [move.to_dict()], "forced": True})
        assert answer.status_code == 200, answer.json
        assert answer.json["applied"] == expected
        assert {e.get("batch") for e in table.entries[-len(expected):]} == {events + 1}
        seen_forced |= len(expected) > 1
        if len(expected) > 1:  # one Undo takes the tap and what it forced back together
            hub.undo(table_id)
            assert hub.tables[table_id].state.to_dict() == before
            plain = client.post(f"/api/tables/{table_id}/moves", json={"move": move.to_dict()})
            assert plain.status_code == 200 and plain.json["applied"] == move.to_dict()
    assert seen_forced, "some tap of Ana's left a forced rest"


def test_forced_must_be_a_boolean(api2) -> None:
    hub, client, table_id = api2
    move = next(m for m in hub.tables[table_id].state.legal_moves(0) if m.kind in SEATING)
    count = hub.tables[table_id].count
    answer = client.post(f"/api/tables/{table_id}/moves",
                         json={"moves": [move.to_dict()], "forced": "yes"})
    assert answer.status_code == 400 and answer.json["code"] == "BAD_MOVE"
    assert hub.tables[table_id].count == count
