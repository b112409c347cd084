"""The advice that plays on (``go_on``): on a real hub with virtual bag readers.

A player's suggested play that ends in a seat's "draw a guest to a seat" is sent with
``go_on``; the bag reader reads the draw and the table seats the guest; then the hub plays
on what the advisor suggests, as a batch of its own that one Undo takes back. The games are
advisor games fed to the hub move by move, so the advisor's play is the record's.
"""

from __future__ import annotations

import random
from pathlib import Path

from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.engine import GameState, Move, move_from_dict, new_game
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.placement import suggested_play
from companion.games.popcorn.record import loads_record, replay
from companion.hub.hub import Hub
from tests.hub.rig import READERS, Rig
from tests.waiting import wait_for

CATALOG = load_catalog()
NAMES = ["Ana", "Bob", "Chloe", "Dev"]


def cut_by_a_draw():
    """An advisor game and the index of a suggested play (the record's next moves) that
    ends in a guest drawn to a seat with a choice of seats, and that play."""
    for seed in range(1, 40):
        game = play_advised(CATALOG, 4, random.Random(f"seat:{seed}"), names=NAMES)
        state: GameState = new_game(CATALOG, list(game.names), game.first_player)
        for n, move in enumerate(game.moves):
            if state.phase == "showings" and move.kind == "seat_action" and \
                    (play := suggested_play(state, move.player)) and \
                    game.moves[n:n + len(play)] == play and _draws_to_seat(
                        state, play, game.moves[n + len(play):]):
                return game, n, play
            state.apply(move)
    raise AssertionError("no such play in 40 games")


def _draws_to_seat(state: GameState, play: list[Move], after: list[Move]) -> bool:
    """Whether ``play`` ends in a guest drawn to a seat (the record's next draw of that
    player, in ``after``) for which the table has a choice of seats."""
    trial = state.clone()
    for move in play:
        trial.apply(move)
    task = trial.task_for(play[0].player)
    if task is None or task.kind != "draw_seat":
        return False
    trial.apply(next(m for m in after if m.player == play[0].player))
    return len(trial.legal_moves(play[0].player)) > 1  # the table chooses the seat


def feed(rig: Rig, game, n: int):
    """A table fed the game's first ``n`` moves (its PIN in ``rig.pin``)."""
    table, rig.pin, _ = rig.hub.create_table(list(game.names), READERS, game.first_player,
                                       play_on=True)
    for move in game.moves[:n]:
        rig.hub.submit(table.id, move)
    return table


def post(rig: Rig, table, body: dict):
    return rig.client.post(f"/api/tables/{table.id}/moves", json=body)


def played_with_go_on(rig: Rig):
    """A table at a suggested play cut by a draw (:func:`cut_by_a_draw`), the play sent
    with ``go_on``: the game, the index, the play and the table."""
    game, n, play = cut_by_a_draw()
    table = feed(rig, game, n)
    answer = post(rig, table, {"moves": [m.to_dict() for m in play], "go_on": True})
    assert answer.status_code == 200, answer.json
    assert answer.json["view"]["playing_on"] == [play[0].player]
    return game, n, play, table


def draw_and_seat(rig: Rig, table, game, n: int, play: list[Move]) -> list[Move]:
    """The record's draw (tapped on the player's bag reader) and the seat the table gives
    the drawn guest on the tablet; the record's moves of that player after them."""
    player = play[0].player
    after = [m for m in game.moves[n + len(play):] if m.player == player]
    draw, place = after[0], after[1]
    assert (draw.kind, place.kind) == ("draw_pawn", "place")
    seq = rig.tap(READERS[player], rig.uids[draw.pawn])
    assert wait_for(lambda: rig.feedback(READERS[player], seq) is not None)
    assert rig.feedback(READERS[player], seq) == "ok"
    assert table.state.loc[draw.pawn] == P.hand(player)
    answer = post(rig, table, {"move": place.to_dict()})
    assert answer.status_code == 200, answer.json
    return after[2:]


