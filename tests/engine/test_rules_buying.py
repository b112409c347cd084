"""Rule tests for Phase 1, Buying and Advertising (rulebook pages 6-7, clarifications 6-13).

Every test names the rule it checks in its docstring. Refused moves are checked for their
violation code and for leaving the whole state unchanged.
"""

from __future__ import annotations

from companion.games.popcorn.engine import GameState, Move
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.views import public_view
from tests.engine.positions import (
    bag,
    color_in,
    dealt_game,
    end_turns,
    exit_zone,
    play,
    put,
    refused,
    showings,
)

THREE_SEAT = "three_seat_blue_blue_grey"
TWO_SEAT = "two_seat_red_red"
ONE_SEAT = "one_seat_2_money"
COLUMNS = {1: [ONE_SEAT, "one_seat_1_popcorn", "one_seat_3_money"],
           2: [TWO_SEAT, "two_seat_blue_green", "two_seat_yellow_yellow"],
           3: [THREE_SEAT, "three_seat_red_grey_grey", "three_seat_green_grey_grey"]}




def buy(player: int, card: str, slot: int) -> Move:
    return Move("buy_movie", player=player, card=card, slot=slot)


def build(player: int, card: str, slot: int) -> Move:
    return Move("buy_theater", player=player, card=card, slot=slot)


def finish_round(state: GameState) -> None:
    """Everyone passes, every guest leaves without acting, and the next lineup is revealed."""
    reveal(state)
    end_turns(state)
    showings(state)
    reveal(state)


def reveal(state: GameState) -> None:
    """The table reveals the first card or tile for every pending refill."""
    while state.tasks and state.tasks[0].kind in ("lineup", "theater") and state.chance_outcomes():
        state.apply(state.chance_outcomes()[0])


FILLER = ("the_man_with_the_money", "barbacus", "mister_giggles")
"""Round-1 Features that nobody buys (they are discarded at the End of Round)."""


def round_two(features: tuple[str, ...] = ()) -> GameState:
    """A 2-player game in round 2, Ana (player 0) first to buy, with $20 each.

    ``features`` are dealt as round-1 Premiers, so they slide down to round 2's Features.
    """
    state = dealt_game(2, first_player=1, columns=COLUMNS, features=FILLER, premiers=features)
    finish_round(state)
    assert (state.round, state.current) == (2, 0)
    assert state.features[:len(features)] == list(features)
    for ps in state.players:
        ps.money = 20
    return state


def reserve_of(state: GameState, color: str) -> list[int]:
    return color_in(state, state.pawns_at(P.RESERVE), color)


# -- Buy a movie -----------------------------------------------------------------------------


def test_features_cost_the_printed_price() -> None:
    """Rulebook, Buy a movie: a movie from the Features row costs what the card shows."""
    state = dealt_game(2, features=("the_world_after", "me", "badman"))
    play(state, buy(0, "the_world_after", 1))
    assert state.players[0].money == 5 - 2
    assert state.players[0].movies[1] == "the_world_after"


def test_premiers_cost_two_dollars_more() -> None:
    """Rulebook, Buy a movie: Premiers cost +$2."""
    state = dealt_game(2, features=FILLER, premiers=("the_world_after", "me", "badman"))
    play(state, buy(0, "the_world_after", 1))
    assert state.players[0].money == 5 - 4


def test_not_enough_money_for_a_movie() -> None:
    """Rulebook, Buy a movie: pay its cost (NOT_ENOUGH_MONEY when the player cannot)."""
    state = dealt_game(2, features=("vroom_8", "me", "badman"), premiers=("final_lasso",))
    assert state.premiers[0] == "final_lasso"
    state.players[0].money = 4
    refused(state, buy(0, "vroom_8", 1), "NOT_ENOUGH_MONEY")
    refused(state, buy(0, "final_lasso", 1), "NOT_ENOUGH_MONEY")  # $4 + $2


def test_one_movie_per_turn() -> None:
    """Rulebook, Buy a movie and clarification 25: at most 1 movie per turn."""
    state = round_two(features=("me", "henrietta", "badman"))
    play(state, buy(0, "me", 1))
    refused(state, buy(0, "henrietta", 0), "MOVIE_ALREADY_BOUGHT")
    assert all(m.kind != "buy_movie" for m in state.legal_moves())


