"""Rule tests for Phase 2, Showings (rulebook pages 8-9 and 11, clarifications 5 and 14-18, 24).

Every test names the rule it checks in its docstring. Ana (player 0) shows Rosebud (blue) in
her left theater; her bag holds whites 0-4, blues 20 and 24, green 30, red 40, yellow 50, and
her exit zone blue 21, green 31, red 41, yellow 51. Theaters and movies are put in place by
hand; guests are drawn and placed through real moves.
"""

from __future__ import annotations

import pytest

from companion.games.popcorn.engine import GameState, Move, Violation
from companion.games.popcorn.engine import pawns as P
from tests.engine.positions import bag, dealt_game, draw, end_turns, exit_zone, play, put, refused

WHITE, WHITE2, WHITE3 = 0, 1, 2
BLUE, BLUE2, GREEN, RED, YELLOW = 20, 24, 30, 40, 50
RED2 = 41  # in Ana's exit zone at the start




def showtime(theaters: dict[int, str] | None = None, movies: dict[int, str] | None = None,
             audience: int = 0) -> GameState:
    """Round 1 Showings of a 2-player game, with Ana's cinema set up as given."""
    state = dealt_game(2, starting=("rosebud", "its_my_war"))
    ps = state.players[0]
    for slot, theater in (theaters or {}).items():
        ps.theaters[slot] = theater
    for slot, movie in (movies or {}).items():
        ps.movies[slot] = movie
    ps.audience = audience
    end_turns(state)
    assert state.phase == "showings"
    return state


def seat(state: GameState, *placements: tuple[int, int, int]) -> None:
    """Ana draws exactly these guests ``(pawn, slot, seat)`` and seats them in that order."""
    state.showings[0].to_draw = len(placements)
    for pawn, _, _ in placements:
        if state.loc[pawn] != P.bag(0):
            put(state, pawn, P.bag(0))
    draw(state, 0, [pawn for pawn, _, _ in placements])
    for pawn, slot, index in placements:
        state.apply(Move("place", player=0, pawn=pawn, slot=slot, seat=index))


def act(kind: str, slot: int, index: int | None = None, pawn: int | None = None) -> Move:
    return Move(kind, player=0, slot=slot, index=index, pawn=pawn)


def end_guest(slot: int) -> Move:
    return Move("end_guest", player=0, slot=slot)


# -- A. Open Cinema --------------------------------------------------------------------------


@pytest.mark.parametrize(("audience", "count"), [(0, 3), (1, 4), (2, 4), (3, 5), (4, 5),
                                                 (5, 6), (6, 6), (7, 6), (8, 7)])
def test_draw_as_many_guests_as_the_audience_track_shows(audience: int, count: int) -> None:
    """Rulebook, Open Cinema, and clarification 24: spaces 0-8 draw 3, 4, 4, 5, 5, 6, 6, 6, 7."""
    state = showtime(audience=audience)
    assert state.showings[0].to_draw == count
    assert state.showings[1].to_draw == 3


def test_no_draw_beyond_the_audience() -> None:
    """Rulebook, Open Cinema: draw exactly the audience (DRAW_NOT_EXPECTED after that)."""
    state = showtime()
    draw(state, 0, [WHITE, WHITE2, WHITE3])
    refused(state, Move("draw_pawn", player=0, pawn=BLUE), "DRAW_NOT_EXPECTED")


def test_drawn_guest_must_come_from_your_bag() -> None:
    """Rulebook, Open Cinema: guests are drawn from your own bag (PAWN_NOT_IN_BAG)."""
    state = showtime()
    refused(state, Move("draw_pawn", player=0, pawn=RED2), "PAWN_NOT_IN_BAG")  # exit zone
    refused(state, Move("draw_pawn", player=0, pawn=5), "PAWN_NOT_IN_BAG")  # Bob's bag
    assert {m.pawn for m in state.chance_outcomes(0)} == set(bag(state, 0))


def test_bag_is_refilled_only_when_a_draw_is_due() -> None:
    """Rulebook, Fill your bag (the example): drawing 4 with 2 in the bag, draw 2, pour the exit
    zone into the bag, then draw 2 more."""
    state = dealt_game(2, starting=("rosebud", "its_my_war"))
    state.players[0].audience = 1
    for pawn in bag(state, 0)[2:]:
        put(state, pawn, P.exit_zone(0))
    end_turns(state)
    first_two = bag(state, 0)
    draw(state, 0, first_two)
    assert bag(state, 0) and exit_zone(state, 0) == []
    assert len(bag(state, 0)) == 12
    draw(state, 0, [RED2, BLUE])
    assert state.showings[0].to_draw == 0


