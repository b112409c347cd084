""""Take the gains" and "Skip the rest": activations a player's guests may make, or not make,
without anyone choosing.

Going guest by guest in seat order (the engine's order), it takes each seat action and
movie action that only gains something (money, popcorn, a step up the audience track) and
has exactly one way to be made, and ends each guest that has nothing left to do. It stops at
the first step that needs a decision (an action with a choice of pawn or of movie action, an
action that spends or moves something, a guest who could still act) or a pending step (a
bonus, an award draw, a guest drawn to a seat). The answer is a list of ordinary moves that
the dashboard sends as one batch; the decision it stopped at is left on screen.

"Skip the rest" (:func:`skip_rest`) is the table choosing to play no more of a cinema's
guests this showing: each guest still to act ends its turn, as one batch.

A tap on a seated guest further down the line (:func:`reach`) says the same of the guests
before it: they end their turn, in the engine's order, and the tapped guest takes its seat
action when that has exactly one way to be made.
"""

from __future__ import annotations

import re

from .engine import ACTIVATION_KINDS, GameState, Move
from .engine.showing_choices import acting_seat

GAIN = re.compile(r"^(money_\d|popcorn_\d|audience_up)$")
"""Action ids that only gain something."""
MAX_GAINS = 48
"""A bound on one batch (a 4-player cinema has at most 9 guests, 3 moves each)."""


def action_of(state: GameState, move: Move) -> str | None:
    """The action id a ``seat_action`` or ``movie_action`` would use (None for others)."""
    if move.player is None or move.kind not in ("seat_action", "movie_action"):
        return None
    ps = state.players[move.player]
    slot = move.slot or 0
    if move.kind == "seat_action":
        theater_id = ps.theaters[slot]
        action = state.catalog.theater(theater_id).seat_actions[move.seat or 0] \
            if theater_id else None
        if action != "movie_action" or move.index is None:
            return action
    movie_id = ps.movies[slot]
    return state.catalog.movies[movie_id].actions[move.index or 0] if movie_id else None


def next_gain(state: GameState, player: int) -> Move | None:
    """The next activation of ``player`` that needs no choice and only gains, else None."""
    if state.task_for(player) is not None:
        return None
    legal = [m for m in state.legal_moves() if m.player == player and m.kind in ACTIVATION_KINDS]
    for kind in ("seat_action", "movie_action"):
        options = [m for m in legal if m.kind == kind]
        if len(options) > 1:
            return None  # a choice between ways to act: the table decides
        if options:
            action = action_of(state, options[0])
            return options[0] if action and GAIN.match(action) else None
    ends = [m for m in legal if m.kind == "end_guest"]
    return ends[0] if len(ends) == 1 and len(legal) == 1 else None


def gains(state: GameState, player: int) -> list[Move]:
    """Every gain-only activation of ``player`` in a row, from now; ``state`` is unchanged."""
    trial = state.clone()
    moves: list[Move] = []
    while len(moves) < MAX_GAINS and (move := next_gain(trial, player)) is not None:
        trial.apply(move)
        moves.append(move)
    return moves


def skip_rest(state: GameState, player: int) -> list[Move]:
    """"Skip the rest": every guest of ``player``'s cinema still to act ends its turn without
    acting, in the engine's order, up to the first pending step (a bonus, an award draw)
    that the table resolves itself; ``state`` is unchanged. Empty when no guest waits."""
    trial = state.clone()
    moves: list[Move] = []
    while len(moves) < MAX_GAINS and trial.task_for(player) is None:
        ends = [m for m in trial.legal_moves() if m.player == player and m.kind == "end_guest"]
        if not ends:
            break
        trial.apply(ends[0])
        moves.append(ends[0])
    return moves


def reach(state: GameState, player: int, slot: int, seat: int) -> list[Move] | None:
    """What a tap on the guest in ``slot``/``seat`` sends during the Showings: every guest
    of ``player``'s cinema due to act before it ends its turn (the rest of a theater being
    resolved, then that theater's guests in seat order), then the tapped guest's seat action
    when exactly one way to make it is legal (so a tap on the acting guest whose seat action
    has a choice sends nothing: its buttons ask). None when that guest is not in line (its
    turn is over, the seat is empty, the player is still seating), or when a pending step
    comes first; ``state`` is unchanged."""
    trial = state.clone()
    moves: list[Move] = []
    while len(moves) < MAX_GAINS and trial.phase == "showings" \
            and trial.task_for(player) is None:
        legal = trial.legal_moves(player)
        if _acting(trial, player, slot) == seat:
            seat_actions = [m for m in legal if m.kind == "seat_action"
                            and (m.slot, m.seat) == (slot, seat)]
            return moves + seat_actions if len(seat_actions) == 1 else moves
        end = _end_before(trial.showings[player].active, legal, slot, seat)
        if end is None:
            return None
        trial.apply(end)
        moves.append(end)
    return None


def _acting(state: GameState, player: int, slot: int) -> int | None:
    """The seat of the guest that acts next in ``slot``, when that theater may act now."""
    active = state.showings[player].active
    return acting_seat(state, player, slot) if active in (-1, slot) else None


def _end_before(active: int, legal: list[Move], slot: int, seat: int) -> Move | None:
    """The ``end_guest`` that brings the guest in ``slot``/``seat`` closer to its turn: the
    acting guest of another theater being resolved (``active``), or a guest before it in its
    own."""
    for end in (m for m in legal if m.kind == "end_guest"):
        if active not in (-1, slot) and end.slot == active:
            return end
        if end.slot == slot and (end.seat or 0) < seat:
            return end
    return None