def test_turn_ends_by_itself_when_nothing_is_left_to_do() -> None:
    """Clarification 6 and 7: in round 1 a bought movie is all a player may do, so the turn
    passes at once; a second movie tried then is still "one movie per turn"
    (MOVIE_ALREADY_BOUGHT), not NOT_YOUR_TURN."""
    state = dealt_game(2, features=("me", "henrietta", "badman"))
    play(state, buy(0, "me", 1))
    assert state.current == 1
    refused(state, buy(0, "henrietta", 0), "MOVIE_ALREADY_BOUGHT")


def test_only_cards_in_the_rows_can_be_bought() -> None:
    """Rulebook, Buy a movie: choose 1 movie card from those available in the center."""
    state = dealt_game(2, features=("me", "henrietta", "badman"))
    refused(state, buy(0, "vroom_8", 1), "CARD_NOT_AVAILABLE")
    refused(state, buy(0, "modern_love", 1), "CARD_NOT_AVAILABLE")


def test_rows_are_not_refilled_after_a_purchase() -> None:
    """Rulebook, Buy a movie: do not refill the rows of available movies after buying a card."""
    state = dealt_game(2, features=("me", "henrietta", "badman"))
    deck = state.deck_size()
    play(state, buy(0, "me", 1))
    assert state.features == ["henrietta", "badman"]
    assert state.deck_size() == deck and not state.tasks


def test_replaced_movie_goes_to_the_archive() -> None:
    """Rulebook, Buy a movie and clarification 10: the old movie goes to the archives and
    still counts as owned."""
    state = dealt_game(2, starting=("rosebud", "its_my_war"), features=("me", "badman", "joe_joe"))
    play(state, buy(0, "me", 0))
    ps = state.players[0]
    assert ps.movies[0] == "me" and ps.archive == ["rosebud"]
    assert sorted(state.movies_owned(0)) == ["me", "rosebud"]


def test_new_movie_shows_all_its_actions() -> None:
    """Rulebook, Buy a movie: the slider moves just below the new card, all actions visible."""
    state = dealt_game(2, features=("vroom_8", "me", "badman"))
    state.players[0].covered[0] = 2
    play(state, buy(0, "badman", 0))
    assert state.players[0].covered[0] == 0 and state.visible_actions(0, 0) == 4


def test_movie_needs_a_theater_in_the_slot() -> None:
    """Clarification 11: the right slot starts with no theater; no movie can go there yet."""
    state = dealt_game(2, features=("me", "henrietta", "badman"))
    refused(state, buy(0, "me", 2), "SLOT_HAS_NO_THEATER")
    assert all(m.slot != 2 for m in state.legal_moves() if m.kind == "buy_movie")


def test_cinema_has_three_slots() -> None:
    """Rulebook, Buy a movie: the movie shows in one of the theaters of your cinema (0-2)."""
    state = dealt_game(2, features=("me", "henrietta", "badman"))
    refused(state, buy(0, "me", 3), "NO_SUCH_SLOT")


# -- Premiers guest --------------------------------------------------------------------------


def test_premier_guest_comes_from_the_reserve_first() -> None:
    """Rulebook, Buy a movie and clarification 8: a Premier gives 1 guest of its color from the
    reserve; another player's exit zone may not be used while the reserve has one."""
    state = dealt_game(2, starting=("rosebud", "modern_love"), features=FILLER,
                       premiers=("the_world_after",))
    play(state, buy(0, "the_world_after", 1))
    reds = reserve_of(state, "red")
    assert state.tasks[0].kind == "gain" and reds
    refused(state, Move("end_turn", player=0), "PENDING_STEP")
    refused(state, Move("gain_pawn", player=0, pawn=color_in(state, exit_zone(state, 1), "red")[0]),
            "RESERVE_FIRST")
    refused(state, Move("gain_pawn", player=0, pawn=color_in(state, exit_zone(state, 0), "red")[0]),
            "RESERVE_FIRST")
    refused(state, Move("gain_pawn", player=0, pawn=reserve_of(state, "blue")[0]),
            "PAWN_NOT_AVAILABLE")
    play(state, Move("gain_pawn", player=0, pawn=reds[0]))
    assert state.loc[reds[0]] == P.bag(0) and not state.tasks


