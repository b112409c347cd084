"""Rule tests for Phase 3, End of Round, and the End of the Game (rulebook pages 10-12,
clarifications 2-4, 10, 19-23 and the points settled by the English rulebook).

Every test names the rule it checks in its docstring. Rounds are played through real moves:
everyone passes in the Buying phase and every guest leaves without acting.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.popcorn.engine import (
    GameState,
    Move,
    final_position,
    final_positions,
    score_game,
)
from companion.games.popcorn.engine import pawns as P
from tests.engine.positions import (
    CATALOG,
    dealt_game,
    draw,
    end_turns,
    play,
    put,
    refused,
    showings,
)

FEATURES = ("the_man_with_the_money", "barbacus", "mister_giggles")
PREMIERS = ("joe_joe", "the_kids", "final_lasso")




def reveal(state: GameState, cards: tuple[str, ...] = ()) -> None:
    """The table reveals ``cards`` in order for the pending refills, then the first ones."""
    wanted = list(cards)
    while state.tasks and state.tasks[0].kind in ("lineup", "theater") and state.chance_outcomes():
        outcomes = state.chance_outcomes()
        pick = [m for m in outcomes if wanted and m.card == wanted[0]]
        if wanted:
            assert pick, f"{wanted[0]} cannot be revealed now"
            wanted.pop(0)
        state.apply((pick or outcomes)[0])


def finish_round(state: GameState, cards: tuple[str, ...] = ()) -> None:
    """Everyone passes, the Showings are played out, and the new lineup is revealed."""
    reveal(state)
    end_turns(state)
    showings(state)
    reveal(state, cards)


# -- Theatrical Run --------------------------------------------------------------------------


def test_theatrical_run_covers_one_more_action_each_round() -> None:
    """Rulebook, Theatrical Run, and clarification 3: each End of Round the slider covers one
    more action; a starting movie shows 3, then 2, 1 and 0 actions."""
    state = dealt_game(2)
    seen = [state.visible_actions(0, 0)]
    for _ in range(4):
        finish_round(state)
        seen.append(state.visible_actions(0, 0))
    assert seen == [3, 2, 1, 0, 0]


def test_bought_movie_is_fully_available_in_its_first_round() -> None:
    """Clarification 2: the round a movie is bought counts as its first, with all 4 actions;
    the bottom one is covered first."""
    state = dealt_game(2, features=("joe_joe", *FEATURES[:2]))
    play(state, Move("buy_movie", player=0, card="joe_joe", slot=1))
    end_turns(state)
    assert state.visible_actions(0, 1) == 4
    showings(state)
    assert state.visible_actions(0, 1) == 3 and state.players[0].covered[1] == 1


def test_movie_with_every_action_covered_stays_for_seat_actions() -> None:
    """Rulebook, Theatrical Run, and clarification 4: a movie with no action left keeps
    showing; guests still sit there and take seat actions, but no movie action."""
    state = dealt_game(2, starting=("rosebud", "its_my_war"))
    for _ in range(3):
        finish_round(state)
    assert state.players[0].movies[0] == "rosebud" and state.visible_actions(0, 0) == 0
    end_turns(state)
    state.showings[0].to_draw = 1
    put(state, 20, P.bag(0))
    draw(state, 0, [20])
    play(state, Move("place", player=0, pawn=20, slot=0, seat=0))
    money = state.players[0].money
    refused(state, Move("movie_action", player=0, slot=0, index=0), "MOVIE_ACTION_COVERED")
    play(state, Move("seat_action", player=0, slot=0))
    assert state.players[0].money == money + 1


def test_used_actions_are_available_again_next_round() -> None:
    """Clarification 5 and 19: used movie actions are free again next round unless covered."""
    state = dealt_game(2, starting=("rosebud", "its_my_war"))
    end_turns(state)
    state.showings[0].to_draw = 1
    draw(state, 0, [20])
    play(state, Move("place", player=0, pawn=20, slot=0, seat=0),
         Move("movie_action", player=0, slot=0, index=2))
    assert state.players[0].used[0] == {2}
    showings(state)
    reveal(state)
    assert state.players[0].used == [set(), set(), set()]
    end_turns(state)
    state.showings[0].to_draw = 1
    put(state, 20, P.bag(0))
    draw(state, 0, [20])
    play(state, Move("place", player=0, pawn=20, slot=0, seat=0))
    options = {m.index for m in state.legal_moves(0) if m.kind == "movie_action"}
    assert options == {0, 1}  # index 2 is covered now, 0 and 1 are free again


def test_empty_theater_slot_has_no_slider_to_move() -> None:
    """Rulebook, Theatrical Run: only movies showing in your theaters are affected."""
    state = dealt_game(2)
    finish_round(state)
    assert state.players[0].covered == [1, 0, 0]


# -- New Lineup ------------------------------------------------------------------------------


def test_new_lineup_discards_features_and_slides_premiers() -> None:
    """Rulebook, New Lineup, and clarification 10: Features left are returned to the box,
    remaining Premiers slide down to Features, then Features and then Premiers are refilled."""
    state = dealt_game(2, features=FEATURES, premiers=PREMIERS)
    play(state, Move("buy_movie", player=0, card="joe_joe", slot=1))  # $1 + $2
    play(state, Move("gain_pawn", player=0, pawn=state.legal_moves()[0].pawn))
    new = ("vroom_8", "me", "badman", "elite_pilot")
    finish_round(state, new)
    assert state.features == ["the_kids", "final_lasso", "vroom_8"]
    assert state.premiers == ["me", "badman", "elite_pilot"]
    everywhere = state.movie_pool + state.features + state.premiers
    assert not set(FEATURES) & set(everywhere)


def test_refill_features_before_premiers() -> None:
    """Rulebook, New Lineup: draw new movies to fill the Features row, then the Premiers row."""
    state = dealt_game(2, features=FEATURES, premiers=PREMIERS)
    reveal(state)
    end_turns(state)
    showings(state)
    assert state.features == list(PREMIERS) and state.premiers == []
    play(state, Move("reveal_movie", card="vroom_8"))
    assert state.features == list(PREMIERS) and state.premiers == ["vroom_8"]
    refused(state, Move("reveal_movie", card="rosebud"), "CARD_NOT_AVAILABLE")
    refused(state, Move("end_turn", player=1), "PENDING_STEP")


@pytest.mark.parametrize(("players", "first"), [(2, 0), (3, 2), (4, 1)])
def test_first_player_marker_passes_to_the_left(players: int, first: int) -> None:
    """Rulebook, New Lineup: pass the First Player marker to the left; the new round starts
    with that player."""
    state = dealt_game(players, first_player=first)
    finish_round(state)
    assert state.first_player == state.current == (first + 1) % players
    assert (state.round, state.phase) == (2, "buying")


def test_theater_activations_are_cleared() -> None:
    """Clarification 19a: theater activations are cleared at the End of Round."""
    state = dealt_game(2)
    finish_round(state)
    end_turns(state)
    assert [s.activated for s in state.showings] == [[False] * 3, [False] * 3]


def test_deck_running_short_leaves_fewer_premiers() -> None:
    """Rulebook, New Lineup: it is possible there will not be enough cards to fill the Premiers
    row; there are fewer choices next round."""
    state = dealt_game(3, features=FEATURES, premiers=PREMIERS)
    state.movie_pool = ["vroom_8", "me", "badman", "elite_pilot", "adrian"]
    state.above_final = 0
    state.premiers = []
    finish_round(state)
    assert state.final_revealed and state.movie_pool == []
    assert len(state.features) == 3 and len(state.premiers) == 2


# -- Final Showing and the end of the game ---------------------------------------------------


def test_final_showing_reveal_makes_the_next_round_the_last() -> None:
    """Rulebook, New Lineup and End of the Game, clarification 20 and the settled Final Showing
    point: the card is set aside when revealed, drawing goes on, and the next round is the
    last."""
    state = dealt_game(2, features=FEATURES, premiers=PREMIERS)
    state.above_final = 2
    finish_round(state)
    assert state.final_revealed and state.last_round
    assert state.round == 2 and state.phase == "buying"
    assert len(state.features) == 3 and len(state.premiers) == 3


def test_last_round_has_a_normal_buying_phase() -> None:
    """Clarification 20: the last round has a normal Buying phase and Showings phase."""
    state = dealt_game(2, features=FEATURES, premiers=PREMIERS)
    state.above_final = 2
    finish_round(state)
    moves = {m.kind for m in state.legal_moves()}
    assert {"buy_movie", "buy_theater", "end_turn"} <= moves


def test_game_ends_after_the_last_showings_without_theatrical_run() -> None:
    """Rulebook, Exit and End of the Game, clarification 20: after the last round's Showings,
    final scoring follows with no Theatrical Run and no New Lineup."""
    state = dealt_game(2, features=FEATURES, premiers=PREMIERS)
    state.above_final = 2
    finish_round(state)
    covered = [list(ps.covered) for ps in state.players]
    rows = (list(state.features), list(state.premiers))
    end_turns(state)
    showings(state)
    assert state.is_over and state.round == 2
    assert [ps.covered for ps in state.players] == covered
    assert (state.features, state.premiers) == rows
    assert state.legal_moves() == [] and state.chance_outcomes() == []
    refused(state, Move("end_turn", player=0), "GAME_OVER")


def test_final_showing_reached_through_play_two_players() -> None:
    """Clarification 20: with 2 players and no Premier bought, 28 unknown cards lie above the
    Final Showing after setup; 3 are dealt per round, so it shows in the 10th New Lineup and
    round 11 is the last."""
    state = dealt_game(2)
    while not state.final_revealed:
        assert not state.last_round
        finish_round(state)
    assert state.round == 11 and state.last_round
    assert state.deck_size() == 10 - 2  # 1 card above it, then 2 more to fill the rows
    end_turns(state)
    showings(state)
    assert state.is_over


def test_final_showing_is_revealed_only_when_drawn() -> None:
    """Rulebook, New Lineup: the Final Showing card is revealed when it is drawn, not before:
    with the rows full and no card left above it, the game goes on."""
    state = dealt_game(2, features=FEATURES, premiers=PREMIERS)
    state.above_final = 3
    finish_round(state)
    assert state.above_final == 0 and not state.final_revealed and not state.last_round
    finish_round(state)
    assert state.final_revealed and state.last_round


# -- Final scoring ---------------------------------------------------------------------------


def finished(players: int = 2) -> GameState:
    """A game played to its end (the Final Showing was put on top of the deck)."""
    state = dealt_game(players, starting=("rosebud", "its_my_war", "modern_love")[:players],
                       features=FEATURES, premiers=PREMIERS)
    state.above_final = 0
    finish_round(state)
    end_turns(state)
    showings(state)
    assert state.is_over
    return state


def test_final_position_gathers_every_guest_and_movie() -> None:
    """Rulebook, End of the Game, and clarification 22: all guests in the bag and cinema are
    gathered; movies still showing join the archive, so every movie ever owned counts."""
    state = finished()
    state.players[0].archive = ["joe_joe"]
    put(state, 25, P.seat(0, 0, 0))
    final = final_position(state, 0)
    assert sorted(final.movies) == ["joe_joe", "rosebud"]
    assert sum(final.guests.values()) == len(state.owned_pawns(0)) == 15
    assert final.guests["blue"] == 4
    assert final.audience == state.draw_value(0) == 3


def test_money_and_trophy_at_final_scoring() -> None:
    """Rulebook, End of the Game, and clarifications 21 and 25: 1 Popcorn per $5; with 2
    players only the 3-Popcorn trophy, to the highest total theater cost."""
    state = finished()
    state.players[0].money, state.players[1].money = 14, 4
    state.players[0].theaters[2] = "three_seat_blue_blue_grey"
    for ps in state.players:
        ps.awards = []
        ps.popcorn = 0
    score = score_game(CATALOG, final_positions(state))
    assert [(p.money, p.trophy, p.total) for p in score.players] == [(2, 3, 5), (0, 0, 0)]
    assert score.winners == ["Ana"]


def test_tokens_on_colored_spaces_count_as_guests() -> None:
    """Rulebook, End of the Game, Important, and clarification 21: a token on a colored space
    may count as a guest of that color for awards; a multicolor token moves to a color first."""
    state = finished()
    ps = state.players[0]
    ps.awards, ps.popcorn, ps.money = ["green_red_guest_pair"], 0, 0
    put(state, 34, P.bag(0))  # Ana owns 3 green and 2 red guests: 2 pairs
    assert score_game(CATALOG, final_positions(state)).players[0].awards == {
        "green_red_guest_pair": 4}
    state.board.append((0, "any", 2))
    assert score_game(CATALOG, final_positions(state)).players[0].awards == {
        "green_red_guest_pair": 6}


def test_tokens_count_only_when_they_help() -> None:
    """Settled by the English rulebook, virtual guests: if counted they count for all awards,
    including those asking for few guests, so the scorer may leave a token uncounted."""
    state = finished()
    ps = state.players[0]
    ps.awards, ps.popcorn, ps.money = ["guest_count"], 0, 0
    for pawn in state.owned_pawns(0)[:8]:
        put(state, pawn, P.BOX)  # 6 guests left: 5 Popcorn
    state.board.append((0, "red", 2))
    score = score_game(CATALOG, final_positions(state))
    assert score.players[0].awards == {"guest_count": 5}


def test_white_token_returns_a_white_guest_at_final_scoring() -> None:
    """Rulebook, End of the Game, and the settled virtual-guests point: a token on the white
    space may return 1 of your white guests to the reserve before the awards are revealed."""
    state = finished()
    ps = state.players[0]
    ps.awards, ps.popcorn, ps.money = ["white_guest_count"], 0, 0
    whites = [i for i in state.owned_pawns(0) if state.pawn_color[i] == "white"]
    for pawn in whites[1:]:
        put(state, pawn, P.BOX)
    assert score_game(CATALOG, final_positions(state)).players[0].awards == {
        "white_guest_count": 4}
    state.board.append((0, "white", 2))
    assert score_game(CATALOG, final_positions(state)).players[0].awards == {
        "white_guest_count": 7}


def test_tie_break_fewest_movies_then_shared() -> None:
    """Rulebook, End of the Game, clarification 23 and the settled tie-break: on a tie, the
    fewest archived movies wins; still tied, the victory is shared."""
    state = finished()
    for ps in state.players:
        ps.awards, ps.popcorn, ps.money = [], 4, 0
    assert score_game(CATALOG, final_positions(state)).winners == ["Ana", "Bob"]
    state.players[0].archive.append("joe_joe")
    assert score_game(CATALOG, final_positions(state)).winners == ["Bob"]


def test_award_seats_count_every_theater_in_the_cinema() -> None:
    """Clarification 22 and Rulebook, Awards: seats means every seat of the theaters in your
    cinema, grey seats are never a color, and the same seat may serve several awards."""
    state = finished()
    ps = state.players[0]
    ps.theaters = ["one_seat_blue_3_money", "two_seat_red_red", "three_seat_yellow_grey_grey"]
    ps.awards, ps.popcorn, ps.money = ["blue_red_seat_pair", "blue_yellow_seat_pair"], 0, 0
    awards = score_game(CATALOG, final_positions(state)).players[0].awards
    assert awards == {"blue_red_seat_pair": 3, "blue_yellow_seat_pair": 3}


def test_more_awards_than_one_may_be_held() -> None:
    """Rulebook, Awards, and clarification 22: each Award action adds a card; all of them
    score, with no limit on the number held."""
    state = finished()
    held = ("white_guest_count", "audience_6_or_more", "guest_count")
    final = replace(final_position(state, 0), awards=held)
    score = score_game(CATALOG, [final, final_position(state, 1)])
    assert tuple(score.players[0].awards) == held


@pytest.mark.parametrize(("tiles", "trophies"), [
    (("three_seat_red_grey_grey", "three_seat_blue_blue_grey", None), [5, 3, 0]),
    (("three_seat_red_grey_grey", "three_seat_yellow_grey_grey", None), [5, 5, 0]),
    (("three_seat_red_grey_grey", None, None), [5, 3, 3]),
])
def test_three_player_trophies(tiles: tuple[str | None, ...], trophies: list[int]) -> None:
    """Rulebook, End of the Game, and clarification 21: the highest theater cost gains the
    5-Popcorn trophy (all tied players do); only without a tie for first, the second highest
    gains the 3-Popcorn trophy."""
    state = finished(3)
    for p, tile in enumerate(tiles):
        state.players[p].theaters[2] = tile
    score = score_game(CATALOG, final_positions(state))
    assert [p.trophy for p in score.players] == trophies
