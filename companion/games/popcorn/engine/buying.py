"""Phase 1, Buying and Advertising: one turn per player, in turn order.

On a turn a player may buy at most one movie and at most one theater (not in the first
round), and activate their advertising tokens (not in the first round either, see
:func:`token_ready`), in any order, then ends the turn.
"""

from __future__ import annotations

from collections.abc import Callable

from . import effects as E
from .base_state import BaseState, Task
from .catalog import Theater
from .listing import listed
from .moves import Move
from .violations import Violation, require

SLOTS = (0, 1, 2)


def _my_turn(state: BaseState, move: Move) -> int:
    # Written out rather than given to require(): every Buying move passes here.
    p = move.player
    if state.phase != "buying" or p != state.current:
        _out_of_turn(state, move)
    assert p is not None
    if state.tasks:
        raise Violation("PENDING_STEP",
                        f"{state.names[p]} must first resolve: {state.tasks[0].kind}.")
    return p


def _out_of_turn(state: BaseState, move: Move) -> None:
    """Raise the violation of a Buying move made outside its player's turn.

    A player whose turn of this round is over (it may have ended by itself, see
    :func:`.flow.settle`) is told the rule the move breaks, if any, as if the turn were still
    on: a second movie is ``MOVIE_ALREADY_BOUGHT``, not ``NOT_YOUR_TURN``. A move that would
    have been legal then gets ``NOT_YOUR_TURN``, or ``WRONG_PHASE`` outside the Buying phase.
    """
    p = move.player
    if p is None or p >= state.n:
        raise Violation("BAD_MOVE", "The move names no valid player.")
    over = turn_over(state, p)
    if over:
        check = CHECKS.get(move.kind)
        if check is not None:
            check(state, move, p)
    ended = f" {state.names[p]}'s turn of this round is over." if over else ""
    if state.phase != "buying":
        raise Violation("WRONG_PHASE", f"{move.kind} belongs to the Buying phase; the game is "
                        f"in {state.phase}.{ended}")
    raise Violation("NOT_YOUR_TURN", f"It is {state.names[state.current]}'s turn to buy, "
                    f"not {state.names[p]}'s.{ended}")


def turn_over(state: BaseState, p: int) -> bool:
    """Whether player ``p`` has had their Buying turn this round (ended by a move or by itself).

    During the Showings every turn of the round is over; during setup and after the game none
    counts.
    """
    if state.phase == "showings":
        return True
    if state.phase != "buying":
        return False
    return (p - state.first_player) % state.n < state.n - state.turns_left


def _slot(move: Move) -> int:
    require(move.slot in SLOTS, "NO_SUCH_SLOT", "Cinema slots are 0 (left), 1 and 2 (right).")
    assert move.slot is not None
    return move.slot


def movie_price(state: BaseState, card: str) -> int | None:
    """What the movie costs now: its price in Features, +$2 in Premiers, None if absent."""
    movie = state.catalog.movies.get(card)
    if movie is None:
        return None
    if card in state.features:
        return movie.price
    if card in state.premiers:
        return movie.premiers_price
    return None


def apply_buy_movie(state: BaseState, move: Move) -> None:
    """Buy a movie and show it in a slot; archive the movie it replaces; take the bonus."""
    p = _my_turn(state, move)
    price = _check_buy_movie(state, move, p)
    slot, card, ps = move.slot, move.card, state.players[p]
    assert slot is not None and card is not None
    theater = state.theater(p, slot)
    assert theater is not None
    movie = state.catalog.movies[card]
    premiere = card in state.premiers
    (state.premiers if premiere else state.features).remove(card)
    ps.money -= price
    ps.bought_movie = True
    if premiere:
        state.tasks.append(Task("gain", p, color=movie.color))
    old = ps.movies[slot]
    if old:
        ps.archive.append(old)
    ps.movies[slot], ps.covered[slot], ps.used[slot] = card, 0, set()
    if movie.bonus and theater.seats == movie.bonus_seats:
        _bonus(state, p, movie.bonus)