def test_premier_guest_from_another_exit_zone_never_your_own() -> None:
    """Rulebook, Buy a movie and clarification 8: with none of the color in the reserve, the
    guest comes from another player's exit zone, never the buyer's own."""
    state = dealt_game(2, features=FILLER, premiers=("the_world_after",))
    for pawn in reserve_of(state, "red"):
        put(state, pawn, P.BOX)
    play(state, buy(0, "the_world_after", 1))
    own = color_in(state, exit_zone(state, 0), "red")[0]
    theirs = color_in(state, exit_zone(state, 1), "red")[0]
    refused(state, Move("gain_pawn", player=0, pawn=own), "PAWN_NOT_AVAILABLE")
    assert state.legal_moves() == [Move("gain_pawn", player=0, pawn=theirs)]
    play(state, Move("gain_pawn", player=0, pawn=theirs))
    assert state.loc[theirs] == P.bag(0)


def test_premier_guest_nothing_if_none_available() -> None:
    """Rulebook, Buy a movie: if no guest of the color is available, nothing happens."""
    state = dealt_game(2, features=FILLER, premiers=("the_world_after",))
    for pawn in reserve_of(state, "red") + color_in(state, exit_zone(state, 1), "red"):
        put(state, pawn, P.BOX)
    play(state, buy(0, "the_world_after", 1))
    assert state.tasks == [] and state.players[0].money == 1
    refused(state, Move("gain_pawn", player=0, pawn=40), "NOT_EXPECTED")


def test_premier_guest_comes_before_the_showing_bonus() -> None:
    """Clarification 8: the Premier guest is taken before the movie's showing bonus."""
    state = dealt_game(2, features=FILLER, premiers=("revenge_of_the_diplodocus",))  # @2
    play(state, buy(0, "revenge_of_the_diplodocus", 1))
    assert [t.kind for t in state.tasks] == ["gain", "bonus"]
    refused(state, Move("bonus_action", player=0, pawn=exit_zone(state, 0)[0]), "NOT_EXPECTED")


# -- Showing bonus ---------------------------------------------------------------------------


def test_showing_bonus_with_the_exact_seat_count() -> None:
    """Rulebook, Showing Bonus: a movie shown in a theater with exactly its seat count gives
    its bonus at once; the default 1-seat theater counts (clarification 9)."""
    state = dealt_game(2, features=("the_fury_of_the_serpent", "me", "badman"))  # popcorn_1 @1
    play(state, buy(0, "the_fury_of_the_serpent", 0))
    assert state.players[0].popcorn == 1


def test_no_showing_bonus_with_another_seat_count() -> None:
    """Rulebook, Showing Bonus: in a theater with a different number of seats, no bonus."""
    state = dealt_game(2, features=("the_fury_of_the_serpent", "me", "badman"))
    play(state, buy(0, "the_fury_of_the_serpent", 1))
    assert state.players[0].popcorn == 0


def test_default_center_theater_counts_as_two_seats() -> None:
    """Clarification 9: the default center theater has 2 seats for the showing bonus."""
    state = dealt_game(2, features=("joe_joe", "me", "badman"))  # popcorn_2 @2
    play(state, buy(0, "joe_joe", 1))
    assert state.players[0].popcorn == 2


def test_buy_the_theater_first_then_the_movie_for_the_bonus() -> None:
    """Rulebook, Tip and clarification 9: buy a 3-seat theater, then a movie into it, to gain a
    3-seat showing bonus."""
    state = round_two(features=("rohan_and_jaya",))  # $4, money_2 @3
    assert "rohan_and_jaya" in state.features
    play(state, build(0, THREE_SEAT, 1))
    reveal(state)
    play(state, buy(0, "rohan_and_jaya", 1))
    assert state.players[0].money == 20 - 8 - 4 + 2


def test_changing_the_theater_later_gives_no_bonus() -> None:
    """Clarification 9 and 12: the bonus is checked only when the movie is bought; a theater
    placed later under the movie keeps the movie and triggers nothing."""
    state = round_two(features=("rohan_and_jaya",))
    play(state, buy(0, "rohan_and_jaya", 1), build(0, THREE_SEAT, 1))
    ps = state.players[0]
    assert ps.money == 20 - 4 - 8
    assert ps.movies[1] == "rohan_and_jaya" and ps.theaters[1] == THREE_SEAT


