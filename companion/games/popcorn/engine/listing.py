"""The engine's own moves, built once and shared by every listing of every game.

The engine offers the same few thousand moves over and over (``draw_pawn`` of each pawn,
``reveal_movie`` of each card, ``place`` of each drawn guest on each free seat), and a
:class:`~.moves.Move` is an immutable value, so the functions that list moves take them from
the tables here instead of building them anew. This is the engine's only state outside a game:
a memo of values, whose content never changes an answer. The fields always come from a game's
own state, so the tables stay as small as the set of moves games can offer.

A move handed out here is also known to be well typed, which lets :func:`.game.apply_listed`
skip the checks of a move the engine has just listed (see :func:`is_listed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .moves import Move


def listed(kind: str, player: int | None = None, card: str | None = None,
           slot: int | None = None, seat: int | None = None, index: int | None = None,
           pawn: int | None = None, space: str | None = None, color: str | None = None,
           target: int | None = None) -> Move:
    """The shared :class:`Move` with these fields (``Move(kind, player=..., ...)``)."""
    key = (kind, player, card, slot, seat, index, pawn, space, color, target)
    move = _LISTED.get(key)
    if move is None:
        # setdefault keeps one object per key even if two threads list the same move at once
        move = _LISTED.setdefault(key, Move(*key))
        _LISTED_IDS.add(id(move))
    return move


def is_listed(move: Move) -> bool:
    """Whether this very object was handed out here (an equal copy built elsewhere was not).

    Listed moves live as long as the process, so no other object can ever share their ``id``.
    """
    return id(move) in _LISTED_IDS


def listed_each(kind: str, player: int | None, field: str, values: Sequence[Any]) -> list[Move]:
    """Moves that differ in one field, one per value, in the order given.

    ``listed_each("draw_pawn", 2, "pawn", bag)`` is ``[listed("draw_pawn", player=2, pawn=i)
    for i in bag]``, the usual shape of a list of chance outcomes, read from a table per kind,
    player and field.
    """
    table = _TABLES.get((kind, player, field))
    if table is None:
        table = _TABLES.setdefault((kind, player, field), {})
    try:
        return [table[value] for value in values]
    except KeyError:
        for value in values:
            if value not in table:
                table[value] = listed(kind, player, **{field: value})
        return [table[value] for value in values]


def listed_places(player: int, pawns: Sequence[int],
                  seats: Sequence[tuple[int, int]]) -> list[Move]:
    """``place`` moves of each pawn on each ``(slot, seat)``, pawn by pawn."""
    try:
        return [_PLACES[player, i, s, k] for i in pawns for s, k in seats]
    except KeyError:
        for i in pawns:
            for s, k in seats:
                if (player, i, s, k) not in _PLACES:
                    _PLACES[player, i, s, k] = listed("place", player, pawn=i, slot=s, seat=k)
        return [_PLACES[player, i, s, k] for i in pawns for s, k in seats]


_LISTED: dict[tuple[Any, ...], Move] = {}
_LISTED_IDS: set[int] = set()
_TABLES: dict[tuple[str, int | None, str], dict[Any, Move]] = {}
_PLACES: dict[tuple[int, int, int, int], Move] = {}
