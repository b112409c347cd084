"""``popcorn-companion readers card-list``: the order in which to tap the cards when they
are enrolled "in catalog order" (``POST /api/enroll`` with ``{"cards": "movie"}``).

Print it, sort the cards of one kind into that pile order, start the enrollment of that
kind on the setup screen, and tap them one by one: each new tag becomes the next card of the
list that has no tag yet. A theater tile with several copies appears once per copy.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from .cardbook import CARD_KINDS, CardBook
from .facts_file import card_copies, load_catalog

HEADINGS = {"movie": "Movie cards", "theater": "Theater tiles", "award": "Award cards"}
"""The heading printed above each kind's list."""


def add_parser(sub: Any) -> None:
    """Add ``card-list`` to the ``readers`` subcommands."""
    parser = sub.add_parser("card-list", help="print the cards in the order to tap them "
                            "for enrollment in catalog order",
                            description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=CARD_KINDS, action="append",
                        help="only this kind (repeat for several; default: all three)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per card instead of a printable list")
    parser.set_defaults(func=run)


def card_lines(book: CardBook, kinds: list[str]) -> list[str]:
    """The printable list: a heading per kind, then ``  n. title`` in tapping order."""
    lines: list[str] = []
    for kind in kinds:
        listing = book.listing(kind)
        lines.append(f"{HEADINGS[kind]} ({len(listing)}), in tapping order:")
        lines += [f"  {n:>2}. [ ] {book.title(kind, card)}"
                  for n, card in enumerate(listing, 1)]
        lines.append("")
    return lines


def run(args: argparse.Namespace) -> int:
    """Print the list (or JSON lines) for the chosen kinds."""
    book = CardBook.from_catalog(load_catalog(), card_copies())
    kinds = args.kind or list(CARD_KINDS)
    if args.json:
        for kind in kinds:
            for n, card in enumerate(book.listing(kind), 1):
                print(json.dumps({"kind": kind, "n": n, "card": card,
                                  "title": book.title(kind, card)}))
        return 0
    print("\n".join(card_lines(book, kinds)).rstrip())
    return 0
