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
    piece listed now but not before, ahead of every piece both list, is an older one the
    listing reached (a piece taken off let it in), not one set down. A piece listed before
    but not now, ahead of every piece both list, may be one of the unlisted oldest now:
    none of those counts as taken off, since the listing cannot tell which. Neither
    property ever names a move no hand made; with more than a message lists, they may miss
    one."""

    seat: int
    zone: int
    before: tuple[Sensed, ...]
    after: tuple[Sensed, ...]
    hidden_before: int = 0
    hidden_after: int = 0

    @property
    def arrived(self) -> tuple[Sensed, ...]:
        """The pieces set down on the zone, in the order they arrived."""
        new = _unlisted_in(self.before, self.after)
        return new[min(_ahead(self.before, self.after), self.hidden_before):]

    @property
    def left(self) -> tuple[Sensed, ...]:
        """The pieces taken off the zone, in the order they had arrived."""
        gone = _unlisted_in(self.after, self.before)
        return gone[_ahead(self.after, self.before) if self.hidden_after else 0:]


def _unlisted_in(old: tuple[Sensed, ...], now: tuple[Sensed, ...]) -> tuple[Sensed, ...]:
    """The pieces ``now`` lists and ``old`` does not, in their order."""
    there = {s.uid for s in old}
    return tuple(s for s in now if s.uid not in there)


def _ahead(old: tuple[Sensed, ...], now: tuple[Sensed, ...]) -> int:
    """How many pieces ``now`` lists ahead of the first one ``old`` lists too (all of
    them, when none is)."""
    there = {s.uid for s in old}
    return next((i for i, s in enumerate(now) if s.uid in there), len(now))


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
