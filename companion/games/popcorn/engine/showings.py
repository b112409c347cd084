"""Phase 2, Showings: draw, place, then resolve theater by theater and guest by guest.

All players play this phase at the same time, so moves of different players may interleave.
For one player the order is fixed:

1. *Open Cinema*: draw as many guests as the audience track says (``draw_pawn``, a chance
   outcome). An empty bag is refilled from the exit zone only when a draw is needed.
2. *Place*: each drawn guest goes to the first empty seat of a theater showing a movie
   (``place``), or to the exit zone when no such seat is left (``to_exit``).
3. *Resolve*: pick a theater and activate its guests in seat order. The acting guest may take
   its seat action (``seat_action``), then one movie action of its own color
   (``movie_action``), then leaves (``end_guest``; it leaves by itself once nothing is left
   for it to do). A theater is finished before another one starts.

This module applies the moves; :mod:`.showing_choices` lists the ones open to a player.
"""

from __future__ import annotations

from typing import Any

from . import effects as E
from . import pawns as P
from . import tasks as T
from .base_state import BaseState, Showing
from .moves import Move
from .showing_choices import SLOTS, acting_seat, first_guest, free_seat
from .violations import Violation, require


def _player(state: BaseState, move: Move) -> int:
    # The guards every Showings move passes are written out rather than given to require(),
    # which would cost a call and a message function on each of the phase's many moves.
    p = move.player
    if state.phase != "showings":
        raise Violation("WRONG_PHASE", f"{move.kind} belongs to the Showings phase; the game "
                        f"is in {state.phase}.")
    if p is None or p >= state.n:
        raise Violation("BAD_MOVE", "The move names no valid player.")
    return p


def _no_task(state: BaseState, p: int) -> Showing:
    task = state.task_for(p)
    if task is not None:
        raise Violation("PENDING_STEP",
                        f"{state.names[p]} must first resolve a pending {task.kind} step.")
    return state.showings[p]


def _pawn(state: BaseState, move: Move) -> int:
    pawn = move.pawn
    if pawn is None or pawn >= len(state.loc):
        raise Violation("BAD_MOVE", f"There is no pawn {pawn}.")
    return pawn


def apply_draw_pawn(state: BaseState, move: Move) -> None:
    """A pawn came out of a player's bag (Open Cinema, or a draw-guest-to-seat action)."""
    p = _player(state, move)
    pawn = _pawn(state, move)
    task = state.task_for(p)
    if task is None or task.kind != "draw_seat" or task.pawn is not None:
        show = _no_task(state, p)
        require(show.to_draw > 0, "DRAW_NOT_EXPECTED",
                lambda: f"{state.names[p]} has already drawn all {state.draw_value(p)} guests "
                f"of the audience: pawn {pawn} should stay in the bag.")
    _check_in_bag(state, p, pawn)
    _draw_pawn(state, move)


def _draw_pawn(state: BaseState, move: Move) -> None:
    p, pawn = move.player, move.pawn
    assert p is not None and pawn is not None
    task = state.task_for(p)
    state.move_pawn(pawn, P.hand(p))
    if task is not None and task.kind == "draw_seat" and task.pawn is None:
        task.pawn = pawn
    else:
        state.showings[p].to_draw -= 1


def _check_in_bag(state: BaseState, p: int, pawn: int) -> None:
    if state.loc[pawn] != P.bag(p):
        raise Violation("PAWN_NOT_IN_BAG", f"Pawn {pawn} ({state.pawn_color[pawn]}) is in "
                        f"{state.where(pawn)}, not in {state.names[p]}'s bag.")


def apply_place(state: BaseState, move: Move) -> None:
    """Seat a drawn guest: seat order, only in theaters showing a movie."""
    p = _player(state, move)
    pawn = _pawn(state, move)
    task = state.task_for(p)
    if task is not None and task.kind == "draw_seat" and task.pawn is not None:
        _check_place_drawn(state, p, pawn, move)
        _place(state, move)
        return
    show = _no_task(state, p)
    require(show.to_draw == 0, "DRAW_NOT_DONE",
            lambda: f"{state.names[p]} still has {show.to_draw} guest(s) to draw before placing.")
    require(state.loc[pawn] == P.hand(p), "PAWN_NOT_DRAWN",
            lambda: f"Pawn {pawn} is in {state.where(pawn)}, not among {state.names[p]}'s "
            "drawn guests.")
    slot, index = _seat_of(state, p, move)
    want = free_seat(state, p, slot)
    require(want == index, "SEAT_ORDER",
            lambda: f"Seat #{index + 1} of {P.SLOT_NAMES[slot]} theater: seats fill in order, "
            + (f"the next one is #{want + 1}." if want is not None else "and it is full."))
    _place(state, move)


