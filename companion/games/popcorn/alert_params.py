"""The ``params`` of an alert: the facts its sentence names, as plain values.

An :class:`~companion.games.popcorn.tags.Alert` says in English where a guest is ("seat #2 of
Bob's center theater"); a device in another language rebuilds that sentence from these
params (see :mod:`companion.i18n.localize`): the tapping ``player`` and their ``name``, the
``pawn`` and its ``color``, and its place as ``zone`` (``box``, ``reserve``, ``bag``,
``exit``, ``hand`` or ``seat``), the zone's ``owner`` (a name) and, for a seat, ``slot``
(0 left, 1 center, 2 right) and ``seat`` (counted from 1, as printed).

An alert names only what the hub knows for certain (:func:`region_params`): a pawn that may
be in several places of one player is in their ``cinema`` (all seats) or their ``area`` (the
bag, exit zone, hand and cinema in front of them); one that may be in several players' places
is ``"kind": "unsure"``, and its alert's sentence names no place at all.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from .engine import GameState
from .engine import pawns as P

ZONE_KINDS = ("bag", "exit", "hand")
"""A player's own zones, in the order of :mod:`companion.games.popcorn.engine.pawns`' location
codes."""


def place_params(loc: int, names: Sequence[str]) -> dict[str, Any]:
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


def region_params(places: Collection[int], names: Sequence[str]) -> dict[str, Any]:
    """Where a pawn that may be in ``places`` is, as far as that is certain: one place (as
    :func:`place_params`), one player's ``cinema`` or ``area`` (with its ``owner``), or
    ``{"kind": "unsure"}``."""
    if len(places) == 1:
        return place_params(next(iter(places)), names)
    owners = {P.owner(x) for x in places}
    who = next(iter(owners))
    if len(owners) > 1 or who is None:
        return {"kind": "unsure"}
    owner = names[who] if who < len(names) else str(who + 1)
    return {"zone": "cinema" if all(P.is_seat(x) for x in places) else "area", "owner": owner}


def region_words(region: dict[str, Any], names: Sequence[str]) -> str:
    """:func:`region_params` in English words ("seat #2 of Bob's center theater", "Bob's
    cinema", "Bob's play area"; "" when unsure)."""
    zone, owner = region.get("zone"), region.get("owner")
    if zone == "cinema":
        return f"{owner}'s cinema"
    if zone == "area":
        return f"{owner}'s play area"
    if zone is None:
        return ""
    return P.describe(location(region, names), names)


def location(place: dict[str, Any], names: Sequence[str]) -> int:
    """The location code of :func:`place_params`' params (one place, not a region)."""
    zone = place["zone"]
    if zone in ("box", "reserve"):
        return P.BOX if zone == "box" else P.RESERVE
    seat = list(names).index(place["owner"])
    if zone == "seat":
        return P.seat(seat, place["slot"], place["seat"] - 1)
    return {"bag": P.bag, "exit": P.exit_zone, "hand": P.hand}[zone](seat)


def alert_params(state: GameState, player: int, pawn: int | None = None,
                 uid: str = "") -> dict[str, Any]:
    """The params of an alert about a tap of ``pawn`` (or of an unknown tag ``uid``) on
    ``player``'s bag reader, without the pawn's place (:func:`region_params` says what is
    certain of it)."""
    params: dict[str, Any] = {"player": player, "name": state.names[player]}
    if pawn is None:
        return {**params, "uid": uid}
    return {**params, "pawn": pawn, "color": state.pawn_color[pawn]}


def guest_words(color: str) -> str:
    """A guest as the table sees it, by its color and the letter on its disc ("blue B
    guest", as the dashboard's pawns show it): the pawns carry no number, so an alert never
    names one."""
    return f"{color} {color[:1].upper()} guest"
