"""A hub's app through its test client: one 2-player table (the ``api`` fixture of
``tests/conftest.py``), moves posted, and the advisor asked."""

from __future__ import annotations

from companion.hub.hub import Hub

READERS = ["bag-1", "bag-2"]


def post(client, table_id: str, move: dict) -> None:
    """Make a move through the API; it must be accepted."""
    answer = client.post(f"/api/tables/{table_id}/moves", json={"move": move})
    assert answer.status_code == 200, answer.json


def draw_for_ana(hub: Hub, client, table_id: str) -> None:
    """Play on through the API (keep awards, pass every turn) until Ana's draw is done."""
    while True:
        state = hub.tables[table_id].state
        if state.phase == "showings":
            if state.showings[0].to_draw == 0 and state.task_for(0) is None:
                return
            post(client, table_id, state.chance_outcomes(0)[0].to_dict())
            continue
        outcomes = state.chance_outcomes()
        legal = state.legal_moves()
        passes = [m for m in legal if m.kind == "end_turn"]
        move = (outcomes or passes or legal)[0]
        if move.kind == "keep_award":
            hub.submit(table_id, move)  # a private move: the phone's, not the tablet's
        else:
            post(client, table_id, move.to_dict())


def advice(client, table_id: str, player: str = "0"):
    """The advice route's answer."""
    return client.get(f"/api/tables/{table_id}/advice?player={player}")
