"""What a tap on a reader is to a game, and what the game answers (the table plays it).

The hub's tag registry says what a tapped UID stands for: one of a game's pieces (a
:class:`~.pieces.Piece`, with its kind, number and value), or nothing it knows (None), from
the kinds each game's pieces declare (:class:`~.pieces.PieceKind`). The game's pieces part
(:class:`~companion.kit.parts.Pieces`) answers with one of its moves, a :class:`Relabel` of
look-alike pieces with its move, several moves (:class:`TapMoves`), a choice of moves
(:class:`TapChoice`), or an :class:`~companion.kit.alerts.Alert`. During an audit the taps
are only counted (:class:`AuditTap`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .alerts import Alert
from .pieces import Piece
from .rules import GameMove


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
    """One tap of an audit (:mod:`.audits`): the piece the registry knows the tag to be
    (None: an unknown tag) and its UID."""

    piece: Piece | None
    uid: str


@dataclass(frozen=True)
class TapMoves:
    """A tap that stands for more than one move: ``before``, then ``then`` (a move, or a
    :class:`Relabel` with its move), then ``after``. Popcorn's guest tapped on the reader of
    the player to buy, of the color of one of their ready advertising tokens: that token is
    activated, and the guest it gains is the one tapped. Popcorn's guest drawn to a seat that
    has one place left to go: the draw, then that place. Popcorn's guests set down together
    on a mat's theater: each one's placement, a relabel with its move each (``then`` and
    ``after``). The table applies them all or none, as one batch that one Undo takes back;
    each relabel is made on the state the moves before it left, as a replay of the log
    makes it."""

    before: tuple[GameMove, ...]
    then: GameMove | Relabel
    after: tuple[GameMove | Relabel, ...] = ()

    def steps(self) -> tuple[GameMove | Relabel, ...]:
        """Every move of the batch, in the order the table plays them."""
        return (*self.before, self.then, *self.after)


TapOption = GameMove | Relabel | TapMoves
"""One of the things a :class:`TapChoice` offers: a move, a :class:`Relabel` with its move,
or several moves that are one input (a :class:`TapMoves`: played, replaced and undone as a
whole)."""


class TapChoice:
    """A tap that several moves could follow (Popcorn's card tapped to buy it that several
    slots could take; a guest tapped into a bag that may have come from several places;
    guests set down together on a mat's theater, whose order the mat cannot tell).
    The table plays the one :meth:`suggested` names at once, if any, and keeps :meth:`to_dict`
    in its public view as ``card_choice`` (with ``placed``: the index of the option played,
    or None) until any other input clears it: one tap on another of its options then replaces
    the one played, as one input (:meth:`~companion.table.table.Table.rechoose`)."""

    moves: tuple[TapOption, ...] = ()
    """The options the tap may stand for, in the order the screen offers them: each a move
    (a :class:`Relabel` with its move where the tap showed a look-alike), or a
    :class:`TapMoves` where one option is several moves. A choice with such an option
    :meth:`suggests <suggested>` one: a screen that is asked first sends the move of its
    button, and only a played option is replaced as a whole."""

    def suggested(self, hints: bool) -> int | None:
        """The index of the option the table plays at once (``hints``: whether the table's
        hints are on), or None to play nothing until the table chooses (the default)."""
        return None

    def to_dict(self) -> dict[str, Any]:
        """The choice as JSON: what the screen offers (one button per option), with a
        ``kind`` that tells the screen how to word it."""
        raise NotImplementedError


TapResult = GameMove | Relabel | TapMoves | TapChoice | Alert
"""What a game makes of a tap (see the module's text)."""
