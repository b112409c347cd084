"""The analysis of a game: every decision the seating advisor can value, judged.

A record is replayed move by move (:class:`.record.Replay`). Wherever a player's move is one
the advisor can judge (:mod:`.advisor.judge`), the move played is compared with the
advisor's best, in the advisor's unit (Popcorn):

* a **placement**: the ``place`` and ``to_exit`` moves that seat one Open Cinema's drawn
  guests, taken together as one decision. The best is what the showing was worth before the
  first guest sat; the played value is what it is worth once the last one has sat.
* an **action**: each ``seat_action``, ``movie_action`` and ``end_guest`` of a guest (which
  theater acts first, which action, which pawn, or a pass). The played value is what the
  move brought at once plus the best that is left after it.

For each player it gives the **accuracy**, the share of the best value that was kept
(``docs/advisor.md``, "Judging a game"), the number of decisions valued, and the three
biggest misses with the move played and the advisor's best beside it. :func:`analyze` is
the entry point; :meth:`Analysis.to_dict` is the JSON a hub or ``popcorn-companion
analyze`` shows.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.kit.game import Progress

from .advisor.advice import advise
from .advisor.judge import can_judge, move_value, position_value
from .advisor.weights import Weights, load_weights
from .engine import Catalog, GameState, Move, Violation
from .engine import pawns as P
from .engine.pawns import SLOT_NAMES
from .record import Record, Replay

UNIT = "popcorn"
"""The unit of every value: the advisor's (``docs/advisor.md``, "The value function")."""
MISSES = 3
"""How many misses are named per player."""
PLACING = frozenset({"place", "to_exit"})
"""The moves that seat (or send to the exit zone) the guests of an Open Cinema."""
ACTING = frozenset({"seat_action", "movie_action", "end_guest"})
"""The moves of an acting guest."""
EPSILON = 1e-6
"""Values closer than this are equal (the value function rounds to 9 decimals)."""


@dataclass
class Decision:
    """One valued decision: who, where in the record, what was played, what it was worth.

    ``index`` is the position in the record of its first move (0 is the first move after
    the header, so the position before the decision is the one after ``index`` moves);
    ``best`` is the advisor's value of the position before it, ``value`` the value of the
    move(s) played, ``gained`` the part of ``value`` the moves brought at once.
    """

    player: int
    index: int
    round: int
    kind: str
    """``placement`` or ``action``."""
    moves: list[Move]
    best: float
    value: float = 0.0
    gained: float = 0.0
    before: GameState | None = None
    """The position before the decision, kept while the decision may be a named miss."""
    shown: tuple[dict[str, Any], dict[str, Any]] | None = None
    """For a named miss: the played and the best move(s) as JSON (:func:`_describe`)."""

    @property
    def lost(self) -> float:
        """The value the decision gave up (never below zero)."""
        return max(0.0, round(self.best - self.value, 9))


@dataclass
class PlayerAnalysis:
    """One player's figures: every valued decision's sums, and the biggest misses."""

    seat: int
    name: str
    decisions: int = 0
    kept: float = 0.0
    """The value the player's decisions brought."""
    lost: float = 0.0
    """The value they gave up against the advisor's best."""
    misses: list[Decision] = field(default_factory=list)

    @property
    def accuracy(self) -> float | None:
        """``kept / (kept + lost)`` in percent; None when nothing was at stake."""
        total = self.kept + self.lost
        return 100 * self.kept / total if total > EPSILON else None


