"""The ``advisor`` policy: seats chosen by the advisor, every other choice made eagerly.

A game is played like the simulator's (:mod:`companion.games.popcorn.engine.simulator`): during the
Showings a random busy player acts, chance outcomes are drawn uniformly, and decisions are
picked at random among those that are not a pass (the ``eager`` policy). For a player the
policy advises, once their guests are drawn it asks :func:`.advise` for a plan and follows
it move by move; when the plan ends or stops being legal (a guest drawn to a seat), it asks
again. Its purchases go into the slot the hub suggests (:func:`.buying.suggested_buy`), and
an advertising token it activates for a color is the one the hub takes for a guest of that
color tapped on the reader (:func:`.buying.suggested_ad`). The engine itself never imports
this module.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence

from ..engine.catalog import Catalog
from ..engine.moves import Move
from ..engine.simulator import SimulatedGame, eager, next_choices, play_game
from ..engine.state import GameState
from .advice import AdviceError, advise
from .buying import gained_color, suggested_ad, suggested_buy
from .weights import Weights

BUYS = frozenset({"buy_movie", "buy_theater"})
"""The purchases, whose slot an advised player takes from :func:`.buying.suggested_buy`."""

Adviser = Callable[[GameState, int], list[Move]]
"""Gives a player's planned moves (the advisor, or a timed wrapper of it in the bench)."""


def planned_moves(state: GameState, p: int, weights: Weights | None = None) -> list[Move]:
    """The advisor's suggested moves for player ``p`` (empty when it has no advice)."""
    try:
        return list(advise(state, p, weights).best.plan.moves)
    except AdviceError:
        return []


class AdvisedSeats:
    """The plans of the advised players of one game, followed move by move."""

    def __init__(self, seats: Collection[int], adviser: Adviser = planned_moves) -> None:
        self.seats, self.adviser = frozenset(seats), adviser
        self.plans: dict[int, tuple[int, list[Move]]] = {}
        """Per player: the round the plan was made in, and its moves not yet played."""

    def move(self, state: GameState, p: int, legal: list[Move]) -> Move | None:
        """The planned move for ``p`` among ``legal``, asking the advisor when needed."""
        if p not in self.seats or state.phase != "showings" or state.task_for(p) is not None:
            return None
        for attempt in range(2):
            made, plan = self.plans.get(p, (-1, []))
            if plan and made == state.round:
                found = next((m for m in legal if m == plan[0]), None)
                if found is not None:
                    plan.pop(0)
                    return found
            if attempt == 0:
                self.plans[p] = (state.round, self.adviser(state, p))
        return None


def next_move(state: GameState, rng: random.Random, seats: AdvisedSeats) -> Move:
    """The next move: the advised player's plan where it applies, else the eager choice."""
    player, moves, chance = next_choices(state, rng)
    if chance:
        return rng.choice(moves)
    if player is not None and (advised := seats.move(state, player, moves)) is not None:
        return advised
    move = rng.choice(eager(moves))
    if move.kind in BUYS and move.player in seats.seats:  # into the slot the hub suggests
        return suggested_buy(state, [m for m in moves if m.kind == move.kind
                                     and m.card == move.card])
    if move.kind == "activate_ad" and move.player in seats.seats and \
            (color := gained_color(move)) is not None:  # the token the hub takes for it
        return suggested_ad([m for m in moves if m.kind == "activate_ad"], color) or move
    return move


def play_advised(catalog: Catalog, players: int, rng: random.Random,
                 advised: Collection[int] | None = None, names: Sequence[str] | None = None,
                 adviser: Adviser = planned_moves, max_moves: int = 100_000) -> SimulatedGame:
    """Play one whole game; the ``advised`` seats (all by default) seat guests by the advisor."""
    seats = AdvisedSeats(range(players) if advised is None else advised, adviser)
    return play_game(catalog, players, rng, lambda s, r: next_move(s, r, seats), names,
                     max_moves)
