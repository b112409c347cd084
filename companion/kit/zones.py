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
    order the pieces arrived).

    A zone may hold more tags than one message lists (an exit zone of 17 guests): the mat
    then lists the newest and a count, and ``hidden_before`` and ``hidden_after`` say how
    many of each state's oldest pieces are not listed. A piece always arrives last, so a
    piece listed now but not before, ahead of every piece that was, is an older one the
    listing reached (a piece taken off let it in), not one set down; and a piece listed
    before but not now, older than every piece still listed, may lie there unlisted."""

    seat: int
    zone: int
    before: tuple[Sensed, ...]
    after: tuple[Sensed, ...]
    hidden_before: int = 0
    hidden_after: int = 0

    @property
    def arrived(self) -> tuple[Sensed, ...]:
        """The pieces set down on the zone, in the order they arrived."""
        return _new(self.before, self.after, self.hidden_before)

    @property
    def left(self) -> tuple[Sensed, ...]:
        """The pieces taken off the zone, in the order they had arrived."""
        return _new(self.after, self.before, self.hidden_after)


def _new(old: tuple[Sensed, ...], now: tuple[Sensed, ...], hidden: int) -> tuple[Sensed, ...]:
    """The pieces ``now`` lists and ``old`` does not, less those that may be among the
    ``hidden`` oldest pieces ``old`` did not list: at most that many of the first ones,
    ahead of every piece both list. (For :attr:`ZoneChange.left`, ``now`` is the earlier
    state.)"""
    there = {s.uid for s in old}
    shared = next((i for i, s in enumerate(now) if s.uid in there), len(now))
    return tuple(s for s in now[min(shared, hidden):] if s.uid not in there)


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
