""""Take the gains" (:mod:`companion.games.popcorn.gains`) over random games, and its route."""

from __future__ import annotations

import random

from companion.games.popcorn.engine import ACTIVATION_KINDS, new_game, random_move
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.gains import GAIN, action_of, gains, next_gain
from tests.hub.client import draw_for_ana

CATALOG = load_catalog()


def showing_moments(seeds: range):
    """(state, player) for every moment of random 3-player games when a player may act."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(CATALOG, ["Ana", "Bob", "Chloe"], 0)
        while not state.is_over:
            if state.phase == "showings":
                for p in range(state.n):
                    yield state, p
            state.apply(random_move(state, rng))


def test_gains_are_legal_gain_only_and_stop_at_a_choice() -> None:
    """Every listed move is legal in turn, each action only gains, only an end_guest with
    nothing else open ends a guest, and after the last one no gain-only step is left."""
    seen = 0
    for state, p in showing_moments(range(6)):
        before = state.to_dict()
        moves = gains(state, p)
        assert state.to_dict() == before  # the live state is untouched
        trial = state.clone()
        for move in moves:
            assert move.kind in ACTIVATION_KINDS and move.player == p
            if move.kind == "end_guest":
                legal = [m for m in trial.legal_moves() if m.player == p
                         and m.kind in ACTIVATION_KINDS]
                assert legal == [move]
            else:
                assert GAIN.match(action_of(trial, move) or "")
            trial.apply(move)
        assert next_gain(trial, p) is None
        seen += len(moves) > 1
    assert seen > 20


def test_the_gains_route_lists_the_moves_and_they_post_as_a_batch(api) -> None:  # noqa: F811
    """After Ana's guests are seated, the route's moves are accepted as one batch, and then
    the route lists nothing more."""
    hub, client, table_id = api
    draw_for_ana(hub, client, table_id)
    placing = client.get(f"/api/tables/{table_id}/placement?player=0").json["moves"]
    assert client.post(f"/api/tables/{table_id}/moves",
                       json={"moves": placing}).status_code == 200
    answer = client.get(f"/api/tables/{table_id}/gains?player=0").json
    assert answer["player"] == 0 and answer["events"] == hub.tables[table_id].count
    if answer["moves"]:
        sent = client.post(f"/api/tables/{table_id}/moves", json={"moves": answer["moves"]})
        assert sent.status_code == 200, sent.json
    assert client.get(f"/api/tables/{table_id}/gains?player=0").json["moves"] == []
    assert client.get(f"/api/tables/{table_id}/gains?player=9").status_code == 400
