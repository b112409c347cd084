"""What a player may do during the Showings: the decisions open now, and the yes-or-no
questions the automatic steps ask (is the acting guest left with a choice? is anyone busy?).

Applying the moves is :mod:`.showings`; this module only reads the state. Each listing keeps
a fixed order (pawns lowest first, slots left to right, ``end_guest`` last), which is what
makes a seeded simulation replay the same game.
"""

from __future__ import annotations

from dataclasses import replace

from . import effects as E
from . import pawns as P
from .base_state import BaseState
from .listing import listed, listed_each, listed_places
from .moves import ACTIVATION_KINDS, Move

SLOTS = (0, 1, 2)


def free_seat(state: BaseState, p: int, slot: int) -> int | None:
    """The next seat in seat order of a theater showing a movie, or None."""
    ps = state.players[p]
    tile = ps.theaters[slot]
    if tile is None or ps.movies[slot] is None:
        return None
    base, seated = P.seat(p, slot, 0), state.seated
    for k in range(state.catalog.all_theaters[tile].seats):
        if base + k not in seated:
            return k
    return None


def first_guest(state: BaseState, p: int, slot: int) -> int | None:
    """Seat index of the first seated guest of a theater, or None."""
    theater = state.theater(p, slot)
    if theater is None:
        return None
    base, seated = P.seat(p, slot, 0), state.seated
    for k in range(theater.seats):
        if base + k in seated:
            return k
    return None


def acting_seat(state: BaseState, p: int, slot: int) -> int | None:
    """The seat index of the guest whose turn it is to act in ``slot``, or None.

    In the theater being resolved, the acting guest's; in a theater not started yet, its first
    guest's (starting it is allowed only when no other theater is being resolved).
    """
    show = state.showings[p]
    return show.cursor if show.active == slot else first_guest(state, p, slot)


def name_guest(state: BaseState, move: Move) -> Move:
    """An activation move that leaves its ``seat`` out, aimed at the guest acting now.

    This is how version-1 records and old hub logs are read: before moves named their guest,
    a ``seat_action``, ``movie_action`` or ``end_guest`` acted for whichever guest's turn it
    was. Any other move, or one that names its seat, is returned as it is.
    """
    if move.seat is not None or move.kind not in ACTIVATION_KINDS or state.phase != "showings":
        return move
    p, slot = move.player, move.slot
    if p is None or p >= state.n or slot not in SLOTS:
        return move
    seat = acting_seat(state, p, slot)
    return move if seat is None else replace(move, seat=seat)


def legal(state: BaseState, p: int) -> list[Move]:
    """Player ``p``'s Showings decisions, when no pending step blocks them."""
    show = state.showings[p]
    if show.to_draw > 0:
        return []
    hand = state.pawns_at(P.hand(p))
    if hand:
        return _placements(state, p, hand)
    if show.active != -1:
        return guest_moves(state, p, show.active)
    moves: list[Move] = []
    for slot in SLOTS:
        seat = first_guest(state, p, slot)
        if seat is not None:
            moves += guest_moves(state, p, slot, seat)
    return moves


def _placements(state: BaseState, p: int, hand: list[int]) -> list[Move]:
    seats = [(s, k) for s in SLOTS if (k := free_seat(state, p, s)) is not None]
    if not seats:
        return listed_each("to_exit", p, "pawn", hand)
    return listed_places(p, hand, seats)


def guest_moves(state: BaseState, p: int, slot: int, seat: int | None = None) -> list[Move]:
    """What the guest next to act in ``slot`` may do, ``end_guest`` last.

    ``seat`` is that guest's seat when the caller already knows it.
    """
    show = state.showings[p]
    active = show.active == slot
    if seat is None:
        seat = show.cursor if active else first_guest(state, p, slot)
    assert seat is not None
    pawn = state.occupant(p, slot, seat)
    assert pawn is not None
    moves = []
    if not (active and show.seat_taken):
        moves += _seat_options(state, p, slot, seat, pawn)
    movie = state.movie(p, slot)
    if not (active and show.movie_taken) and movie and movie.color == state.pawn_color[pawn]:
        moves += [listed("movie_action", player=p, slot=slot, seat=seat, index=i, pawn=x)
                  for i, x in movie_options(state, p, slot)]
    moves.append(listed("end_guest", player=p, slot=slot, seat=seat))
    return moves


