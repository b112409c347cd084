"""What the archive shows of a finished game, whatever the game: each seat's result, and the
variant played.

The archive (``companion/table/archive.py``) lists finished games of every game the hub
hosts, and knows none of them. A game tells it, through its
:class:`~companion.kit.game.GameKind`, each seat's :class:`Standing` once the game is over
(its score, its place, whether it won) and the :class:`Variant` a table's options play.
:func:`places` ranks seats the common way: the winners first, then by score.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Standing:
    """One seat's result of a finished game: the player's ``name``, ``score`` in the game's
    own points, ``place`` (1 for the winners; seats of one place share it) and ``winner``."""

    name: str
    score: int
    place: int
    winner: bool

    def to_dict(self) -> dict[str, object]:
        """``{"name", "score", "place", "winner"}``."""
        return {"name": self.name, "score": self.score, "place": self.place,
                "winner": self.winner}


@dataclass(frozen=True)
class Variant:
    """A way to play a game that its table options choose (B Movies' Hidden Team): ``id`` as
    the options and the archive's filters name it, ``title`` its English name, marked with
    :func:`~companion.kit.texts.N_` so that every screen shows it in its own language."""

    id: str
    title: str


def places(scores: Sequence[int], winners: Collection[int]) -> list[int]:
    """Each index's place: 1 for the ``winners`` (indexes), then by score, highest first;
    equal scores share a place and the next place skips as many (1, 2, 2, 4). A seat that
    lost on a tie-break to a winner with its score comes after the winners."""
    return [1 if i in winners else
            1 + sum(1 for j, other in enumerate(scores) if j in winners or other > score)
            for i, score in enumerate(scores)]