def test_empty_bag_is_not_refilled_when_no_draw_is_due() -> None:
    """Rulebook, Fill your bag: only refill when you must draw and the bag is empty, never
    before."""
    state = dealt_game(2, starting=("rosebud", "its_my_war"))
    for pawn in bag(state, 0)[3:]:
        put(state, pawn, P.exit_zone(0))
    end_turns(state)
    draw(state, 0, bag(state, 0))
    assert bag(state, 0) == [] and len(exit_zone(state, 0)) == 11


def test_too_few_guests_means_drawing_fewer() -> None:
    """Clarification 14: if there are still too few guests after the refill, draw fewer."""
    state = dealt_game(2, starting=("rosebud", "its_my_war"))
    for pawn in bag(state, 0)[1:] + exit_zone(state, 0)[1:]:
        put(state, pawn, P.BOX)
    end_turns(state)
    draw(state, 0, bag(state, 0))
    draw(state, 0, bag(state, 0))
    assert state.showings[0].to_draw == 0 and len(state.pawns_at(P.hand(0))) == 2


# -- B. Place Guests -------------------------------------------------------------------------


def test_place_only_after_drawing_everyone() -> None:
    """Rulebook, Place Guests: after drawing your guests, place them (DRAW_NOT_DONE)."""
    state = showtime()
    draw(state, 0, [WHITE])
    refused(state, Move("place", player=0, pawn=WHITE, slot=0, seat=0), "DRAW_NOT_DONE")
    refused(state, Move("to_exit", player=0, pawn=WHITE), "DRAW_NOT_DONE")


def test_only_drawn_guests_are_placed() -> None:
    """Rulebook, Place Guests: you place the guests you drew (PAWN_NOT_DRAWN)."""
    state = showtime()
    draw(state, 0, [WHITE, WHITE2, WHITE3])
    refused(state, Move("place", player=0, pawn=BLUE, slot=0, seat=0), "PAWN_NOT_DRAWN")
    refused(state, Move("to_exit", player=0, pawn=BLUE), "PAWN_NOT_DRAWN")


def test_guests_sit_only_in_theaters_showing_a_movie() -> None:
    """Rulebook, Place Guests: you may only place guests in theaters showing a movie."""
    state = showtime()
    draw(state, 0, [WHITE, WHITE2, WHITE3])
    refused(state, Move("place", player=0, pawn=WHITE, slot=1, seat=0), "THEATER_HAS_NO_MOVIE")
    refused(state, Move("place", player=0, pawn=WHITE, slot=2, seat=0), "THEATER_HAS_NO_MOVIE")
    refused(state, Move("place", player=0, pawn=WHITE, slot=0, seat=1), "NO_SUCH_SEAT")
    refused(state, Move("place", player=0, pawn=WHITE, slot=3, seat=0), "NO_SUCH_SLOT")


def test_seats_fill_in_order() -> None:
    """Rulebook, Place Guests: in each theater, place guests in seat order (#1, then #2)."""
    state = showtime(movies={1: "henrietta"})
    draw(state, 0, [WHITE, WHITE2, WHITE3])
    refused(state, Move("place", player=0, pawn=WHITE, slot=1, seat=1), "SEAT_ORDER")
    play(state, Move("place", player=0, pawn=WHITE, slot=1, seat=0))
    refused(state, Move("place", player=0, pawn=WHITE2, slot=1, seat=0), "SEAT_ORDER")


def test_no_need_to_fill_a_theater_before_another() -> None:
    """Rulebook, Place Guests: you do not have to fill a theater before seating in another."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (WHITE, 1, 0), (WHITE2, 0, 0), (WHITE3, 1, 1))
    assert state.occupant(0, 1, 1) == WHITE3


def test_extra_guests_go_to_the_exit_only_when_seats_are_full() -> None:
    """Rulebook, Place Guests: extra guests go to the exit zone when no seat is left;
    clarification 15: never while a seat is free (SEAT_AVAILABLE)."""
    state = showtime()
    draw(state, 0, [WHITE, WHITE2, WHITE3])
    refused(state, Move("to_exit", player=0, pawn=WHITE), "SEAT_AVAILABLE")
    play(state, Move("place", player=0, pawn=WHITE, slot=0, seat=0))
    assert {m.kind for m in state.legal_moves(0)} == {"to_exit"}
    play(state, Move("to_exit", player=0, pawn=WHITE2), Move("to_exit", player=0, pawn=WHITE3))
    assert {WHITE2, WHITE3} <= set(exit_zone(state, 0))


def test_guests_act_only_after_all_are_placed() -> None:
    """Rulebook, Place Guests: once all guests are placed, continue to Seat and Movie Actions
    (PLACEMENT_NOT_DONE)."""
    state = showtime(movies={1: "henrietta"})
    draw(state, 0, [WHITE, WHITE2, WHITE3])
    play(state, Move("place", player=0, pawn=WHITE, slot=0, seat=0))
    refused(state, end_guest(0), "PLACEMENT_NOT_DONE")
    refused(state, act("seat_action", 0), "PLACEMENT_NOT_DONE")


# -- C. Seat and Movie Actions ---------------------------------------------------------------


def test_finish_a_theater_before_another() -> None:
    """Rulebook, Seat and Movie Actions: activate all guests of one theater, in seat order,
    before moving to any other theater (clarification 16)."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (WHITE, 1, 0), (WHITE2, 1, 1), (WHITE3, 0, 0))
    play(state, end_guest(1))
    assert state.showings[0].active == 1 and state.showings[0].cursor == 1
    refused(state, end_guest(0), "THEATER_NOT_FINISHED")
    refused(state, act("seat_action", 0), "THEATER_NOT_FINISHED")