def _check_buy_movie(state: BaseState, move: Move, p: int) -> int:
    """The price of a movie purchase that the rules allow on ``p``'s turn, else a violation."""
    slot = _slot(move)
    ps = state.players[p]
    name = state.names[p]
    require(not ps.bought_movie, "MOVIE_ALREADY_BOUGHT", lambda: f"{name} already bought a movie "
            "this turn: one movie per turn.")
    price = movie_price(state, move.card or "")
    require(price is not None, "CARD_NOT_AVAILABLE",
            lambda: f"{move.card} is not in the Features or Premiers row.")
    assert price is not None and move.card is not None
    card = move.card
    require(ps.money >= price, "NOT_ENOUGH_MONEY",
            lambda: f"{name} has ${ps.money} and {state.catalog.movies[card].title} "
            f"costs ${price}.")
    require(state.theater(p, slot) is not None, "SLOT_HAS_NO_THEATER",
            lambda: f"{name}'s right slot has no theater yet: buy a theater for it first.")
    return price


def _bonus(state: BaseState, p: int, action: str) -> None:
    if E.immediate(action):
        if E.usable(state, p, action):
            E.do_action(state, p, action)
    else:
        state.tasks.append(Task("bonus", p, action=action))


def apply_buy_theater(state: BaseState, move: Move) -> None:
    """Buy a theater tile into a slot; the replaced tile goes under its stack; refill."""
    p = _my_turn(state, move)
    tile = _check_buy_theater(state, move, p)
    slot, ps = move.slot, state.players[p]
    assert slot is not None
    state.columns[tile.seats].remove(tile.id)
    ps.money -= tile.price
    ps.bought_theater = True
    old = ps.theaters[slot]
    if old and not state.catalog.theater(old).default:
        state.theater_queue[state.catalog.theater(old).seats].append(old)
    ps.theaters[slot] = tile.id
    state.tasks.append(Task("theater", size=tile.seats))
    if slot == 2 and not ps.right_bonus_taken:
        ps.right_bonus_taken = True
        E.audience_up(state, p)


def _check_buy_theater(state: BaseState, move: Move, p: int) -> Theater:
    """The tile of a theater purchase the rules allow on ``p``'s turn, else a violation."""
    _slot(move)
    ps = state.players[p]
    name = state.names[p]
    require(state.round > 1, "FIRST_TURN_NO_THEATER",
            "No theater can be bought on your first turn.")
    require(not ps.bought_theater, "THEATER_ALREADY_BOUGHT",
            lambda: f"{name} already bought a theater this turn: one theater per turn.")
    tile = state.catalog.theaters.get(move.card or "")
    require(tile is not None and move.card in state.columns.get(tile.seats, []),
            "CARD_NOT_AVAILABLE", lambda: f"{move.card} is not in a theater column.")
    assert tile is not None
    require(ps.money >= tile.price, "NOT_ENOUGH_MONEY",
            lambda: f"{name} has ${ps.money} and the theater costs ${tile.price}.")
    return tile


def _token(state: BaseState, move: Move) -> tuple[int, int]:
    p = _my_turn(state, move)
    return p, _ready_token(state, move, p, token_ready)


def _ready_token(state: BaseState, move: Move, p: int,
                 ready: Callable[[BaseState, int], bool]) -> int:
    """The board index of ``p``'s token the move may take back, judged by ``ready``."""
    require(move.space in state.catalog.ad_spaces, "BAD_MOVE",
            lambda: f"{move.space!r} is not an advertising space.")
    mine = [i for i, (who, space, _) in enumerate(state.board)
            if who == p and space == move.space]
    require(bool(mine), "TOKEN_NOT_ON_SPACE",
            lambda: f"{state.names[p]} has no token on the {move.space} space.")
    usable = [i for i in mine if ready(state, state.board[i][2])]
    require(bool(usable), "TOKEN_NOT_READY", "Advertising tokens cannot be activated in the "
            "first round: this one can be from round 2 on.")
    if move.kind == "activate_ad":
        _check_color(state, move)
    return usable[0]


def _check_color(state: BaseState, move: Move) -> None:
    if move.space == state.catalog.multicolor_space:
        require(move.color in state.pawn_color and move.color != "white", "COLOR_REQUIRED",
                "Choose the guest color (blue, green, red or yellow) for the multicolor space.")
    else:
        require(move.color is None, "BAD_MOVE", "Only the multicolor space takes a color.")


def _check_token_out_of_turn(state: BaseState, move: Move, p: int) -> None:
    # After the turn, only round 1 says for sure that no token was ready during it.
    _ready_token(state, move, p, lambda s, placed: s.round > 1)


