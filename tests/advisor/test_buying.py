"""Where a bought card goes (docs/advisor.md, "Where a bought card goes"): the rule holds at
every purchase of whole random games, where a card could go into several slots."""

from __future__ import annotations

import random

from companion.games.popcorn.advisor.buying import suggested_buy
from companion.games.popcorn.engine import new_game
from companion.games.popcorn.engine.simulator import play_random
from companion.games.popcorn.facts_file import load_catalog

CATALOG = load_catalog()


def purchase_choices(seed: int):
    """Every moment of a random 3-player game where one card could go into several slots:
    ``(state, buys of that card)``."""
    game = play_random(CATALOG, 3, random.Random(seed), policy="eager")
    state = new_game(CATALOG, list(game.names), game.first_player)
    for move in game.moves:
        if state.phase == "buying":
            buys = [m for m in state.legal_moves() if m.kind in ("buy_movie", "buy_theater")]
            for card in {(m.kind, m.card) for m in buys}:
                same = [m for m in buys if (m.kind, m.card) == card]
                if len(same) > 1:
                    yield state.clone(), same
        state.apply(move)


def fits(state, move, color: str) -> int:
    """The seats of the slot's theater that guests of ``color`` may take."""
    seats = state.theater(move.player, move.slot).seat_colors
    return sum(1 for c in seats if c in (color, "grey"))


def test_the_suggested_slot_follows_the_rule() -> None:
    """A movie goes to a theater without a movie when there is one, best fitting its color;
    a theater tile to a slot without a theater when there is one, else over the smallest."""
    seen = {"buy_movie": 0, "buy_theater": 0}
    for seed in range(6):
        for state, buys in purchase_choices(seed):
            chosen = suggested_buy(state, buys)
            assert chosen in buys
            p = chosen.player
            seen[chosen.kind] += 1
            if chosen.kind == "buy_theater":
                empty = [m for m in buys if state.theater(p, m.slot) is None]
                if empty:
                    assert state.theater(p, chosen.slot) is None
                else:
                    smallest = min(state.theater(p, m.slot).seats for m in buys)
                    assert state.theater(p, chosen.slot).seats == smallest
                continue
            free = [m for m in buys if state.movie(p, m.slot) is None
                    and state.theater(p, m.slot) is not None]
            if free:
                assert chosen in free
                color = CATALOG.movies[chosen.card].color
                assert fits(state, chosen, color) == max(fits(state, m, color) for m in free)
    assert seen["buy_movie"] > 10 and seen["buy_theater"] > 3, seen


def test_a_tie_goes_to_the_leftmost_slot() -> None:
    """Two equal slots: the left one."""
    for seed in range(3):
        for state, buys in purchase_choices(seed):
            chosen = suggested_buy(state, buys)
            alike = [m for m in buys if suggested_buy(state, [m, chosen]) == m]
            assert min(m.slot for m in alike) == chosen.slot
