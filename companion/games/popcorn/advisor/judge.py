"""The advisor as a judge: what a position is worth to a player, and what a move kept of it.

The search (:mod:`.search`) finds the best the rest of a showing can bring a player, in the
value function's unit (Popcorn, see :mod:`.weights`): that is the position's worth,
:func:`position_value`. A move played from there is worth what it brings at once plus the
best that is left after it, :func:`move_value`. The difference between the two is what the
move lost. For a move the advisor would play the difference is zero: its plan is the best
one, and after its first move the rest of it is still the best.

The game analysis (:mod:`companion.games.popcorn.analysis`) asks these two questions at
every decision of a finished game; ``docs/advisor.md`` ("Judging a game") defines the
figures it draws from them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import game as G
from ..engine.moves import Move
from ..engine.state import GameState, Task
from .advice import AdviceError, check_ready
from .model import Gains
from .plan import tally
from .search import best_placements
from .weights import TERMS, Weights, load_weights

GUESTS = TERMS.index("guests")


def can_judge(state: GameState, p: int) -> bool:
    """Whether the advisor can value player ``p``'s position now: their guests are drawn,
    no pending step of theirs waits, and a guest is left to seat or to act (the moments
    :func:`.advise` answers)."""
    try:
        check_ready(state, p)
    except AdviceError:
        return False
    return True


def position_value(state: GameState, p: int, weights: Weights | None = None) -> float:
    """The best value the rest of player ``p``'s showing can bring, as the advisor sees it
    (the value of :func:`.advise`'s suggestion); 0 when there is nothing to advise."""
    if not can_judge(state, p):
        return 0.0
    found = best_placements(state, p, weights or load_weights(), 1)
    return found[0].value if found else 0.0


@dataclass(frozen=True)
class MoveValue:
    """What one move of a player is worth: ``gains`` it brings at once (by term), their
    value ``gained``, and ``value``: ``gained`` plus the best value left after the move."""

    gains: Gains
    gained: float
    value: float


def move_value(state: GameState, p: int, move: Move, weights: Weights | None = None
               ) -> MoveValue:
    """The worth of player ``p`` playing ``move`` now; ``state`` is left unchanged.

    The move is applied to a copy, and its gains are read from the copy as
    :func:`.plan.play_out` reads a plan's. An award draw it starts is settled on the copy
    with the first listed cards (the award term counts draws, not which card). A guest
    drawn to a seat is counted as the model counts it: one ``guests`` gain, with the rest of
    the showing valued as if no guest came (so the copy's bag is not refilled for it).
    Raises the engine's :class:`~..engine.Violation` for an illegal move.
    """
    weights = weights or load_weights()
    copy = state.clone()
    before = tally(copy, p)
    G.apply(copy, move)
    drawn = 0
    if _own_task(copy, p, "draw_seat") is not None:
        copy = state.clone()
        G.HANDLERS[move.kind](copy, move)  # checked, without the automatic steps (a refill)
        task = _own_task(copy, p, "draw_seat")
        if task is not None:
            copy.tasks.remove(task)
        drawn = 1
    _settle(copy, p)
    after = tally(copy, p)
    diff = [b - a for a, b in zip(before, after, strict=True)]
    diff[GUESTS] += drawn
    gains: Gains = (diff[0], diff[1], diff[2], diff[3], diff[4], diff[5])
    gained = weights.value(gains)
    return MoveValue(gains, gained, round(gained + position_value(copy, p, weights), 9))


def _own_task(state: GameState, p: int, kind: str | None = None) -> Task | None:
    """Player ``p``'s own pending step during the showing (of ``kind``, if given)."""
    if state.phase != "showings":
        return None
    task = state.task_for(p)
    if task is None or task.player != p or (kind is not None and task.kind != kind):
        return None
    return task


def _settle(state: GameState, p: int) -> None:
    """Resolve ``p``'s pending steps on a copy with the first listed outcome or choice (an
    award draw: which card does not change the showing's gains)."""
    for _ in range(16):
        task = _own_task(state, p)
        if task is None or task.kind == "draw_seat":
            return
        choices = G.chance_outcomes(state, p) or G.legal_moves(state, p)
        if not choices:
            return
        G.apply(state, choices[0])
