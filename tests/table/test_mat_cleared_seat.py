"""A guest drawn to a seat (a seat's "draw a guest to a seat"), set down on a theater's mat
zone: it takes the seat whose guest the hand already carried off to the exit zone, and with
no seat cleared, the first free one as before (issue 40: the table plays, the companion
watches). Pure: the game's mats part on states of advisor games."""

from __future__ import annotations

import random

from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.engine import GameState, Move, new_game
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.mats import read_zone, seat_for
from companion.kit.game import Piece, Relabel, Sensed, ZoneChange

CATALOG = load_catalog()


def pushing_out() -> tuple[GameState, Move]:
    """A state whose player holds a guest drawn to a seat, and the record's ``place`` of it
    into a seat another guest holds, which the mat's rule alone (a free seat first, else
    the first one) would not give it."""
    for seed in range(1, 60):
        game = play_advised(CATALOG, 4, random.Random(f"cleared:{seed}"))
        state = new_game(CATALOG, list(game.names), game.first_player)
        for move in game.moves:
            task = state.task_for(move.player)
            if move.kind == "place" and task is not None and task.kind == "draw_seat" and \
                    move.slot is not None and move.seat is not None and \
                    state.occupant(move.player, move.slot, move.seat) is not None and \
                    seat_for(state, move.player, move.slot) != move.seat:
                return state, move
            state.apply(move)
    raise AssertionError("no guest drawn to a held seat in 60 advisor games")


def _sensed(pawns: list[int]) -> tuple[Sensed, ...]:
    return tuple(Sensed(f"uid-{p}", Piece("pawn", p, game="popcorn")) for p in pawns)


def _placed(state: GameState, move: Move, lying: list[int]) -> Relabel:
    """What the drawn guest set down on the theater's zone, where ``lying`` lay, reads as."""
    assert move.player is not None and move.slot is not None and move.pawn is not None
    change = ZoneChange(move.player, move.slot, _sensed(lying), _sensed([*lying, move.pawn]))
    [result] = read_zone(state, change)
    assert isinstance(result, Relabel) and isinstance(result.move, Move)
    assert result.move.kind == "place"
    return result


def test_the_drawn_guest_takes_the_seat_the_hand_cleared() -> None:
    state, move = pushing_out()
    assert move.player is not None and move.slot is not None and move.seat is not None
    sitting = [p for index in range(3)
               if (p := state.occupant(move.player, move.slot, index)) is not None]
    held = state.occupant(move.player, move.slot, move.seat)
    cleared = _placed(state, move, [p for p in sitting if p != held])
    assert cleared.move is not None and cleared.move.seat == move.seat
    trial = state.clone()
    trial.apply(cleared.move)  # the rules push the seat's guest out, as the hand did
    assert trial.loc[held] != state.loc[held]


def test_with_every_guest_still_seated_the_drawn_guest_takes_the_rules_first_pick() -> None:
    state, move = pushing_out()
    assert move.player is not None and move.slot is not None
    sitting = [p for index in range(3)
               if (p := state.occupant(move.player, move.slot, index)) is not None]
    placed = _placed(state, move, sitting)
    assert placed.move is not None and placed.move.seat == seat_for(state, move.player,
                                                                    move.slot)
    assert placed.move.seat != move.seat
