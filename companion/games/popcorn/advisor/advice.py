"""The advisor's answer for one player: the best placement, its moves, and two alternatives.

:func:`advise` is the entry point. It works for a player whose guests are drawn and who has
no pending step: with guests in hand it searches every placement of them; with every guest
already seated (a showing resolved halfway) it plans the rest of the activations. Each of the
best placements is then played through the engine on a copy (:mod:`.plan`), so the moves it
suggests are legal and the gains it reports are the engine's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import pawns as P
from ..engine.state import GameState
from .plan import Plan, play_out
from .search import Placement, best_placements
from .weights import TERMS, Weights, load_weights

ALTERNATIVES = 3
"""How many placements an answer lists: the best one, then the next best."""


class AdviceError(Exception):
    """Why no advice can be given now: a stable ``code`` and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


@dataclass(frozen=True)
class Option:
    """One placement as the advisor proposes it: the search's view and the engine's moves.

    ``value`` and the gains are the search's expected ones for the whole showing. When the
    plan runs to its end they are exactly what the engine measured playing it (a property
    test holds them equal); a plan that stops at a guest drawn to a seat counts that guest
    and assumes the remaining theaters act as planned.
    """

    placement: Placement
    plan: Plan

    @property
    def value(self) -> float:
        """The placement's worth under the value function."""
        return self.placement.value

    def to_dict(self) -> dict[str, Any]:
        """JSON: value, gains per term, seating per theater, exits, then the moves."""
        return {
            "value": self.value,
            "gains": dict(zip(TERMS, self.placement.gains, strict=True)),
            "seating": [{"slot": slot, "colors": list(colors)}
                        for slot, colors in self.placement.seating],
            "exit": list(self.placement.exits),
            "moves": [m.to_dict() for m in self.plan.moves],
            "waits": [{"after": n, "task": task} for n, task in self.plan.waits],
            "then": self.plan.then,
        }


@dataclass(frozen=True)
class Advice:
    """The advisor's answer: ``options[0]`` is the suggestion, the rest the alternatives."""

    player: int
    options: tuple[Option, ...]

    @property
    def best(self) -> Option:
        """The suggested placement."""
        return self.options[0]

    def to_dict(self) -> dict[str, Any]:
        """JSON: the player, the suggestion, and the alternatives after it."""
        return {"player": self.player, "best": self.best.to_dict(),
                "alternatives": [o.to_dict() for o in self.options[1:]]}


def check_ready(state: GameState, p: int) -> None:
    """Raise :class:`AdviceError` unless player ``p`` has drawn and may seat or act now."""
    if not 0 <= p < state.n:
        raise AdviceError("BAD_PLAYER", f"There is no player {p} at this table.")
    if state.phase != "showings" or state.showings[p].to_draw > 0:
        raise AdviceError("NO_DRAW_WAITING", f"{state.names[p]} has no drawn guests to seat.")
    task = state.task_for(p)
    if task is not None:
        raise AdviceError("PENDING_STEP", f"{state.names[p]} must first resolve a pending "
                          f"{task.kind} step.")
    if not state.at.get(P.hand(p)) and not state.seated_count[p]:
        raise AdviceError("NO_DRAW_WAITING", f"{state.names[p]} has no guest left to seat or "
                          "activate this showing.")


def advise(state: GameState, p: int, weights: Weights | None = None) -> Advice:
    """Where player ``p``'s drawn guests should sit and what they should do; ``state`` is
    left unchanged. Raises :class:`AdviceError` when there is nothing to advise."""
    check_ready(state, p)
    weights = weights or load_weights()
    return Advice(p, tuple(Option(placement, play_out(state, p, placement))
                           for placement in best_placements(state, p, weights, ALTERNATIVES)))