def _place(state: BaseState, move: Move) -> None:
    p, pawn, slot, index = move.player, move.pawn, move.slot, move.seat
    assert p is not None and pawn is not None and slot is not None and index is not None
    task = state.task_for(p)
    if task is not None and task.kind == "draw_seat" and task.pawn is not None:
        pushed = state.occupant(p, slot, index)  # the drawn guest takes an occupied seat
        if pushed is not None:
            state.move_pawn(pushed, P.exit_zone(p))
        state.tasks.remove(task)
    state.move_pawn(pawn, P.seat(p, slot, index))


def _seat_of(state: BaseState, p: int, move: Move) -> tuple[int, int]:
    require(move.slot in SLOTS, "NO_SUCH_SLOT", "Cinema slots are 0 (left), 1 and 2 (right).")
    assert move.slot is not None and move.seat is not None
    slot, seat = move.slot, move.seat
    theater = state.theater(p, slot)
    require(theater is not None and state.movie(p, slot) is not None, "THEATER_HAS_NO_MOVIE",
            lambda: f"{state.names[p]}'s {P.SLOT_NAMES[slot]} theater shows no movie: guests sit "
            "only in theaters showing a movie.")
    assert theater is not None
    require(seat < theater.seats, "NO_SUCH_SEAT",
            lambda: f"That theater has {theater.seats} seat(s); there is no seat #{seat + 1}.")
    return slot, seat


def _check_place_drawn(state: BaseState, p: int, pawn: int, move: Move) -> None:
    task = state.task_for(p)
    assert task is not None
    require(pawn == task.pawn, "PAWN_NOT_DRAWN",
            lambda: f"The guest just drawn is pawn {task.pawn}.")
    slot, index = _seat_of(state, p, move)
    require((slot, index) in T.draw_seat_targets(state, p), "SEAT_NOT_ELIGIBLE",
            lambda: f"Seat #{index + 1} of the {P.SLOT_NAMES[slot]} theater was already activated "
            "this showing, or is not next in seat order.")


def apply_to_exit(state: BaseState, move: Move) -> None:
    """A drawn guest goes to the exit zone: allowed only when no seat is left for it."""
    p = _player(state, move)
    pawn = _pawn(state, move)
    task = state.task_for(p)
    if task is not None and task.kind == "draw_seat" and task.pawn is not None:
        require(pawn == task.pawn, "PAWN_NOT_DRAWN",
                lambda: f"The guest just drawn is pawn {task.pawn}.")
        require(not T.draw_seat_targets(state, p), "SEAT_AVAILABLE",
                "A seat not yet activated is free for the drawn guest: seat it.")
        _to_exit(state, move)
        return
    show = _no_task(state, p)
    require(show.to_draw == 0, "DRAW_NOT_DONE",
            lambda: f"{state.names[p]} still has {show.to_draw} guest(s) to draw before placing.")
    require(state.loc[pawn] == P.hand(p), "PAWN_NOT_DRAWN",
            lambda: f"Pawn {pawn} is in {state.where(pawn)}, not among {state.names[p]}'s "
            "drawn guests.")
    open_slots = [s for s in SLOTS if free_seat(state, p, s) is not None]
    require(not open_slots, "SEAT_AVAILABLE",
            lambda: f"{state.names[p]}'s {P.SLOT_NAMES[open_slots[0]]} theater "
            "still has a free seat: extra guests go to the exit zone only when all are full.")
    _to_exit(state, move)


def _to_exit(state: BaseState, move: Move) -> None:
    p, pawn = move.player, move.pawn
    assert p is not None and pawn is not None
    task = state.task_for(p)
    state.move_pawn(pawn, P.exit_zone(p))
    if task is not None and task.kind == "draw_seat" and task.pawn is not None:
        state.tasks.remove(task)


# -- resolving -------------------------------------------------------------------------------


