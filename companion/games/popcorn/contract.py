"""The API contract of Popcorn's own routes (:mod:`.routes`) and of its correction body, for
the hub's OpenAPI document.

The hub asks every game's routes part for its operations
(:meth:`~companion.kit.parts.Routes.operations`); these are Popcorn's: the seating advisor,
the table screen's shortcuts and the card catalog. Its corrections part gives the model of a
correction's own fields (:meth:`~companion.kit.parts.Corrections.model`):
:class:`PawnCorrection`, which the hub decodes a request with and the document describes.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from companion.kit.contract import SEAT_QUERY, Operation, Query, array_of, keys

TAG = "popcorn"
"""The document's tag of Popcorn's routes."""

_MOVES = array_of({"type": "object"})


def operations() -> list[Operation]:
    """One operation per Popcorn route."""
    table = "/api/tables/<table_id>"
    return [
        Operation("GET", "/api/catalog", "The card facts the dashboard searches and labels",
                  TAG, answer=keys("movies", "theaters", "awards")),
        Operation("GET", f"{table}/advice", "The seating advisor's answer for a seat's draw",
                  TAG, query=(SEAT_QUERY,), answer=keys("table", "round")),
        Operation("GET", f"{table}/placement", 'What "Seat them all as shown" sends', TAG,
                  query=(SEAT_QUERY,), answer=keys("table", "player", "hints")),
        Operation("GET", f"{table}/gains", 'What "Take the gains" sends', TAG,
                  query=(SEAT_QUERY,), answer=keys("table", "player", "events")),
        Operation("GET", f"{table}/suggestion", "The move the table screen suggests", TAG,
                  query=(SEAT_QUERY,), answer=keys("table", "player", "events", "hints")),
        Operation("GET", f"{table}/rest", 'What "Skip the rest" sends', TAG,
                  query=(SEAT_QUERY,), answer=keys("table", "player", "events")),
        Operation("GET", f"{table}/reach", "The moves that take a guest to a seat", TAG,
                  query=(SEAT_QUERY, Query("slot", {"type": "integer", "minimum": 0,
                                                    "maximum": 2}, "the theater slot", True),
                         Query("seat", {"type": "integer", "minimum": 0, "maximum": 8},
                               "the seat of the theater", True)),
                  answer=keys("table", "player", "slot", "seat", "events", "in_line",
                              "moves", moves=_MOVES)),
    ]


class Place(msgspec.Struct, kw_only=True):
    """Where the companion has a guest: a zone, and the seat whose bag or exit zone it is."""

    zone: Annotated[str, msgspec.Meta(description="box, reserve, bag or exit")]
    player: Annotated[int | None, msgspec.Meta(
        description="the seat, for a bag or an exit zone")] = None


class PawnCorrection(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/correct`` at a Popcorn table: a pawn by its id (``pawn``),
    or a guest as the table sees it (``color``, and the place ``from`` where the companion
    has such a guest), and where it really is (``zone``, and ``player`` for a bag or an
    exit zone). The PIN and the ``alert`` it fixes are the hub's (its ``CorrectBody``)."""

    pawn: Annotated[int, msgspec.Meta(description="the pawn's id, 0-59")] | \
        msgspec.UnsetType = msgspec.UNSET
    color: Annotated[str, msgspec.Meta(description="a guest color, with from")] | \
        msgspec.UnsetType = msgspec.UNSET
    from_: Place | msgspec.UnsetType = msgspec.field(default=msgspec.UNSET, name="from")
    zone: Annotated[str, msgspec.Meta(description="box, reserve, bag or exit")]
    player: Annotated[int | None, msgspec.Meta(
        description="the seat, for a bag or an exit zone")] = None