def token_ready(state: BaseState, placed: int) -> bool:
    """Whether a token placed in round ``placed`` may be activated on a Buying turn now.

    Never in round 1 ("On your first turn, this action is not possible"). From round 2 on, a
    token placed in an earlier round is ready, and so is one placed during this very Buying
    turn by a Showing bonus: the rulebook's Example of a round has Orson buy "French Kiss",
    place its yellow token, and take his 2nd guest with it at once. (During Buying a token of
    this round can only be the current player's, placed this turn.) A token placed during the
    Showings waits for the next Buying turn.
    """
    if state.round <= 1:
        return False
    return placed < state.round or state.phase == "buying"


def apply_activate_ad(state: BaseState, move: Move) -> None:
    """Take a token back from the board and apply its space's effect."""
    p, index = _token(state, move)
    space = move.space
    assert space is not None
    color = move.color if space == state.catalog.multicolor_space else space
    del state.board[index]
    state.players[p].tokens += 1
    state.tasks.append(Task("gain", p, color=color))


def apply_take_back_ad(state: BaseState, move: Move) -> None:
    """Take a token back from the board without its effect."""
    p, index = _token(state, move)
    del state.board[index]
    state.players[p].tokens += 1


def apply_end_turn(state: BaseState, move: Move) -> None:
    """The player is done buying; the next player in turn order goes on."""
    _my_turn(state, move)
    next_turn(state)


def next_turn(state: BaseState) -> None:
    """Pass the turn; after the last player the Showings begin (see :mod:`.flow`).

    The player's ``bought_movie`` and ``bought_theater`` stay until the next round starts, so
    a purchase tried after the turn is refused for what it is (see :func:`_out_of_turn`).
    """
    state.turns_left -= 1
    state.current = (state.current + 1) % state.n


def has_choice(state: BaseState) -> bool:
    """Whether the current player may do anything but ``end_turn`` (``len(legal(state)) > 1``)."""
    p = state.current
    ps = state.players[p]
    if not ps.bought_movie and any(ps.theaters):
        for card in (*state.features, *state.premiers):
            price = movie_price(state, card)
            if price is not None and price <= ps.money:
                return True
    if state.round > 1 and not ps.bought_theater:
        tiles = state.catalog.theaters
        if any(tiles[card].price <= ps.money for column in state.columns.values()
               for card in column):
            return True
    return any(who == p and token_ready(state, placed) for who, _, placed in state.board)


def legal(state: BaseState) -> list[Move]:
    """The current player's buying moves (no pending step may be open)."""
    p = state.current
    ps = state.players[p]
    moves: list[Move] = []
    if not ps.bought_movie:
        slots = [s for s in SLOTS if ps.theaters[s]]
        for card in (*state.features, *state.premiers):
            price = movie_price(state, card)
            if price is not None and price <= ps.money:
                moves += [listed("buy_movie", player=p, card=card, slot=s) for s in slots]
    if state.round > 1 and not ps.bought_theater:
        for size in sorted(state.columns):
            for card in state.columns[size]:
                if state.catalog.theaters[card].price <= ps.money:
                    moves += [listed("buy_theater", player=p, card=card, slot=s) for s in SLOTS]
    moves += _token_moves(state, p)
    moves.append(listed("end_turn", player=p))
    return moves


def _token_moves(state: BaseState, p: int) -> list[Move]:
    moves = []
    spaces = dict.fromkeys(s for who, s, placed in state.board
                           if who == p and token_ready(state, placed))
    for space in spaces:
        if space == state.catalog.multicolor_space:
            colors = [c for c in dict.fromkeys(state.pawn_color) if c != "white"]
            moves += [listed("activate_ad", player=p, space=space, color=c) for c in colors]
        else:
            moves.append(listed("activate_ad", player=p, space=space))
        moves.append(listed("take_back_ad", player=p, space=space))
    return moves


CHECKS: dict[str, Callable[[BaseState, Move, int], object]] = {
    "buy_movie": _check_buy_movie,
    "buy_theater": _check_buy_theater,
    "activate_ad": _check_token_out_of_turn,
    "take_back_ad": _check_token_out_of_turn,
}
"""The rules of each Buying move that do not depend on whose turn it is, by kind."""
