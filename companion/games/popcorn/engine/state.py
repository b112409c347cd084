"""The class programs play with: :class:`GameState`, everything on the table plus the rules.

:class:`GameState` is a :class:`~.base_state.BaseState` (the pawns, cards, cinemas, turn
structure and pending steps, and the questions they answer) with the engine's entry points
on top: :meth:`~GameState.apply`, :meth:`~GameState.legal_moves`,
:meth:`~GameState.chance_outcomes` and :meth:`~GameState.waiting_players` call the rules of
:mod:`.game`, and :meth:`~GameState.to_dict` and :meth:`~GameState.from_dict` the JSON form
of :mod:`.position`. This module sits at the top of the engine's rules: it imports them, and
none of them imports it, so the engine's modules import one way only (the order is in
``docs/architecture.md``, "The engine's modules, bottom to top").

The state is mutable for speed, like python-chess's ``Board``: :meth:`GameState.apply`
changes it in place, and :meth:`GameState.clone` gives an independent copy. An illegal move
raises a :class:`~.violations.Violation` before anything changes.

:class:`PlayerState`, :class:`Showing` and :class:`Task`, the parts of a state, are defined
in :mod:`.base_state` and importable from here too.
"""

from __future__ import annotations

from typing import Any

from . import game as G
from . import position
from .base_state import BaseState, PlayerState, Showing, Task
from .catalog import Catalog
from .moves import Move

__all__ = ["GameState", "PlayerState", "Showing", "Task", "from_dict"]


class GameState(BaseState):
    """Everything on the table, changed in place by :meth:`apply`.

    Build one with :func:`~.setup.new_game` (a game at its setup) or :meth:`from_dict` (any
    position, ``docs/position.md``). Ask it :meth:`legal_moves`, :meth:`chance_outcomes` and
    :meth:`waiting_players`; copy it with :meth:`clone` before trying a move you may not keep.
    Pawns live in ``loc`` (a location code per pawn id, see :mod:`.pawns`), with the indexes
    ``at``, ``seated`` and ``seated_count`` kept in step by :meth:`move_pawn`.
    """

    # -- the engine's entry points (rules in .game) ----------------------------------------

    def apply(self, move: Move) -> None:
        """Apply a move or chance outcome in place; an illegal one raises and changes nothing."""
        G.apply(self, move)

    def legal_moves(self, player: int | None = None) -> list[Move]:
        """The decisions that may be made now, by anyone or only by ``player``."""
        return G.legal_moves(self, player)

    def chance_outcomes(self, player: int | None = None) -> list[Move]:
        """The chance outcomes the table may report now, for anyone or only for ``player``.

        In simulation each listed outcome is equally likely.
        """
        return G.chance_outcomes(self, player)

    def waiting_players(self) -> list[int]:
        """Players who must still act: everyone not done during Showings, else the one to act.

        Empty when only a shared chance step (a reveal) is due, or the game is over.
        """
        return G.waiting_players(self)

    # -- the JSON form and comparing (docs/position.md, in .position) ----------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole position as plain JSON data, in the shape of ``docs/position.md``.

        Two states are equal when these are equal; :meth:`from_dict` reads it back.
        """
        return position.to_dict(self)

    @classmethod
    def from_dict(cls, catalog: Catalog, data: Any) -> GameState:
        """The position ``data`` describes (``docs/position.md``), played with ``catalog``.

        An inconsistent position (61 pawns, a pawn in two places, money below 0, ...) raises
        a :class:`~.violations.Violation` with its own code, and nothing is built.
        """
        return position.build(cls, catalog, data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


def from_dict(catalog: Catalog, data: Any) -> GameState:
    """The :class:`GameState` a position document describes (``docs/position.md``).

    The document is checked completely first (:mod:`.position_checks`): a malformed one is
    ``BAD_POSITION``, an impossible one has its own code (``PAWN_COUNT``, ``PAWN_TWICE``,
    ``NEGATIVE_AMOUNT``, ...), and nothing is built. ``from_dict(catalog, state.to_dict())``
    equals ``state``, so a test can start in the middle of a game.
    """
    return position.build(GameState, catalog, data)
