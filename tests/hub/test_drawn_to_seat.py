"""A guest drawn to a seat with one place left to go: on a real hub with virtual readers.

A seat's "draw a guest to a seat" makes its player draw a guest from the bag onto the reader,
then seat it. When only one place is left to it (one eligible seat, or none, and so the exit
zone), the table has nothing to choose: the tap is the draw and that place, one batch that
one Undo takes back, and a restart rebuilds the same game. With a choice of seats, the tap
stays the draw alone. The games are advisor games fed to the hub move by move.
"""

from __future__ import annotations

import random
from pathlib import Path

from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.engine import GameState, new_game
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import loads_record, replay
from companion.hub.hub import Hub
from tests.hub.rig import READERS, Rig
from tests.waiting import wait_for

CATALOG = load_catalog()
NAMES = ["Ana", "Bob", "Chloe", "Dev"]


def draw_to_seat(forced: bool):
    """An advisor game and the index of a draw for a seat's action after which one place
    (``forced``) or several are left to the drawn guest."""
    for seed in range(1, 40):
        game = play_advised(CATALOG, 4, random.Random(f"seat:{seed}"), names=NAMES)
        state: GameState = new_game(CATALOG, list(game.names), game.first_player)
        for n, move in enumerate(game.moves):
            task = state.task_for(move.player)
            if move.kind == "draw_pawn" and task is not None and task.kind == "draw_seat":
                trial = state.clone()
                trial.apply(move)
                if (len(trial.legal_moves(move.player)) == 1) == forced:
                    return game, n
            state.apply(move)
    raise AssertionError("no such draw in 40 games")


def feed(rig: Rig, game, n: int):
    """A table fed the game's first ``n`` moves."""
    table, _, _ = rig.hub.create_table(list(game.names), READERS, game.first_player)
    for move in game.moves[:n]:
        rig.hub.submit(table.id, move)
    return table


def test_a_guest_with_one_place_left_is_drawn_and_placed_by_one_tap(
        rig: Rig, tmp_path: Path) -> None:
    game, n = draw_to_seat(forced=True)
    table = feed(rig, game, n)
    draw = game.moves[n]
    place = next(m for m in game.moves[n + 1:] if m.player == draw.player)
    before, events = table.state.to_dict(), table.count
    reader = READERS[draw.player]
    seq = rig.tap(reader, rig.uids[draw.pawn])
    assert wait_for(lambda: rig.feedback(reader, seq) is not None)
    assert rig.feedback(reader, seq) == "ok"
    assert [e["move"] for e in table.entries[-2:]] == [draw.to_dict(), place.to_dict()]
    assert table.entries[-1]["batch"] == table.entries[-2]["batch"] == events + 1
    assert table.state.task_for(draw.player) is None and not table.alerts
    assert table.state.loc[draw.pawn] != P.hand(draw.player)
    picture = table.state.to_dict()
    rig.hub.stop()
    again = Hub(tmp_path / "hub.sqlite", readers=READERS)
    try:  # the log rebuilds the same game, and one Undo takes both moves back
        rebuilt = again.tables[table.id]
        assert rebuilt.state.to_dict() == picture
        assert replay(CATALOG, loads_record(rebuilt.record_text())).to_dict() == picture
        rebuilt.undo()
        assert rebuilt.state.to_dict() == before
    finally:
        again.stop()
        rig.hub = Hub(tmp_path / "other.sqlite")  # the rig's close stops a hub


def test_a_guest_with_a_choice_of_seats_waits_for_the_table(rig: Rig) -> None:
    game, n = draw_to_seat(forced=False)
    table = feed(rig, game, n)
    draw = game.moves[n]
    events = table.count
    reader = READERS[draw.player]
    seq = rig.tap(reader, rig.uids[draw.pawn])
    assert wait_for(lambda: rig.feedback(reader, seq) is not None)
    assert table.count == events + 1 and table.entries[-1]["move"] == draw.to_dict()
    assert table.state.loc[draw.pawn] == P.hand(draw.player)  # its seat is the table's choice
