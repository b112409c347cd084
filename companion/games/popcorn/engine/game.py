"""Applying moves and listing what can happen next: the engine's entry points.

These functions back :meth:`~.state.GameState.apply`, :meth:`~.state.GameState.legal_moves`
and :meth:`~.state.GameState.chance_outcomes`; they take any :class:`~.base_state.BaseState`,
so this module needs nothing above the rules. A move is checked completely before anything
changes,
then the automatic steps of :mod:`.flow` run.
"""

from __future__ import annotations

from collections.abc import Callable

from . import buying as B
from . import corrections as K
from . import pawns as P
from . import showing_choices as C
from . import showings as S
from . import tasks as T
from .base_state import BaseState
from .flow import settle
from .listing import is_listed, listed_each
from .moves import Move, check_fields
from .violations import Params, Violation

Handler = Callable[[BaseState, Move], None]

HANDLERS: dict[str, Handler] = {
    "deal_starting": T.apply_deal_starting,
    "reveal_movie": T.apply_reveal_movie,
    "reveal_theater": T.apply_reveal_theater,
    "draw_award": T.apply_draw_award,
    "keep_award": T.apply_keep_award,
    "gain_pawn": T.apply_gain_pawn,
    "bonus_action": T.apply_bonus_action,
    "decline": T.apply_decline,
    "buy_movie": B.apply_buy_movie,
    "buy_theater": B.apply_buy_theater,
    "activate_ad": B.apply_activate_ad,
    "take_back_ad": B.apply_take_back_ad,
    "end_turn": B.apply_end_turn,
    "draw_pawn": S.apply_draw_pawn,
    "place": S.apply_place,
    "to_exit": S.apply_to_exit,
    "seat_action": S.apply_seat_action,
    "movie_action": S.apply_movie_action,
    "end_guest": S.apply_end_guest,
    "correct": K.apply_correct,
}
"""The function that checks and applies each move kind."""


def apply(state: BaseState, move: Move) -> None:
    """Apply ``move`` in place, or raise :class:`Violation` and change nothing.

    Every move is checked completely first: a refused one leaves the state exactly as it was,
    and its ``code`` says why (``NOT_YOUR_TURN``, ``MOVIE_COLOR``, ... see :data:`CODES`).
    Then the automatic steps run (:func:`.flow.settle`): a Buying turn with nothing left to do
    passes, a guest with nothing left to do leaves, the End of Round runs. So after
    ``apply(state, Move("buy_movie", player=0, card="...", slot=1))`` in round 1 it may
    already be the next player's turn; ask :func:`legal_moves` what comes next.
    """
    if state.phase == "over":
        raise Violation("GAME_OVER", "The game is over: final scoring has been reached.")
    handler = HANDLERS.get(move.kind)
    if handler is None:
        raise Violation("UNKNOWN_MOVE", f"Unknown move kind {move.kind!r}.")
    if not is_listed(move):  # a move the engine listed is well typed
        check_fields(move)
    if move.player is not None and move.player >= state.n:
        raise Violation("BAD_MOVE", f"There is no player {move.player} at this table.")
    try:
        handler(state, move)
    except Violation as exc:
        exc.params = {**move_params(state, move), **exc.params}
        raise
    if move.kind != "correct":  # the table's word: the game stands where it stood
        settle(state)


def move_params(state: BaseState, move: Move) -> Params:
    """The facts of a refused move that a violation's ``params`` carry: its kind, its fields,
    the player's ``name`` and the named pawn's ``color`` (what a sentence in any language may
    need, as plain values)."""
    params: Params = {key: value for key, value in move.to_dict().items() if key != "move"}
    params["move"] = move.kind
    if move.player is not None and move.player < state.n:
        params["name"] = state.names[move.player]
    if move.pawn is not None and 0 <= move.pawn < len(state.pawn_color):
        params.setdefault("color", state.pawn_color[move.pawn])
    return params


EFFECTS: dict[str, Handler] = {**S.EFFECTS, **T.EFFECTS}
"""For the most frequent kinds, what a move does once it is known to be legal."""


def apply_listed(state: BaseState, move: Move) -> None:
    """Apply a move just listed for this very state, without checking it a second time.

    ``move`` must come from this state's :func:`legal_moves` or :func:`chance_outcomes`, with
    nothing applied since: the listing already proved it legal, so for the frequent kinds
    only its effect is applied, and the result is the one :func:`apply` gives. A move the
    engine did not list itself goes through :func:`apply` and is checked as usual. A move
    listed for another state would corrupt the game: simulations and searches use this, a
    table reporting moves uses :func:`apply`.
    """
    effect = EFFECTS.get(move.kind)
    if effect is None or not is_listed(move):
        apply(state, move)
        return
    effect(state, move)
    settle(state)


def legal_moves(state: BaseState, player: int | None = None) -> list[Move]:
    """Every decision that may be applied now (only ``player``'s, if given), in a fixed order.

    Decisions are what players choose (buy, place, act, keep an award); what the table reports
    (a draw, a reveal) is in :func:`chance_outcomes`. In the Showings everyone plays at once,
    so pass ``player`` to see one player's choices. Each listed move is complete: an activation
    move names its guest's ``slot`` and ``seat``. The list is empty when only chance is due.
    """
    if state.phase == "over":
        return []
    if state.phase != "showings":
        fronts = state.front_tasks()
        moves = T.decisions_for(state, fronts[0]) if fronts else (
            B.legal(state) if state.phase == "buying" else [])
        return moves if player is None else [m for m in moves if m.player == player]
    moves = []
    for p in range(state.n) if player is None else (player,):
        task = state.task_for(p)
        moves += T.decisions_for(state, task) if task else C.legal(state, p)
    return moves


def chance_outcomes(state: BaseState, player: int | None = None) -> list[Move]:
    """Every chance outcome the table may report now; ``player`` filters.

    The engine never shuffles: a pawn drawn from a bag (``draw_pawn`` of each pawn in it), a
    card revealed (``reveal_movie`` of each card the deck may hold), an award drawn, a starting
    movie dealt. At a table the reader or the tablet reports which one happened; a simulation
    picks one at random. Shared reveals have no player.
    """
    if state.phase == "over":
        return []
    if state.phase != "showings":
        fronts = state.front_tasks()
        moves = T.chance_for(state, fronts[0]) if fronts else []
        return moves if player is None else [m for m in moves if m.player == player]
    moves = []
    for p in range(state.n) if player is None else (player,):
        task = state.task_for(p)
        if task:
            moves += T.chance_for(state, task)
        elif state.showings[p].to_draw > 0:
            moves += listed_each("draw_pawn", p, "pawn", state.pawns_at(P.bag(p)))
    return moves


def waiting_players(state: BaseState) -> list[int]:
    """Who must act now: during the Showings every player not yet done, otherwise the one
    player whose turn or step it is; empty when only a shared reveal is due or the game is
    over."""
    if state.phase == "showings":
        return C.busy_players(state)
    if state.phase == "over":
        return []
    fronts = state.front_tasks()
    if fronts:
        return [] if fronts[0].player is None else [fronts[0].player]
    return [state.current] if state.phase == "buying" else []
