"""The table's ``correct`` move (``engine/corrections.py``): a pawn at rest put where the
table says it is, as a game record of version 3 holds it.

It is never listed among the legal moves, it runs no automatic step after it, and it refuses
a pawn the rules move on (drawn or seated: ``PAWN_IN_PLAY``) and a zone that does not exist
(``BAD_MOVE``), with the state unchanged.
"""

from __future__ import annotations

from companion.games.popcorn.engine import Move, move_from_dict
from companion.games.popcorn.engine import pawns as P
from tests.engine.positions import bag, dealt_game, end_turns, refused


def test_a_correction_puts_a_resting_pawn_in_a_zone_and_nothing_else_happens() -> None:
    """A pawn of Ana's bag goes to Bob's exit zone; the turn, the phase and every other pawn
    stay as they were."""
    state = dealt_game()
    pawn = bag(state, 0)[0]
    before = state.to_dict()
    move = move_from_dict({"move": "correct", "pawn": pawn, "zone": "exit", "player": 1})
    assert move.to_dict() == {"move": "correct", "pawn": pawn, "zone": "exit", "player": 1}
    state.apply(move)
    assert state.loc[pawn] == P.exit_zone(1)
    after = state.to_dict()
    assert (after["phase"], after["current"], after["round"]) == (
        before["phase"], before["current"], before["round"])
    assert all(m.kind != "correct" for m in state.legal_moves())
    state.apply(Move("correct", pawn=pawn, zone="reserve"))
    assert state.loc[pawn] == P.RESERVE


def test_a_drawn_pawn_cannot_be_corrected() -> None:
    """A guest drawn into a hand is moved by the rules: ``PAWN_IN_PLAY``."""
    state = dealt_game()
    end_turns(state)
    draw = next(m for m in state.chance_outcomes(0) if m.kind == "draw_pawn")
    state.apply(draw)
    refused(state, Move("correct", pawn=draw.pawn, zone="bag", player=0), "PAWN_IN_PLAY")


def test_a_correction_to_no_zone_or_no_player_is_a_bad_move() -> None:
    """A zone the table has not, or a bag without its player, is ``BAD_MOVE``."""
    state = dealt_game()
    pawn = bag(state, 0)[0]
    refused(state, Move("correct", pawn=pawn, zone="seat", player=0), "BAD_MOVE")
    refused(state, Move("correct", pawn=pawn, zone="bag"), "BAD_MOVE")
    refused(state, Move("correct", pawn=pawn, zone="bag", player=7), "BAD_MOVE")
