"""Corrections: the table says where a pawn really is, with its PIN.

A ``correct`` event names a pawn and a zone (``box``, ``reserve``, a player's ``bag`` or
``exit``). Only a pawn at rest can be corrected: one drawn or seated moves on by the rules,
so a table corrects it once it is back in a bag, an exit zone, the reserve or the box.
"""

from __future__ import annotations

from typing import Any

from companion.kit.errors import TableError

from .engine import GameState
from .engine import pawns as P

ZONES = ("box", "reserve", "bag", "exit")
"""Where a correction may put a pawn."""


def relocate(state: GameState, body: dict[str, Any]) -> None:
    """Put ``body["pawn"]`` in ``body["zone"]`` (of seat ``body["player"]`` for a bag or an
    exit zone), in place; a bad body raises ``BAD_REQUEST`` and changes nothing."""
    pawn, zone, player = body.get("pawn"), body.get("zone"), body.get("player")
    if type(pawn) is not int or not 0 <= pawn < len(state.loc):
        raise TableError("BAD_REQUEST", "pawn must be a pawn id from 0 to 59")
    if zone not in ZONES:
        raise TableError("BAD_REQUEST", f"zone must be one of {', '.join(ZONES)}")
    if zone in ("bag", "exit") and (type(player) is not int or not 0 <= player < state.n):
        raise TableError("BAD_REQUEST", f"a {zone} needs the player's seat number")
    if P.is_seat(state.loc[pawn]) or state.loc[pawn] in {P.hand(q) for q in range(state.n)}:
        raise TableError("BAD_REQUEST", f"pawn {pawn} is drawn or seated: correct it once it "
                         "is back in a bag, an exit zone, the reserve or the box")
    where = {"box": P.BOX, "reserve": P.RESERVE}.get(zone)
    if where is None:
        assert isinstance(player, int)
        where = P.bag(player) if zone == "bag" else P.exit_zone(player)
    state.move_pawn(pawn, where)
