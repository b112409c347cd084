"""The API contract of Popcorn's own routes (:mod:`.routes`), for the hub's OpenAPI document.

The hub asks every game's routes part for its operations
(:meth:`~companion.kit.parts.Routes.operations`); these are Popcorn's: the seating advisor,
the table screen's shortcuts and the card catalog.
"""

from __future__ import annotations

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
