"""The printed cards that carry an NFC sticker: movies, theater tiles and award cards.

A card tag names a catalog id and its kind (``movie``, ``theater`` or ``award``). The book
lists, per kind, the catalog's ids in catalog order with a title a person can read (a
theater tile, which prints none, named as it looks: :func:`~.tile_looks.tile_name`) and the
number of physical copies (a theater id may stand for several tiles), so that enrollment
can refuse a card id the catalog does not know, or one more tag than the box has cards.

>>> book = CardBook.from_catalog(load_catalog())   # doctest: +SKIP
>>> book.capacity()["movie"]                         # doctest: +SKIP
48
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .tile_looks import tile_name

CARD_KINDS = ("movie", "theater", "award")
"""The kinds of card a tag may be stuck on, in the order screens list them."""


@dataclass(frozen=True)
class CardBook:
    """Per kind: catalog ids in catalog order, their titles and their physical copies."""

    order: dict[str, tuple[str, ...]]
    titles: dict[tuple[str, str], str]
    copies: dict[tuple[str, str], int]

    @classmethod
    def from_catalog(cls, catalog: Any, copies: dict[str, dict[str, int]] | None = None
                     ) -> CardBook:
        """The book of a catalog; ``copies`` is ``{kind: {id: n}}`` (1 where not given)."""
        copies = copies or {}
        named = {
            "movie": [(m.id, m.title) for m in catalog.movies.values()],
            "theater": [(t.id, tile_name(t)) for t in catalog.theaters.values()],
            "award": [(a.id, a.title) for a in catalog.awards.values()],
        }
        order = {kind: tuple(i for i, _ in items) for kind, items in named.items()}
        titles = {(kind, i): title for kind, items in named.items() for i, title in items}
        counts = {(kind, i): int(copies.get(kind, {}).get(i, 1))
                  for kind, items in named.items() for i, _ in items}
        return cls(order, titles, counts)

    def knows(self, kind: Any, card: Any) -> bool:
        """Whether ``kind`` is a card kind and ``card`` one of its catalog ids."""
        return isinstance(kind, str) and isinstance(card, str) and (kind, card) in self.titles

    def title(self, kind: str, card: str) -> str:
        """The card's title (a theater's is made from its id)."""
        return self.titles[(kind, card)]

    def capacity(self) -> dict[str, int]:
        """How many physical cards of each kind the box holds (copies counted)."""
        return {kind: sum(self.copies[(kind, i)] for i in self.order[kind])
                for kind in CARD_KINDS}

    def listing(self, kind: str) -> list[str]:
        """Every physical card of ``kind`` in catalog order, a theater once per copy: the
        order in which "tap in catalog order" enrollment hands out card ids."""
        return [i for i in self.order[kind] for _ in range(self.copies[(kind, i)])]
