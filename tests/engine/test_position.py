"""Positions as JSON (docs/position.md): every position of a game survives to_dict/from_dict,
and from_dict refuses a position that cannot be on a table, with a code of its own."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.popcorn.engine import GameState, Violation, new_game, play_random
from companion.games.popcorn.engine.position import VERSION
from tests.engine.positions import CATALOG, dealt_game

POSITIONS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _indexes(state: GameState) -> tuple[Any, ...]:
    at = {loc: pawns for loc, pawns in state.at.items() if pawns}
    return state.seated, state.seated_count, at, state.pawn_color, state.names, state.n


def assert_same_position(state: GameState, other: GameState) -> None:
    """Equal in everything that matters: the data, the indexes kept in step, what comes next."""
    assert other == state
    assert _indexes(other) == _indexes(state)
    for player in (None, *range(state.n)):
        assert other.legal_moves(player) == state.legal_moves(player)
        assert other.chance_outcomes(player) == state.chance_outcomes(player)
    assert other.waiting_players() == state.waiting_players()


def round_trip(state: GameState) -> GameState:
    """The state read back from its JSON text."""
    return GameState.from_dict(CATALOG, json.loads(json.dumps(state.to_dict())))


@POSITIONS
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3, 4]))
def test_every_position_of_a_game_round_trips(seed: int, players: int) -> None:
    """docs/position.md: from_dict(to_dict(s)) is s at every step of a simulated game."""
    game = play_random(CATALOG, players, random.Random(seed))
    state = new_game(CATALOG, game.names, game.first_player)
    for move in game.moves:
        assert_same_position(state, round_trip(state))
        state.apply(move)
    assert_same_position(state, round_trip(state))


def test_a_read_position_plays_on_like_the_original() -> None:
    """A position read mid-game and the game it came from make the same moves to the end."""
    game = play_random(CATALOG, 4, random.Random(7))
    state = new_game(CATALOG, game.names, game.first_player)
    half = len(game.moves) // 2
    for move in game.moves[:half]:
        state.apply(move)
    copy = round_trip(state)
    for move in game.moves[half:]:
        state.apply(move)
        copy.apply(move)
    assert copy == state and copy.is_over


def test_the_document_names_its_format_and_version() -> None:
    """docs/position.md: "format": "popcorn-position", "version": 1, pawns by place."""
    data = dealt_game(2).to_dict()
    assert data["format"] == "popcorn-position" and data["version"] == VERSION == 1
    assert data["players"][0]["bag"] and data["players"][0]["seats"] == [[None], [None, None], []]


def _position() -> dict[str, Any]:
    return dealt_game(2).to_dict()


def position_refused(change: Callable[[dict[str, Any]], object], code: str) -> None:
    data = _position()
    change(data)
    with pytest.raises(Violation) as caught:
        GameState.from_dict(CATALOG, data)
    assert caught.value.code == code, caught.value


def test_a_61st_pawn_is_refused() -> None:
    """The box holds 60 pawns (catalog box): a 61st id is PAWN_COUNT."""
    position_refused(lambda d: d["reserve"].append(60), "PAWN_COUNT")


def test_a_missing_pawn_is_refused() -> None:
    """Every pawn is somewhere: a pawn left out is PAWN_COUNT."""
    position_refused(lambda d: d["players"][0]["bag"].pop(), "PAWN_COUNT")


def test_a_pawn_in_two_places_is_refused() -> None:
    """A pawn is in one place: the same id in a bag and the reserve is PAWN_TWICE."""
    position_refused(lambda d: d["reserve"].append(d["players"][0]["bag"][0]), "PAWN_TWICE")


def test_money_below_zero_is_refused() -> None:
    """Money is never below 0 (a player pays only what they have): NEGATIVE_AMOUNT."""
    position_refused(lambda d: d["players"][1].update(money=-1), "NEGATIVE_AMOUNT")


def test_popcorn_below_zero_is_refused() -> None:
    """Popcorn is never below 0: NEGATIVE_AMOUNT."""
    position_refused(lambda d: d["players"][0].update(popcorn=-3), "NEGATIVE_AMOUNT")


def test_an_unknown_card_is_refused() -> None:
    """Cards are catalog ids: a movie the catalog lacks is UNKNOWN_CARD."""
    position_refused(lambda d: d["features"].append("no_such_movie"), "UNKNOWN_CARD")


def test_a_movie_in_two_places_is_refused() -> None:
    """A card is in one place: a movie showing and in the Features row is CARD_TWICE."""
    position_refused(lambda d: d["features"].append(d["players"][0]["movies"][0]), "CARD_TWICE")


def test_an_award_in_two_places_is_refused() -> None:
    """An award card held and still in the deck is CARD_TWICE."""
    position_refused(lambda d: d["award_pool"].append(d["players"][0]["awards"][0]), "CARD_TWICE")


def test_tokens_that_do_not_add_up_areposition_refused() -> None:
    """Each player has the catalog's 3 tokens, in supply or on the board: TOKEN_COUNT."""
    position_refused(lambda d: d["players"][0].update(tokens=4), "TOKEN_COUNT")


