"""Corrections: the table says where a pawn really is, with its PIN.

A request names a pawn and a zone (``box``, ``reserve``, a player's ``bag`` or ``exit``).
Only a pawn at rest can be corrected: one drawn or seated moves on by the rules, so a table
corrects it once it is back in a bag, an exit zone, the reserve or the box.

Nobody at the table can read a pawn's id, and pawns of one color look alike, so a request
may name the pawn as the table sees it instead: a ``color`` and the place ``from`` where the
companion has such a guest (``{"color": "blue", "from": {"zone": "exit", "player": 1}}``:
"a blue guest from Bob's exit zone").

What the request means is decided once (:func:`correction`) and logged as such, so that a
replay of the log does the same:

- **a relabel** (``{"seen": [17], "zone": "bag", "player": 0, "relabel": [[17, 23]]}``): the
  pawn, named by its tag, may already be there in some arrangement the table's moves allow
  (:mod:`.whereabouts`). No count changes: the look-alikes trade names, and the hub knows the
  pawn is there. A game record has no line for it. An accepted audit ends with one, for every
  guest it saw in the bag;
- **a pawn moved** (``{"pawn": 17, "zone": "bag", "player": 0, "by": "tag"}``): one guest of
  its color fewer where the companion had it, one more in the zone, and the hub knows it is
  there. The record holds it as a ``correct`` move (:mod:`.engine.corrections`);
- **a guest moved by its color** (``"by": "color"``): the same counts, but the hub learns
  nothing of which pawn moved (the lowest-numbered one there is written down). An audit's
  fixes are of this kind, so that they never plant a guess.

A logged correction without ``by`` or ``seen`` (an older hub's) is a pawn moved.
"""

from __future__ import annotations

from typing import Any

from companion.kit.errors import TableError

from .alert_params import guest_words, place_params
from .engine import GameState, Move, Violation
from .engine import pawns as P
from .engine.corrections import ZONES, apply_correct, in_play, zone_location
from .table_state import TableState


def correction(state: GameState, body: dict[str, Any]) -> dict[str, Any]:
    """What a correction request means, checked, as the log keeps it (see the module's
    text): a relabel when the pawn may already be in that zone, else a pawn moved by its tag,
    or a guest moved by its color for a described one. Changes nothing."""
    if "seen" in body or "by" in body:
        return dict(body)
    zone, player = body.get("zone"), body.get("player")
    where = _location(state, zone, player, "zone")
    place = {"zone": zone, **({"player": player} if zone in ("bag", "exit") else {})}
    if "pawn" not in body and "color" in body:
        return {"pawn": described(state, body.get("color"), body.get("from")), **place,
                "by": "color"}
    pawn = _pawn(state, body.get("pawn"))
    if isinstance(state, TableState) and state.known.may_be(pawn, where):
        return {"seen": [pawn], **place}
    _check_rest(state, pawn)
    return {"pawn": pawn, **place, "by": "tag"}


def correct(state: GameState, logged: dict[str, Any]) -> dict[str, Any]:
    """Apply a correction as :func:`correction` logged it, in place; returns it as the log
    keeps it (a relabel with its swaps). A bad one raises and changes nothing."""
    if "seen" in logged:
        return _relabel(state, logged)
    if "pawn" not in logged and "color" in logged:  # a request straight from a caller
        return correct(state, correction(state, logged))
    pawn = _pawn(state, logged.get("pawn"))
    _location(state, logged.get("zone"), logged.get("player"), "zone")
    logged = {**logged, **_from(state, pawn, logged)}
    _check_rest(state, pawn)
    before = list(state.loc)
    apply_correct(state, _move(logged))
    if isinstance(state, TableState):
        state.relocated(before, None if logged.get("by") == "color" else pawn)
    return dict(logged)


def _from(state: GameState, pawn: int, logged: dict[str, Any]) -> dict[str, Any]:
    """A pawn named by its tag and the place it comes ``from`` (an audit's fix: the one
    other place it may be in): the relabel that puts it there first, made in ``state`` (the
    logged one on a replay); nothing to add without ``from``."""
    place = logged.get("from")
    if place is None or not isinstance(state, TableState):
        return {}
    if not isinstance(place, dict):
        raise TableError("BAD_REQUEST", 'from must be a place: {"zone": ..., "player": ...}')
    loc = _location(state, place.get("zone"), place.get("player"), "from")
    given = logged.get("relabel")
    swaps = state.known.swaps_for(pawn, loc, state.loc) if given is None else \
        [(int(a), int(b)) for a, b in given]
    if swaps is None:
        guest, there = guest_words(state.pawn_color[pawn]), P.describe(loc, state.names)
        raise TableError("NOT_THERE", f"The companion knows this {guest} cannot be in "
                         f"{there}.", 409, params={"color": state.pawn_color[pawn],
                                                   **place_params(loc, state.names)})
    state.relabel(swaps)
    return {"relabel": [list(pair) for pair in swaps]} if swaps else {}


