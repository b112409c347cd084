"""Random legal play, for tests, benchmarks and the ``simulate`` command.

The random generator is an input, so a seed gives the same game every time. Chance
outcomes are drawn uniformly from :meth:`GameState.chance_outcomes` (every pawn in a bag,
every unrevealed card is equally likely), and decisions uniformly from
:meth:`GameState.legal_moves`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from . import game as G
from .catalog import Catalog
from .moves import Move
from .setup import new_game
from .state import GameState

DEFAULT_NAMES: tuple[str, ...] = ("Ana", "Bob", "Chloe", "Dev")
"""Player names used when none are given."""

PASSIVE_KINDS = frozenset({"end_turn", "end_guest", "decline", "take_back_ad"})
"""Decisions that give something up; the ``eager`` policy takes them only when forced."""

POLICIES = ("random", "eager")
"""``random`` picks any legal decision; ``eager`` prefers doing something over passing."""


@dataclass
class SimulatedGame:
    """A finished random game: its final state and every move that led there."""

    state: GameState
    names: tuple[str, ...]
    first_player: int
    moves: list[Move] = field(default_factory=list)


def next_choices(state: GameState, rng: random.Random) -> tuple[int | None, list[Move], bool]:
    """Who acts next, what they may do, and whether it is chance: ``(player, moves, chance)``.

    During the Showings, where everyone plays at once, a random player who still has
    something to do is picked first (``None`` otherwise: the state says who). If a chance
    outcome is due, ``moves`` lists the outcomes and ``chance`` is true; else the legal
    decisions. Every policy starts here, so they all use the random generator alike.
    """
    player = None
    if state.phase == "showings":
        waiting = G.waiting_players(state)
        player = rng.choice(waiting) if waiting else None
    outcomes = G.chance_outcomes(state, player)
    if outcomes:
        return player, outcomes, True
    moves = G.legal_moves(state, player)
    if not moves:
        raise RuntimeError(f"no move in phase {state.phase}, round {state.round}")
    return player, moves, False


def eager(moves: list[Move]) -> list[Move]:
    """The decisions that are not a pass, when there are any (else all of them)."""
    return [m for m in moves if m.kind not in PASSIVE_KINDS] or moves


def random_move(state: GameState, rng: random.Random, policy: str = "random") -> Move:
    """A random next move (see :func:`next_choices`): a chance outcome drawn uniformly, or a
    legal decision picked uniformly (with the ``eager`` policy, among those that are not a
    pass, when there are any)."""
    _, moves, chance = next_choices(state, rng)
    if policy == "eager" and not chance:
        moves = eager(moves)
    return rng.choice(moves)


def play_random(catalog: Catalog, players: int, rng: random.Random,
                names: Sequence[str] | None = None, max_moves: int = 100_000,
                policy: str = "random") -> SimulatedGame:
    """Play one whole game at random, from setup to the end of the last round."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}")
    return play_game(catalog, players, rng, lambda s, r: random_move(s, r, policy), names,
                     max_moves)


def play_game(catalog: Catalog, players: int, rng: random.Random,
              choose: Callable[[GameState, random.Random], Move],
              names: Sequence[str] | None = None, max_moves: int = 100_000) -> SimulatedGame:
    """Play one whole game with ``choose`` picking each move (a policy): a random first
    player, then every move ``choose`` lists for the state, applied as listed."""
    names = tuple(names or DEFAULT_NAMES[:players])
    first = rng.randrange(players)
    game = SimulatedGame(new_game(catalog, names, first), names, first)
    while game.state.phase != "over":
        if len(game.moves) >= max_moves:
            raise RuntimeError(f"game did not end after {max_moves} moves")
        move = choose(game.state, rng)
        G.apply_listed(game.state, move)
        game.moves.append(move)
    return game