@dataclass
class Analysis:
    """A whole record analysed: each player's figures, and whether the game was over."""

    players: list[PlayerAnalysis]
    moves: int
    finished: bool
    decisions: list[Decision] = field(default_factory=list)
    """Every valued decision, in record order (by the index of its last move)."""

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON (``docs/advisor.md``, "Judging a game")."""
        return {
            "game": "popcorn", "unit": UNIT, "moves": self.moves, "finished": self.finished,
            "players": [{
                "seat": pa.seat, "name": pa.name, "accuracy": _round(pa.accuracy, 1),
                "decisions": pa.decisions, "kept": _round(pa.kept), "lost": _round(pa.lost),
                "misses": [_miss(d) for d in pa.misses],
            } for pa in self.players],
        }


def _miss(decision: Decision) -> dict[str, Any]:
    played, best = decision.shown or ({}, {})
    return {"index": decision.index, "line": decision.index + 2, "round": decision.round,
            "kind": decision.kind, "played": played, "best": best,
            "lost": _round(decision.lost)}


def _round(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def analyze(catalog: Catalog, record: Record, progress: Progress | None = None,
            weights: Weights | None = None) -> Analysis:
    """Judge every decision of ``record`` the advisor can value.

    Raises :class:`~companion.kit.records.RecordError` at the first illegal move, naming its
    line. ``progress`` is told ``(done, total)`` moves at the start, then about every
    hundredth of the record, and last ``(total, total)``. A record that stops before the
    end is analysed as far as it goes (``finished`` is then false).
    """
    weights = weights or load_weights()
    run = Replay(catalog, record)
    walk = _Walk(run.state.n, weights)
    total = len(record.moves)
    step = max(1, -(-total // 100))
    if progress:
        progress(0, total)
    for index, move in run:
        walk.see(run.state, index, move)
        if progress and (index + 1) % step == 0 and index + 1 < total:
            progress(index + 1, total)
    if progress:
        progress(total, total)
    state = run.state
    players = [PlayerAnalysis(p, state.names[p]) for p in range(state.n)]
    for decision in walk.decisions:
        pa = players[decision.player]
        pa.decisions += 1
        pa.kept += decision.gained
        pa.lost += decision.lost
    for pa in players:
        pa.misses = walk.misses(pa.seat)
        for decision in pa.misses:
            decision.shown = _describe(decision, weights)
            decision.before = None
    return Analysis(players, total, state.is_over, walk.decisions)


class _Walk:
    """The decisions found so far as the record is replayed."""

    def __init__(self, players: int, weights: Weights) -> None:
        self.weights = weights
        self.decisions: list[Decision] = []
        self.placing: dict[int, Decision] = {}
        """Per player, the placement whose guests are being seated."""
        self.worst: list[list[tuple[float, int, Decision]]] = [[] for _ in range(players)]
        """Per player, a heap of the biggest misses so far: ``(lost, -index, decision)``."""

    def see(self, state: GameState, index: int, move: Move) -> None:
        """Value ``move`` (played at ``index`` from ``state``) if it is a decision."""
        p = move.player
        if (state.phase != "showings" or p is None or p >= state.n
                or move.kind not in PLACING | ACTING or not can_judge(state, p)):
            return
        if move.kind in PLACING:
            hand = state.pawns_at(P.hand(p))
            if not hand:
                return
            if p not in self.placing:
                self.placing[p] = Decision(p, index, state.round, "placement", [],
                                           position_value(state, p, self.weights),
                                           before=state.clone())
            decision = self.placing[p]
            decision.moves.append(move)
            if len(hand) == 1:  # this move seats the last drawn guest
                del self.placing[p]
                self._judge(decision, state, move)
            return
        decision = Decision(p, index, state.round, "action", [move],
                            position_value(state, p, self.weights))
        self._judge(decision, state, move)

    def _judge(self, decision: Decision, state: GameState, move: Move) -> None:
        try:
            worth = move_value(state, decision.player, move, self.weights)
        except Violation:
            return  # the replay refuses the move next, naming its line
        decision.value, decision.gained = worth.value, worth.gained
        self.decisions.append(decision)
        heap = self.worst[decision.player]
        entry = (decision.lost, -decision.index, decision)
        if decision.lost <= EPSILON or (len(heap) >= MISSES and entry[:2] <= heap[0][:2]):
            decision.before = None  # not among the biggest misses: no position to keep
            return
        if decision.before is None:
            decision.before = state.clone()
        if len(heap) < MISSES:
            heapq.heappush(heap, entry)
        else:
            heapq.heapreplace(heap, entry)[2].before = None

    def misses(self, p: int) -> list[Decision]:
        """Player ``p``'s biggest misses, the biggest first (the earliest of equal ones)."""
        return [d for _, _, d in sorted(self.worst[p], key=lambda e: e[:2], reverse=True)]


def _describe(decision: Decision, weights: Weights) -> tuple[dict[str, Any], dict[str, Any]]:
    """The played and the best move(s) of a miss as JSON: ``moves``, ``text``, ``value``."""
    state, p = decision.before, decision.player
    assert state is not None
    plan = advise(state, p, weights).best.plan.moves
    if decision.kind == "placement":
        best = [m for m in plan if m.kind in PLACING]
        describe = describe_placement
    else:
        best = plan[:1]
        describe = describe_actions
    return ({"moves": [m.to_dict() for m in decision.moves],
             "text": describe(state, decision.moves), "value": _round(decision.value)},
            {"moves": [m.to_dict() for m in best], "text": describe(state, best),
             "value": _round(decision.best)})


def describe_placement(state: GameState, moves: Sequence[Move]) -> str:
    """Where a placement's guests go, by color, left to right then the exit zone:
    ``left: red, blue; right: green; exit: white`` (each theater's in seat order)."""
    places: dict[int, list[str]] = {}
    for move in moves:
        where = len(SLOT_NAMES) if move.kind == "to_exit" or move.slot is None else move.slot
        color = state.pawn_color[move.pawn] if move.pawn is not None else "?"
        places.setdefault(where, []).append(color)
    names = (*SLOT_NAMES, "exit")
    return "; ".join(f"{names[where]}: {', '.join(places[where])}" for where in sorted(places))


def describe_actions(state: GameState, moves: Sequence[Move]) -> str:
    """A guest's move in words: ``left seat #2: seat action audience_up`` (``nothing``
    for no move)."""
    return "; ".join(describe_action(state, m) for m in moves) or "nothing"


def describe_action(state: GameState, move: Move) -> str:
    """One activation move in words, with the action it takes and the pawn it names."""
    p, slot, seat = move.player, move.slot, move.seat
    if p is None or slot is None or seat is None:
        return move.kind
    where = f"{SLOT_NAMES[slot]} seat #{seat + 1}"
    theater, movie = state.theater(p, slot), state.movie(p, slot)
    index = move.index
    movie_action = (movie.actions[index] if movie is not None and index is not None
                    and 0 <= index < len(movie.actions) else None)
    if move.kind == "end_guest":
        text = f"{where}: pass"
    elif move.kind == "movie_action":
        text = f"{where}: movie action #{(index or 0) + 1} {movie_action}"
    else:
        action = theater.seat_actions[seat] if theater is not None else "?"
        text = f"{where}: seat action {action}"
        if movie_action is not None:
            text = f"{where}: seat action (movie action #{(index or 0) + 1} {movie_action})"
    if move.pawn is not None:
        text += f" on a {state.pawn_color[move.pawn]} guest"
    return text