def test_theater_without_guests_has_nobody_to_act() -> None:
    """Rulebook, Seat and Movie Actions: only seated guests are activated (NO_GUEST_TO_ACT)."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (WHITE, 0, 0), (WHITE2, 1, 0), (WHITE3, 1, 1))
    refused(state, end_guest(2), "NO_GUEST_TO_ACT")
    refused(state, end_guest(3), "NO_SUCH_SLOT")


def test_guest_moves_to_the_exit_after_acting() -> None:
    """Rulebook, Exit: after activating each guest, move them to your exit zone."""
    state = showtime()
    seat(state, (WHITE, 0, 0))
    play(state, end_guest(0))
    assert state.loc[WHITE] == P.exit_zone(0) and state.showings[0].activated[0]


def test_guest_with_nothing_left_to_do_leaves_by_itself() -> None:
    """Rulebook, Seat and Movie Actions: you are never required to take an action; a guest
    with no possible action goes to the exit."""
    state = showtime(theaters={1: "two_seat_red_red"}, movies={1: "henrietta"})
    seat(state, (WHITE, 1, 0), (WHITE2, 1, 1), (WHITE3, 0, 0))
    play(state, end_guest(1))  # white guest 2 cannot use a red seat nor a blue movie
    assert state.loc[WHITE2] == P.exit_zone(0) and state.showings[0].activated[1]


def test_grey_seat_action_for_any_guest_including_white() -> None:
    """Rulebook, Seat Actions: actions on grey seats may be taken by any guest, white included."""
    state = showtime()
    seat(state, (WHITE, 0, 0))
    play(state, act("seat_action", 0))  # default seat: $1
    assert state.players[0].money == 6


def test_colored_seat_action_only_for_that_color() -> None:
    """Rulebook, Seat Actions: red, green, yellow and blue seat actions only for a guest of the
    same color (SEAT_COLOR)."""
    state = showtime(theaters={0: "one_seat_red_2_popcorn"})
    seat(state, (WHITE, 0, 0))
    refused(state, act("seat_action", 0), "SEAT_COLOR")
    other = showtime(theaters={0: "one_seat_red_2_popcorn"})
    seat(other, (BLUE, 0, 0))
    refused(other, act("seat_action", 0), "SEAT_COLOR")
    third = showtime(theaters={0: "one_seat_red_2_popcorn"})
    seat(third, (RED, 0, 0))
    play(third, act("seat_action", 0))
    assert third.players[0].popcorn == 2


def test_one_seat_action_per_guest_and_before_the_movie_action() -> None:
    """Rulebook, Seat and Movie Actions: a guest takes 1 seat action, then 1 movie action, in
    that order (SEAT_ACTION_TAKEN)."""
    state = showtime(theaters={0: "one_seat_blue_3_money"})
    seat(state, (BLUE, 0, 0))
    play(state, act("seat_action", 0))
    refused(state, act("seat_action", 0), "SEAT_ACTION_TAKEN")
    other = showtime(theaters={0: "one_seat_blue_3_money"})
    seat(other, (BLUE, 0, 0))
    play(other, act("movie_action", 0, index=2))  # the seat action is skipped for good
    assert other.loc[BLUE] == P.exit_zone(0) and other.players[0].money == 5 + 2


def test_movie_action_only_for_a_guest_of_the_movie_color() -> None:
    """Rulebook, Movie Actions: a guest may take a movie action only if the movie matches their
    color; white guests never (MOVIE_COLOR)."""
    state = showtime()
    seat(state, (WHITE, 0, 0))
    refused(state, act("movie_action", 0, index=2), "MOVIE_COLOR")
    other = showtime()
    seat(other, (RED, 0, 0))
    refused(other, act("movie_action", 0, index=2), "MOVIE_COLOR")
    third = showtime()
    seat(third, (BLUE, 0, 0))
    play(third, act("movie_action", 0, index=2))  # Rosebud: $2
    assert third.players[0].money == 7


def test_one_movie_action_per_guest() -> None:
    """Rulebook, Seat and Movie Actions: 1 movie action per guest, then the guest moves to the
    exit (so MOVIE_ACTION_TAKEN cannot happen: nobody is left to act)."""
    state = showtime()
    seat(state, (BLUE, 0, 0))
    play(state, act("movie_action", 0, index=2))
    assert state.loc[BLUE] == P.exit_zone(0)
    refused(state, act("movie_action", 0, index=1), "NO_GUEST_TO_ACT")


def test_each_movie_action_once_per_round() -> None:
    """Rulebook, Movie Actions note and clarification 5: each movie action on a card only once
    per round; several guests must pick different actions (MOVIE_ACTION_USED)."""
    state = showtime(movies={1: "henrietta"})  # none, $2, ad_blue, ad_white
    seat(state, (BLUE, 1, 0), (BLUE2, 1, 1), (WHITE, 0, 0))
    play(state, act("movie_action", 1, index=1))  # guest 1 leaves: guest 2 acts
    refused(state, act("movie_action", 1, index=1), "MOVIE_ACTION_USED")
    play(state, act("movie_action", 1, index=2))
    assert state.players[0].used[1] == {1, 2}


def test_any_uncovered_action_may_be_chosen() -> None:
    """Clarification 5: any uncovered, unused action may be chosen; the top one is not required."""
    state = showtime()
    seat(state, (BLUE, 0, 0))
    options = {m.index for m in state.legal_moves(0) if m.kind == "movie_action"}
    assert options == {0, 1, 2}


def test_covered_action_is_not_available() -> None:
    """Rulebook, Movie Actions note: the slider covers actions, making them unavailable
    (MOVIE_ACTION_COVERED); the movie has no action past its last (BAD_ACTION_INDEX)."""
    state = dealt_game(2, starting=("rosebud", "its_my_war"))
    state.players[0].covered[0] = 1
    end_turns(state)
    seat(state, (BLUE, 0, 0))
    refused(state, act("movie_action", 0, index=2), "MOVIE_ACTION_COVERED")
    refused(state, act("movie_action", 0, index=3), "BAD_ACTION_INDEX")
    refused(state, act("movie_action", 0), "BAD_ACTION_INDEX")


def test_negative_action_index_cannot_reach_a_covered_action() -> None:
    """Rulebook, Movie Actions note: a covered action is unavailable, whatever the index says."""
    state = dealt_game(2, starting=("rosebud", "its_my_war"))
    state.players[0].covered[0] = 1
    end_turns(state)
    seat(state, (BLUE, 0, 0))
    refused(state, act("movie_action", 0, index=-1), "BAD_MOVE")


def test_blank_action_cannot_be_taken() -> None:
    """Clarification 3: a $0 movie's blank top slot is no action (ACTION_NOT_USABLE)."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (BLUE, 1, 0))
    refused(state, act("movie_action", 1, index=0), "ACTION_NOT_USABLE")


