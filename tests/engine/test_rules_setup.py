"""Rule tests for Table Setup and Player Setup (rulebook pages 4-5, clarifications 1, 3, 7, 25).

Every test names the rule it checks in its docstring. Positions are reached through real
moves (``dealt_game`` plays the whole setup with chosen cards).
"""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.popcorn.engine import COLORS, GameState, Move, Violation, new_game
from companion.games.popcorn.engine import pawns as P
from tests.engine.positions import CATALOG, NAMES, bag, color_in, dealt_game, exit_zone, refused

STARTING = ("rosebud", "end_of_the_world", "its_my_war", "modern_love")
"""The four starting movies: blue, green, red, yellow."""




def colors_of(state: GameState, pawns: list[int]) -> Counter[str]:
    """How many pawns of each color."""
    return Counter(state.pawn_color[i] for i in pawns)


def setup_until(state: GameState, kind: str) -> None:
    """Resolve setup steps with the first outcome or choice until a ``kind`` step is in front."""
    while state.tasks[0].kind != kind:
        outcomes = state.chance_outcomes()
        state.apply(outcomes[0] if outcomes else state.legal_moves()[0])


# -- Player Setup 8: money -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("first", [0, 1])
def test_money_by_seat_from_the_first_player(players: int, first: int) -> None:
    """Rulebook, Player Setup 8: the first player takes $5, the next to the left $6, then $7, $8."""
    state = dealt_game(players, first_player=first)
    for offset, amount in enumerate((5, 6, 7, 8)[:players]):
        assert state.players[(first + offset) % players].money == amount


# -- Player Setup 3: guests ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_has_ten_guests_in_the_bag(players: int) -> None:
    """Rulebook, Player Setup 3b-3c: 5 white + 1 of each color + 1 of the starting movie's color."""
    state = dealt_game(players, starting=STARTING[:players])
    for p in range(players):
        extra = CATALOG.movies[STARTING[p]].color
        want = Counter({"white": 5, **dict.fromkeys(COLORS, 1)})
        want[extra] += 1
        assert len(bag(state, p)) == 10
        assert colors_of(state, bag(state, p)) == want


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_exit_zone_starts_with_one_guest_of_each_color(players: int) -> None:
    """Settled by the English rulebook, exit zone at setup (Player Setup 3a): 1 guest of each
    non-white color in every exit zone, so each player owns 14 guests."""
    state = dealt_game(players)
    for p in range(players):
        assert colors_of(state, exit_zone(state, p)) == Counter(dict.fromkeys(COLORS, 1))
        assert len(state.owned_pawns(p)) == 14


@pytest.mark.parametrize(("players", "reserve"), [(4, 4), (3, 5), (2, 6)])
def test_reserve_holds_4_5_or_6_guests(players: int, reserve: int) -> None:
    """Rulebook, Player Setup 3c: 4 guests stay in the reserve with 4 players, 5 with 3 and
    6 with 2."""
    state = dealt_game(players, starting=STARTING[:players])
    pawns = state.pawns_at(P.RESERVE)
    assert len(pawns) == reserve == CATALOG.setups[players].reserve_after_setup
    want = Counter(dict.fromkeys(COLORS, 2))
    for movie in STARTING[:players]:
        want[CATALOG.movies[movie].color] -= 1
    assert colors_of(state, pawns) == +want  # no white guest in the reserve


@pytest.mark.parametrize("players", [2, 3])
def test_unused_guests_return_to_the_box(players: int) -> None:
    """Rulebook, Player Setup 3b: with 2 or 3 players, the unused guests go back to the box."""
    state = dealt_game(players)
    in_box = len(state.pawns_at(P.BOX))
    assert in_box == 60 - 14 * players - CATALOG.setups[players].reserve_after_setup
    assert all(state.loc[i] == P.BOX for i in color_in(state, range(60), "white")[5 * players:])


# -- Player Setup 2, 4, 5, 6: cinema, audience, tokens ---------------------------------------


def test_starting_movie_shows_in_slot_0_with_three_actions() -> None:
    """Rulebook, Player Setup 2 and clarifications 1 and 3: the starting movie goes into the
    leftmost theater, its slider covers the colored mark, so its 3 printed actions are visible."""
    state = dealt_game(2, starting=("modern_love", "rosebud"))
    assert [ps.movies for ps in state.players] == [["modern_love", None, None],
                                                   ["rosebud", None, None]]
    for p in range(2):
        assert state.players[p].covered[0] == 0
        assert state.visible_actions(p, 0) == 3 == len(state.movie(p, 0).actions)


def test_each_player_gets_a_different_starting_movie() -> None:
    """Rulebook, Player Setup 2: a random starting movie each; unused ones return to the box."""
    state = dealt_game(4)
    starting = [ps.movies[0] for ps in state.players]
    assert sorted(starting) == sorted(STARTING)
    assert state.starting_pool == []


def test_cinema_starts_with_the_printed_theaters_and_an_empty_right_slot() -> None:
    """Catalog default_theaters and clarification 11: a 1-seat left theater, a 2-seat center
    theater, and no theater in the far-right slot."""
    state = dealt_game(2)
    for p in range(2):
        left, center, right = (state.theater(p, s) for s in range(3))
        assert (left.seats, center.seats, right) == (1, 2, None)
        assert left.default and center.default


