"""What a change on a Popcorn cinema mat means (issue 40: the table plays, the companion
watches).

A mat lies under a player's cinema board: zones 0, 1 and 2 under its theater slots, from
left to right, and zone 3 under its exit zone (:data:`EXIT`). It reports what lies on a zone
each time that changes (:class:`~companion.kit.zones.ZoneChange`), and a guest is known by its
tag, so each change narrows what the hub knows of which pawn is where, as a tap does
(:mod:`.tags`: a relabel of look-alikes where the arrangement allows it):

- a guest set down on a theater's zone is placed there, in the next free seat (the rules
  fill seats in order, #1 first), when it is one of the player's drawn guests (a guest
  drawn to a seat takes the seat whose guest the hand carried off, if it may); guests set
  down together (new in one report: one scan, whose order says nothing of the hand) are
  seated in the order read, and the other orders that seat another color somewhere are
  offered (:mod:`.order_choice`);
- a guest set down on the exit zone from a theater is that guest leaving: its activation
  ends (``end_guest``; its actions are chosen on the tablet or a phone as before), or a
  drawn guest with no seat left goes there (``to_exit``); guests carried there together
  are read in the first order the rules take (a theater empties seat by seat);
- a guest set down where the rules already put it (a guest that left by itself) is no
  move; neither is a guest taken up, which the zone it lands on tells;
- a seated guest taken off its theater while the rules keep it there was taken out too
  soon (``GUEST_TAKEN_OUT``; set back, the alert closes: a :class:`Mended`); two guests or
  more taken off the exit zone while the bag holds guests were poured too early.

A move the rules refuse (a theater with no movie, a full theater, a guest not the one to
act) is an alert with the rule's own code, naming the guest and the theater. A tag that is
no guest, or a guest the player has not drawn, is an alert of this module's. What a mat
shows that only a later point of the game proves wrong is :mod:`.mat_checks`'.

Pure: it reads the state and returns values; the table plays them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import permutations
from typing import Any

from companion.kit.alerts import Alert
from companion.kit.game import Mended, Relabel, Sensed, TapResult, ZoneChange

from .alert_params import alert_params, guest_words
from .engine import GameState, Move, Violation
from .engine import pawns as P
from .engine.tasks import draw_seat_targets
from .order_choice import OrderChoice
from .table_state import TableState, play, swap
from .tags import relabelled, tracked
from .texts import ALERTS

THEATERS = 3
"""Zones 0 to 2 lie under the theater slots of the same number."""
EXIT = 3
"""The zone under the exit zone."""
ZONES = 4
"""The zones of a cinema mat."""
MOST_SEATS = 3
"""The most seats a theater has."""

ALERT_CODES: dict[str, str] = {
    "MAT_UNKNOWN_TAG": "a tag the registry does not know was set down on a mat",
    "MAT_NOT_A_GUEST": "a piece that is no guest (a card, another game's piece) was set "
                       "down on a mat",
    "GUEST_NOT_DRAWN": "a guest was set down in a theater, but the player has not drawn it",
    "GUEST_NOT_SEATED": "a guest was set down on the exit zone, but it was neither seated "
                        "nor drawn",
    "EXIT_POURED_EARLY": "the exit zone was emptied while the player's bag still holds "
                         "guests",
    "MAT_EXTRA_GUEST": "after a restart, a mat shows a guest on a zone where the hub does "
                       "not have it (the table's PIN may accept what the mat shows)",
    "MAT_MISSING_GUEST": "after a restart, a mat does not show a guest the hub has on that "
                         "zone",
    "THEATER_HAS_NO_MOVIE": "the rules' refusal of a guest set down in a theater that shows "
                            "no movie (texts ``THEATER_HAS_NO_MOVIE:mat``)",
    "NO_SUCH_SEAT": "the rules' refusal of a guest set down in a full theater (texts "
                    "``NO_SUCH_SEAT:mat``)",
    "GUEST_TAKEN_OUT": "a seated guest was taken out of its theater before it was "
                       "activated",
    "GUEST_LEFT_IN_THEATER": "a guest was still in a theater once the Showings were over "
                             "(checked when the next round's first turn ends)",
}
"""Every alert code of this module: its own, and the rules' refusals it has texts for (the
others keep the rule's code and English sentence)."""