def test_the_advice_plays_on_once_the_drawn_guest_is_seated(rig: Rig, tmp_path: Path) -> None:
    game, n, play, table = played_with_go_on(rig)
    player = play[0].player
    assert table.info()["play_on"] is True
    rest = draw_and_seat(rig, table, game, n, play)
    seated = len(table.entries)
    advised = [e for e in table.entries if e.get("batch") == table.entries[-1].get("batch")]
    made = [move_from_dict(e["move"]) for e in advised]
    assert made and made == rest[:len(made)]  # the advisor's next play: the record's
    logged = [body for _, kind, body in rig.hub.store.events(table.id) if kind == "move"]
    assert [b["source"] for b in logged[-len(made):]] == ["advice"] * len(made)
    picture = table.state.to_dict()
    rig.hub.stop()
    again = Hub(tmp_path / "hub.sqlite", readers=READERS)
    try:  # the log rebuilds the same game; the advice is a prompt, not kept
        rebuilt = again.tables[table.id]
        assert rebuilt.state.to_dict() == picture
        assert replay(CATALOG, loads_record(rebuilt.record_text())).to_dict() == picture
        assert rebuilt.view()["playing_on"] == []
        rebuilt.undo()  # one Undo takes back the advice's batch, not the seat
        assert len(rebuilt.entries) == seated - len(made)
        assert rebuilt.state.task_for(player) is None
    finally:
        again.stop()
        rig.hub = Hub(tmp_path / "other.sqlite")  # the rig's close stops a hub


def test_without_go_on_the_hub_waits_for_the_table(rig: Rig) -> None:
    game, n, play = cut_by_a_draw()
    table = feed(rig, game, n)
    assert post(rig, table, {"moves": [m.to_dict() for m in play]}).status_code == 200
    assert table.view()["playing_on"] == []
    draw_and_seat(rig, table, game, n, play)
    assert table.entries[-1]["move"]["move"] == "place"  # nothing made after the seat


def test_undo_stops_the_advice(rig: Rig) -> None:
    game, n, play, table = played_with_go_on(rig)
    player = play[0].player
    draw_and_seat(rig, table, game, n, play)
    assert table.entries[-1].get("batch") is not None  # the advice's batch
    undone = rig.client.post(f"/api/tables/{table.id}/undo", json={"pin": rig.pin})
    assert undone.status_code == 200, undone.json
    assert table.view()["playing_on"] == []  # else the hub would play it again at once
    assert table.entries[-1]["move"]["move"] == "place"
    assert table.state.task_for(player) is None


def test_an_alert_stops_the_advice(rig: Rig) -> None:
    game, n, play, table = played_with_go_on(rig)
    player = play[0].player
    seq = rig.tap(READERS[player], "04DEADBEEF0000")  # a sticker the hub does not know
    assert wait_for(lambda: rig.feedback(READERS[player], seq) is not None)
    assert rig.feedback(READERS[player], seq) == "error"
    assert table.alerts[-1]["code"] == "UNKNOWN_TAG"
    assert table.view()["playing_on"] == []
    draw_and_seat(rig, table, game, n, play)
    assert table.entries[-1]["move"]["move"] == "place"


def test_a_bad_go_on_changes_nothing(rig: Rig) -> None:
    game, n, play = cut_by_a_draw()
    table = feed(rig, game, n)
    before, events = table.state.to_dict(), table.count
    answer = post(rig, table, {"moves": [m.to_dict() for m in play], "go_on": "yes"})
    assert answer.status_code == 400
    assert answer.json["code"] == "BAD_MOVE" and answer.json["params"]["field"] == "go_on"
    assert table.state.to_dict() == before and table.count == events
    created = rig.client.post("/api/tables", json={
        "players": ["Ana", "Bob"], "readers": ["x-1", "x-2"], "play_on": 1})
    assert created.status_code == 400 and created.json["params"]["field"] == "play_on"