def test_advertising_bonus_with_no_token_left_does_nothing() -> None:
    """Clarification 9: an ad_* showing bonus with an empty token supply does nothing."""
    state = dealt_game(2, features=("the_neurotic_detective", "me", "badman"))  # ad_blue @1
    state.players[0].tokens = 0
    play(state, buy(0, "the_neurotic_detective", 0))
    assert state.board == [] and state.players[0].tokens == 0


def test_showing_bonus_exit_to_bag_is_a_choice() -> None:
    """Rulebook, Showing Bonus and Action Descriptions: "choose 1 guest in your exit zone and
    add it to your bag"; the bonus may be declined (every action is optional)."""
    state = dealt_game(2, features=("revenge_of_the_diplodocus", "me", "badman"))
    play(state, buy(0, "revenge_of_the_diplodocus", 1))
    pawn = exit_zone(state, 0)[0]
    refused(state, Move("bonus_action", player=0, pawn=bag(state, 0)[0]), "PAWN_NOT_IN_EXIT")
    play(state, Move("bonus_action", player=0, pawn=pawn))
    assert state.loc[pawn] == P.bag(0)
    other = dealt_game(2, features=("revenge_of_the_diplodocus", "me", "badman"))
    play(other, buy(0, "revenge_of_the_diplodocus", 1), Move("decline", player=0))
    assert other.tasks == [] and len(exit_zone(other, 0)) == 4


# -- Buy a theater ---------------------------------------------------------------------------


def test_no_theater_on_the_first_turn() -> None:
    """Rulebook, Buy a theater and clarification 7: not on your first turn."""
    state = dealt_game(2, columns=COLUMNS)
    refused(state, build(0, ONE_SEAT, 2), "FIRST_TURN_NO_THEATER")
    assert all(m.kind in ("buy_movie", "end_turn") for m in state.legal_moves())


def test_one_theater_per_turn() -> None:
    """Rulebook, Buy a theater: maximum 1 time per turn."""
    state = round_two()
    play(state, build(0, ONE_SEAT, 0))
    reveal(state)
    refused(state, build(0, TWO_SEAT, 1), "THEATER_ALREADY_BOUGHT")


def test_not_enough_money_for_a_theater() -> None:
    """Rulebook, Buy a theater: pay its cost (NOT_ENOUGH_MONEY)."""
    state = round_two()
    state.players[0].money = 7
    refused(state, build(0, THREE_SEAT, 2), "NOT_ENOUGH_MONEY")  # $8


def test_theater_must_be_in_a_column() -> None:
    """Rulebook, Buy a theater: choose 1 tile from those available (not a default theater)."""
    state = round_two()
    refused(state, build(0, "one_seat_red_2_popcorn", 0), "CARD_NOT_AVAILABLE")
    refused(state, build(0, "default_two_seat_tile", 0), "CARD_NOT_AVAILABLE")
    refused(state, build(0, ONE_SEAT, 3), "NO_SUCH_SLOT")


def test_theater_goes_in_any_slot_and_the_movie_stays() -> None:
    """Rulebook, Buy a theater and clarification 12: place the tile in any theater; the movie
    showing there stays."""
    state = round_two()
    slots = {m.slot for m in state.legal_moves() if m.kind == "buy_theater"}
    assert slots == {0, 1, 2}
    movie = state.players[0].movies[0]
    play(state, build(0, TWO_SEAT, 0))
    assert state.players[0].theaters[0] == TWO_SEAT and state.players[0].movies[0] == movie


def test_replaced_default_theater_leaves_the_game() -> None:
    """Clarification 12: a replaced default theater leaves the game."""
    state = round_two()
    play(state, build(0, ONE_SEAT, 0))
    everywhere = [t for pile in (*state.columns.values(), *state.theater_pool.values(),
                                 *state.theater_queue.values()) for t in pile]
    assert "default_one_seat_tile" not in everywhere
    assert state.players[0].theaters[0] == ONE_SEAT