def read_zone(state: Any, change: ZoneChange) -> list[TapResult | Mended]:
    """What ``change`` on a player's mat means: results to play in order (see the module's
    text); a zone a mat does not have changes nothing. Guests set down together on a
    theater are seated in the order the mat read them, with the other orders that would
    play differently offered (:func:`_orders`)."""
    if not 0 <= change.zone < ZONES:
        return []
    table = tracked(state)
    arrived = _arrivals(table, change, change.arrived)
    if change.zone == EXIT:
        arrived = _exit_order(table, change, arrived)
    return [*_poured(table, change), *_orders(table, change, arrived),
            *_departures(table, change)]


MOST_ORDERS = 4
"""Guests set down together on an exit zone are read in another order only up to this many
(24 orders): a hand carries two or three at once."""


def _exit_order(state: TableState, change: ZoneChange,
                arrived: list[Arrival]) -> list[Arrival]:
    """Guests carried to the exit zone together, whose order the scan read says nothing
    of the hand: read in the first order the rules take without an alert (the guests of a
    theater leave it seat by seat, #1 first), the order read first; the order read when
    none does."""
    together = change.arrived
    if not any(isinstance(result, Alert) for _, result in arrived) or \
            not 2 <= len(together) <= MOST_ORDERS:
        return arrived
    for order in permutations(together):
        found = _arrivals(state, change, order)
        if not any(isinstance(result, Alert) for _, result in found):
            return found
    return arrived


Arrival = tuple[Sensed, TapResult | Mended]
"""A piece set down, and what it means."""


def _arrivals(state: TableState, change: ZoneChange,
              arrived: Sequence[Sensed]) -> list[Arrival]:
    """What each piece of ``arrived`` set down on the changed zone means, in the order
    given: each read on the state the ones before it leave once played (a guest seated
    before it took its seat), as the table plays them. A piece that means nothing is left
    out."""
    if not arrived:
        return []  # most reports: a piece's leaving, after its landing was played
    trial = state.clone()
    found: list[Arrival] = []
    lying = frozenset(pawns_lying(change.after))
    for sensed in arrived:
        result = _arrival(trial, change.seat, change.zone, sensed, lying)
        if result is not None:
            found.append((sensed, result))
            _play(trial, result)
    return found


def _play(state: TableState, result: TapResult | Mended) -> None:
    """Play a result of :func:`_arrival` on a trial state, as the table would."""
    if isinstance(result, Relabel) and isinstance(result.move, Move):
        play(state, result.move, {"relabel": result.swaps, "seen": result.seen})
    elif isinstance(result, Move):
        state.apply(result)


def _orders(state: TableState, change: ZoneChange,
            arrived: list[Arrival]) -> list[TapResult | Mended]:
    """The arrivals' results, where two or more guests are seated in a theater and another
    order of them would seat another color somewhere: their placements become one
    :class:`~.order_choice.OrderChoice`, the order read first (see its module)."""
    results = [result for _, result in arrived]
    seated = [(sensed, result) for sensed, result in arrived if _placement(result)]
    if change.zone == EXIT or len(seated) < 2:
        return results
    options = _seatings(state, change, [sensed for sensed, _ in seated])
    if len(options) < 2:
        return results
    choice = OrderChoice.of(change.seat, change.zone, list(options), list(options.values()))
    first = next(n for n, result in enumerate(results) if _placement(result))
    others = [result for result in results if not _placement(result)]
    return [*others[:first], choice, *others[first:]]  # where the first guest was seated


