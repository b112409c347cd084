"""Popcorn's reading of guests set down together on a mat's theater (issue 40, item 4),
pure: the orders offered are those that seat another color somewhere, each seating every
guest on the state the ones before it leave; look-alikes never make another option."""

from __future__ import annotations

from companion.games.popcorn.engine import GameState, Move
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.mats import read_zone
from companion.games.popcorn.order_choice import OrderChoice
from companion.games.popcorn.table_state import play
from companion.kit.game import Piece, Relabel, Sensed, ZoneChange
from tests.engine.positions import bag, color_in, dealt_game, draw, end_turns

SLOT = 1


def three_seats(colors: list[str]) -> tuple[GameState, int, list[int]]:
    """A first Showings whose current player shows a movie in a three-seat theater (slot 1)
    and has drawn one guest of each of ``colors``: the state, the player, the guests."""
    state = dealt_game(2)
    end_turns(state)
    player = state.current
    state.players[player].theaters[SLOT] = "three_seat_red_grey_grey"
    state.players[player].movies[SLOT] = state.players[player].movies[0]
    guests: list[int] = []
    for color in colors:
        guests.append(next(p for p in color_in(state, bag(state, player), color)
                           if p not in guests))
    rest = [p for p in bag(state, player) if p not in guests]
    draw(state, player, (guests + rest)[:state.draw_value(player)])
    return state, player, guests


def set_down(player: int, guests: list[int]) -> ZoneChange:
    """The guests set down together on theater ``SLOT``'s zone, in this order."""
    sensed = tuple(Sensed(f"uid-{g}", Piece("pawn", g, game="popcorn")) for g in guests)
    return ZoneChange(player, SLOT, (), sensed)


def test_three_guests_two_alike_offer_the_three_orders_of_colors() -> None:
    """A white, a blue, a white: three orders of colors, the one read first and played."""
    state, player, guests = three_seats(["white", "blue", "white"])
    [choice] = read_zone(state, set_down(player, guests))
    assert isinstance(choice, OrderChoice) and choice.suggested(True) == 0
    assert choice.orders == (("white", "blue", "white"), ("white", "white", "blue"),
                             ("blue", "white", "white"))
    shown = choice.to_dict()
    assert (shown["kind"], shown["player"], shown["slot"], shown["seat"]) == \
        ("order", player, SLOT, 0)
    assert [[m["seat"] for m in option] for option in shown["moves"]] == [[0, 1, 2]] * 3
    assert [m["pawn"] for m in shown["moves"][0]] == guests
    trial = state.clone()
    for step in choice.moves[2].steps():  # each option plays whole, in order
        assert isinstance(step, Relabel) and isinstance(step.move, Move)
        play(trial, step.move, {"relabel": step.swaps, "seen": step.seen})
    assert [trial.pawn_color[trial.occupant(player, SLOT, i) or 0] for i in range(3)] == \
        ["blue", "white", "white"]
    assert trial.pawns_at(P.hand(player)) == []


def test_guests_of_one_color_are_seated_in_turn_with_no_choice() -> None:
    """Three white guests: each placed in the next seat, the second on the state the first
    left (no seat-order refusal), and nothing to choose."""
    state, player, guests = three_seats(["white", "white", "white"])
    results = read_zone(state, set_down(player, guests))
    assert [type(r) for r in results] == [Relabel] * 3
    assert [r.move.seat for r in results if isinstance(r, Relabel) and r.move] == [0, 1, 2]
