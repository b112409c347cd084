"""""Take the gains" and a tap on a seated guest (:mod:`companion.games.popcorn.gains`) over
random games, and their routes."""

from __future__ import annotations

import random

from companion.games.popcorn.engine import ACTIVATION_KINDS, new_game, random_move
from companion.games.popcorn.engine.showing_choices import acting_seat
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.gains import GAIN, action_of, gains, next_gain, reach
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


def seated_guests(state, p: int):
    """(slot, seat) of every guest seated in player ``p``'s cinema."""
    for slot in range(3):
        theater = state.theater(p, slot)
        for seat in range(theater.seats if theater else 0):
            if state.occupant(p, slot, seat) is not None:
                yield slot, seat


def test_a_tap_on_a_seated_guest_ends_only_the_guests_before_it() -> None:
    """For every seated guest at every moment of random games: ``reach`` is None exactly when
    no run of that player's end_guest moves makes it the acting guest; otherwise its moves are
    legal in turn, all end_guest but a last seat_action of that very guest (sent only when it
    is the one legal way), and after them that guest is the one to act."""
    reached = ended = 0
    for state, p in showing_moments(range(4)):
        if state.task_for(p) is not None or not state.legal_moves(p):
            continue
        for slot, seat in seated_guests(state, p):
            before = state.to_dict()
            moves = reach(state, p, slot, seat)
            assert state.to_dict() == before  # the live state is untouched
            if moves is None:
                assert not can_reach(state, p, slot, seat)
                continue
            trial = state.clone()
            for move in moves:
                assert move in trial.legal_moves(p)
                if move is not moves[-1] or move.kind == "end_guest":
                    assert move.kind == "end_guest"
                trial.apply(move)
            if moves and moves[-1].kind == "seat_action":
                assert (moves[-1].slot, moves[-1].seat) == (slot, seat)
                trial = state.clone()
                for move in moves[:-1]:
                    trial.apply(move)
                assert [m for m in trial.legal_moves(p) if m.kind == "seat_action"
                        and (m.slot, m.seat) == (slot, seat)] == [moves[-1]]
            else:
                assert acting_seat(trial, p, slot) == seat
            reached += 1
            ended += sum(m.kind == "end_guest" for m in moves)
    assert reached > 50 and ended > 20


def can_reach(state, p: int, slot: int, seat: int) -> bool:
    """Whether some run of ``p``'s end_guest moves, tried in every order, makes the guest in
    ``slot``/``seat`` the acting one (a plain search, to check ``reach`` against)."""
    frontier, seen = [state.clone()], 0
    while frontier and seen < 200:
        trial = frontier.pop()
        seen += 1
        if trial.phase != "showings" or trial.task_for(p) is not None:
            continue
        active = trial.showings[p].active
        if active in (-1, slot) and acting_seat(trial, p, slot) == seat:
            return True
        for end in (m for m in trial.legal_moves(p) if m.kind == "end_guest"):
            nxt = trial.clone()
            nxt.apply(end)
            frontier.append(nxt)
    return False


def test_the_reach_route_sends_a_batch_and_refuses_a_bad_seat(api) -> None:  # noqa: F811
    """Once Ana is seated, a tap on her last seated guest ends the ones before it in one
    batch; that guest's turn then comes; a bad slot is a 400 BAD_PLACE that changes nothing."""
    hub, client, table_id = api
    draw_for_ana(hub, client, table_id)
    placing = client.get(f"/api/tables/{table_id}/placement?player=0").json["moves"]
    assert client.post(f"/api/tables/{table_id}/moves", json={"moves": placing}).status_code == 200
    state = hub.tables[table_id].state
    slot, seat = max(seated_guests(state, 0))
    answer = client.get(f"/api/tables/{table_id}/reach?player=0&slot={slot}&seat={seat}").json
    assert answer["in_line"] is True and answer["events"] == hub.tables[table_id].count
    sent = client.post(f"/api/tables/{table_id}/moves", json={"moves": answer["moves"]})
    assert sent.status_code == 200, sent.json
    state = hub.tables[table_id].state
    assert acting_seat(state, 0, slot) == seat or answer["moves"][-1]["move"] == "seat_action"
    count = hub.tables[table_id].count
    bad = client.get(f"/api/tables/{table_id}/reach?player=0&slot=3&seat=0")
    assert bad.status_code == 400 and bad.json["code"] == "BAD_PLACE"
    assert bad.json["params"]["name"] == "slot"
    assert client.get(f"/api/tables/{table_id}/reach?player=0&slot=0").status_code == 400
    assert hub.tables[table_id].count == count
