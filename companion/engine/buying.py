"""Phase 1, Buying and Advertising: one turn per player, in turn order.

On a turn a player may buy at most one movie and at most one theater (not in the first
round), and activate their advertising tokens (not in the first round either, see
:func:`token_ready`), in any order, then ends the turn.
"""

from __future__ import annotations

from . import effects as E
from .listing import listed
from .moves import Move
from .state import GameState, Task
from .violations import Violation, require

SLOTS = (0, 1, 2)


def _my_turn(state: GameState, move: Move) -> int:
    # Written out rather than given to require(): every Buying move passes here.
    p = move.player
    if state.phase != "buying":
        raise Violation("WRONG_PHASE", f"{move.kind} belongs to the Buying phase; the game is "
                        f"in {state.phase}.")
    if p is None or p >= state.n:
        raise Violation("BAD_MOVE", "The move names no valid player.")
    if p != state.current:
        raise Violation("NOT_YOUR_TURN", f"It is {state.names[state.current]}'s turn to buy, "
                        f"not {state.names[p]}'s.")
    if state.tasks:
        raise Violation("PENDING_STEP",
                        f"{state.names[p]} must first resolve: {state.tasks[0].kind}.")
    return p


def _slot(move: Move) -> int:
    require(move.slot in SLOTS, "NO_SUCH_SLOT", "Cinema slots are 0 (left), 1 and 2 (right).")
    assert move.slot is not None
    return move.slot


def movie_price(state: GameState, card: str) -> int | None:
    """What the movie costs now: its price in Features, +$2 in Premiers, None if absent."""
    movie = state.catalog.movies.get(card)
    if movie is None:
        return None
    if card in state.features:
        return movie.price
    if card in state.premiers:
        return movie.premiers_price
    return None


def apply_buy_movie(state: GameState, move: Move) -> None:
    """Buy a movie and show it in a slot; archive the movie it replaces; take the bonus."""
    p = _my_turn(state, move)
    slot = _slot(move)
    ps = state.players[p]
    name = state.names[p]
    require(not ps.bought_movie, "MOVIE_ALREADY_BOUGHT", lambda: f"{name} already bought a movie "
            "this turn: one movie per turn.")
    price = movie_price(state, move.card or "")
    require(price is not None, "CARD_NOT_AVAILABLE",
            lambda: f"{move.card} is not in the Features or Premiers row.")
    assert price is not None and move.card is not None
    require(ps.money >= price, "NOT_ENOUGH_MONEY",
            lambda: f"{name} has ${ps.money} and {state.catalog.movies[move.card].title} "
            f"costs ${price}.")
    theater = state.theater(p, slot)
    require(theater is not None, "SLOT_HAS_NO_THEATER",
            lambda: f"{name}'s right slot has no theater yet: buy a theater for it first.")
    assert theater is not None
    movie = state.catalog.movies[move.card]
    premiere = move.card in state.premiers
    (state.premiers if premiere else state.features).remove(move.card)
    ps.money -= price
    ps.bought_movie = True
    if premiere:
        state.tasks.append(Task("gain", p, color=movie.color))
    old = ps.movies[slot]
    if old:
        ps.archive.append(old)
    ps.movies[slot], ps.covered[slot], ps.used[slot] = move.card, 0, set()
    if movie.bonus and theater.seats == movie.bonus_seats:
        _bonus(state, p, movie.bonus)


def _bonus(state: GameState, p: int, action: str) -> None:
    if E.immediate(action):
        if E.usable(state, p, action):
            E.do_action(state, p, action)
    else:
        state.tasks.append(Task("bonus", p, action=action))


def apply_buy_theater(state: GameState, move: Move) -> None:
    """Buy a theater tile into a slot; the replaced tile goes under its stack; refill."""
    p = _my_turn(state, move)
    slot = _slot(move)
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


def _token(state: GameState, move: Move) -> tuple[int, int]:
    p = _my_turn(state, move)
    require(move.space in state.catalog.ad_spaces, "BAD_MOVE",
            lambda: f"{move.space!r} is not an advertising space.")
    mine = [i for i, (who, space, _) in enumerate(state.board)
            if who == p and space == move.space]
    require(bool(mine), "TOKEN_NOT_ON_SPACE",
            lambda: f"{state.names[p]} has no token on the {move.space} space.")
    ready = [i for i in mine if token_ready(state, state.board[i][2])]
    require(bool(ready), "TOKEN_NOT_READY", "Advertising tokens cannot be activated in the "
            "first round: this one can be from round 2 on.")
    return p, ready[0]


def token_ready(state: GameState, placed: int) -> bool:
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


def apply_activate_ad(state: GameState, move: Move) -> None:
    """Take a token back from the board and apply its space's effect."""
    p, index = _token(state, move)
    space = move.space
    assert space is not None
    if space == state.catalog.multicolor_space:
        require(move.color in state.pawn_color and move.color != "white", "COLOR_REQUIRED",
                "Choose the guest color (blue, green, red or yellow) for the multicolor space.")
        color = move.color
    else:
        require(move.color is None, "BAD_MOVE", "Only the multicolor space takes a color.")
        color = space
    del state.board[index]
    state.players[p].tokens += 1
    state.tasks.append(Task("gain", p, color=color))


def apply_take_back_ad(state: GameState, move: Move) -> None:
    """Take a token back from the board without its effect."""
    p, index = _token(state, move)
    del state.board[index]
    state.players[p].tokens += 1


def apply_end_turn(state: GameState, move: Move) -> None:
    """The player is done buying; the next player in turn order goes on."""
    _my_turn(state, move)
    next_turn(state)


def next_turn(state: GameState) -> None:
    """Pass the turn; after the last player the Showings begin (see :mod:`.flow`)."""
    ps = state.players[state.current]
    ps.bought_movie = ps.bought_theater = False
    state.turns_left -= 1
    state.current = (state.current + 1) % state.n


def has_choice(state: GameState) -> bool:
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


def legal(state: GameState) -> list[Move]:
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


def _token_moves(state: GameState, p: int) -> list[Move]:
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