def _seatings(state: TableState, change: ZoneChange,
              guests: list[Sensed]) -> dict[tuple[str, ...], list[Relabel]]:
    """Each order of ``guests`` that seats all of them and differs from the ones before it
    in some seat's color, with its placements (by its colors, seat by seat), the order
    given first."""
    found: dict[tuple[str, ...], list[Relabel]] = {}
    for order in permutations(guests):
        colors = tuple(state.pawn_color[_pawn(sensed) or 0] for sensed in order)
        if colors in found:
            continue
        placements = [result for _, result in
                      _arrivals(state, change, order)]
        if len(placements) == len(order) and all(map(_placement, placements)):
            found[colors] = [p for p in placements if isinstance(p, Relabel)]
    return found


def _placement(result: TapResult | Mended) -> bool:
    """Whether ``result`` seats a guest (a relabel with its ``place`` move)."""
    return isinstance(result, Relabel) and isinstance(result.move, Move) and \
        result.move.kind == "place"


def _departures(state: TableState, change: ZoneChange) -> list[TapResult | Mended]:
    """The guests taken off a theater's zone: one the rules have left seated there, and
    that may not leave it now, was taken out too soon (an alert); one the rules have
    already moved on mends the alert that said it was left there."""
    if change.zone == EXIT:
        return []
    found: list[TapResult | Mended] = []
    for pawn in pawns_lying(change.left):
        where = state.loc[pawn]
        if not (P.is_seat(where) and P.seat_parts(where)[:2] == (change.seat, change.zone)):
            found.append(Mended("GUEST_LEFT_IN_THEATER", {"pawn": pawn}))
        elif not (may_leave(state, change.seat, where) or _pushed_out(state, change.seat, pawn)):
            found.append(guest_alert(state, "GUEST_TAKEN_OUT", change.seat, pawn, change.zone,
                                P.seat_parts(where)[2]))
    return found


def may_leave(state: GameState, player: int, seat: int) -> bool:
    """Whether the guest on ``seat`` (a location) may leave it now: it is acting, or the
    rules would let it start and end its activation (the first guest of a theater not yet
    shown, once every draw is done). Otherwise taking it off is ``GUEST_TAKEN_OUT``."""
    _, slot, index = P.seat_parts(seat)
    if state.phase != "showings":
        return False
    show = state.showings[player]
    if show.active == slot and show.cursor == index:
        return True
    trial = tracked(state).plain()
    try:
        trial.apply(Move("end_guest", player=player, slot=slot, seat=index))
    except Violation:
        return False
    return True


def _arrival(state: TableState, player: int, zone: int, sensed: Sensed,
             lying: frozenset[int]) -> TapResult | Mended | None:
    """What one piece set down on ``zone`` (where the guests ``lying`` lie now) means."""
    pawn = _pawn(sensed)
    if pawn is None:
        return _not_a_guest(state, player, sensed)
    if zone == EXIT:
        return _to_exit(state, player, pawn)
    return _seated(state, player, zone, pawn, lying)


def _poured(state: TableState, change: ZoneChange) -> list[Alert]:
    """The exit zone poured into the bag too soon: emptied of two or more guests the state
    has there, while the bag still holds some (the rules pour it only into an empty bag,
    when a draw needs a guest). A single guest taken off it is a gain on its way to a bag,
    which its tap there plays."""
    if change.zone != EXIT or change.after or len(change.before) < 2:
        return []
    exit_zone, bag = P.exit_zone(change.seat), P.bag(change.seat)
    there = [p for p in map(_pawn, change.before) if p is not None and
             state.loc[p] == exit_zone]
    in_bag = len(state.pawns_at(bag))
    if len(there) < 2 or not in_bag:
        return []
    params = {**alert_params(state, change.seat), "count": len(there), "bag": in_bag}
    return [said("EXIT_POURED_EARLY", change.seat, params)]


def pawns_lying(lying: Sequence[Sensed]) -> list[int]:
    """The guests among the pieces sensed on a zone, in their order."""
    return [pawn for pawn in map(_pawn, lying) if pawn is not None]


def _pawn(sensed: Sensed) -> int | None:
    piece = sensed.piece
    if piece is None or piece.game not in ("", "popcorn") or piece.kind != "pawn":
        return None
    return int(piece.id)


