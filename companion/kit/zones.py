"""What a board that senses pieces in zones reports, as a game reads it.

A **mat** lies under a player's part of the table (Popcorn's cinema board) with a few
zones, each an antenna that reads every tag lying on it. It reports states, not taps: what
lies on one zone now, in the order it arrived (``docs/protocol.md``, "Mats"). The core
keeps the last state of each zone and hands the game the change, a :class:`ZoneChange`:
the zone's pieces before and after, each a :class:`Sensed` (its UID and what the tag
registry knows it to be). The game's mats part (:class:`~.parts.Mats`) says what the change
means: moves, an alert, or nothing (a piece the rules already moved, set down where they
put it). Nothing here names a game: a chess board with a zone per square could use it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .alerts import Alert
from .pieces import Piece


@dataclass(frozen=True)
class Sensed:
    """One tag lying on a zone: its UID and the piece the registry knows it to be (None: a
    tag it does not know)."""

    uid: str
    piece: Piece | None


@dataclass(frozen=True)
class ZoneChange:
    """Zone ``zone`` of seat ``seat``'s mat went from ``before`` to ``after`` (each in the
    order the pieces arrived)."""

    seat: int
    zone: int
    before: tuple[Sensed, ...]
    after: tuple[Sensed, ...]

    @property
    def arrived(self) -> tuple[Sensed, ...]:
        """The pieces set down on the zone, in the order they arrived."""
        there = {s.uid for s in self.before}
        return tuple(s for s in self.after if s.uid not in there)

    @property
    def left(self) -> tuple[Sensed, ...]:
        """The pieces taken off the zone, in the order they had arrived."""
        there = {s.uid for s in self.after}
        return tuple(s for s in self.before if s.uid not in there)


@dataclass(frozen=True)
class Mended:
    """A zone change that set right what an open alert said was wrong (a guest put back
    where it belongs): the table closes each open alert of ``code`` whose params hold every
    item of ``match`` (a ``handled`` event, ``"how": "mat"``), and fills ``ids`` with the
    ids it closed, so that the screens drop them."""

    code: str
    match: dict[str, Any]
    ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class ZoneAlert:
    """An alert about what lies on zone ``zone`` of seat ``seat``'s mat, found at one of the
    game's checkpoints (:meth:`~.parts.Mats.review`) rather than at a change of the zone:
    the table logs it with the zone's last state, which is the evidence."""

    seat: int
    zone: int
    alert: Alert