def _acting(state: BaseState, move: Move) -> tuple[int, int, int, int]:
    """``(player, slot, seat, pawn)`` of the guest a resolve move names, once it is sure that
    this guest is the one whose turn it is to act."""
    p = _player(state, move)
    show = _no_task(state, p)
    require(show.to_draw == 0 and not state.pawns_at(P.hand(p)), "PLACEMENT_NOT_DONE",
            lambda: f"{state.names[p]} must draw and place every guest before guests act.")
    require(move.slot in SLOTS, "NO_SUCH_SLOT", "Cinema slots are 0 (left), 1 and 2 (right).")
    assert move.slot is not None
    slot = move.slot
    if show.active not in (-1, slot):
        require(False, "THEATER_NOT_FINISHED", lambda: f"Finish the {P.SLOT_NAMES[show.active]} "
                "theater before activating another one.")
    seat = acting_seat(state, p, slot)
    if seat is None or move.seat != seat:
        _wrong_guest(state, move, p, slot, seat)
    pawn = state.occupant(p, slot, seat) if seat is not None else None
    assert seat is not None and pawn is not None
    return p, slot, seat, pawn


def _wrong_guest(state: BaseState, move: Move, p: int, slot: int, seat: int | None) -> None:
    """Raise the violation of a resolve move that names another guest than the acting one."""
    named, show, theater = move.seat, state.showings[p], state.theater(p, slot)
    where = f"{state.names[p]}'s {P.SLOT_NAMES[slot]} theater"
    if named is None or theater is None:
        require(seat is None, "BAD_MOVE",
                lambda: f"{move.kind} must name the seat of the guest who acts (seat {seat}).")
        raise Violation("NO_GUEST_TO_ACT", f"No guest waits to act in {where}.")
    require(named < theater.seats, "NO_SUCH_SEAT",
            lambda: f"{where} has no seat #{named + 1}.")
    left = show.activated[slot] or (show.active == slot and named < show.cursor)
    if left:
        require(move.kind != "seat_action", "SEAT_ACTION_TAKEN",
                lambda: f"The guest of seat #{named + 1} in {where} has already acted and left: "
                "it took or passed its seat action (a movie action gives it up).")
        if move.kind == "movie_action" and show.left and show.left[:2] == [slot, named]:
            _judge_left_movie_action(state, move, p, slot, show.left)
        raise Violation("GUEST_LEFT", f"The guest of seat #{named + 1} in {where} has already "
                        "acted and gone to the exit zone (a guest leaves after its movie action, "
                        "or as soon as nothing is left for it to do).")
    require(state.occupant(p, slot, named) is not None and seat is not None, "NO_GUEST_TO_ACT",
            lambda: f"No guest sits on seat #{named + 1} of {where}.")
    raise Violation("GUEST_NOT_ACTING", f"The guest of seat #{named + 1} in {where} acts after "
                    f"the guest of seat #{(seat or 0) + 1}, whose turn it is: guests act in "
                    "seat order.")


def _judge_left_movie_action(state: BaseState, move: Move, p: int, slot: int,
                             left: list[Any]) -> None:
    """Raise what a movie action meant for the guest who has just left breaks, if anything.

    That guest left by itself once it had nothing left to do, so the mistake is usually the
    reason why: its movie action was taken, its color is not the movie's, or the action is
    used, covered or cannot be taken.
    """
    _, seat, pawn, took = left
    require(not took, "MOVIE_ACTION_TAKEN", lambda: f"The guest of seat #{seat + 1} has already "
            "taken its movie action, and has left.")
    movie = state.movie(p, slot)
    if pawn is None or movie is None:
        return
    require(movie.color == state.pawn_color[pawn], "MOVIE_COLOR",
            lambda: f"Pawn {pawn} is {state.pawn_color[pawn]} and {movie.title} is {movie.color}: "
            "only a guest of the movie's color takes its actions (it has left).")
    _check_movie_index(state, p, slot, move.index, move.pawn)


def _begin(state: BaseState, p: int, slot: int, seat: int) -> Showing:
    show = state.showings[p]
    if show.active != slot:
        show.active, show.cursor = slot, seat
        show.seat_taken = show.movie_taken = False
    return show


def _check_movie_index(state: BaseState, p: int, slot: int, index: int | None,
                       pawn: int | None) -> str:
    movie = state.movie(p, slot)
    require(movie is not None, "THEATER_HAS_NO_MOVIE", "No movie shows in that theater.")
    assert movie is not None
    require(index is not None and 0 <= index < len(movie.actions), "BAD_ACTION_INDEX",
            lambda: f"{movie.title} has no action #{index}.")
    assert index is not None
    require(index < state.visible_actions(p, slot), "MOVIE_ACTION_COVERED",
            lambda: f"The lobby slider covers action #{index} of {movie.title}.")
    require(index not in state.players[p].used[slot], "MOVIE_ACTION_USED",
            lambda: f"Action #{index} of {movie.title} was already used this round.")
    action = movie.actions[index]
    E.check_action(state, p, action, pawn)
    return action