def _seated(state: TableState, player: int, slot: int, pawn: int,
            lying: frozenset[int]) -> TapResult | Mended:
    """A guest set down on theater ``slot``'s zone (where the guests ``lying`` lie now):
    its placement in the next free seat (:func:`seat_for`)."""
    where = state.loc[pawn]
    if P.is_seat(where) and P.seat_parts(where)[:2] == (player, slot):
        return Mended("GUEST_TAKEN_OUT", {"pawn": pawn})  # put back, or a state sent again
    hand = P.hand(player)
    if not state.known.may_be(pawn, hand):
        return guest_alert(state, "GUEST_NOT_DRAWN", player, pawn, slot)
    move = Move("place", player=player, pawn=pawn, slot=slot,
                seat=seat_for(state, player, slot, lying))
    return relabelled(state, pawn, hand, move) or _refused(state, player, pawn, hand, move)


def seat_for(state: GameState, player: int, slot: int,
             lying: Collection[int] | None = None) -> int:
    """The seat a guest set down in theater ``slot`` takes (0 is seat #1): the first one
    nobody sits in (guests set down together are each read on the state the ones before
    them left). For a guest drawn to a seat (``draw_guest_to_seat``), the first seat of
    that theater it may take: one whose guest the hand already took off the zone (the
    guests ``lying`` there now; it goes to the exit zone), else a free one, else an
    occupied one whose guest it pushes out."""
    task = state.task_for(player)
    if task is not None and task.kind == "draw_seat" and task.pawn is not None:
        targets = [index for s, index in draw_seat_targets(state, player) if s == slot]
        sitting = {index: state.occupant(player, slot, index) for index in targets}
        free = [index for index in targets if sitting[index] is None]
        cleared = [] if lying is None else [
            index for index in targets
            if sitting[index] is not None and sitting[index] not in lying]
        if targets:
            return (cleared or free or targets)[0]
    index = 0
    while state.occupant(player, slot, index) is not None:
        index += 1
    return index


def _to_exit(state: TableState, player: int, pawn: int) -> TapResult | None:
    """A guest set down on the exit zone: a seated guest leaving, a drawn guest with no
    seat left, or nothing (the rules already put it there). Where the arrangement of
    look-alikes allows several, the engine's own place for the pawn comes first."""
    if state.loc[pawn] == P.exit_zone(player) or _pushed_out(state, player, pawn):
        return None
    options = [(loc, Move("end_guest", player=player, slot=P.seat_parts(loc)[1],
                          seat=P.seat_parts(loc)[2]))
               for loc in _seats(state, player) if state.known.may_be(pawn, loc)]
    hand = P.hand(player)
    if state.known.may_be(pawn, hand):
        leave = (hand, Move("to_exit", player=player, pawn=pawn))
        options = [leave, *options] if state.loc[pawn] == hand else [*options, leave]
    options.sort(key=lambda option: option[0] != state.loc[pawn])
    for place, move in options:
        found = relabelled(state, pawn, place, move)
        if found is not None:
            return found
    if options:
        return _refused(state, player, pawn, *options[0])
    if state.known.may_be(pawn, P.exit_zone(player)):
        return None  # a look-alike of a guest the rules put there: what lies there agrees
    return guest_alert(state, "GUEST_NOT_SEATED", player, pawn)


def lying_zones(state: GameState, seat: int) -> dict[int, int]:
    """Where each pawn of ``seat``'s cinema lies on its mat, by the state: a seated guest on
    its theater's zone, an exited one on the exit zone (what hands that follow the rules
    keep the mat showing)."""
    zones = {pawn: slot for slot in range(THEATERS) for index in range(MOST_SEATS)
             if (pawn := state.occupant(seat, slot, index)) is not None}
    zones.update({pawn: EXIT for pawn in state.pawns_at(P.exit_zone(seat))})
    return zones


def _pushed_out(state: TableState, player: int, pawn: int) -> bool:
    """Whether ``pawn`` sits where the guest drawn to a seat may push it out: its landing
    on the exit zone is the hand clearing that seat before (or after) the drawn guest is
    set down there, which the placement plays."""
    task = state.task_for(player)
    if task is None or task.kind != "draw_seat" or task.pawn is None:
        return False
    where = state.loc[pawn]
    return P.is_seat(where) and P.seat_parts(where)[1:] in set(
        draw_seat_targets(state, player))


