"""What the core relies on of a game's engine: its moves, its state, and who may send a move.

Every game here shares the engine shape of python-chess and OpenSpiel: a move is a small
immutable value with a JSON form (:class:`GameMove`); the state is changed in place by
``apply(move)``, which raises the game's violation and changes nothing when the rules refuse
the move, is copied by ``clone()``, says when the game ``is_over`` and writes itself as JSON
(:class:`GameState`). The table never looks further into either.
"""

from __future__ import annotations

from typing import Any, Protocol, Self, TypeVar


class GameMove(Protocol):
    """A move of any game, as the table handles it: an immutable value with a JSON form
    (the game's ``move_from_dict`` reads it back), made by a seat or by chance."""

    @property
    def kind(self) -> str:
        """The kind of move ("draw", "pitch"...): its ``"move"`` in JSON."""
        ...

    @property
    def player(self) -> int | None:
        """The seat that makes the move (None: a shared chance outcome)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The move as JSON: ``{"move": kind, field: value, ...}``."""
        ...


class GameState(Protocol):
    """A game's state, as the table drives it (after python-chess and OpenSpiel): changed in
    place by :meth:`apply`, copied by :meth:`clone`."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (its final scores can be read)."""
        ...

    def apply(self, move: Any) -> None:
        """Apply a move, or raise the game's violation and change nothing."""
        ...

    def clone(self) -> Self:
        """An independent copy (a state of the same class)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON."""
        ...


class Titled(Protocol):
    """A game as the routes of another see it on a table: its ``id`` and its ``title``."""

    @property
    def id(self) -> str:
        """The game's id."""
        ...

    @property
    def title(self) -> str:
        """The game's printed name."""
        ...


StateT = TypeVar("StateT", bound=GameState)
"""A game's state class (Popcorn's ``GameState``, B Movies' ``State``)."""
MoveT = TypeVar("MoveT", bound=GameMove)
"""A game's move class (each game's ``Move``)."""

SECRET_TOKEN = "token"
"""A move only that player's phone may send (their token)."""
SECRET_PIN = "pin"
"""A move that needs the table's PIN."""
SECRET_EITHER = "token_or_pin"
"""A move the player's phone sends, or one person at the tablet with the table's PIN."""
