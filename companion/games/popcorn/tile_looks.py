"""How a theater tile is named: by what the table sees on it.

A printed tile carries no title, only its price, its seats (1 to 3), each seat's color and
the action under each seat. So the companion names a tile by those, the way a player would
point at it across the table: "the $2 one-seat tile (blue seat: +$3)". A grey seat takes a
guest of any color: "any seat".

An English device reads this sentence as :func:`tile_look` makes it; the catalogs translate
it whole under the message context ``theater:<id>`` (:data:`LOOK`), so each language words
it naturally (its own articles, adjective endings and money format), and the dashboard finds
it by the tile's id.
"""

from __future__ import annotations

from typing import Any

LOOK = "theater:"
"""The message context of a theater tile's name: ``theater:<theater id>``."""
LOOK_NOTE = ("A theater tile named by what is printed on it: its price, its number of seats, "
             "each seat's color (grey: any color) and the action under it. Used inside "
             "sentences such as \"Put {title} back in the market\".")
"""What a translator is told about a tile's name."""

COUNTS = {1: "one", 2: "two", 3: "three"}
"""A tile's number of seats as a word ("the $3 two-seat tile")."""
ACTIONS = {"guest_to_reserve": "guest to reserve", "exit_to_bag": "exit zone → bag",
           "draw_guest_to_seat": "draw a guest to a seat", "movie_action": "movie action"}
"""The actions under a seat that are no gain of money or popcorn, in words."""


def action_words(action: str) -> str:
    """The action under a seat as printed: ``money_3`` → "+$3", ``popcorn_1`` →
    "+1 popcorn", else its words (:data:`ACTIONS`)."""
    kind, _, amount = action.rpartition("_")
    if kind == "money":
        return f"+${amount}"
    if kind == "popcorn":
        return f"+{amount} popcorn"
    return ACTIONS.get(action, action.replace("_", " "))


def tile_name(theater: Any) -> str:
    """A theater tile named as it looks, as a list names it (``theater`` has the catalog's
    ``price``, ``seats``, ``seat_colors`` and ``seat_actions``): "$2 one-seat tile (blue
    seat: +$3)"; seats in seat order, separated by "; "."""
    seats = "; ".join(
        f"{'any' if color == 'grey' else color} seat: {action_words(action)}"
        for color, action in zip(theater.seat_colors, theater.seat_actions, strict=True))
    count = COUNTS.get(theater.seats, str(theater.seats))
    return f"${theater.price} {count}-seat tile ({seats})"


def tile_look(theater: Any) -> str:
    """A theater tile's name inside a sentence: "the $2 one-seat tile (blue seat: +$3)"
    (the words an alert's ``{title}`` takes, translated whole under ``theater:<id>``)."""
    return f"the {tile_name(theater)}"


def sentence(text: str) -> str:
    """``text`` with its first letter in capitals: a tile's name may open a sentence ("The
    $2 one-seat tile … was tapped")."""
    return text[:1].upper() + text[1:]