def test_movie_action_seat_gives_a_second_movie_action() -> None:
    """Rulebook, Seat and Movie Actions example and clarification 16: a grey "movie action"
    seat gives a guest of the movie's color a first movie action, and its color a second."""
    state = showtime(movies={1: "henrietta"})  # default center: seat #2 grey movie_action
    seat(state, (WHITE, 1, 0), (BLUE, 1, 1), (WHITE2, 0, 0))
    play(state, end_guest(1))
    play(state, act("seat_action", 1, index=1), act("movie_action", 1, index=2))
    assert state.players[0].money == 5 + 2 and state.board == [(0, "blue", 1)]
    assert state.players[0].used[1] == {1, 2}


def test_movie_action_seat_works_for_a_white_guest() -> None:
    """Clarification 16: a movie_action seat gives a movie action to any guest allowed on it."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (WHITE, 1, 0), (WHITE2, 1, 1), (WHITE3, 0, 0))
    play(state, end_guest(1))
    refused(state, act("movie_action", 1, index=2), "MOVIE_COLOR")
    play(state, act("seat_action", 1, index=1))
    assert state.players[0].money == 7


def test_movie_action_seat_cannot_reuse_an_action() -> None:
    """Rulebook, Movie card icon: use 1 available movie action not used yet this round."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (BLUE, 1, 0), (WHITE, 1, 1), (WHITE2, 0, 0))
    play(state, act("movie_action", 1, index=1))
    refused(state, act("seat_action", 1, index=1), "MOVIE_ACTION_USED")