def test_a_seat_list_longer_than_the_theater_is_refused() -> None:
    """The printed 1-seat theater has one seat: a second is SEAT_INVALID."""
    position_refused(lambda d: d["players"][0]["seats"][0].append(None), "SEAT_INVALID")


@pytest.mark.parametrize("change", [
    lambda d: d.update(version=2),
    lambda d: d.update(format="chess"),
    lambda d: d.pop("round"),
    lambda d: d.update(extra=1),
    lambda d: d.update(phase="lunch"),
    lambda d: d.update(current=5),
    lambda d: d["players"][0].update(audience=99),
    lambda d: d["players"][0].update(money="5"),
    lambda d: d.update(showings=[{}]),
    lambda d: d["tasks"].append({"kind": "nap"}),
    lambda d: d["tasks"].append({"kind": "gain", "player": 0}),
])
def test_a_malformed_document_is_refused(change: Callable[[dict[str, Any]], object]) -> None:
    """docs/position.md: format, version, keys, types and ranges are checked: BAD_POSITION."""
    position_refused(change, "BAD_POSITION")


def test_a_refused_position_never_builds_a_state() -> None:
    """from_dict raises before building: not a JSON object at all is BAD_POSITION too."""
    with pytest.raises(Violation) as caught:
        GameState.from_dict(CATALOG, [])
    assert caught.value.code == "BAD_POSITION"


def test_the_documented_example_is_a_position() -> None:
    """docs/position.md: the complete example reads, writes back the same, and plays on."""
    text = (Path(__file__).parents[2] / "docs" / "position.md").read_text(encoding="utf-8")
    data = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    state = GameState.from_dict(CATALOG, data)
    assert state.to_dict() == data and (state.round, state.phase) == (2, "showings")
    assert {(m.slot, m.seat) for m in state.legal_moves(1)} == {(1, 1)}


def test_an_acting_guest_must_sit_on_its_seat() -> None:
    """docs/position.md: Showings progress names the acting guest's seat, which holds a guest
    (BAD_POSITION otherwise)."""
    game = play_random(CATALOG, 2, random.Random(5))
    state = new_game(CATALOG, game.names, game.first_player)
    for move in game.moves:
        state.apply(move)
        if state.phase == "showings" and state.showings[1].active == 1:
            break
    data = state.to_dict()
    data["players"][1]["seats"][1] = [None] * len(data["players"][1]["seats"][1])
    data["reserve"] += [pawn for seat, pawn in state.seated.items() if seat // 10 == 111]
    with pytest.raises(Violation) as caught:
        GameState.from_dict(CATALOG, data)
    assert caught.value.code == "BAD_POSITION"


def _positions() -> list[dict[str, Any]]:
    """Positions along two simulated games, computed once."""
    if not _POSITIONS:
        for seed, players in ((3, 4), (4, 2)):
            game = play_random(CATALOG, players, random.Random(seed))
            state = new_game(CATALOG, game.names, game.first_player)
            for number, move in enumerate(game.moves):
                state.apply(move)
                if number % 29 == 0:
                    _POSITIONS.append(state.to_dict())
    return _POSITIONS


_POSITIONS: list[dict[str, Any]] = []


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(data, dict):
        return [p for key, value in data.items() for p in _leaves(value, (*path, key))]
    if isinstance(data, list):
        return [path, *(p for i, value in enumerate(data) for p in _leaves(value, (*path, i)))]
    return [path]


@settings(max_examples=300, deadline=None)
@given(which=st.integers(0, 10**6), where=st.integers(0, 10**6),
       value=st.sampled_from([None, -1, 0, 1, 2, 7, 99, "x", "blue", True, 1.5, [], {}, [None]]))
def test_a_damaged_position_is_refused_or_plays(which: int, where: int, value: Any) -> None:
    """docs/position.md, Refusals: any value put anywhere in a real position either gives a
    position the engine can list moves for, or a Violation; never another exception."""
    positions = _positions()
    data = json.loads(json.dumps(positions[which % len(positions)]))
    paths = [p for p in _leaves(data) if p]
    path = paths[where % len(paths)]
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    try:
        state = GameState.from_dict(CATALOG, data)
    except Violation:
        return
    for player in (None, *range(state.n)):
        state.legal_moves(player)
        state.chance_outcomes(player)
