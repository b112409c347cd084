"""A Popcorn game as a table follows it: the engine's state, and what the table showed.

The engine's :class:`~.engine.GameState` names one arrangement of the 60 pawns. At a real
table that arrangement is only one of those the table's moves and taps allow (pawns of one
color look alike): :class:`TableState` keeps, beside it, the hub's
:class:`~.whereabouts.Whereabouts` of every pawn, and keeps it in step with every move the
engine applies, so that a table, a copy tried with a move, a log replayed at a restart and an
undo all know the same. It is a ``GameState`` in every other way: the engine, the views and
the advisor read it as they read any state.

Three things change what the hub knows beyond a move:

- :meth:`TableState.relabel`: look-alike pawns trade places and names in the arrangement
  (:func:`swap`); the game is the same game, and what the hub knows is unchanged;
- :meth:`TableState.observe`: a tap showed a pawn where the arrangement has it;
- a correction (:mod:`.corrections`): the table says where a pawn is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.kit.game import swap_pairs

from .engine import GameState, Move
from .engine.pawns import BOX
from .whereabouts import Swap, Whereabouts


class TableState(GameState):
    """A :class:`~.engine.GameState` with the :attr:`known` whereabouts of its pawns."""

    _known: Whereabouts

    @classmethod
    def following(cls, state: GameState) -> TableState:
        """A copy of ``state`` that follows its pawns from here, knowing only the counts (any
        pawn of a color may be in any place that holds the color)."""
        tracked = state.clone()
        tracked.__class__ = cls
        assert isinstance(tracked, TableState)
        tracked._known = Whereabouts.start(tracked.loc, tracked.pawn_color)
        return tracked

    @property
    def known(self) -> Whereabouts:
        """Where each pawn may be, as far as the table showed it (a state read from a
        position document starts from the counts)."""
        known = self.__dict__.get("_known")
        if known is None:
            known = self._known = Whereabouts.start(self.loc, self.pawn_color)
        return known

    def apply(self, move: Move) -> None:
        """Apply a move (see :meth:`GameState.apply`); each pawn it moves is, to the hub, a
        pawn of its color from where the arrangement had it."""
        before, known = list(self.loc), self.known
        super().apply(move)
        self._known = known.moved(before, self.loc)

    def plain(self) -> GameState:
        """A copy that is only the engine's state: it tries moves without following its
        pawns (a trial whose knowledge nobody reads costs no matching)."""
        copy: GameState = self.clone()
        copy.__class__ = GameState
        del copy.__dict__["_known"]
        return copy

    def relabel(self, swaps: Sequence[Swap]) -> None:
        """Let look-alike pawns trade places, in order (:func:`swap`)."""
        for pawn, other in swaps:
            swap(self, pawn, other)

    def observe(self, pawn: int) -> None:
        """A tap showed ``pawn`` where the arrangement has it."""
        self._known = self.known.observed(pawn, self.loc[pawn], self.loc)

    def relocated(self, before: Sequence[int], seen: int | None) -> None:
        """A correction moved pawns from the arrangement ``before`` to this one; ``seen``: the
        pawn the table named by its tag (now known where it is), or None for a guest named
        by its color."""
        self._known = self.known.moved(before, self.loc)
        if seen is not None:
            self.observe(seen)


def swap(state: GameState, pawn: int, other: int) -> None:
    """Let two pawns of one color trade places and names: each takes the other's place, and
    a pending step or a guest who left that named one names the other (a relabel: the game is
    the same game)."""
    if state.pawn_color[pawn] != state.pawn_color[other]:
        raise ValueError(f"pawns {pawn} and {other} differ in color")
    here, there = state.loc[pawn], state.loc[other]
    state.move_pawn(pawn, BOX)  # through the box, so that a seat is never held twice
    state.move_pawn(other, here)
    state.move_pawn(pawn, there)
    names = {pawn: other, other: pawn}
    for task in state.tasks:
        if task.pawn in names:
            task.pawn = names[task.pawn]
    for show in state.showings:
        if show.left and show.left[2] in names:
            show.left = [*show.left[:2], names[show.left[2]], *show.left[3:]]


def play(state: GameState, move: Move | None, marks: Mapping[str, Any]) -> None:
    """Apply ``move`` (None: a bag fill, no move) with the marks its tap left in the table's
    log: the ``relabel`` swaps, made first, and the pawn the tap showed (``seen``), known
    where it was before the move and where it is after. A log written before ``seen`` marks
    the pawn of every tapped move (``"tap": true``) and of every fill, and its relabel was
    one pair."""
    swaps = swap_pairs(marks.get("relabel"))
    seen = marks["seen"] if "seen" in marks else _legacy_seen(move, marks)
    if not isinstance(state, TableState):
        for pawn, other in swaps:
            swap(state, pawn, other)
        if move is not None:
            state.apply(move)
        return
    state.relabel(swaps)
    if seen is not None:
        state.observe(seen)
    if move is not None:
        state.apply(move)
        if seen is not None:
            state.observe(seen)


def _legacy_seen(move: Move | None, marks: Mapping[str, Any]) -> int | None:
    if marks.get("fill") is not None:
        return int(marks["fill"])
    if move is not None and marks.get("tap") and move.pawn is not None:
        return move.pawn
    return None
