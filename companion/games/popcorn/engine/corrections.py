"""A correction: the table says a pawn is somewhere else, and the game goes on from there.

A correction is no rule of Popcorn: the table makes it (with its PIN) when the companion's
picture and the cardboard differ. The engine applies it as a move of kind ``correct``
(``{"move": "correct", "pawn": 17, "zone": "bag", "player": 0}``: "pawn 17 is really in
Ana's bag"), so that a game record holds its corrections as lines and ``replay`` walks
through them. It is never among the :func:`~.game.legal_moves`, and nothing runs after it
(no automatic step): the game stands where it stood, with that pawn moved.

Only a pawn at rest can be corrected: one drawn or seated moves on by the rules
(``PAWN_IN_PLAY``), so a table corrects it once it is back in a bag, an exit zone, the
reserve or the box.
"""

from __future__ import annotations

from typing import Any

from . import pawns as P
from .base_state import BaseState
from .moves import Move
from .violations import Violation

ZONES = ("box", "reserve", "bag", "exit")
"""Where a correction may put a pawn: a bag or an exit zone with its ``player``."""


def zone_location(state: BaseState, zone: Any, player: Any) -> int:
    """The location code of a correction's ``zone`` (of seat ``player`` for a bag or an
    exit zone); ``BAD_MOVE`` for a zone or seat that does not exist."""
    if zone not in ZONES:
        raise Violation("BAD_MOVE", f"correct: zone must be one of {', '.join(ZONES)}")
    if zone in ("box", "reserve"):
        return P.BOX if zone == "box" else P.RESERVE
    if type(player) is not int or not 0 <= player < state.n:
        raise Violation("BAD_MOVE", f"correct: a {zone} needs the player's seat number")
    return P.bag(player) if zone == "bag" else P.exit_zone(player)


def in_play(state: BaseState, pawn: int) -> bool:
    """Whether the rules move ``pawn`` on (drawn and waiting in a hand, or on a seat)."""
    loc = state.loc[pawn]
    return P.is_seat(loc) or loc in {P.hand(q) for q in range(state.n)}


def apply_correct(state: BaseState, move: Move) -> None:
    """Put ``move.pawn`` into ``move.zone`` (see the module's text)."""
    pawn = move.pawn
    if pawn is None or not 0 <= pawn < len(state.loc):
        raise Violation("BAD_MOVE", f"correct: there is no pawn {pawn}")
    where = zone_location(state, move.zone, move.player)
    if in_play(state, pawn):
        raise Violation("PAWN_IN_PLAY", f"This {state.pawn_color[pawn]} guest is drawn or "
                        f"seated ({state.where(pawn)}): the rules move it on; correct it once "
                        "it is back in a bag, an exit zone, the reserve or the box.",
                        {"color": state.pawn_color[pawn]})
    state.move_pawn(pawn, where)
