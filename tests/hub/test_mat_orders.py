"""Guests set down together on a cinema mat's theater (issue 40, item 4): the mat reports
them in one message, so they settled in the same scan and their order is only the scan's.
The hub seats them in that order at once and, when another order would seat another color
somewhere, offers it on the table screen (a ``card_choice`` of kind ``order``): one tap on
it seats them that way instead, as one input that one Undo takes back, and a restarted hub
rebuilds the same state from its log. Guests of one color never ask."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games.popcorn.engine import pawns as P
from tests.hub.test_mats import BAGS, MATS, MatRig
from tests.waiting import wait_for

THEATER = 1
"""The two-seat theater (slot 1), showing the movie each player bought into it."""


@pytest.fixture
def rig(tmp_path: Path):
    made = MatRig(tmp_path)
    yield made
    made.close()


def two_seats(rig: MatRig) -> tuple[str, str, Any, int]:
    """A table in its first Showings whose players each bought a movie into their two-seat
    theater: its id, its PIN, the table and the player to act."""
    table, pin, tokens = rig.hub.create_table(["Ana", "Bob"], BAGS, deal_seed=3, mats=MATS)
    for seat, token in enumerate(tokens):
        private = rig.client.get(f"/api/tables/{table.id}/players/{seat}/private",
                                 headers={"X-Player-Token": token}).json
        if private["legal"]:
            rig.play(table.id, private["legal"][0], token)
    bought: set[int] = set()
    while table.state.phase == "buying":
        player = table.state.current
        moves = [m for m in table.state.legal_moves() if m.player == player]
        buys = [m for m in moves if m.kind == "buy_movie" and m.slot == THEATER]
        ends = [m for m in moves if m.kind == "end_turn"]
        if player not in bought and buys:
            bought.add(player)
            move = buys[0]
        else:
            move = (ends or moves)[0]  # a step the purchase left (a bonus) first
        rig.play(table.id, move.to_dict())
    player = table.state.current
    assert table.state.movie(player, THEATER) is not None
    return table.id, pin, table, player


def draw(rig: MatRig, table: Any, player: int, colors: list[str]) -> list[int]:
    """Tap the player's whole audience out of their bag, guests of ``colors`` first (one
    each, in order): the pawns drawn."""
    in_bag = list(table.state.pawns_at(P.bag(player)))
    chosen: list[int] = []
    for color in colors:
        chosen.append(next(p for p in in_bag if table.state.pawn_color[p] == color and
                           p not in chosen))
    rest = [p for p in in_bag if p not in chosen]
    pawns = (chosen + rest)[:table.state.draw_value(player)]
    for pawn in pawns:
        before = table.count
        rig.bank.tap(BAGS[player], rig.uids[pawn])
        assert wait_for(lambda before=before: table.count > before)
    return pawns


def set_down_together(rig: MatRig, table: Any, player: int, pawns: list[int]) -> None:
    """The guests set down on the theater's zone in one scan: one message, in this order."""
    count = table.count
    rig.mats[MATS[player]].set_down(THEATER, *(rig.uids[p] for p in pawns))
    rig.settled(table.id, count + len(pawns))


def seats(table: Any, player: int, pawns: list[int]) -> list[int]:
    """Where each pawn is, as a seat of the theater (0 is #1; -1: not seated there)."""
    loc = table.state.loc
    return [P.seat_parts(loc[p])[2] if loc[p] in
            [P.seat(player, THEATER, i) for i in range(2)] else -1 for p in pawns]


def test_guests_of_two_colors_are_seated_as_seen_and_the_other_order_offered(
        rig: MatRig) -> None:
    """Both seated at once in the order the mat read them, as one batch; the other order
    is the choice's option 1, which one tap plays instead (one input); one Undo takes it
    back, and a restarted hub rebuilds the state the choice left."""
    table_id, pin, table, player = two_seats(rig)
    blue, red = draw(rig, table, player, ["blue", "red"])[:2]
    set_down_together(rig, table, player, [blue, red])
    assert seats(table, player, [blue, red]) == [0, 1]
    choice = table.card_choice
    assert choice["kind"] == "order" and choice["placed"] == 0, choice
    assert choice["orders"] == [["blue", "red"], ["red", "blue"]]
    assert (choice["player"], choice["slot"], choice["seat"]) == (player, THEATER, 0)
    assert [[m["pawn"] for m in option] for option in choice["moves"]] == [[blue, red],
                                                                           [red, blue]]
    assert not table.alerts

    answer = rig.client.post(f"/api/tables/{table_id}/choice", json={"index": 1})
    assert answer.status_code == 200, answer.json
    assert seats(table, player, [blue, red]) == [1, 0]
    assert answer.json["view"]["card_choice"]["placed"] == 1
    swapped, known = table.state.to_dict(), table.state.known.maybe

    rig.restart()
    table = rig.hub.tables[table_id]
    assert table.state.to_dict() == swapped and table.state.known.maybe == known
    assert table.card_choice is None  # a prompt, not game state

    undone = rig.client.post(f"/api/tables/{table_id}/undo", json={"pin": pin})
    assert undone.status_code == 200, undone.json
    assert seats(table, player, [blue, red]) == [-1, -1]
    assert {table.state.loc[blue], table.state.loc[red]} == {P.hand(player)}


def test_taking_the_read_order_back_and_undoing_it(rig: MatRig) -> None:
    """The choice goes both ways: the other order, then the read one again, each one
    input; one Undo then leaves both guests drawn, not seated."""
    table_id, pin, table, player = two_seats(rig)
    blue, red = draw(rig, table, player, ["blue", "red"])[:2]
    set_down_together(rig, table, player, [red, blue])
    assert seats(table, player, [red, blue]) == [0, 1]
    for index, expected in ((1, [1, 0]), (0, [0, 1])):
        answer = rig.client.post(f"/api/tables/{table_id}/choice", json={"index": index})
        assert answer.status_code == 200, answer.json
        assert seats(table, player, [red, blue]) == expected
    rig.client.post(f"/api/tables/{table_id}/undo", json={"pin": pin})
    assert seats(table, player, [red, blue]) == [-1, -1]
    assert table.card_choice is None


def test_guests_of_one_color_never_ask(rig: MatRig) -> None:
    """Two white guests set down together: seated in the order read, and no choice (the
    other order would play the same)."""
    _, _, table, player = two_seats(rig)
    first, second = draw(rig, table, player, ["white", "white"])[:2]
    assert table.state.pawn_color[first] == table.state.pawn_color[second] == "white"
    set_down_together(rig, table, player, [first, second])
    assert sorted(seats(table, player, [first, second])) == [0, 1]
    assert table.card_choice is None and not table.alerts
