"""The placement the table screen pre-fills once a player's draw is done ("seat as shown").

With the table's hints on, it is the seating advisor's best placement; with hints off, each
drawn guest, in draw order, takes the first free seat the rules allow (left theater first,
lowest seat first), or goes to the exit zone when no seat is left. Either way the answer is a
list of ordinary ``place`` and ``to_exit`` moves, checked by playing them on a copy of the
game, which the dashboard sends as one batch (``POST .../moves`` with ``"moves"``).

:func:`forced_seating` is the part of a placement the rules leave no choice about: what the
hub adds to a seating tap's batch so that the table never taps a step it cannot choose.
"""

from __future__ import annotations

from typing import Any

from .advisor import AdviceError, advise
from .advisor.advice import check_ready
from .engine import GameState, Move
from .engine import pawns as P

SEATING = frozenset({"place", "to_exit"})
"""The move kinds of a placement."""


def advised(state: GameState, player: int) -> list[Move]:
    """The advisor's best placement: the leading ``place``/``to_exit`` moves of its plan."""
    return advised_then(state, player)[0]


def expected_gains(state: GameState, player: int) -> dict[str, int]:
    """What the advisor expects its best placement to bring, per term (``money``,
    ``popcorn``, ``audience``, ...), as its advice reports it."""
    return advise(state, player).best.to_dict()["gains"]


def advised_then(state: GameState, player: int) -> tuple[list[Move], list[Move]]:
    """The advisor's best placement, and what its plan has the guests do next up to the
    first step the table resolves itself (an award drawn, a guest drawn to a seat)."""
    plan = advise(state, player).best.plan
    seating: list[Move] = []
    for move in plan.moves:
        if move.kind not in SEATING:
            break
        seating.append(move)
    stop = min([n for n, _ in plan.waits] + [len(plan.moves)])
    return seating, plan.moves[len(seating):stop]


def suggested_play(state: GameState, player: int) -> list[Move]:
    """What the advisor would have ``player``'s seated guests do, as the moves of its plan up
    to the first step the table resolves itself (an award drawn, a guest drawn to a seat).

    Empty while drawn guests wait for a seat (the placement comes first) or when there is
    nothing to advise. The table screen offers it as one "Play as suggested" batch.
    """
    if state.at.get(P.hand(player)):
        return []
    try:
        plan = advise(state, player).best.plan
    except AdviceError:
        return []
    stop = min([n for n, _ in plan.waits] + [len(plan.moves)])
    moves = plan.moves[:stop]
    return [] if any(m.kind in SEATING for m in moves) else moves


def played_on(state: GameState, player: int) -> list[Move] | None:
    """What the advisor plays on for ``player``, at a table that asked it to
    (:meth:`~companion.kit.parts.Hints.played_on`): the suggested play of their seated
    guests (:func:`suggested_play`) once the table has resolved the step that cut the last
    one; ``[]`` while a step waits for the table (a guest to draw or to seat, an award
    drawn); None once the player's showing is over or the advisor has nothing to suggest.
    ``state`` is unchanged."""
    if state.phase != "showings":
        return None
    if state.task_for(player) is not None or state.showings[player].to_draw > 0 \
            or state.at.get(P.hand(player)):
        return []
    return suggested_play(state, player) or None


def first_free(state: GameState, player: int, draw_order: list[int]) -> list[Move]:
    """Each drawn guest, in ``draw_order`` (pawns not in the hand are skipped, pawns in the
    hand but not listed come last, lowest first), on the first seat the rules allow, else to
    the exit zone. Raises :class:`~companion.games.popcorn.advisor.AdviceError` when nobody waits
    to sit."""
    check_ready(state, player)
    trial = state.clone()
    hand = trial.pawns_at(P.hand(player))
    latest = list(dict.fromkeys(reversed(draw_order)))[::-1]  # a pawn's last draw counts
    order = [p for p in latest if p in hand]
    order += [p for p in hand if p not in order]
    moves: list[Move] = []
    for pawn in order:
        options = [m for m in trial.legal_moves() if m.player == player
                   and m.kind in SEATING and m.pawn == pawn]
        if not options:
            break
        move = min(options, key=_seat_first)
        trial.apply(move)
        moves.append(move)
    return moves


def _seat_first(move: Move) -> tuple[int, int, int]:
    if move.kind == "place":
        return (0, move.slot or 0, move.seat or 0)
    return (1, 0, 0)


def draw_order(entries: list[dict[str, Any]], player: int) -> list[int]:
    """The pawns ``player`` drew, oldest first, from a table's applied entries."""
    return [e["move"]["pawn"] for e in entries if "move" in e
            and e["move"].get("move") == "draw_pawn" and e["move"].get("player") == player]


def forced_seating(state: GameState, player: int) -> list[Move]:
    """The seating moves left to ``player`` with no choice, in order: while every legal one
    seats a guest of one color in one seat (the guests look alike), or sends the drawn guests
    to the exit zone (no seat is left; their order makes no difference), the first of them.
    Empty as soon as a choice is open, and while guests are still to be drawn or a step
    waits; ``state`` is unchanged."""
    trial = state.clone()
    moves: list[Move] = []
    while trial.phase == "showings" and trial.showings[player].to_draw == 0 \
            and trial.task_for(player) is None:
        legal = [m for m in trial.legal_moves(player) if m.kind in SEATING]
        if not legal or len({_choice(trial, m) for m in legal}) > 1:
            break
        trial.apply(legal[0])
        moves.append(legal[0])
    return moves


def _choice(state: GameState, move: Move) -> tuple[Any, ...]:
    """What a seating move decides: the seat and the guest's color (a ``to_exit``: nothing,
    once no seat is left)."""
    if move.kind == "to_exit":
        return ("to_exit",)
    assert move.pawn is not None
    return (move.slot, move.seat, state.pawn_color[move.pawn])