def test_column_is_refilled_from_the_same_stack() -> None:
    """Rulebook, Buy a theater: immediately refill the column with a theater of the same size."""
    state = round_two()
    play(state, build(0, TWO_SEAT, 1))
    assert len(state.columns[2]) == 2
    outcomes = state.chance_outcomes()
    assert outcomes and {m.kind for m in outcomes} == {"reveal_theater"}
    assert {m.card for m in outcomes} == set(state.theater_pool[2])
    refused(state, Move("end_turn", player=0), "PENDING_STEP")
    play(state, outcomes[0])
    assert len(state.columns[2]) == 3 and outcomes[0].card in state.columns[2]


def test_empty_stack_leaves_a_gap_in_the_column() -> None:
    """Rulebook, Buy a theater: if no theater of that size is left, leave the slot empty."""
    state = round_two()
    state.theater_pool[1] = []
    play(state, build(0, ONE_SEAT, 0))
    assert len(state.columns[1]) == 2 and state.tasks == []


def test_replaced_tile_goes_under_its_stack() -> None:
    """Rulebook, Buy a theater: a replaced theater goes face down under its stack, so it comes
    back only when the rest of that stack is used up."""
    state = round_two()
    play(state, build(0, TWO_SEAT, 2))
    finish_round(state)  # round 3
    while state.current != 0:
        play(state, Move("end_turn", player=state.current))
    state.players[0].money = 20
    play(state, build(0, THREE_SEAT, 2))
    assert state.theater_queue[2] == [TWO_SEAT]
    assert TWO_SEAT not in state.theater_pool[2]


def test_first_tile_in_the_right_slot_gives_audience_once() -> None:
    """Rulebook, Buy a theater and clarification 11: the first theater in the far-right slot
    gives 1 audience; replacing it later gives nothing."""
    state = round_two()
    play(state, build(0, ONE_SEAT, 2))
    assert state.players[0].audience == 1 and state.draw_value(0) == 4
    finish_round(state)
    while state.current != 0:
        play(state, Move("end_turn", player=state.current))
    state.players[0].money = 20
    play(state, build(0, TWO_SEAT, 2))
    assert state.players[0].audience == 1


def test_theater_in_another_slot_gives_no_audience() -> None:
    """Rulebook, Buy a theater: only the far-right space gives the audience bonus."""
    state = round_two()
    play(state, build(0, ONE_SEAT, 0))
    assert state.players[0].audience == 0


# -- Advertising tokens ----------------------------------------------------------------------


def placed_blue_token() -> GameState:
    """Round 1: Ana buys The Neurotic Detective into her 1-seat theater: its bonus puts a
    token on the blue space."""
    state = dealt_game(2, first_player=1, features=("the_neurotic_detective", "me", "badman"))
    play(state, Move("end_turn", player=1), buy(0, "the_neurotic_detective", 0))
    assert state.board == [(0, "blue", 1)] and state.players[0].tokens == 2
    return state


def test_no_token_is_activated_in_round_one() -> None:
    """Rulebook, Activate Advertising tokens: "On your first turn, this action is not possible",
    even for a token a Showing bonus has just placed (token readiness). With nothing else to
    do, Ana's turn ends by itself; a token put on the board by hand is refused too."""
    state = placed_blue_token()
    assert state.phase == "showings" and state.board == [(0, "blue", 1)]
    state = dealt_game(2)
    state.board.append((0, "blue", 1))
    state.players[0].tokens = 2
    assert not [m for m in state.legal_moves() if m.kind in ("activate_ad", "take_back_ad")]
    refused(state, Move("activate_ad", player=0, space="blue"), "TOKEN_NOT_READY")
    refused(state, Move("take_back_ad", player=0, space="blue"), "TOKEN_NOT_READY")


