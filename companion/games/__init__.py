"""The games the hub hosts, each behind :class:`~companion.kit.game.GameKind`.

A table's configuration names its game (``popcorn`` when an older hub's table names none);
:func:`build` makes one object per game when the hub starts, from the facts each game reads.
"""

from __future__ import annotations

from typing import Any

from companion.kit.game import GameKind, TagThing

DEFAULT = "popcorn"
"""The game of a table whose configuration names none (every table before B Movies)."""
GAME_IDS = ("popcorn", "b-movies")
"""Every game the hub can host, in the order the setup screen offers them."""

__all__ = ["DEFAULT", "GAME_IDS", "GameKind", "TagThing", "build"]


def build(catalog: Any) -> dict[str, GameKind]:
    """One :class:`GameKind` per game id: Popcorn on ``catalog``, B Movies on its facts."""
    from companion.games.bmovies import BMovies
    from companion.games.popcorn import Popcorn
    return {"popcorn": Popcorn(catalog), "b-movies": BMovies.from_file()}
