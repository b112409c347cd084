"""The order of guests set down together in a theater, which a mat cannot tell (issue 40).

A cinema mat reports a zone each scan its settled set of tags changes (``docs/protocol.md``,
"Mats"), so two guests that appear in one report settled in the same scan: they arrived
together, and their order in the report is only the order the scan read them. The hub seats
them in that order at once, so the game goes on, and when another order would play
differently it keeps the others on the table screen as an :class:`OrderChoice`: one tap on
one of them seats the guests that way instead, as one input.

Two orders play differently when some seat gets a guest of another color: guests of one
color are interchangeable (the hub only knows which pawn may be which), and a seated
guest's color and seat are all the rules read of it (its seat's action, the order of
activation, what its color earns). So two guests of one color never ask, and neither do
orders that only trade look-alikes.

Pure: values the table plays (:meth:`~companion.table.table.Table.rechoose`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.kit.game import Relabel, TapChoice, TapMoves

from .engine import Move


@dataclass(frozen=True)
class OrderChoice(TapChoice):
    """Guests set down together on theater ``slot`` of ``player``'s cinema: each option
    seats all of them, from its first seat on, in another order of colors (``orders``: the
    guests' colors seat by seat, per option). The first option is the order the mat read,
    which the table plays at once."""

    player: int
    slot: int
    orders: tuple[tuple[str, ...], ...]
    moves: tuple[TapMoves, ...] = ()

    @classmethod
    def of(cls, player: int, slot: int, colors: list[tuple[str, ...]],
           options: list[list[Relabel]]) -> OrderChoice:
        """The choice among ``options`` (each the placements of one order, a relabel with
        its move each; ``colors``: that order's colors, seat by seat)."""
        batches = tuple(TapMoves((), placements[0], tuple(placements[1:]))
                        for placements in options)
        return cls(player, slot, tuple(colors), batches)

    def suggested(self, hints: bool) -> int:
        """The order the mat read: as good a guess as any, and one tap corrects it."""
        return 0

    def to_dict(self) -> dict[str, Any]:
        """The public view's ``card_choice``: ``kind`` ``order``, the ``player`` whose
        theater it is, its ``slot`` (0 to 2) and the first ``seat`` taken (0 is #1), per
        option the guests' ``orders`` (colors, seat by seat) and ``moves`` (the placements,
        as JSON, in order)."""
        first = self.moves[0].then
        seat = first.move.seat if isinstance(first, Relabel) and isinstance(first.move, Move) \
            else None
        return {"kind": "order", "player": self.player, "slot": self.slot, "seat": seat,
                "orders": [list(colors) for colors in self.orders],
                "moves": [[_json(step) for step in batch.steps()] for batch in self.moves]}


def _json(step: Any) -> dict[str, Any]:
    """A placement's move as JSON."""
    move = step.move if isinstance(step, Relabel) else step
    assert move is not None
    return dict(move.to_dict())