def record_move(logged: dict[str, Any]) -> Move | None:
    """The correction as a line of a game record, or None for a relabel (no count changed)."""
    if "seen" in logged:
        return None
    return _move(logged)


def _move(logged: dict[str, Any]) -> Move:
    return Move("correct", pawn=logged["pawn"], zone=logged["zone"],
                player=logged.get("player") if logged["zone"] in ("bag", "exit") else None)


def _relabel(state: GameState, logged: dict[str, Any]) -> dict[str, Any]:
    """Guests the table showed in a zone, with no count changed: the look-alikes trade
    names (the logged swaps, or the ones the hub finds), and the hub knows where they are."""
    where = _location(state, logged.get("zone"), logged.get("player"), "zone")
    seen = logged.get("seen")
    if not isinstance(seen, list) or not seen:
        raise TableError("BAD_REQUEST", "seen must be a list of pawn ids")
    pawns = [_pawn(state, p) for p in seen]
    if not isinstance(state, TableState):
        return dict(logged)
    given = logged.get("relabel")
    if given is not None:  # a replay: the swaps as they were made
        state.relabel([(int(a), int(b)) for a, b in given])
        for pawn in pawns:
            state.observe(pawn)
        return dict(logged)
    swaps: list[list[int]] = []
    for pawn in pawns:  # each one seen there before the next one's swaps are sought
        found = state.known.swaps_for(pawn, where, state.loc)
        if found is None:
            guest, there = guest_words(state.pawn_color[pawn]), P.describe(where, state.names)
            raise TableError("NOT_THERE", f"The companion knows this {guest} cannot be in "
                             f"{there}.", 409, params={"color": state.pawn_color[pawn],
                                                       **place_params(where, state.names)})
        state.relabel(found)
        state.observe(pawn)
        swaps += [list(pair) for pair in found]
    return {**logged, "relabel": swaps}


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


def _pawn(state: GameState, pawn: Any) -> int:
    if type(pawn) is not int or not 0 <= pawn < len(state.loc):
        raise TableError("BAD_REQUEST", f"pawn must be a pawn id from 0 to {len(state.loc) - 1}")
    return pawn


def _check_rest(state: GameState, pawn: int) -> None:
    if in_play(state, pawn):
        raise in_play_error(state, pawn, state.loc[pawn])


def in_play_at(state: GameState, loc: int) -> bool:
    """Whether ``loc`` is a place the rules move a guest on from (a hand or a seat)."""
    return P.is_seat(loc) or loc in {P.hand(q) for q in range(state.n)}


def in_play_error(state: GameState, pawn: int, loc: int) -> TableError:
    """``PAWN_IN_PLAY``: ``pawn``, at ``loc`` (a hand or a seat), cannot be corrected."""
    return TableError("PAWN_IN_PLAY", f"This {guest_words(state.pawn_color[pawn])} is drawn "
                      f"or seated ({P.describe(loc, state.names)}): the rules move it on; "
                      "correct it once it is back in a bag, an exit zone, the reserve or the "
                      "box.", 409, params={"color": state.pawn_color[pawn],
                                           **place_params(loc, state.names)})


def _location(state: GameState, zone: Any, player: Any, field: str) -> int:
    """The location code of a correction's place; ``field`` names it in a refusal."""
    if zone not in ZONES:
        raise TableError("BAD_REQUEST", f"{field} must be one of {', '.join(ZONES)}")
    if zone in ("bag", "exit") and (type(player) is not int or not 0 <= player < state.n):
        raise TableError("BAD_REQUEST", f"a {zone} needs the player's seat number")
    try:
        return zone_location(state, zone, player)
    except Violation as exc:  # checked above: never
        raise TableError("BAD_REQUEST", exc.message) from exc


def into_bag(state: GameState, player: int, pawn: int) -> dict[str, Any] | None:
    """The correction an alert proposes when a bag really held the tapped pawn: ``pawn``
    into ``player``'s bag. None when the pawn is drawn or seated, which no correction may
    move, or when the hub does not know where it is (the correction would take one guest
    from a place it only guesses)."""
    if isinstance(state, TableState) and state.known.certain(pawn) is None:
        return None
    if in_play(state, pawn):
        return None
    return {"pawn": pawn, "zone": "bag", "player": player}
