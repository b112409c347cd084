"""Helpers for the B Movies tests: the box's facts, small buckets, and turns played by moves."""

from __future__ import annotations

import dataclasses

import pytest

from companion.games.bmovies.engine import Facts, Move, State, Violation, new_game
from companion.games.bmovies.facts_file import load_facts

FACTS = load_facts()


def tiny_facts(tokens: tuple[int, ...]) -> Facts:
    """The box's facts with another bucket, to reach its edges in a few moves."""
    return dataclasses.replace(FACTS, token_counts=tokens)


def game(n: int = 3, first: int = 0, variant: str = "standard",
         facts: Facts = FACTS) -> State:
    """A new game, round 1 started (standard) or waiting for its studio deal (hidden)."""
    return new_game(facts, n, first, variant)


def refused(state: State, move: Move, code: str) -> Violation:
    """Apply ``move``, expecting ``code``; check the state did not change at all."""
    before = state.to_dict()
    with pytest.raises(Violation) as caught:
        state.apply(move)
    assert caught.value.code == code, caught.value
    assert caught.value.message and caught.value.params.get("move") == move.kind
    assert state.to_dict() == before
    return caught.value


def pitch(state: State, cards: int = 3, title: str | None = None) -> None:
    """The screenwriter pitches."""
    state.apply(Move("pitch", player=state.screenwriter, cards=cards, title=title))


def vote(state: State, votes: dict[int, str]) -> None:
    """Producers vote, in the order given."""
    for seat, card in votes.items():
        state.apply(Move("vote", player=seat, vote=card))


def draw_owed(state: State, value: int = 1) -> None:
    """Every owed token is reported, each of ``value`` (or the lowest left)."""
    while state.phase == "draw":
        seat = state.waiting_players()[0]
        left = value if state.bucket[value] else next(v for v in state.facts.values
                                                       if state.bucket[v])
        state.apply(Move("draw_token", player=seat, value=left))


def turn(state: State, votes: dict[int, str] | str, cards: int = 3,
         title: str | None = None) -> None:
    """A whole turn: pitch, votes (a dict, or one card for every producer), draws."""
    pitch(state, cards, title)
    if isinstance(votes, str):
        votes = {p: votes for p in state.producers()}
    vote(state, votes)
    draw_owed(state)
