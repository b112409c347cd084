"""A game's pieces as the hub's tag registry holds them: each a ``{game, kind, id, value}``.

A game declares each kind of piece that may carry a tag (:class:`PieceKind`): its id
(``pawn``, ``movie``, ``token``, ``face``...), a title, whether a piece's value is a secret
at the table, and its values, each with what a person reads on the piece and how many pieces
of the box carry it. The pieces of a kind are numbered from 0 in the order of its values,
``count`` each (Popcorn's 20 white pawns are 0 to 19, then 10 blue ones...), so a number is
one physical piece, and its value is what the rules care about (a pawn's color, a card's id,
a token's value). Enrollment gives each new tag the next free piece of a value (or the next
one in the kind's order), and a tap hands the game the :class:`Piece` its tag is on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

PieceValueId = str | int
"""A piece's value: a color, a card's id, a token's worth, a face."""


@dataclass(frozen=True)
class PieceValue:
    """One value of a kind: the ``value`` itself, the words a person reads on the piece
    (``title``, English, marked for the catalogs where it is a word rather than a name) and
    how many pieces of the box carry it (``count``)."""

    value: PieceValueId
    title: str
    count: int = 1

    def to_dict(self) -> dict[str, Any]:
        """``{"value", "title", "count"}``."""
        return {"value": self.value, "title": self.title, "count": self.count}


@dataclass(frozen=True)
class PieceKind:
    """A kind of a game's pieces that may carry a tag (see the module's text).

    ``secret``: a piece's value is not for every screen (Popcorn's award cards, B Movies'
    tokens), so what a tap pushes to a table's screens names only its kind. ``pick``: the
    pieces are told apart by what is printed on each (Popcorn's cards, one value a piece or
    nearly), so the setup screen enrolls them in the kind's order or by tapping one and
    picking its value from a list, rather than value by value (pawns by color, tokens by
    worth)."""

    kind: str
    title: str
    values: tuple[PieceValue, ...]
    secret: bool = False
    pick: bool = False

    def numbered(self) -> tuple[tuple[int, PieceValueId], ...]:
        """Every piece of the kind, ``(number, value)``, in order."""
        return self._numbered

    @cached_property
    def _numbered(self) -> tuple[tuple[int, PieceValueId], ...]:
        out: list[tuple[int, PieceValueId]] = []
        for value in self.values:
            out += [(len(out) + n, value.value) for n in range(value.count)]
        return tuple(out)

    def value_of(self, number: Any) -> PieceValueId | None:
        """The value of piece ``number``, or None for a number the kind has not."""
        numbered = self._numbered
        ok = type(number) is int and 0 <= number < len(numbered)
        return numbered[number][1] if ok else None

    def title_of(self, value: Any) -> str:
        """What a piece of ``value`` reads (the value itself for one the kind has not)."""
        return next((v.title for v in self.values if v.value == value), str(value))

    def capacity(self) -> dict[str, int]:
        """How many pieces carry each value (the value as text: a JSON key)."""
        return {str(v.value): v.count for v in self.values}

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "title", "secret", "pick", "values"}``."""
        return {"kind": self.kind, "title": self.title, "secret": self.secret,
                "pick": self.pick, "values": [v.to_dict() for v in self.values]}


@dataclass(frozen=True)
class Piece:
    """What a tag is on, as the registry knows it: the ``game`` and the ``kind`` of piece,
    its ``id`` (its number in the kind) and its ``value``. A game's pieces part reads a tap of
    it (:meth:`~companion.kit.parts.Pieces.read`); an unknown tag is no piece (None).

    An older table's log names a tapped piece by its ``kind`` and ``id`` only (its ``value``
    is then None and its ``game`` empty: the game reads its own ids)."""

    kind: str
    id: int | str
    value: PieceValueId | None = None
    game: str = ""

    def to_dict(self) -> dict[str, Any]:
        """``{"game", "kind", "id", "value"}``, as a table's log keeps it."""
        return {"game": self.game, "kind": self.kind, "id": self.id, "value": self.value}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Piece:
        """A piece as :meth:`to_dict` (or an older log, kind and id only) wrote it."""
        return cls(str(data["kind"]), data["id"], data.get("value"), str(data.get("game", "")))