def guest_has_choice(state: BaseState, p: int, slot: int) -> bool:
    """Whether the acting guest of ``slot`` may do anything but leave.

    The same answer as ``len(guest_moves(state, p, slot)) > 1``, without listing the moves.
    """
    show = state.showings[p]
    seat = show.cursor
    pawn = state.occupant(p, slot, seat)
    assert pawn is not None and show.active == slot
    if not show.seat_taken and _seat_usable(state, p, slot, seat, pawn):
        return True
    movie = state.movie(p, slot)
    return (not show.movie_taken and movie is not None
            and movie.color == state.pawn_color[pawn] and _movie_usable(state, p, slot))


def _seat_usable(state: BaseState, p: int, slot: int, seat: int, pawn: int) -> bool:
    theater = state.theater(p, slot)
    assert theater is not None
    color, action = theater.seat_colors[seat], theater.seat_actions[seat]
    if color not in ("grey", state.pawn_color[pawn]):
        return False
    if action == "movie_action":
        return _movie_usable(state, p, slot)
    return E.usable(state, p, action)


def _movie_usable(state: BaseState, p: int, slot: int) -> bool:
    movie = state.movie(p, slot)
    assert movie is not None
    used = state.players[p].used[slot]
    return any(i not in used and E.usable(state, p, movie.actions[i])
               for i in range(state.visible_actions(p, slot)))


def _seat_options(state: BaseState, p: int, slot: int, seat: int, pawn: int) -> list[Move]:
    theater = state.theater(p, slot)
    assert theater is not None
    color, action = theater.seat_colors[seat], theater.seat_actions[seat]
    if color not in ("grey", state.pawn_color[pawn]):
        return []
    if action == "movie_action":
        return [listed("seat_action", player=p, slot=slot, seat=seat, index=i, pawn=x)
                for i, x in movie_options(state, p, slot)]
    return [listed("seat_action", player=p, slot=slot, seat=seat, pawn=x)
            for x in E.action_options(state, p, action)]


def movie_options(state: BaseState, p: int, slot: int) -> list[tuple[int, int | None]]:
    """``(index, pawn)`` pairs for the free, uncovered actions of the movie in ``slot``."""
    movie = state.movie(p, slot)
    if movie is None:
        return []
    used = state.players[p].used[slot]
    return [(i, x) for i in range(state.visible_actions(p, slot)) if i not in used
            for x in E.action_options(state, p, movie.actions[i])]


def player_done(state: BaseState, p: int) -> bool:
    """Whether the player has nothing left to do this Showings phase."""
    if state.showings[p].to_draw > 0 or state.seated_count[p]:
        return False
    return state.task_for(p) is None and not state.at.get(P.hand(p))


def busy_players(state: BaseState) -> list[int]:
    """The players who still have something to do this Showings phase, in seat order.

    The players for whom :func:`player_done` is false, asked of every seat after every move.
    """
    seated, at = state.seated_count, state.at
    return [p for p, show in enumerate(state.showings)
            if show.to_draw > 0 or seated[p] or at.get(P.hand(p))
            or state.task_for(p) is not None]


def all_done(state: BaseState) -> bool:
    """Whether every player is done (``not busy_players(state)``), stopping at the first busy."""
    seated, at = state.seated_count, state.at
    for p, show in enumerate(state.showings):
        if show.to_draw > 0 or seated[p] or at.get(P.hand(p)) or state.task_for(p) is not None:
            return False
    return True
