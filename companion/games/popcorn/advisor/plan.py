"""A placement turned into engine moves, played on a copy of the game to measure it.

:func:`play_out` clones the state and applies, through the engine's own
:func:`~companion.games.popcorn.engine.game.apply`, every move the placement implies: the ``place``
moves
(pawns of a color lowest id first), the ``to_exit`` moves, then each theater's ``seat_action``,
``movie_action`` and ``end_guest`` moves. Nothing is assumed legal: a move the engine refuses
raises. The gains reported are read from the copy's state afterwards, so they are exact.

Two actions make the table report chance before the player goes on. An award draw only
interrupts: on the copy it is resolved with the first listed cards, which changes nothing
this showing gains, and the plan marks the pause (``waits``). A guest drawn to a seat changes
who sits where, so the plan stops after that action (``then``) and the advisor is asked again
once the drawn guest is seated.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import game as G
from ..engine import pawns as P
from ..engine.moves import Move
from ..engine.showing_choices import acting_seat, first_guest, free_seat
from ..engine.state import GameState, Task
from .model import Choice, Gains
from .search import Placement


@dataclass
class Plan:
    """The moves of a placement and what the engine says they bring."""

    moves: list[Move] = field(default_factory=list)
    waits: list[tuple[int, str]] = field(default_factory=list)
    """``(n, task)``: after the first ``n`` moves the table resolves a pending ``task``."""
    then: str | None = None
    """``"draw_seat"`` when the plan stops at a guest drawn to a seat, else None."""
    gains: Gains = (0, 0, 0, 0, 0, 0)


class _Player:
    """Applies one player's moves to a copy of the game and records them."""

    def __init__(self, state: GameState, p: int) -> None:
        self.state, self.p, self.plan = state.clone(), p, Plan()

    def apply(self, move: Move) -> bool:
        """Apply ``move``; settle an award draw; False once a drawn guest waits for a seat."""
        G.apply(self.state, move)
        self.plan.moves.append(move)
        task = self._own_task()
        while task is not None and task.kind == "award":
            self.plan.waits.append((len(self.plan.moves), "award"))
            self._settle_award()
            task = self._own_task()
        if task is not None:
            self.plan.then = task.kind
            return False
        return True

    def _own_task(self) -> Task | None:
        """The player's own pending step, if the showing goes on (the copy's round may end
        with this player's last guest, and the next round's reveals are nobody's)."""
        if self.state.phase != "showings":
            return None
        task = self.state.task_for(self.p)
        return task if task is not None and task.player == self.p else None

    def _settle_award(self) -> None:
        outcomes = G.chance_outcomes(self.state, self.p)
        G.apply(self.state, (outcomes or G.legal_moves(self.state, self.p))[0])


def play_out(state: GameState, p: int, placement: Placement) -> Plan:
    """Play ``placement`` for player ``p`` on a copy of ``state``; the moves and exact gains."""
    player = _Player(state, p)
    before = tally(player.state, p)
    _place(player, placement)
    for slot, choices in placement.choices:
        if not _act(player, slot, choices):
            break
    after = tally(player.state, p)
    pending = 1 if player.plan.then == "draw_seat" else 0
    gains = tuple(b - a for a, b in zip(before, after, strict=True))
    player.plan.gains = (gains[0], gains[1], gains[2], gains[3] + pending, gains[4], gains[5])
    return player.plan


def tally(state: GameState, p: int) -> Gains:
    """What player ``p`` holds, counted like the gains (:data:`.model.Gains`): money,
    popcorn, audience index, guests (bag size minus tokens left in supply), awards held, and
    white guests in the reserve. The gains of a stretch of play are the difference of two
    tallies (:func:`play_out`, and :mod:`.judge` for a single move)."""
    ps = state.players[p]
    colors = state.pawn_color
    whites = sum(1 for i in state.at.get(P.RESERVE, ()) if colors[i] == "white")
    guests = -ps.tokens + len(state.at.get(P.bag(p), ()))
    return (ps.money, ps.popcorn, ps.audience, guests, len(ps.awards), whites)


def _place(player: _Player, placement: Placement) -> None:
    state, p = player.state, player.p
    hand = state.pawns_at(P.hand(p))
    for slot, colors in placement.seating:  # the drawn guests only, in seat order
        for color in colors:
            pawn = _take(state, hand, color)
            player.apply(Move("place", player=p, pawn=pawn, slot=slot,
                              seat=free_seat(state, p, slot)))
    for color in placement.exits:
        player.apply(Move("to_exit", player=p, pawn=_take(state, hand, color)))


def _guests(state: GameState, p: int, slot: int) -> list[int]:
    """The pawns still to act in ``slot``, in seat order (the acting one first).

    Empty once the showing is over: a copy where the other players were done already ends
    the round when this player's last guest leaves.
    """
    if state.phase != "showings":
        return []
    show = state.showings[p]
    start = show.cursor if slot == show.active else 0
    theater = state.theater(p, slot)
    assert theater is not None
    return [i for k in range(start, theater.seats)
            if (i := state.occupant(p, slot, k)) is not None]


def _take(state: GameState, hand: list[int], color: str) -> int:
    pawn = next(i for i in hand if state.pawn_color[i] == color)
    hand.remove(pawn)
    return pawn


def _act(player: _Player, slot: int, choices: tuple[Choice, ...]) -> bool:
    """Play one theater's guests; False when the plan must stop (a guest drawn to a seat)."""
    state, p = player.state, player.p
    pawns = _guests(state, p, slot)
    if not pawns:
        return True  # an empty theater, or the showing already over
    for pawn, choice in zip(pawns, choices, strict=True):
        if _acting(state, p, slot) != pawn:
            continue  # the engine sent the guest out by itself: it had nothing to do
        if choice.seat is not None:
            index, color = choice.seat
            if not player.apply(_for_guest(state, "seat_action", p, slot, index=index,
                                           pawn=_exit_pawn(state, p, color))):
                return False
        if choice.movie is not None and _acting(state, p, slot) == pawn:
            index, color = choice.movie
            if not player.apply(_for_guest(state, "movie_action", p, slot, index=index,
                                           pawn=_exit_pawn(state, p, color))):
                return False
        if _acting(state, p, slot) == pawn:
            player.apply(_for_guest(state, "end_guest", p, slot))
    return True


def _for_guest(state: GameState, kind: str, p: int, slot: int, index: int | None = None,
               pawn: int | None = None) -> Move:
    """An activation move naming the seat of the guest acting now in ``slot``."""
    return Move(kind, player=p, slot=slot, seat=acting_seat(state, p, slot), index=index,
                pawn=pawn)


def _acting(state: GameState, p: int, slot: int) -> int | None:
    """The pawn next to act in ``slot`` (None once the theater or the showing is done)."""
    if state.phase != "showings":
        return None
    show = state.showings[p]
    if show.activated[slot]:
        return None
    seat = show.cursor if show.active == slot else first_guest(state, p, slot)
    return None if seat is None else state.occupant(p, slot, seat)


def _exit_pawn(state: GameState, p: int, color: str | None) -> int | None:
    """The lowest pawn of ``color`` in the exit zone, for an action that moves one."""
    if color is None:
        return None
    return next(i for i in state.pawns_at(P.exit_zone(p)) if state.pawn_color[i] == color)