def test_audience_tokens_and_bucket_at_the_start() -> None:
    """Rulebook, Player Setup 4-6: audience cube on the first space (draw 3), 3 advertising
    tokens, an empty Popcorn bucket."""
    state = dealt_game(3)
    for p in range(3):
        ps = state.players[p]
        assert (ps.audience, state.draw_value(p), ps.tokens, ps.popcorn) == (0, 3, 3, 0)
    assert state.board == []


# -- Table Setup 1: movies -------------------------------------------------------------------


def test_rows_of_three_movies_features_first() -> None:
    """Rulebook, Table Setup 1: reveal 3 movies next to each tile, starting with Features."""
    features = ("me", "badman", "vroom_8")
    premiers = ("joe_joe", "the_kids", "final_lasso")
    state = dealt_game(2, features=features, premiers=premiers)
    assert state.features == list(features)
    assert state.premiers == list(premiers)
    assert state.deck_size() == 44 - 6


@pytest.mark.parametrize(("players", "below"), [(2, 10), (3, 5), (4, 5)])
def test_final_showing_card_has_10_or_5_cards_below(players: int, below: int) -> None:
    """Rulebook, Table Setup 1 and clarification 20: 10 movie cards under the Final Showing card
    with 2 players, 5 with 3 or 4."""
    state = dealt_game(players)
    assert state.deck_size() - state.above_final == below
    assert not state.final_revealed and not state.last_round


def test_starting_movies_are_not_in_the_deck() -> None:
    """Rulebook, Table Setup 1: the 4 starting movies are set aside; the deck has the 44 others."""
    state = new_game(CATALOG, NAMES[:2])
    assert len(state.movie_pool) == 44
    assert not set(STARTING) & set(state.movie_pool)


# -- Table Setup 4: theaters -----------------------------------------------------------------


def test_columns_of_three_theaters_per_size() -> None:
    """Rulebook, Table Setup 4: 3 stacks by size, 3 tiles revealed below each stack."""
    state = dealt_game(2)
    for size, left in ((1, 5), (2, 9), (3, 5)):
        column = state.columns[size]
        assert len(column) == 3
        assert all(CATALOG.theaters[t].seats == size for t in column)
        assert len(state.theater_pool[size]) == left


def test_revealed_theater_must_come_from_its_stack() -> None:
    """Rulebook, Table Setup 4: a column is filled from the stack of its own size."""
    state = new_game(CATALOG, NAMES[:2])
    setup_until(state, "theater")
    assert state.tasks[0].size == 1
    refused(state, Move("reveal_theater", card="two_seat_red_red"), "CARD_NOT_AVAILABLE")


# -- Player Setup 9: awards ------------------------------------------------------------------


def test_award_draw_two_keep_one_other_under_the_deck() -> None:
    """Rulebook, Player Setup 9: draw 2 awards, keep 1, put the other under the deck."""
    state = dealt_game(2, awards=("guest_count", "three_seat_theaters",
                                  "white_guest_count", "audience_6_or_more"))
    assert state.players[0].awards == ["guest_count"]
    assert state.players[1].awards == ["white_guest_count"]
    assert state.award_queue == ["three_seat_theaters", "audience_6_or_more"]
    assert len(state.award_pool) == 26 - 4


def test_award_kept_must_be_one_of_the_two_drawn() -> None:
    """Rulebook, Player Setup 9: the kept award is one of the two just drawn, once both are
    drawn."""
    state = new_game(CATALOG, NAMES[:2])
    setup_until(state, "award")
    state.apply(Move("draw_award", player=0, card="guest_count"))
    refused(state, Move("keep_award", player=0, card="guest_count"), "PENDING_STEP")
    state.apply(Move("draw_award", player=0, card="three_seat_theaters"))
    refused(state, Move("draw_award", player=0, card="white_guest_count"), "NOT_EXPECTED")
    refused(state, Move("keep_award", player=0, card="white_guest_count"), "AWARD_NOT_DRAWN")
    refused(state, Move("keep_award", player=1, card="guest_count"), "NOT_YOUR_TURN")


def test_awards_are_drawn_in_turn_order_from_the_first_player() -> None:
    """Rulebook, Player Setup 7-9: setup steps go in turn order, from the first player."""
    state = new_game(CATALOG, NAMES[:3], first_player=2)
    setup_until(state, "award")
    assert state.tasks[0].player == 2
    refused(state, Move("draw_award", player=0, card="guest_count"), "NOT_YOUR_TURN")


# -- Gameplay overview -----------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 2])
def test_round_one_starts_with_the_first_player(first: int) -> None:
    """Rulebook, Gameplay Overview: play begins with the First Player marker, then clockwise."""
    state = dealt_game(3, first_player=first)
    assert (state.round, state.phase, state.current) == (1, "buying", first)
    assert state.first_player == first


def test_two_player_setup_differences() -> None:
    """Clarification 25: with 2 players, $5 and $6, 2 of each color in the reserve before the
    starting guests, 10 cards below the Final Showing, only the 3-Popcorn trophy."""
    setup = CATALOG.setups[2]
    assert setup.starting_money == (5, 6)
    assert CATALOG.guest_setup.reserve_per_color == 2
    assert setup.final_showing_below == 10
    assert setup.trophies == (3,)
    assert CATALOG.setups[3].trophies == CATALOG.setups[4].trophies == (5, 3)


def test_setup_is_for_two_to_four_players() -> None:
    """Rulebook, Overview: Popcorn is for 2 to 4 players."""
    with pytest.raises(Violation) as caught:
        new_game(CATALOG, ("Ana",))
    assert caught.value.code == "BAD_MOVE"