def test_token_placed_by_a_showing_bonus_is_ready_the_same_turn() -> None:
    """Rulebook, Example of a round (token readiness, settled by the English rulebook): Orson
    buys "French Kiss" from the Premiers for $5 ($3+$2) and gains a guest; showing it in a
    1-seat theater gives the Showing bonus, a token on the yellow space, which he activates in
    the same turn to gain a 2nd guest. He also buys a 2-seat theater for that slot."""
    state = dealt_game(2, first_player=1, columns=COLUMNS, features=FILLER)
    end_turns(state)
    showings(state)
    play(state, Move("reveal_movie", card="french_kiss"))
    reveal(state)
    assert (state.round, state.current, state.premiers[0]) == (2, 0, "french_kiss")
    state.players[0].money = 20
    play(state, buy(0, "french_kiss", 0))
    first = reserve_of(state, "yellow")[0]
    play(state, Move("gain_pawn", player=0, pawn=first))
    assert state.board == [(0, "yellow", 2)] and state.players[0].money == 15
    play(state, build(0, TWO_SEAT, 0))
    reveal(state)
    assert Move("activate_ad", player=0, space="yellow") in state.legal_moves()
    assert public_view(state)["board"] == [{"player": 0, "space": "yellow", "ready": True}]
    play(state, Move("activate_ad", player=0, space="yellow"))
    second = reserve_of(state, "yellow")[0]
    play(state, Move("gain_pawn", player=0, pawn=second))
    assert state.loc[first] == state.loc[second] == P.bag(0)
    assert state.board == [] and state.players[0].tokens == 3


def test_colored_token_gains_a_guest_from_the_reserve() -> None:
    """Rulebook, Advertising board effects: a colored space gives 1 guest of that color from the
    reserve into your bag; the token returns to its owner (clarification 13)."""
    state = placed_blue_token()
    finish_round(state)
    assert state.current == 0
    blue = reserve_of(state, "blue")[0]
    play(state, Move("activate_ad", player=0, space="blue"))
    assert state.board == [] and state.players[0].tokens == 3
    refused(state, Move("gain_pawn", player=0, pawn=color_in(state, exit_zone(state, 1),
                                                             "blue")[0]), "RESERVE_FIRST")
    play(state, Move("gain_pawn", player=0, pawn=blue))
    assert state.loc[blue] == P.bag(0)


def test_token_may_be_taken_back_without_effect() -> None:
    """Rulebook, Activate Advertising tokens: a token may be taken back without its effect."""
    state = placed_blue_token()
    finish_round(state)
    play(state, Move("take_back_ad", player=0, space="blue"))
    assert state.board == [] and state.players[0].tokens == 3 and state.tasks == []


def test_tokens_may_stay_on_the_board() -> None:
    """Rulebook, Activate Advertising tokens: you may leave your tokens on the board from one
    turn to another."""
    state = placed_blue_token()
    finish_round(state)
    finish_round(state)
    assert state.round == 3 and state.board == [(0, "blue", 1)]
    while state.current != 0:
        play(state, Move("end_turn", player=state.current))
    assert Move("activate_ad", player=0, space="blue") in state.legal_moves()


def test_token_must_be_on_the_space() -> None:
    """Rulebook, Activate Advertising tokens: only your own placed tokens can be taken back."""
    state = placed_blue_token()
    finish_round(state)
    refused(state, Move("activate_ad", player=0, space="red"), "TOKEN_NOT_ON_SPACE")
    refused(state, Move("activate_ad", player=0, space="blue", color="red"), "BAD_MOVE")
    refused(state, Move("activate_ad", player=0, space="stage"), "BAD_MOVE")


def test_colored_token_with_no_guest_available_does_nothing() -> None:
    """Rulebook, Advertising board effects: if there are none available, nothing happens."""
    state = placed_blue_token()
    finish_round(state)
    for pawn in reserve_of(state, "blue") + color_in(state, exit_zone(state, 1), "blue"):
        put(state, pawn, P.BOX)
    play(state, Move("activate_ad", player=0, space="blue"))
    assert state.tasks == [] and state.players[0].tokens == 3


def test_multicolor_token_needs_a_color() -> None:
    """Rulebook, Advertising board effects: on the multi-colored space, choose 1 guest color
    (not white) and gain a guest of it."""
    state = dealt_game(2, first_player=1, features=("what_a_bunch_of_idiots_3", "me", "badman"))
    play(state, Move("end_turn", player=1), buy(0, "what_a_bunch_of_idiots_3", 1))  # ad_any @2
    finish_round(state)
    refused(state, Move("activate_ad", player=0, space="any"), "COLOR_REQUIRED")
    refused(state, Move("activate_ad", player=0, space="any", color="white"), "COLOR_REQUIRED")
    green = reserve_of(state, "green")[0]
    play(state, Move("activate_ad", player=0, space="any", color="green"))
    refused(state, Move("gain_pawn", player=0, pawn=reserve_of(state, "red")[0]),
            "PAWN_NOT_AVAILABLE")
    play(state, Move("gain_pawn", player=0, pawn=green))
    assert state.loc[green] == P.bag(0)