# -- Action descriptions ---------------------------------------------------------------------


def test_advertising_action_needs_a_token_in_supply() -> None:
    """Rulebook, Megaphone icon and clarification 5: place 1 of your tokens on the space; an
    ad_* action cannot be chosen with no token left (NO_TOKEN_LEFT)."""
    state = showtime()
    seat(state, (BLUE, 0, 0))
    state.players[0].tokens = 0
    refused(state, act("movie_action", 0, index=1), "NO_TOKEN_LEFT")
    assert all(m.index != 1 for m in state.legal_moves(0) if m.kind == "movie_action")
    state.players[0].tokens = 1
    play(state, act("movie_action", 0, index=1))
    assert state.board == [(0, "blue", 1)] and state.players[0].tokens == 0


def test_tokens_share_a_space_without_limit() -> None:
    """Rulebook, Megaphone icon: there is no limit to the number of tokens on the same space."""
    state = showtime(movies={1: "henrietta"})
    state.board = [(1, "blue", 1), (0, "blue", 1)]
    state.players[0].tokens = 2
    seat(state, (BLUE, 0, 0), (BLUE2, 1, 0))
    play(state, act("movie_action", 0, index=1), act("movie_action", 1, index=2))
    assert state.board == [(1, "blue", 1), *[(0, "blue", 1)] * 3]


def test_exit_to_bag_takes_a_guest_from_your_exit_zone() -> None:
    """Rulebook, Action Descriptions and clarification 18: choose 1 guest in your exit zone and
    add it to your bag."""
    state = showtime(movies={1: "the_fury_of_the_serpent"})  # exit_to_bag first
    seat(state, (RED, 1, 0))
    refused(state, act("movie_action", 1, index=0, pawn=BLUE2), "PAWN_NOT_IN_EXIT")
    refused(state, act("movie_action", 1, index=0, pawn=23), "PAWN_NOT_IN_EXIT")  # Bob's
    refused(state, act("movie_action", 1, index=0), "BAD_MOVE")
    play(state, act("movie_action", 1, index=0, pawn=RED2))
    assert state.loc[RED2] == P.bag(0)


def test_guest_to_reserve_from_a_seat_or_the_exit_zone() -> None:
    """Rulebook, Action Descriptions and clarification 18: choose 1 guest in your cinema (in a
    theater or your exit zone, not your bag), white ones included, and place it in the
    reserve."""
    state = showtime(theaters={0: "one_seat_green_reserve"}, movies={1: "henrietta"})
    seat(state, (GREEN, 0, 0), (WHITE, 1, 0), (WHITE2, 1, 1))
    refused(state, act("seat_action", 0, pawn=BLUE2), "PAWN_NOT_IN_CINEMA")  # in the bag
    refused(state, act("seat_action", 0, pawn=23), "PAWN_NOT_IN_CINEMA")  # Bob's exit zone
    play(state, act("seat_action", 0, pawn=WHITE2))
    assert state.loc[WHITE2] == P.RESERVE
    other = showtime(theaters={0: "one_seat_green_reserve"})
    seat(other, (GREEN, 0, 0))
    play(other, act("seat_action", 0, pawn=RED2))
    assert other.loc[RED2] == P.RESERVE


def test_award_action_draws_two_keeps_one() -> None:
    """Rulebook, Award ribbon icon: draw 2 awards, keep 1, place the other under the deck."""
    state = showtime(movies={1: "big_spenders"})  # award_draw last
    seat(state, (BLUE, 1, 0))
    play(state, act("movie_action", 1, index=3))
    play(state, Move("draw_award", player=0, card="guest_count"),
         Move("draw_award", player=0, card="three_seat_theaters"))
    refused(state, end_guest(1), "PENDING_STEP")
    play(state, Move("keep_award", player=0, card="three_seat_theaters"))
    assert state.players[0].awards[-1] == "three_seat_theaters"
    assert state.award_queue[-1] == "guest_count"


def test_award_action_with_an_empty_deck_is_not_usable() -> None:
    """Rulebook, Award ribbon icon: with no award card left, the action does nothing."""
    state = showtime(movies={1: "big_spenders"})
    seat(state, (BLUE, 1, 0))
    state.award_pool, state.award_queue = [], []
    refused(state, act("movie_action", 1, index=3), "ACTION_NOT_USABLE")


