"""Corrections: the table says where a pawn really is, with its PIN.

A ``correct`` event names a pawn and a zone (``box``, ``reserve``, a player's ``bag`` or
``exit``). Only a pawn at rest can be corrected: one drawn or seated moves on by the rules,
so a table corrects it once it is back in a bag, an exit zone, the reserve or the box.

Nobody at the table can read a pawn's id, and pawns of one color look alike, so a request
may name the pawn as the table sees it instead: a ``color`` and the place ``from`` where the
companion has such a guest (``{"color": "blue", "from": {"zone": "exit", "player": 1}}``:
"a blue guest the companion has in Bob's exit zone"). :func:`relocate` then takes the
lowest-numbered pawn of that color there, and the event is logged with that pawn, as a
correction naming it would be.
"""

from __future__ import annotations

from typing import Any

from companion.kit.errors import TableError

from .alert_params import guest_words, place_params
from .engine import GameState
from .engine import pawns as P

ZONES = ("box", "reserve", "bag", "exit")
"""Where a correction may put a pawn."""


def relocate(state: GameState, body: dict[str, Any]) -> dict[str, Any]:
    """Put ``body["pawn"]`` (or the guest ``body["color"]`` and ``body["from"]`` describe)
    in ``body["zone"]`` (of seat ``body["player"]`` for a bag or an exit zone), in place; a
    bad body raises ``BAD_REQUEST`` (``NO_SUCH_GUEST`` for a described guest the companion
    does not have there) and changes nothing. Returns the correction as the log keeps it:
    ``{"pawn", "zone"}``, and ``"player"`` for a bag or an exit zone."""
    pawn, zone, player = body.get("pawn"), body.get("zone"), body.get("player")
    if pawn is None and "color" in body:
        pawn = described(state, body.get("color"), body.get("from"))
    if type(pawn) is not int or not 0 <= pawn < len(state.loc):
        raise TableError("BAD_REQUEST", "pawn must be a pawn id from 0 to 59")
    where = _location(state, zone, player, "zone")
    if P.is_seat(state.loc[pawn]) or state.loc[pawn] in {P.hand(q) for q in range(state.n)}:
        raise TableError("PAWN_IN_PLAY", f"This {guest_words(state.pawn_color[pawn])} is "
                         f"drawn or seated ({P.describe(state.loc[pawn], state.names)}): the "
                         "rules move it on; correct it once it is back in a bag, an exit zone, "
                         "the reserve or the box.", 409,
                         params={"color": state.pawn_color[pawn],
                                 **place_params(state.loc[pawn], state.names)})
    state.move_pawn(pawn, where)
    logged: dict[str, Any] = {"pawn": pawn, "zone": zone}
    if zone in ("bag", "exit"):
        logged["player"] = player
    return logged


def described(state: GameState, color: Any, place: Any) -> int:
    """The pawn a correction describes as "a ``color`` guest the companion has at
    ``place``" (``{"zone": ..., "player": ...}``): the lowest-numbered one there."""
    if color not in set(state.pawn_color):
        raise TableError("BAD_REQUEST", "color must be a guest color: "
                         f"{', '.join(sorted(set(state.pawn_color)))}")
    if not isinstance(place, dict):
        raise TableError("BAD_REQUEST", 'from must be a place: {"zone": ..., "player": ...}')
    loc = _location(state, place.get("zone"), place.get("player"), "from")
    here = sorted(q for q in state.pawns_at(loc) if state.pawn_color[q] == color)
    if not here:
        raise TableError("NO_SUCH_GUEST", f"The companion has no {color} guest in "
                         f"{P.describe(loc, state.names)}.", 409,
                         params={"color": color, **place_params(loc, state.names)})
    return here[0]


def _location(state: GameState, zone: Any, player: Any, field: str) -> int:
    """The location code of a correction's place; ``field`` names it in a refusal."""
    if zone not in ZONES:
        raise TableError("BAD_REQUEST", f"{field} must be one of {', '.join(ZONES)}")
    if zone in ("bag", "exit") and (type(player) is not int or not 0 <= player < state.n):
        raise TableError("BAD_REQUEST", f"a {zone} needs the player's seat number")
    fixed = {"box": P.BOX, "reserve": P.RESERVE}.get(zone)
    if fixed is not None:
        return fixed
    assert isinstance(player, int)
    return P.bag(player) if zone == "bag" else P.exit_zone(player)


def into_bag(state: GameState, player: int, pawn: int) -> dict[str, Any] | None:
    """The correction an alert proposes when a bag really held the tapped pawn: ``pawn``
    into ``player``'s bag; None when the pawn is drawn or seated, which no correction may
    move."""
    loc = state.loc[pawn]
    if P.is_seat(loc) or loc in {P.hand(q) for q in range(state.n)}:
        return None
    return {"pawn": pawn, "zone": "bag", "player": player}
