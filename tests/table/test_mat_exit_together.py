"""Guests carried to the exit zone together (issue 40: an alert is a promise that something
really went wrong): the scan's order says nothing of the hand, so when the order read would
end the second guest of a theater before the first, the hub reads them in the order the
rules take, with no alert. Pure: the game's mats part on states of advisor games."""

from __future__ import annotations

import functools
import random

from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.engine import GameState, Move, new_game
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.mats import EXIT, read_zone
from companion.kit.alerts import Alert
from companion.kit.game import Piece, Relabel, Sensed, ZoneChange

CATALOG = load_catalog()


@functools.cache
def two_ends() -> tuple[GameState, int, int, int]:
    """A state before two ends of one player's guests in a row, where ending the second
    first is refused: the state, the player, the first guest and the second."""
    for seed in range(1, 60):
        game = play_advised(CATALOG, 4, random.Random(f"x:{seed}"))
        state = new_game(CATALOG, list(game.names), game.first_player)
        for move, after in zip(game.moves, game.moves[1:], strict=False):
            if move.kind == after.kind == "end_guest" and move.player == after.player:
                p = move.player
                assert p is not None
                trial = state.clone()
                trial.apply(move)
                first = state.occupant(p, move.slot or 0, move.seat or 0)
                second = trial.occupant(p, after.slot or 0, after.seat or 0)
                if first is not None and second is not None and \
                        isinstance(_read(state, p, [second])[0], Alert):
                    return state, p, first, second
            state.apply(move)
    raise AssertionError("no two ends in a row whose order matters in 60 advisor games")


def _sensed(pawns: list[int]) -> tuple[Sensed, ...]:
    return tuple(Sensed(f"uid-{p}", Piece("pawn", p, game="popcorn")) for p in pawns)


def _read(state: GameState, player: int, carried: list[int]) -> list:
    """What the guests ``carried`` set down on the exit zone together read as."""
    lying = state.pawns_at(P.exit_zone(player))
    return read_zone(state, ZoneChange(player, EXIT, _sensed(lying),
                                       _sensed([*lying, *carried])))


def test_two_guests_carried_out_together_in_the_wrong_order_end_in_the_rules_order() -> None:
    state, player, first, second = two_ends()
    for carried in ([first, second], [second, first]):
        results = _read(state, player, carried)
        assert [type(r) for r in results] == [Relabel, Relabel]
        ends = [r.move for r in results if isinstance(r, Relabel)]
        assert all(isinstance(m, Move) and m.kind == "end_guest" for m in ends)
        assert [r.seen for r in results if isinstance(r, Relabel)] == [first, second]


def test_a_guest_carried_out_alone_too_soon_is_still_an_alert() -> None:
    state, player, _, second = two_ends()
    [result] = _read(state, player, [second])
    assert isinstance(result, Alert)