@pytest.mark.parametrize(("start", "money", "popcorn"), [(0, 0, 0), (1, 2, 0), (3, 3, 0),
                                                         (6, 0, 3), (8, 0, 1)])
def test_audience_track_bonuses(start: int, money: int, popcorn: int) -> None:
    """Rulebook, Audience Track, clarification 24 and the settled audience point: entering
    space 2 gives $2, space 4 $3, space 7 gives 3 Popcorn; on the last space (draw 7) each +1
    gives 1 Popcorn instead."""
    state = showtime(audience=start)
    seat(state, (BLUE, 0, 0))
    play(state, act("movie_action", 0, index=0))  # Rosebud: +1 audience
    ps = state.players[0]
    assert ps.audience == min(start + 1, 8)
    assert (ps.money - 5, ps.popcorn) == (money, popcorn)


def test_audience_space_6_draws_an_award() -> None:
    """Rulebook, Audience Track and clarification 24: space 6 gives the award action."""
    state = showtime(audience=5)
    seat(state, (BLUE, 0, 0))
    play(state, act("movie_action", 0, index=0))
    assert state.players[0].audience == 6
    assert state.tasks[0].kind == "award" and state.tasks[0].player == 0


def test_audience_is_drawn_from_the_next_showing() -> None:
    """Settled by the English rulebook, audience track: from space 5 to the $3 space you take
    $3 and keep drawing 5 until you reach space 6."""
    state = showtime(audience=3)
    seat(state, (BLUE, 0, 0))
    play(state, act("movie_action", 0, index=0))
    assert state.players[0].audience == 4 and state.draw_value(0) == 5
    assert state.players[0].money == 5 + 3


# -- draw_guest_to_seat ----------------------------------------------------------------------

DRAW_THEATER = {2: "three_seat_red_grey_grey"}
"""Seat #1 red: draw a guest to a seat; #2 grey: movie action; #3 grey: 1 Popcorn."""
DRAW_MOVIE = {2: "the_man_with_the_money"}  # red


def drawn(state: GameState, pawn: int) -> None:
    """The table reports the guest drawn for a draw-guest-to-seat action."""
    play(state, Move("draw_pawn", player=0, pawn=pawn))


def test_draw_guest_replaces_an_unactivated_guest() -> None:
    """Rulebook, Guest with arrow from bag to seat: draw 1 guest and place it on a seat not yet
    activated; the replaced guest goes to your exit zone (clarification 17)."""
    state = showtime(DRAW_THEATER, DRAW_MOVIE)
    seat(state, (RED, 2, 0), (WHITE, 2, 1), (WHITE2, 0, 0))
    play(state, act("seat_action", 2))
    assert state.tasks[0].kind == "draw_seat"
    refused(state, Move("draw_pawn", player=0, pawn=RED2), "PAWN_NOT_IN_BAG")
    drawn(state, YELLOW)
    refused(state, Move("place", player=0, pawn=WHITE3, slot=2, seat=1), "PAWN_NOT_DRAWN")
    play(state, Move("place", player=0, pawn=YELLOW, slot=2, seat=1))
    assert state.occupant(0, 2, 1) == YELLOW and state.loc[WHITE] == P.exit_zone(0)


def test_draw_guest_can_go_to_another_unactivated_theater() -> None:
    """Clarification 17: any seat of a theater not yet activated is eligible."""
    state = showtime(DRAW_THEATER, DRAW_MOVIE)
    seat(state, (RED, 2, 0), (WHITE, 0, 0), (WHITE2, 2, 1))
    play(state, act("seat_action", 2))
    drawn(state, YELLOW)
    play(state, Move("place", player=0, pawn=YELLOW, slot=0, seat=0))
    assert state.loc[WHITE] == P.exit_zone(0)


def test_drawn_guest_acts_in_turn() -> None:
    """Clarification 17: a guest placed later in the theater being resolved acts in its turn."""
    state = showtime(DRAW_THEATER, DRAW_MOVIE)
    seat(state, (RED, 2, 0), (WHITE, 2, 1), (WHITE2, 0, 0))
    play(state, act("seat_action", 2))
    drawn(state, YELLOW)
    play(state, Move("place", player=0, pawn=YELLOW, slot=2, seat=2))
    play(state, end_guest(2), end_guest(2))
    assert state.showings[0].cursor == 2
    play(state, act("seat_action", 2))
    assert state.players[0].popcorn == 1