def white_token_round_two() -> GameState:
    """Round 2, Ana to play, with a token placed on the white space in round 1."""
    state = dealt_game(2, first_player=1)
    finish_round(state)
    state.board.append((0, "white", 1))
    state.players[0].tokens = 2
    return state


def test_white_token_sends_your_white_guest_to_any_bag() -> None:
    """Rulebook, Advertising board effects: take 1 white guest from the reserve or your cinema
    and add it to any player's bag (including your own)."""
    state = white_token_round_two()
    mine = color_in(state, exit_zone(state, 0), "white")
    assert mine
    play(state, Move("activate_ad", player=0, space="white"))
    refused(state, Move("gain_pawn", player=0, pawn=mine[0], target=2), "BAD_TARGET")
    refused(state, Move("gain_pawn", player=0, pawn=mine[0]), "BAD_TARGET")
    play(state, Move("gain_pawn", player=0, pawn=mine[0], target=1))
    assert state.loc[mine[0]] == P.bag(1)


def test_white_token_takes_from_the_reserve() -> None:
    """Rulebook, Advertising board effects: the white guest may come from the reserve."""
    state = white_token_round_two()
    put(state, 19, P.RESERVE)
    play(state, Move("activate_ad", player=0, space="white"),
         Move("gain_pawn", player=0, pawn=19, target=0))
    assert state.loc[19] == P.bag(0)


def test_white_token_never_takes_from_another_player_or_a_bag() -> None:
    """Settled by the English rulebook, white advertising space: never from another player's
    exit zone; and never from a bag."""
    state = white_token_round_two()
    play(state, Move("activate_ad", player=0, space="white"))
    theirs = color_in(state, exit_zone(state, 1), "white")[0]
    in_bag = color_in(state, bag(state, 0), "white")[0]
    refused(state, Move("gain_pawn", player=0, pawn=theirs, target=0), "PAWN_NOT_AVAILABLE")
    refused(state, Move("gain_pawn", player=0, pawn=in_bag, target=0), "PAWN_NOT_AVAILABLE")
    assert all(m.pawn != theirs for m in state.legal_moves())


# -- Turn order ------------------------------------------------------------------------------


def test_turns_go_clockwise_then_showings() -> None:
    """Rulebook, Phase 1: each player takes a turn, clockwise from the first player; then the
    Showings begin."""
    state = dealt_game(3, first_player=2)
    refused(state, buy(0, state.features[0], 1), "NOT_YOUR_TURN")
    play(state, Move("end_turn", player=2))
    assert state.current == 0
    play(state, Move("end_turn", player=0), Move("end_turn", player=1))
    assert state.phase == "showings"
    refused(state, Move("end_turn", player=1), "WRONG_PHASE")


def test_player_who_can_do_nothing_is_skipped() -> None:
    """Clarification 6: a player who can afford nothing and has no token to use passes."""
    state = dealt_game(2, features=("joe_joe", "badman", "vroom_8"),
                       premiers=("the_kids", "final_lasso", "elite_pilot"))
    state.players[1].money = 0
    play(state, Move("end_turn", player=0))
    assert state.phase == "showings"


def test_actions_in_any_order() -> None:
    """Rulebook, Phase 1: the actions of a turn may be taken in any order."""
    state = round_two(features=("me",))
    play(state, build(0, ONE_SEAT, 2))
    reveal(state)
    play(state, buy(0, "me", 2))
    assert state.players[0].movies[2] == "me"


def test_tile_under_an_empty_stack_is_revealed_next() -> None:
    """Rulebook, Buy a theater: tiles put under an empty stack refill the column of that size."""
    state = round_two()
    state.theater_pool[2] = []
    state.theater_queue[2] = ["two_seat_green_blue"]
    play(state, build(0, TWO_SEAT, 1))
    assert "two_seat_green_blue" in state.columns[2] and state.theater_queue[2] == []


def test_replaced_tile_refills_its_column_when_its_stack_was_empty() -> None:
    """Rulebook, Buy a theater: the replaced tile goes under its (empty) stack, then the column
    of the bought size is refilled from that stack, so it comes straight back."""
    state = round_two()
    state.players[0].theaters[1] = "two_seat_green_blue"  # bought earlier
    state.theater_pool[2] = []
    play(state, build(0, TWO_SEAT, 1))
    assert "two_seat_green_blue" in state.columns[2] and len(state.columns[2]) == 3


