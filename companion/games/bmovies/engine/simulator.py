"""Random legal play, for tests, the ``simulate`` command and the docs' example record.

The random generator is an input, so a seed gives the same game every time. Chance is drawn
as at a table: a token is a uniform pick among those left in the bucket (so a value with
more tokens left is likelier), a studio deal a uniform pick among the deals the chart
allows. Decisions are uniform among the legal moves of the players the game waits for,
and now and then a producer who voted changes their vote, as the rules allow before the
reveal.
"""

from __future__ import annotations

import random

from .facts import Facts
from .moves import Move
from .state import STANDARD, State, new_game

REVOTE_CHANCE = 0.1
"""How often a simulated producer who already voted changes their vote (not a game number:
a habit of the simulated players)."""


def random_move(state: State, rng: random.Random) -> Move:
    """One move the table could report now, chance or decision; raises ``ValueError`` when
    the game is over."""
    if state.phase == "draw":
        return _random_draw(state, rng)
    outcomes = state.chance_outcomes()
    if outcomes:
        return rng.choice(outcomes)
    waiting = state.waiting_players()
    if not waiting:
        raise ValueError("the game is over: no move is possible")
    if state.phase == "vote" and state.votes and rng.random() < REVOTE_CHANCE:
        waiting = state.voted()
    return rng.choice([m for p in waiting for m in state.legal_moves(p)])


def _random_draw(state: State, rng: random.Random) -> Move:
    player = rng.choice(state.waiting_players())
    values = [v for v in state.facts.values for _ in range(state.bucket[v])]
    return Move("draw_token", player=player, value=rng.choice(values))


def play_random(facts: Facts, n: int, seed: int | str | random.Random = 0,
                variant: str = STANDARD) -> tuple[list[Move], State]:
    """Play a whole random game of ``n`` players (first player seat 0) to the Final Cut.

    Returns every move in order and the final state; ``seed`` may be a seed or a generator.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    state = new_game(facts, n, 0, variant)
    moves: list[Move] = []
    while not state.is_over:
        move = random_move(state, rng)
        state.apply(move)
        moves.append(move)
    return moves, state