def test_draw_guest_never_to_an_activated_seat() -> None:
    """Rulebook, Guest with arrow from bag to seat: only a seat that hasn't yet been activated,
    in seat order (SEAT_NOT_ELIGIBLE); another seat is free, so no exit (SEAT_AVAILABLE)."""
    state = showtime(DRAW_THEATER, DRAW_MOVIE)
    seat(state, (WHITE, 0, 0), (RED, 2, 0))
    play(state, end_guest(0), act("seat_action", 2))
    drawn(state, YELLOW)
    refused(state, Move("place", player=0, pawn=YELLOW, slot=0, seat=0), "SEAT_NOT_ELIGIBLE")
    refused(state, Move("place", player=0, pawn=YELLOW, slot=2, seat=0), "SEAT_NOT_ELIGIBLE")
    refused(state, Move("place", player=0, pawn=YELLOW, slot=2, seat=2), "SEAT_NOT_ELIGIBLE")
    refused(state, Move("to_exit", player=0, pawn=YELLOW), "SEAT_AVAILABLE")
    refused(state, end_guest(2), "PENDING_STEP")


def test_draw_guest_with_no_seat_left_goes_to_the_exit() -> None:
    """Clarification 17: if no eligible seat exists, the drawn guest goes to the exit zone."""
    state = showtime({0: "one_seat_yellow_draw_guest"}, {0: "modern_love"})
    seat(state, (YELLOW, 0, 0))
    play(state, act("seat_action", 0))
    drawn(state, WHITE)
    assert state.legal_moves(0) == [Move("to_exit", player=0, pawn=WHITE)]
    play(state, Move("to_exit", player=0, pawn=WHITE))
    assert state.loc[WHITE] == P.exit_zone(0) and state.tasks == []


def test_draw_guest_refills_an_empty_bag_first() -> None:
    """Clarification 17: if the bag is empty, refill it from the exit zone first."""
    state = showtime({0: "one_seat_yellow_draw_guest"}, {0: "modern_love"})
    seat(state, (YELLOW, 0, 0))
    for pawn in bag(state, 0):
        put(state, pawn, P.exit_zone(0))
    play(state, act("seat_action", 0))
    assert exit_zone(state, 0) == [] and RED2 in bag(state, 0)
    assert {m.pawn for m in state.chance_outcomes(0)} == set(bag(state, 0))


def test_draw_guest_with_no_guest_anywhere_is_not_usable() -> None:
    """Rulebook, Action Descriptions: with an empty bag and exit zone there is no guest to draw."""
    state = showtime({0: "one_seat_yellow_draw_guest"}, {0: "modern_love"})
    seat(state, (YELLOW, 0, 0))
    for pawn in bag(state, 0) + exit_zone(state, 0):
        put(state, pawn, P.BOX)
    refused(state, act("seat_action", 0), "ACTION_NOT_USABLE")


def test_draw_guest_to_a_later_empty_seat_after_an_earlier_guest_left() -> None:
    """Clarification 17: the drawn guest may take a later seat of the theater being resolved,
    even after the guest of seat #1 has left for the exit zone."""
    state = showtime({2: "three_seat_blue_grey_grey"}, {2: "me"})  # me: draw_guest_to_seat #2
    seat(state, (BLUE, 2, 0), (BLUE2, 2, 1), (WHITE, 0, 0))
    play(state, end_guest(2), act("movie_action", 2, index=2))
    drawn(state, WHITE2)
    assert Move("place", player=0, pawn=WHITE2, slot=2, seat=2) in state.legal_moves(0)
    play(state, Move("place", player=0, pawn=WHITE2, slot=2, seat=2))


# -- Simultaneous play and the end of the phase ----------------------------------------------


def test_players_play_the_showings_at_the_same_time() -> None:
    """Rulebook, Phase 2: this phase may be completed by all players simultaneously."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (WHITE, 1, 0), (WHITE2, 1, 1), (WHITE3, 0, 0))
    play(state, end_guest(1))
    draw(state, 1, bag(state, 1)[:3])
    assert state.waiting_players() == [0, 1]
    refused(state, Move("buy_movie", player=0, card=state.features[0], slot=0), "WRONG_PHASE")


def test_round_ends_when_every_theater_is_empty() -> None:
    """Rulebook, Exit: once all theaters in all cinemas are empty, go on to the End of Round."""
    state = showtime()
    seat(state, (WHITE, 0, 0))
    state.showings[1].to_draw = 1
    draw(state, 1, [5])
    play(state, Move("place", player=1, pawn=5, slot=0, seat=0), end_guest(0))
    assert state.phase == "showings"
    play(state, Move("end_guest", player=1, slot=0))
    assert state.round == 2 and state.phase == "buying"
    assert state.seated == {}


# -- F. Moves name the guest they are for ---------------------------------------------------


def named(kind: str, slot: int, at: int, index: int | None = None) -> Move:
    """Ana's activation move for the guest on seat index ``at`` of ``slot``."""
    return Move(kind, player=0, slot=slot, seat=at, index=index)