def apply_seat_action(state: BaseState, move: Move) -> None:
    """The acting guest takes the action printed on its seat (grey, or its own color)."""
    p, slot, seat, pawn = _acting(state, move)
    show = state.showings[p]
    require(not (show.active == slot and show.seat_taken), "SEAT_ACTION_TAKEN",
            "This guest has already taken or passed its seat action.")
    theater = state.theater(p, slot)
    assert theater is not None
    color, action = theater.seat_colors[seat], theater.seat_actions[seat]
    require(color in ("grey", state.pawn_color[pawn]), "SEAT_COLOR",
            lambda: f"Pawn {pawn} is {state.pawn_color[pawn]}: only a {color} guest may take the "
            f"action of seat #{seat + 1}.")
    if action == "movie_action":
        _check_movie_index(state, p, slot, move.index, move.pawn)
    else:
        require(move.index is None, "BAD_MOVE", "Only a movie_action seat takes an index.")
        E.check_action(state, p, action, move.pawn)
    _seat_action(state, move)


def _seat_action(state: BaseState, move: Move) -> None:
    p, slot, seat = _actor(state, move)
    theater = state.theater(p, slot)
    assert theater is not None
    action = theater.seat_actions[seat]
    show = _begin(state, p, slot, seat)
    show.seat_taken = True
    if action == "movie_action":  # the seat gives one free action of the movie
        movie = state.movie(p, slot)
        assert movie is not None and move.index is not None
        state.players[p].used[slot].add(move.index)
        action = movie.actions[move.index]
    E.do_action(state, p, action, move.pawn)


def apply_movie_action(state: BaseState, move: Move) -> None:
    """The acting guest uses one free action of a movie of its own color."""
    p, slot, _, pawn = _acting(state, move)
    show = state.showings[p]
    require(not (show.active == slot and show.movie_taken), "MOVIE_ACTION_TAKEN",
            "This guest has already taken its movie action.")
    movie = state.movie(p, slot)
    assert movie is not None
    require(movie.color == state.pawn_color[pawn], "MOVIE_COLOR",
            lambda: f"Pawn {pawn} is {state.pawn_color[pawn]} and {movie.title} is {movie.color}: "
            "only a guest of the movie's color takes its actions.")
    _check_movie_index(state, p, slot, move.index, move.pawn)
    _movie_action(state, move)


def _movie_action(state: BaseState, move: Move) -> None:
    p, slot, seat = _actor(state, move)
    movie = state.movie(p, slot)
    assert movie is not None and move.index is not None
    show = _begin(state, p, slot, seat)
    show.seat_taken = show.movie_taken = True
    state.players[p].used[slot].add(move.index)
    E.do_action(state, p, movie.actions[move.index], move.pawn)


def apply_end_guest(state: BaseState, move: Move) -> None:
    """The acting guest is done and goes to the exit zone."""
    _acting(state, move)
    _end_guest(state, move)


def _end_guest(state: BaseState, move: Move) -> None:
    p, slot, seat = _actor(state, move)
    _begin(state, p, slot, seat)
    finish_guest(state, p)


def _actor(state: BaseState, move: Move) -> tuple[int, int, int]:
    """``(player, slot, seat)`` of the guest a legal resolve move is about."""
    p, slot = move.player, move.slot
    assert p is not None and slot is not None
    show = state.showings[p]
    seat = show.cursor if show.active == slot else first_guest(state, p, slot)
    assert seat is not None
    return p, slot, seat


EFFECTS = {"draw_pawn": _draw_pawn, "place": _place, "to_exit": _to_exit,
           "seat_action": _seat_action, "movie_action": _movie_action, "end_guest": _end_guest}
"""What the most frequent Showings moves do once they are known to be legal: each ``apply_``
handler checks its move and ends by calling one of these (see :func:`.game.apply_listed`)."""


def finish_guest(state: BaseState, p: int) -> None:
    """Send the acting guest (if still seated) to the exit; move on to the next seat."""
    show = state.showings[p]
    slot = show.active
    pawn = state.occupant(p, slot, show.cursor)
    show.left = [slot, show.cursor, pawn, show.movie_taken]  # replaced, never changed
    if pawn is not None:
        state.move_pawn(pawn, P.exit_zone(p))
    theater = state.theater(p, slot)
    assert theater is not None
    for k in range(show.cursor + 1, theater.seats):
        if state.occupant(p, slot, k) is not None:
            show.cursor, show.seat_taken, show.movie_taken = k, False, False
            return
    show.activated[slot] = True
    show.active = show.cursor = -1
