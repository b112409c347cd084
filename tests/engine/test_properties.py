"""Properties that hold at every step of every game (hypothesis over simulated games)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.popcorn.engine import (
    FIELDS,
    Move,
    Violation,
    apply_listed,
    new_game,
    play_random,
    random_move,
)
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.record import Record, dumps_record, loads_record, replay
from tests.engine.positions import CATALOG, NAMES

GAME = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state) -> None:
    """60 pawns, each in exactly one place; nothing negative; indexes in step."""
    assert len(state.loc) == sum(CATALOG.box.values()) == 60
    seen = sorted(i for pawns in state.at.values() for i in pawns)
    assert seen == list(range(60)), "a pawn is in two places or in none"
    for loc, pawns in state.at.items():
        assert all(state.loc[i] == loc for i in pawns)
    assert state.seated == {loc: i for i, loc in enumerate(state.loc) if P.is_seat(loc)}
    for ps in state.players:
        assert ps.money >= 0 and ps.popcorn >= 0 and ps.tokens >= 0
    owned_tokens = [sum(1 for who, _, _ in state.board if who == p) for p in range(state.n)]
    for p, ps in enumerate(state.players):
        assert ps.tokens + owned_tokens[p] == CATALOG.tokens_per_player


@GAME
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3, 4]))
def test_invariants_hold_and_every_legal_move_applies(seed: int, players: int) -> None:
    """Every listed move and outcome applies; after every move the invariants hold."""
    rng = random.Random(seed)
    state = new_game(CATALOG, NAMES[:players], rng.randrange(players))
    steps = 0
    while not state.is_over:
        check_invariants(state)
        if steps % 7 == 0:
            listed = state.legal_moves() + state.chance_outcomes()
            for move in rng.sample(listed, min(4, len(listed))):
                state.clone().apply(move)  # raises if a listed move is illegal
        state.apply(random_move(state, rng))
        steps += 1
    check_invariants(state)


@GAME
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3, 4]))
def test_a_listed_move_applies_the_same_without_its_checks(seed: int, players: int) -> None:
    """apply_listed (the simulator's path, which skips the checks) ends where apply ends."""
    rng = random.Random(seed)
    state = new_game(CATALOG, NAMES[:players], rng.randrange(players))
    step = 0
    while not state.is_over:
        if step % 5 == 0:
            listed = state.legal_moves() + state.chance_outcomes()
            for move in rng.sample(listed, min(6, len(listed))):
                checked, trusted = state.clone(), state.clone()
                checked.apply(move)
                apply_listed(trusted, move)
                assert trusted == checked, f"{move} differs without its checks"
        state.apply(random_move(state, rng))
        step += 1


def _mutations(state, rng: random.Random) -> list[Move]:
    """Moves of every kind with plausible but random fields, mostly illegal."""
    cards = [*CATALOG.movies, *CATALOG.theaters, *CATALOG.awards]
    out = []
    for kind, fields in FIELDS.items():
        values = {}
        for name in (f.rstrip("?") for f in fields):
            values[name] = {
                "player": rng.randrange(state.n), "card": rng.choice(cards),
                "slot": rng.randrange(4), "seat": rng.randrange(4), "index": rng.randrange(5),
                "pawn": rng.randrange(60), "space": rng.choice(CATALOG.ad_spaces),
                "color": rng.choice(["red", "blue", "white", "pink"]),
                "target": rng.randrange(state.n),
                "zone": rng.choice(["bag", "exit", "reserve", "box", "seat"]),
            }[name]
        out.append(Move(kind, **values))
    return out


@GAME
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3, 4]))
def test_illegal_moves_change_nothing_and_legal_lists_are_complete(seed: int, players: int):
    """A refused move leaves the state equal; a move that applies was listed as legal (but
    a ``correct``, the table's word, which is never listed and applies to any pawn at
    rest)."""
    rng = random.Random(seed)
    state = new_game(CATALOG, NAMES[:players], 0)
    step = 0
    while not state.is_over:
        if step % 5 == 0:
            before = state.to_dict()
            listed = set(state.legal_moves()) | set(state.chance_outcomes())
            for move in _mutations(state, rng):
                trial = state.clone()
                try:
                    trial.apply(move)
                except Violation as exc:
                    assert exc.code and exc.message
                    assert trial.to_dict() == before, f"{move} changed the state"
                else:
                    assert move in listed or move.kind == "correct", \
                        f"{move} applied but was not listed"
        state.apply(random_move(state, rng))
        step += 1


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3, 4]))
def test_replay_of_record_reproduces_the_final_state(seed: int, players: int) -> None:
    """replay(record(game)) ends in exactly the same state, and the text round-trips."""
    game = play_random(CATALOG, players, random.Random(seed))
    text = dumps_record(Record(game.names, game.first_player, game.moves))
    record = loads_record(text)
    assert dumps_record(record) == text
    assert record.moves == game.moves
    assert replay(CATALOG, record) == game.state


def test_clone_is_independent() -> None:
    """Changing a clone leaves the original as it was."""
    game = new_game(CATALOG, NAMES[:3], 0)
    before = game.to_dict()
    copy = game.clone()
    rng = random.Random(5)
    for _ in range(200):
        if copy.is_over:
            break
        copy.apply(random_move(copy, rng))
    assert game.to_dict() == before