def test_a_move_for_a_later_guest_is_refused_as_out_of_turn() -> None:
    """Rulebook, Seat and Movie Actions: guests act "one by one, from seat 1"; a movie action
    aimed at seat #2's blue guest while seat #1's white guest acts is GUEST_NOT_ACTING, not
    judged against the white guest (MOVIE_COLOR)."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (WHITE, 1, 0), (BLUE, 1, 1), (WHITE2, 0, 0))
    refused(state, named("movie_action", 1, 1, index=1), "GUEST_NOT_ACTING")
    refused(state, named("end_guest", 1, 1), "GUEST_NOT_ACTING")
    play(state, named("end_guest", 1, 0))
    play(state, named("movie_action", 1, 1, index=1))
    assert state.players[0].money == 5 + 2


def test_a_seat_action_after_the_movie_action_is_refused() -> None:
    """Rulebook, Seat and Movie Actions: the seat action comes before the movie action, so a
    guest who took its movie action (and left by itself) has given up its seat action: a
    seat action sent for it is SEAT_ACTION_TAKEN, and the next guest is untouched."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (BLUE, 1, 0), (BLUE2, 1, 1), (WHITE, 0, 0))
    play(state, named("movie_action", 1, 0, index=1))
    assert state.showings[0].cursor == 1
    refused(state, named("seat_action", 1, 0), "SEAT_ACTION_TAKEN")
    assert state.occupant(0, 1, 1) == BLUE2 and not state.showings[0].seat_taken


def test_a_move_for_a_guest_who_has_left_is_refused() -> None:
    """Rulebook, Seat and Movie Actions: "then move the Guest to your exit zone"; a guest who has
    left does nothing more (GUEST_LEFT), also once its whole theater is done; a second movie
    action for the guest who just took one is MOVIE_ACTION_TAKEN."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (BLUE, 0, 0), (WHITE, 1, 0), (WHITE2, 1, 1))
    play(state, named("movie_action", 0, 0, index=2))  # Rosebud: $2; the theater is done
    refused(state, named("movie_action", 0, 0, index=1), "MOVIE_ACTION_TAKEN")
    refused(state, named("end_guest", 0, 0), "GUEST_LEFT")
    play(state, named("end_guest", 1, 0))
    refused(state, named("end_guest", 1, 0), "GUEST_LEFT")
    play(state, named("end_guest", 1, 1))
    refused(state, named("movie_action", 0, 0, index=1), "GUEST_LEFT")  # no longer the last


def test_a_movie_action_for_a_white_guest_who_left_by_itself() -> None:
    """Rulebook, Seat and Movie Actions: a guest takes a movie action only of its own color; a
    white guest who took its grey seat action has nothing left and leaves by itself, and a
    movie action still sent for it is MOVIE_COLOR, not a move of the next guest."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (WHITE, 0, 0), (BLUE, 1, 0))
    play(state, named("seat_action", 0, 0))  # default seat: $1; nothing left: it leaves
    assert state.showings[0].active == -1
    refused(state, named("movie_action", 0, 0, index=2), "MOVIE_COLOR")


def test_a_move_must_name_a_seat_with_a_guest() -> None:
    """Rulebook, Seat and Movie Actions: only seated guests act; an empty seat is
    NO_GUEST_TO_ACT, a seat the theater lacks NO_SUCH_SEAT, no seat at all BAD_MOVE."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (WHITE, 1, 0), (WHITE2, 0, 0))
    refused(state, named("end_guest", 1, 1), "NO_GUEST_TO_ACT")
    refused(state, named("end_guest", 1, 2), "NO_SUCH_SEAT")
    with pytest.raises(Violation) as caught:
        state.apply(Move("end_guest", player=0, slot=1))
    assert caught.value.code == "BAD_MOVE"


def test_listed_activation_moves_name_the_acting_guest() -> None:
    """Rulebook, Seat and Movie Actions: the moves offered are those of the guest whose turn it
    is, and each names its seat."""
    state = showtime(movies={1: "henrietta"})
    seat(state, (WHITE, 1, 0), (BLUE, 1, 1), (WHITE2, 0, 0))
    play(state, named("end_guest", 1, 0))
    acting = [m for m in state.legal_moves(0)]
    assert acting and all(m.slot == 1 and m.seat == 1 for m in acting)