def _seats(state: TableState, player: int) -> Sequence[int]:
    """Every seat of ``player``'s cinema where a guest sits, theater by theater."""
    return sorted(loc for loc in set(state.loc) if P.is_seat(loc) and P.seat_owner(loc) == player)


def _refused(state: TableState, player: int, pawn: int, place: int, move: Move) -> Alert:
    """The rules' refusal of ``move`` (the guest named by its color), as an alert that
    names the guest and the theater."""
    trial = state.plain()
    for a, b in state.known.swaps_for(pawn, place, state.loc) or []:
        swap(trial, a, b)
    try:
        trial.apply(move)
    except Violation as exc:
        return _refusal(state, player, pawn, move, exc)
    return Alert("MOVE_REFUSED", "The rules refuse that move now.", "Check the table.",
                 player, alert_params(state, player, pawn))


def _refusal(state: TableState, player: int, pawn: int, move: Move,
             exc: Violation) -> Alert:
    """The rules' refusal of a mat's ``move`` as an alert naming the guest and the theater:
    the rule's code, its params with ``slot`` and ``seat`` counted from 1 as the mats' own
    alerts count them, and ``kind`` ``mat``, whose texts (``CODE:mat`` in
    :data:`.texts.ALERTS`) a screen in another language shows for the codes a mat meets
    most (a theater with no movie, a full one); the others keep the rule's English."""
    params = {**alert_params(state, player, pawn), **exc.params, "kind": "mat",
              "theater": _theater_params(move, state.names)}
    for name in ("slot", "seat"):
        if isinstance(params.get(name), int):
            params[name] += 1
    if move.slot is not None:
        params["slot"] = move.slot + 1
    if f"{exc.code}:mat" in ALERTS:
        return said(f"{exc.code}:mat", player, params, exc.code)
    message = f"{exc.message} ({guest_words(state.pawn_color[pawn])}, " \
              f"{_theater_words(move, state.names)})"
    return Alert(exc.code, message, "Take the guest off and set it down where the rules "
                 "allow.", player, params)


def _theater_params(move: Move, names: Sequence[str]) -> dict[str, Any]:
    if move.slot is None:
        return {"zone": "exit", "owner": names[move.player or 0]}
    return {"zone": "theater", "owner": names[move.player or 0], "slot": move.slot + 1}


def _theater_words(move: Move, names: Sequence[str]) -> str:
    owner = names[move.player or 0]
    if move.slot is None:
        return f"{owner}'s exit zone"
    return f"theater {move.slot + 1} of {owner}'s cinema"


def _not_a_guest(state: TableState, player: int, sensed: Sensed) -> Alert:
    code = "MAT_UNKNOWN_TAG" if sensed.piece is None else "MAT_NOT_A_GUEST"
    return said(code, player, alert_params(state, player, None, sensed.uid))


def guest_alert(state: TableState, code: str, player: int, pawn: int,
           slot: int | None = None, seat: int | None = None) -> Alert:
    """One of this module's alerts about ``pawn`` on ``player``'s mat (``slot``: the
    theater's, ``seat``: the seat's, each counted from 0)."""
    params = alert_params(state, player, pawn)
    if slot is not None:
        params["slot"] = slot + 1
    if seat is not None:
        params["seat"] = seat + 1
    return said(code, player, params)


def said(code: str, player: int, params: dict[str, Any], raised: str = "") -> Alert:
    """The alert whose texts are ``code``'s (a ``CODE:kind`` for a variant) in English,
    from the template other languages translate (:data:`.texts.ALERTS`) filled with
    ``params``, raised as ``raised`` (by default ``code``)."""
    color = str(params.get("color", ""))
    words = {**params, "letter": color[:1].upper()}
    message, fix = ALERTS[code]
    return Alert(raised or code, message.format(**words), fix.format(**words), player, params)