def test_only_the_bought_size_column_is_refilled() -> None:
    """Rulebook, Buy a theater: refill the column "with a theater of the same size"; a tile of
    another size put under its stack stays there."""
    state = round_two()
    state.players[0].theaters[2] = "one_seat_blue_3_money"  # bought earlier
    state.players[0].right_bonus_taken = True
    state.columns[1].pop()  # the 1-seat column has a gap
    play(state, build(0, TWO_SEAT, 2))
    reveal(state)
    assert state.theater_queue[1] == ["one_seat_blue_3_money"] and len(state.columns[1]) == 2


# -- Mistakes after a turn that ended by itself ----------------------------------------------


def test_a_theater_after_a_round_one_turn_ended_by_itself() -> None:
    """Clarification 7: no theater on the first turn (FIRST_TURN_NO_THEATER), also once the turn
    has ended by itself after a movie purchase."""
    state = dealt_game(2, features=("me", "henrietta", "badman"), columns=COLUMNS)
    play(state, buy(0, "me", 1))
    assert state.current == 1
    refused(state, build(0, ONE_SEAT, 2), "FIRST_TURN_NO_THEATER")


def test_a_purchase_after_a_turn_skipped_for_lack_of_money() -> None:
    """Clarification 6: a player who can afford nothing is skipped; the movie they try to buy
    afterwards is NOT_ENOUGH_MONEY, the reason they were skipped."""
    state = dealt_game(2, features=("joe_joe", "badman", "vroom_8"),
                       premiers=("the_kids", "final_lasso", "elite_pilot"))
    state.players[1].money = 0
    play(state, Move("end_turn", player=0))
    assert state.phase == "showings"
    refused(state, buy(1, "badman", 1), "NOT_ENOUGH_MONEY")
    refused(state, Move("end_turn", player=1), "WRONG_PHASE")


def test_a_second_movie_after_the_last_turn_ended_by_itself() -> None:
    """Rulebook, Phase 1: one movie per turn (MOVIE_ALREADY_BOUGHT), even when the last turn of
    the round ended by itself and the Showings have begun."""
    state = dealt_game(2, features=("me", "henrietta", "badman"))
    play(state, Move("end_turn", player=0), buy(1, "me", 1))
    assert state.phase == "showings"
    refused(state, buy(1, "henrietta", 0), "MOVIE_ALREADY_BOUGHT")


def test_a_second_theater_after_a_turn_ended_by_itself() -> None:
    """Rulebook, Phase 1: one theater per turn (THEATER_ALREADY_BOUGHT) once the turn has ended
    by itself: Ana spends all but $1 on a movie and a theater, and can do nothing more."""
    state = round_two(features=("me",))
    state.players[0].money = 2 + 3  # "me" costs $2, the 1-seat tile $3
    play(state, build(0, "one_seat_3_money", 0))
    reveal(state)
    play(state, buy(0, "me", 1))
    assert state.current == 1
    refused(state, build(0, ONE_SEAT, 2), "THEATER_ALREADY_BOUGHT")


def test_a_round_one_token_after_the_turn_ended_by_itself() -> None:
    """Rulebook, Activate Advertising tokens: "On your first turn, this action is not possible"
    (TOKEN_NOT_READY), also once the turn has ended by itself."""
    state = placed_blue_token()
    refused(state, Move("activate_ad", player=0, space="blue"), "TOKEN_NOT_READY")
    refused(state, Move("take_back_ad", player=0, space="blue"), "TOKEN_NOT_READY")


def test_a_player_whose_turn_has_not_come_waits() -> None:
    """Rulebook, Phase 1: players take their turns one after another (NOT_YOUR_TURN), whatever
    the move would be: only a turn that is over is judged by its own rules."""
    state = dealt_game(2, features=("me", "henrietta", "badman"))
    refused(state, buy(1, "no_such_movie", 1), "NOT_YOUR_TURN")
    play(state, Move("end_turn", player=0))
    refused(state, buy(0, "me", 1), "NOT_YOUR_TURN")  # Ana ended her turn: the move was legal
