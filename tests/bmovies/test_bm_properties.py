"""Properties of B Movies that hold in every random game (Hypothesis drives the seeds)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.bmovies.engine import (
    FIELDS,
    Move,
    State,
    Violation,
    new_game,
    play_random,
    random_move,
)
from companion.games.bmovies.record import Record, dumps_record, loads_record, replay
from tests.bmovies.turns import FACTS

GAMES = st.tuples(st.integers(3, 6), st.sampled_from(["standard", "hidden"]),
                  st.integers(0, 10**6))
"""A player count, a variant and a seed."""


def check_invariants(state: State) -> None:
    """Tokens are conserved, counts are never negative, vote cards only leave."""
    assert sum(state.bucket) + sum(map(len, state.piles)) == FACTS.tokens_total
    for value, count in enumerate(FACTS.token_counts):
        held = sum(pile.count(value) for pile in state.piles)
        assert state.bucket[value] >= 0 and state.bucket[value] + held == count
    assert min(state.owed) >= 0 and state.clapboards >= 0
    assert all(set(hand) <= set(FACTS.vote_cards) for hand in state.hands)


@settings(max_examples=25, deadline=None)
@given(GAMES)
def test_tokens_are_conserved_at_every_step(game: tuple[int, str, int]) -> None:
    """Rulebook, Components: 98 tokens = bucket + piles at every step, no negative count."""
    n, variant, seed = game
    rng, state = random.Random(seed), new_game(FACTS, n, seed % n, variant)
    check_invariants(state)
    while not state.is_over:
        state.apply(random_move(state, rng))
        check_invariants(state)


@settings(max_examples=15, deadline=None)
@given(GAMES)
def test_every_listed_move_and_outcome_applies(game: tuple[int, str, int]) -> None:
    """Spec legal_moves/chance_outcomes: every listed move applies to a clone (every one of
    them, but for the Hidden Team deal, whose 90 to 1800 deals are sampled)."""
    n, variant, seed = game
    rng, state = random.Random(seed), new_game(FACTS, n, 0, variant)
    while not state.is_over:
        listed = state.legal_moves() + state.chance_outcomes()
        assert listed, state.phase
        for move in rng.sample(listed, min(len(listed), 40)):  # all but a studio deal's 90+
            state.clone().apply(move)
        state.apply(random_move(state, rng))


MOVES = st.one_of(
    st.builds(Move, st.just("pitch"), st.integers(0, 7), cards=st.integers(0, 6)),
    st.builds(Move, st.just("vote"), st.integers(0, 7),
              vote=st.sampled_from(["yes", "yes!", "no", "maybe"])),
    st.builds(Move, st.just("draw_token"), st.integers(0, 7), value=st.integers(0, 6),
              token=st.none() | st.integers(0, 100)),
    st.builds(Move, st.just("deal_studios"),
              studios=st.lists(st.integers(0, 7), max_size=7).map(tuple)),
    st.builds(Move, st.sampled_from(sorted(FIELDS) + ["dance"]), st.none() | st.integers(0, 7),
              cards=st.none() | st.integers(0, 5), vote=st.none() | st.just("no")),
)
"""Random moves, mostly illegal, some legal."""


@settings(max_examples=40, deadline=None)
@given(GAMES, st.integers(0, 300), st.lists(MOVES, min_size=1, max_size=8))
def test_a_refused_move_changes_nothing(game: tuple[int, str, int], steps: int,
                                        tries: list[Move]) -> None:
    """Spec apply: a refused move raises Violation and changes nothing."""
    n, variant, seed = game
    rng, state = random.Random(seed), new_game(FACTS, n, 0, variant)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(random_move(state, rng))
    for move in tries:
        before = state.to_dict()
        try:
            state.apply(move)
        except Violation as exc:
            assert exc.message and exc.code
            assert state.to_dict() == before
        check_invariants(state)


@settings(max_examples=20, deadline=None)
@given(GAMES)
def test_a_random_games_record_replays_to_an_equal_state(game: tuple[int, str, int]) -> None:
    """Spec record: dumps/loads round-trip byte for byte and replay gives an equal state."""
    n, variant, seed = game
    moves, state = play_random(FACTS, n, seed, variant)
    record = Record(tuple(f"P{i}" for i in range(n)), 0, variant, moves)
    text = dumps_record(record)
    assert dumps_record(loads_record(text)) == text
    replayed = replay(loads_record(text), FACTS)
    assert replayed == state and replayed.to_dict() == state.to_dict()
    assert State.from_dict(state.to_dict()) == state
