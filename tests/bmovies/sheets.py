"""Score sheets made from games the engine really played: by the simulator, or by scripted
players who steer a game to the edge of a bound (every vote and draw checked by the engine).

A sheet made this way is one a table could write, so a bound that refuses it is wrong; and a
scripted game that lands exactly on a limit shows that the limit is reached by a real game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from companion.games.bmovies.engine import Facts, Move, State, new_game
from tests.bmovies.turns import FACTS

NAMES = ("Ana", "Bob", "Chloe", "Dev", "Eve", "Finn")
"""Seat names of the sheets."""

Ballot = Callable[[State, random.Random], dict[int, str]]
"""A scripted table's votes on the pitch in front of it: a card per producer."""


def sheet_of(state: State, names: tuple[str, ...] = NAMES) -> dict[str, Any]:
    """The sheet the table writes at the Final Cut of ``state``: tokens, movies, studios."""
    players = []
    for seat in range(state.n):
        row: dict[str, Any] = {"name": names[seat], "tokens": list(state.piles[seat]),
                               "movies": [m.cards for m in state.movies[seat]]}
        if state.studios is not None:
            row["studio"] = state.studios[seat]
        players.append(row)
    return {"game": "b-movies", "variant": state.variant, "players": players}


def any_value(state: State, rng: random.Random) -> int:
    """A token as the bucket gives it: each token left equally likely."""
    return rng.choice([v for v in state.facts.values for _ in range(state.bucket[v])])


def highest_value(state: State, rng: random.Random) -> int:
    """The most valuable token left (a table fishing for the 4s)."""
    return max(v for v in state.facts.values if state.bucket[v])


def play_scripted(n: int, rng: random.Random, ballot: Ballot, *,
                  cards: Callable[[State, random.Random], int] | None = None,
                  value: Callable[[State, random.Random], int] = any_value,
                  variant: str = "standard", facts: Facts = FACTS) -> State:
    """A whole game to the Final Cut: ``ballot`` votes, ``cards`` pitches (random sizes by
    default), ``value`` draws; the deal of a Hidden Team game is random."""
    state = new_game(facts, n, 0, variant)
    while not state.is_over:
        if state.phase == "setup":
            state.apply(rng.choice(state.chance_outcomes()))
        elif state.phase == "pitch":
            size = cards(state, rng) if cards else rng.randint(facts.pitch_min, facts.pitch_max)
            state.apply(Move("pitch", player=state.screenwriter, cards=size))
        elif state.phase == "vote":
            for seat, card in ballot(state, rng).items():
                state.apply(Move("vote", player=seat, vote=card))
        else:
            seat = state.waiting_players()[0]
            state.apply(Move("draw_token", player=seat, value=value(state, rng)))
    return state


def split(producers: list[int], yes: int, rng: random.Random) -> dict[int, str]:
    """``yes`` producers chosen at random vote Yes, the others No."""
    chosen = set(rng.sample(producers, yes))
    return {p: "yes" if p in chosen else "no" for p in producers}


def fewest_draws_ballot(state: State, rng: random.Random) -> dict[int, str]:
    """A pitch that draws as few tokens as its outcome allows: made by just enough Yes
    (Yes >= No) or rejected by just enough No (No > Yes), everyone else on the losing side.
    The first pitch is made, so some producer draws on a pitch where others need not."""
    producers = state.producers()
    p = len(producers)
    made = not state.history or rng.random() < 0.5
    return split(producers, math.ceil(p / 2) if made else p - (p // 2 + 1), rng)
