"""The games the hub hosts, each behind :class:`~companion.kit.game.GameKind`, found by entry
point.

A game is a distribution's entry point in the group :data:`ENTRY_POINTS`
(``popcorn_companion.games``): its name is the game's id and its value a function that makes
the game's :class:`GameKind` from the facts it ships (``companion.games.popcorn:game``). This
package's own two games are registered so in ``pyproject.toml``; a third one can ship as its
own distribution and the hub, the table and the commands serve it unchanged
(``docs/architecture.md``, "Add a game"). A table's configuration names its game (``popcorn``
when an older hub's table names none).
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from typing import Any

from companion.kit.game import GameKind, Piece

ENTRY_POINTS = "popcorn_companion.games"
"""The entry-point group a game registers in."""
DEFAULT = "popcorn"
"""The game of a table whose configuration names none (every table before B Movies)."""
FIRST = ("popcorn", "b-movies")
"""The games listed first, in this order (the setup screen offers them so); others follow
by id."""

__all__ = ["DEFAULT", "ENTRY_POINTS", "GameKind", "Piece", "build", "game_ids", "load"]


class UnknownGame(KeyError):
    """A game id no installed distribution registers."""


@cache
def game_ids() -> tuple[str, ...]:
    """Every registered game's id: this package's first, then the others by id."""
    names = {ep.name for ep in entry_points(group=ENTRY_POINTS)}
    return tuple(sorted(names, key=lambda n: (FIRST.index(n) if n in FIRST else len(FIRST), n)))


def load(game_id: str) -> GameKind[Any, Any]:
    """The game registered as ``game_id``, made from the facts it ships; raises
    :class:`UnknownGame` for an id nobody registers."""
    found = [ep for ep in entry_points(group=ENTRY_POINTS) if ep.name == game_id]
    if not found:
        raise UnknownGame(game_id)
    game: GameKind[Any, Any] = found[0].load()()
    return game


def build() -> dict[str, GameKind[Any, Any]]:
    """One :class:`GameKind` per registered game, by id (the hub makes them when it starts)."""
    return {game_id: load(game_id) for game_id in game_ids()}
