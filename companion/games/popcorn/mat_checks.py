"""The mats' checks beyond a zone's change (issue 40): a guest left in a theater, seen at
a checkpoint, and what a restarted mat shows that the hub does not have.

- :func:`review`: once the next round's first Buying turn is over, a guest still lying in a
  theater that the rules do not seat there was left in it (``GUEST_LEFT_IN_THEATER``). A mat
  reports a guest's leaving a little after the input that moved it, so the Showings' own
  end would be a false alert; the first turn after them is long past any hand on its way.
- :func:`disagreement`: what differs, guest by guest and by color (look-alikes are
  interchangeable), between a zone and the hub after a restart (``MAT_EXTRA_GUEST``,
  ``MAT_MISSING_GUEST``): the table then holds the zone disputed
  (:mod:`companion.table.mat_zones`).

Pure: it reads the states and returns alerts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from companion.kit.alerts import Alert
from companion.kit.game import Sensed, ZoneAlert

from .alert_params import alert_params
from .engine import GameState
from .engine import pawns as P
from .mats import EXIT, MOST_SEATS, THEATERS, ZONES, guest_alert, pawns_lying, said
from .table_state import TableState
from .tags import tracked


def review(before: GameState, after: GameState,
           zones: Mapping[tuple[int, int], tuple[Sensed, ...]]) -> list[ZoneAlert]:
    """The checkpoint of the mats: once the first turn of a round's Buying is over (the
    Showings before it long done), a guest still lying in a theater that the rules do not
    seat there was left in it (an alert per guest)."""
    if not _first_turn_over(before, after):
        return []
    table = tracked(after)
    return [ZoneAlert(seat, zone, guest_alert(table, "GUEST_LEFT_IN_THEATER", seat, pawn, zone))
            for (seat, zone), lying in sorted(zones.items()) if zone < THEATERS
            for pawn in pawns_lying(lying)
            if not _may_sit(table, pawn, seat, zone)]


def disagreement(state: GameState, seat: int, zone: int, lying: Sequence[Sensed],
                 count: int) -> list[Alert]:
    """What differs, guest by guest, between what lies on zone ``zone`` of ``seat``'s mat
    and what the hub has there, by color (look-alikes are interchangeable): a guest the mat
    shows that the hub has elsewhere (MAT_EXTRA_GUEST, naming it), and one the hub has there
    that the mat does not show (MAT_MISSING_GUEST, naming the hub's guest). Pieces that are
    no guest are alerts of their own when read; an exit zone the mat lists only in part
    (``count``) is compared only for what it lists."""
    if not 0 <= zone < ZONES:
        return []
    table = tracked(state)
    shown = pawns_lying(lying)
    held = _held(table, seat, zone)
    if zone == EXIT and count > len(lying):
        held = [p for p in held if p in shown]
    colors = table.pawn_color
    extra = Counter(colors[p] for p in shown) - Counter(colors[p] for p in held)
    missing = Counter(colors[p] for p in held) - Counter(colors[p] for p in shown)
    found = [_differs(table, "MAT_EXTRA_GUEST", seat, zone, pawn)
             for pawn in _of_colors(_first_not_in(shown, held), colors, extra)]
    return found + [_differs(table, "MAT_MISSING_GUEST", seat, zone, pawn)
                    for pawn in _of_colors(_first_not_in(held, shown), colors, missing)]


def _first_not_in(pawns: Sequence[int], others: Sequence[int]) -> list[int]:
    """``pawns``, those not among ``others`` first (the ones a difference names)."""
    return sorted(pawns, key=lambda pawn: pawn in others)


def _held(state: TableState, seat: int, zone: int) -> list[int]:
    """The guests the hub has on ``zone`` of ``seat``'s cinema (seat order, then the exit
    zone's)."""
    if zone == EXIT:
        return list(state.pawns_at(P.exit_zone(seat)))
    return [pawn for index in range(MOST_SEATS)
            if (pawn := state.occupant(seat, zone, index)) is not None]


def _of_colors(pawns: Sequence[int], colors: Sequence[str], wanted: Counter[str]) -> list[int]:
    """The first pawns of ``pawns`` of each color, as many as ``wanted`` counts."""
    left, chosen = Counter(wanted), []
    for pawn in pawns:
        if left[colors[pawn]] > 0:
            left[colors[pawn]] -= 1
            chosen.append(pawn)
    return chosen


def _differs(state: TableState, code: str, seat: int, zone: int, pawn: int) -> Alert:
    """One difference between a zone and the hub, as its alert (``kind`` ``exit`` for the
    exit zone's texts)."""
    if zone == EXIT:
        params = {**alert_params(state, seat, pawn), "kind": "exit", "mat_zone": zone}
        return said(f"{code}:exit", seat, params, code)
    params = {**alert_params(state, seat, pawn), "slot": zone + 1, "mat_zone": zone}
    return said(code, seat, params)


def _first_turn_over(before: GameState, after: GameState) -> bool:
    """Whether ``after`` ended the first Buying turn of a round after the first."""
    if before.phase != "buying" or before.round < 2 or before.turns_left != before.n:
        return False
    return after.phase != "buying" or after.turns_left < before.n or after.round != before.round


def _may_sit(state: TableState, pawn: int, player: int, slot: int) -> bool:
    """Whether the hub may have ``pawn`` in theater ``slot`` of ``player``'s cinema."""
    return any(state.known.may_be(pawn, P.seat(player, slot, index))
               for index in range(MOST_SEATS))
