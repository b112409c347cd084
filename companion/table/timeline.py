"""A game replayed position by position, as everyone at the table saw it: the replay board.

A finished game of the archive (from its record) and a live table (from the moves it has
applied so far) are both a :class:`Timeline`: the state before any move and the steps
after it. Position 0 is the start; position ``n`` is the state after ``n`` steps. A step is
a move, or, at a live table, a correction (a pawn put where the table says it is, which a
record cannot hold); a swap of look-alike pawns (a relabel) rides with the step it came
with, as the table's log keeps it.

Anyone may open the replay board, so nothing here is more than public: each step is the
game's :meth:`~companion.kit.game.GameKind.public_move` (a record names award cards only
one player saw; a B Movies vote stays hidden until its reveal), each position the game's
:meth:`~companion.kit.game.GameKind.replay_view`, and the charts come from the game's
:class:`~companion.kit.charts.ChartNotes`, which see the public positions one by one.

:meth:`Timeline.summary` walks the game once (every step, the rounds' first positions, the
charts); :meth:`Timeline.views` gives the views of a few positions (a page), replaying up
to them. Both are pure: callers copy what they need of a table under the hub's lock and
work outside it. The timeline knows no game.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from companion.kit.errors import TableError
from companion.kit.game import GameKind

MAX_VIEWS = 50
"""The most positions one page of views holds (a Popcorn view is about 8 KB)."""
CORRECTION = {"move": "correct"}
"""A correction's step, as the replay board shows it: the board shows where the piece went."""


@dataclass(frozen=True)
class Step:
    """One step of a timeline: a ``move`` (the game's own move object) or a ``correction``
    (the game's JSON of it, as the table's log keeps it), with the ``relabel`` of two
    look-alike pieces the table made just before it, if any."""

    move: Any | None = None
    correction: dict[str, Any] | None = None
    relabel: tuple[int, int] | None = None


@dataclass(frozen=True)
class Timeline:
    """A game's steps from its start: the ``game``, the players' ``names`` in seat order,
    the table ``options`` and first player it was played with, and its ``steps``. A relabel
    that came with no move (a bag filled at setup) is kept in ``quiet``: the relabels to
    make, by the number of steps made before them."""

    game: GameKind[Any, Any]
    names: tuple[str, ...]
    first_player: int
    options: dict[str, Any]
    steps: tuple[Step, ...]
    quiet: tuple[tuple[int, tuple[int, int]], ...] = ()

    @classmethod
    def of_record(cls, game: GameKind[Any, Any], text: str) -> Timeline:
        """A game record's timeline, read and checked by its game (a record the archive
        keeps was checked when it went in)."""
        recorded = game.read_record(text)
        return cls(game, tuple(recorded.names), recorded.first_player,
                   dict(recorded.options), tuple(Step(move) for move in recorded.moves))

    @classmethod
    def of_entries(cls, game: GameKind[Any, Any], names: Sequence[str], first_player: int,
                   options: dict[str, Any], entries: Sequence[dict[str, Any]]) -> Timeline:
        """A live table's timeline from its applied entries (``Table.entries``, copied under
        the hub's lock): moves, corrections, and bag fills that only relabel."""
        steps: list[Step] = []
        quiet: list[tuple[int, tuple[int, int]]] = []
        for entry in entries:
            pair = entry.get("relabel")
            relabel = (int(pair[0]), int(pair[1])) if pair else None
            if "move" in entry:
                steps.append(Step(game.move_from_dict(entry["move"]), relabel=relabel))
            elif "correct" in entry:
                steps.append(Step(correction=dict(entry["correct"]), relabel=relabel))
            elif relabel is not None:
                quiet.append((len(steps), relabel))
        return cls(game, tuple(names), first_player, dict(options), tuple(steps), tuple(quiet))

    def start(self) -> Any:
        """The state before any step (the quiet relabels of position 0 made)."""
        state = self.game.new_state(list(self.names), self.first_player, self.options)
        self._quiet(state, 0)
        return state

    def positions(self, last: int | None = None) -> Iterator[tuple[int, Step | None, Any]]:
        """Each position from 0 to ``last`` (the end by default): its number, the step that
        led there (None for 0) and the state, which changes in place from one to the next
        (read it before asking for the next)."""
        last = len(self.steps) if last is None else last
        state = self.start()
        yield 0, None, state
        for n, step in enumerate(self.steps[:last], start=1):
            self._apply(state, step)
            self._quiet(state, n)
            yield n, step, state

    def _apply(self, state: Any, step: Step) -> None:
        if step.relabel is not None:
            self.game.relabel(state, *step.relabel)
        if step.move is not None:
            state.apply(step.move)
        elif step.correction is not None:
            self.game.correct(state, step.correction)

    def _quiet(self, state: Any, made: int) -> None:
        for at, pair in self.quiet:
            if at == made:
                self.game.relabel(state, *pair)

    def public_step(self, step: Step) -> dict[str, Any]:
        """A step as the replay board lists it: the game's public move, or a correction."""
        if step.move is not None:
            return self.game.public_move(step.move)
        return dict(CORRECTION)

    def summary(self) -> dict[str, Any]:
        """The whole game in one walk: ``game``, ``analyzes`` (whether the game has an
        analysis), ``names``, ``moves`` (the last position), ``over``, ``steps`` (per
        position from 1, the public move that led there and the round it is in), ``rounds``
        (each round's first position) and ``charts``."""
        names = list(self.names)
        notes = self.game.chart_notes(names)
        steps: list[dict[str, Any]] = []
        rounds: list[dict[str, int]] = []
        over = False
        for n, step, state in self.positions():
            number = self.game.round_of(state)
            if number is not None and (not rounds or rounds[-1]["round"] != number):
                rounds.append({"round": number, "position": n})
            if step is None:
                if notes is not None:
                    notes.start(state)
            else:
                steps.append({**self.public_step(step), "round": number})
                if notes is not None:
                    notes.see(n, step.move, state)
            over = bool(state.is_over)
        return {"game": self.game.id, "analyzes": self.game.analyzes, "names": names,
                "moves": len(self.steps), "over": over,
                "steps": steps, "rounds": rounds,
                "charts": [] if notes is None else [c.to_dict() for c in notes.charts()]}

    def views(self, first: int, count: int) -> list[dict[str, Any]]:
        """The replay views of positions ``first`` to ``first + count - 1`` (those that
        exist). ``BAD_REQUEST`` for a ``first`` past the end or a ``count`` out of 1 to
        :data:`MAX_VIEWS`."""
        if not 0 <= first <= len(self.steps):
            raise TableError("BAD_REQUEST", f"from must be a position from 0 to "
                             f"{len(self.steps)}", params={"field": "from",
                                                           "last": len(self.steps)})
        if not 1 <= count <= MAX_VIEWS:
            raise TableError("BAD_REQUEST", f"count must be a whole number from 1 to "
                             f"{MAX_VIEWS}", params={"field": "count"})
        last = min(len(self.steps), first + count - 1)
        names = list(self.names)
        return [self.game.replay_view(state, names)
                for n, _, state in self.positions(last) if n >= first]
