"""What a tap on a reader is to a game, and what the game answers (the table plays it).

The hub's tag registry says what a tapped UID stands for (a :class:`TagThing`: a pawn, a
card, a token, or nothing it knows), from what the games' pieces ask of it
(:class:`TagKinds`). The game's pieces part (:class:`~companion.kit.parts.Pieces`) answers
with one of its moves, a :class:`Relabel` of look-alike pieces with its move, several moves
(:class:`TapMoves`), a choice of moves (:class:`TapChoice`), or an
:class:`~companion.kit.alerts.Alert`. During an audit the taps are only counted
(:class:`AuditTap`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .alerts import Alert
from .rules import GameMove


class CardBook(Protocol):
    """The cards a game lets the tag registry tag, as the registry asks about them
    (Popcorn's :class:`~companion.games.popcorn.cardbook.CardBook`): their kinds, titles
    and physical copies, by ``(kind, card id)``."""

    @property
    def titles(self) -> dict[tuple[str, str], str]:
        """Each card's title by ``(kind, card id)``."""
        ...

    @property
    def copies(self) -> dict[tuple[str, str], int]:
        """How many physical copies of each card the box holds, by ``(kind, card id)``."""
        ...

    def capacity(self) -> dict[str, int]:
        """How many physical cards of each kind the box holds."""
        ...

    def listing(self, kind: str) -> list[str]:
        """Every physical card of ``kind`` in catalog order."""
        ...

    def knows(self, kind: object, card: object) -> bool:
        """Whether ``card`` is a card of ``kind`` (either may come from a request)."""
        ...

    def title(self, kind: str, card: str) -> str:
        """A card's title."""
        ...


@dataclass(frozen=True)
class TagKinds:
    """What a game's pieces ask of the hub's tag registry: pawns by color (Popcorn's
    ``pawn_colors``, the color of each pawn id), cards (a card book with kinds, titles and
    copies) and tokens (``token_values``, the value of each token id). The hub adds up the
    games' kinds; a game with none of them has nothing to tag."""

    pawn_colors: tuple[str, ...] = ()
    cards: CardBook | None = None
    token_values: tuple[int, ...] = ()


@dataclass(frozen=True)
class TagThing:
    """What the tag registry knows a UID to be: ``kind`` (``pawn``, ``movie``, ``theater``,
    ``award``, ``token``) and the thing's id, as text for cards and an int for pawns and
    tokens. An unknown UID is no TagThing at all (None)."""

    kind: str
    id: int | str


@dataclass(frozen=True)
class Relabel:
    """A tap that is a move once look-alike things trade names.

    A game whose pieces of one kind look alike (Popcorn's pawns of one color) knows where a
    piece is only as far as the table showed it: a move entered by kind says "a blue guest
    from Ana's exit zone", not which one. When a tapped piece may be where the rules expect
    one of its kind, the tap is that move: the table makes the ``swaps`` in its state (pairs
    of look-alikes that trade places and names, in order, so that the state has ``seen``,
    the tapped piece, where the move takes it from), then plays ``move``, which names it.
    Both go into the log with the move (:meth:`LookAlikes.play` replays them), so a restart, an
    undo and the replay board agree.

    ``move`` is None for a tap that only tells the table where a piece is (Popcorn's pawns
    tapped into a bag as the players fill it at setup).
    """

    swaps: tuple[tuple[int, int], ...]
    seen: int
    move: GameMove | None


def swap_pairs(logged: Any) -> list[tuple[int, int]]:
    """A relabel as a log keeps it, as pairs of things that trade names, in order:
    ``[[a, b], ...]``, or an older log's one pair ``[a, b]``; none for None or ``[]``."""
    if not logged:
        return []
    if isinstance(logged[0], int):
        return [(int(logged[0]), int(logged[1]))]
    return [(int(a), int(b)) for a, b in logged]


@dataclass(frozen=True)
class AuditTap:
    """One tap of an audit (:mod:`.audits`): what the registry knows the tag to be (None:
    an unknown tag) and its UID."""

    thing: TagThing | None
    uid: str


@dataclass(frozen=True)
class TapMoves:
    """A tap that stands for more than one move: ``before``, then ``then`` (a move, or a
    :class:`Relabel` with its move), then ``after``. Popcorn's guest tapped on the reader of
    the player to buy, of the color of one of their ready advertising tokens: that token is
    activated, and the guest it gains is the one tapped. Popcorn's guest drawn to a seat that
    has one place left to go: the draw, then that place. The table applies them all or none,
    as one batch that one Undo takes back."""

    before: tuple[GameMove, ...]
    then: GameMove | Relabel
    after: tuple[GameMove, ...] = ()


class TapChoice:
    """A tap that several moves could follow (Popcorn's card tapped to buy it that several
    slots could take; a guest tapped into a bag that may have come from several places).
    The table plays the one :meth:`suggested` names at once, if any, and keeps :meth:`to_dict`
    in its public view as ``card_choice`` (with ``placed``: the index of the move played, or
    None) until any other input clears it: one tap on another of its moves then replaces the
    move played (:meth:`~companion.table.table.Table.rechoose`)."""

    moves: tuple[GameMove | Relabel, ...] = ()
    """The moves the tap may stand for, in the order the screen offers them (a
    :class:`Relabel` with its move where the tap showed a look-alike)."""

    def suggested(self, hints: bool) -> int | None:
        """The index of the move the table plays at once (``hints``: whether the table's
        hints are on), or None to play nothing until the table chooses (the default)."""
        return None

    def to_dict(self) -> dict[str, Any]:
        """The choice as JSON: what the screen offers (one button per move)."""
        raise NotImplementedError


TapResult = GameMove | Relabel | TapMoves | TapChoice | Alert
"""What a game makes of a tap (see the module's text)."""
