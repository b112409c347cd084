"""The 60 guest pawns and the places they can be.

Pawn ids follow the box contents in the catalog, color by color in the order of
:data:`~companion.games.popcorn.engine.catalog.GUEST_COLORS`: with the standard box, ids 0-19 are
white, 20-29 blue, 30-39 green, 40-49 red and 50-59 yellow.

A location is a small integer so that the state copies fast. Build them with the functions
here, never by hand:

* :data:`BOX` and :data:`RESERVE` are shared;
* :func:`bag`, :func:`exit_zone` and :func:`hand` belong to one player (the hand holds the
  guests drawn during Open Cinema that are not placed yet);
* :func:`seat` is one seat of one theater of one cinema.
"""

from __future__ import annotations

from collections.abc import Sequence

BOX = 0
"""Out of the game: the pawns a 2- or 3-player game does not use."""
RESERVE = 1
"""The common reserve in the middle of the table."""

_BAG, _EXIT, _HAND = 0, 1, 2
_SEAT_BASE = 1000

FIRST_SEAT = _SEAT_BASE
"""Every seat location is at least this, every other location below it (see :func:`is_seat`)."""


def bag(player: int) -> int:
    """The location code of a player's cloth bag."""
    return 10 + player * 10 + _BAG


def exit_zone(player: int) -> int:
    """The location code of a player's exit zone."""
    return 10 + player * 10 + _EXIT


def hand(player: int) -> int:
    """Guests a player has drawn and not yet placed."""
    return 10 + player * 10 + _HAND


def seat(player: int, slot: int, index: int) -> int:
    """Seat ``index`` (0 is seat #1) of the theater in ``slot`` of a player's cinema."""
    return _SEAT_BASE + player * 100 + slot * 10 + index


def is_seat(loc: int) -> bool:
    """Whether the location is a seat."""
    return loc >= _SEAT_BASE


def owner(loc: int) -> int | None:
    """The player a location belongs to, or None for the box and the reserve."""
    if loc >= _SEAT_BASE:
        return (loc - _SEAT_BASE) // 100
    if loc >= 10:
        return (loc - 10) // 10
    return None


def seat_owner(loc: int) -> int:
    """The player whose cinema a seat location belongs to."""
    return (loc - _SEAT_BASE) // 100


def seat_parts(loc: int) -> tuple[int, int, int]:
    """``(player, slot, index)`` of a seat location."""
    rest = loc - _SEAT_BASE
    return rest // 100, (rest % 100) // 10, rest % 10


def pawn_colors(box: dict[str, int], order: Sequence[str]) -> tuple[str, ...]:
    """The color of each pawn id, for a box holding ``box[color]`` pawns of each color."""
    return tuple(color for color in order for _ in range(box[color]))


def describe(loc: int, names: Sequence[str] | None = None) -> str:
    """A phrase a player understands: "Ana's bag", "seat #2 of Bob's center theater"."""
    if loc == BOX:
        return "the box"
    if loc == RESERVE:
        return "the reserve"
    who = owner(loc)
    assert who is not None
    name = names[who] if names and who < len(names) else f"player {who + 1}"
    if is_seat(loc):
        _, slot, index = seat_parts(loc)
        return f"seat #{index + 1} of {name}'s {SLOT_NAMES[slot]} theater"
    kind = (loc - 10) % 10
    return f"{name}'s " + {_BAG: "bag", _EXIT: "exit zone", _HAND: "hand"}[kind]


SLOT_NAMES: tuple[str, ...] = ("left", "center", "right")
"""Cinema slot names, slot 0 first."""
