"""The ``params`` of an alert: the facts its sentence names, as plain values.

An :class:`~companion.games.popcorn.tags.Alert` says in English where a guest is ("seat #2 of
Bob's center theater"); a device in another language rebuilds that sentence from these
params (see :mod:`companion.i18n.localize`): the tapping ``player`` and their ``name``, the
``pawn`` and its ``color``, and its place as ``zone`` (``box``, ``reserve``, ``bag``,
``exit``, ``hand`` or ``seat``), the zone's ``owner`` (a name) and, for a seat, ``slot``
(0 left, 1 center, 2 right) and ``seat`` (counted from 1, as printed).
"""

from __future__ import annotations

from typing import Any

from .engine import GameState
from .engine import pawns as P

ZONE_KINDS = ("bag", "exit", "hand")
"""A player's own zones, in the order of :mod:`companion.games.popcorn.engine.pawns`' location
codes."""


def place_params(loc: int, names: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """Where a location is, as ``zone``, ``owner``, ``slot`` and ``seat`` params."""
    if loc == P.BOX:
        return {"zone": "box"}
    if loc == P.RESERVE:
        return {"zone": "reserve"}
    who = P.owner(loc)
    assert who is not None
    owner = names[who] if who < len(names) else str(who + 1)
    if P.is_seat(loc):
        _, slot, index = P.seat_parts(loc)
        return {"zone": "seat", "owner": owner, "slot": slot, "seat": index + 1}
    return {"zone": ZONE_KINDS[(loc - 10) % 10], "owner": owner}


def alert_params(state: GameState, player: int, pawn: int | None = None,
                 uid: str = "") -> dict[str, Any]:
    """The params of an alert about a tap of ``pawn`` (or of an unknown tag ``uid``) on
    ``player``'s bag reader."""
    params: dict[str, Any] = {"player": player, "name": state.names[player]}
    if pawn is None:
        return {**params, "uid": uid}
    return {**params, "pawn": pawn, "color": state.pawn_color[pawn],
            **place_params(state.loc[pawn], state.names)}


def guest_words(color: str) -> str:
    """A guest as the table sees it, by its color and the letter on its disc ("blue B
    guest", as the dashboard's pawns show it): the pawns carry no number, so an alert never
    names one."""
    return f"{color} {color[:1].upper()} guest"
