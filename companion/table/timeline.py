"""A game replayed position by position, as everyone at the table saw it: the replay board.

A finished game of the archive (from its record) and a live table (from the moves it has
applied so far) are both a :class:`Timeline`: the state before any move and the steps
after it. Position 0 is the start; position ``n`` is the state after ``n`` steps. A step is
a move, or, at a live table, a correction (a pawn put where the table says it is; a record
holds it as its game's record move); a swap of look-alike pawns (a relabel) rides with the
step it came with, as the table's log keeps it.

Anyone may open the replay board, so nothing here is more than public: each step is the
game's :meth:`~companion.kit.parts.Replays.public_move` (a record names award cards only
one player saw; a B Movies vote stays hidden until its reveal), each position the game's
:meth:`~companion.kit.parts.Replays.view`, and the charts come from the game's
:class:`~companion.kit.charts.ChartNotes`, which see the public positions one by one.

:meth:`Timeline.summary` walks the game once (every step, the rounds' first positions, the
charts); :meth:`Timeline.views` gives the views of a few positions (a page), replaying up
to them. Both are pure: callers copy what they need of a table under the hub's lock and
work outside it. The timeline knows no game.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.kit.errors import TableError
from companion.kit.game import GameKind, play

MAX_VIEWS = 50
"""The most positions one page of views holds (a Popcorn view is about 8 KB)."""
CORRECTION = {"move": "correct"}
"""A correction's step, as the replay board shows it when its game has no record move for
it: the board shows where the piece went."""
MARKS = ("tap", "relabel", "seen", "fill")
"""What a live table's entry keeps of its tap (see :meth:`LookAlikes.play`)."""


def _relabels_only(game: GameKind[Any, Any], correction: dict[str, Any]) -> bool:
    """Whether a correction changes no count (its game writes no record move for it)."""
    try:
        return game.corrections is not None and game.corrections.record_move(correction) is None
    except TableError:
        return False


@dataclass(frozen=True)
class Step:
    """One step of a timeline: a ``move`` (the game's own move object), with the ``marks`` a
    tap left beside it in the table's log (a relabel of look-alike pieces made just before
    it, the piece it showed), or a ``correction`` (the game's JSON of it, as the log keeps
    it)."""

    move: Any | None = None
    correction: dict[str, Any] | None = None
    marks: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Timeline:
    """A game's steps from its start: the ``game``, the players' ``names`` in seat order,
    the table ``options`` and first player it was played with, and its ``steps``. What a
    live table did that nobody sees on the board (a bag filled at setup, a correction that
    only relabels look-alikes) is kept in ``quiet``: each such step, by the number of steps
    made before it."""

    game: GameKind[Any, Any]
    names: tuple[str, ...]
    first_player: int
    options: dict[str, Any]
    steps: tuple[Step, ...]
    quiet: tuple[tuple[int, Step], ...] = ()

    @classmethod
    def of_record(cls, game: GameKind[Any, Any], text: str) -> Timeline:
        """A game record's timeline, read and checked by its game (a record the archive
        keeps was checked when it went in)."""
        recorded = game.records.read(text)
        return cls(game, tuple(recorded.names), recorded.first_player,
                   dict(recorded.options), tuple(Step(move) for move in recorded.moves))

    @classmethod
    def of_entries(cls, game: GameKind[Any, Any], names: Sequence[str], first_player: int,
                   options: dict[str, Any], entries: Sequence[dict[str, Any]]) -> Timeline:
        """A live table's timeline from its applied entries (``Table.entries``, copied under
        the hub's lock): moves, corrections, and bag fills that only relabel."""
        steps: list[Step] = []
        quiet: list[tuple[int, Step]] = []
        for entry in entries:
            marks = {k: entry[k] for k in MARKS if k in entry}
            if "move" in entry:
                steps.append(Step(game.move_from_dict(entry["move"]), marks=marks))
            elif "correct" in entry:
                correction = dict(entry["correct"])
                step = Step(correction=correction)
                if _relabels_only(game, correction):
                    quiet.append((len(steps), step))
                else:
                    steps.append(step)
            elif "fill" in entry:
                quiet.append((len(steps), Step(marks=marks)))
        return cls(game, tuple(names), first_player, dict(options), tuple(steps), tuple(quiet))

    def start(self) -> Any:
        """The state before any step (the quiet steps of position 0 made)."""
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
        if step.correction is not None:
            assert self.game.corrections is not None  # a table logs them only then
            self.game.corrections.correct(state, step.correction)
        else:
            play(self.game, state, step.move, step.marks)

    def _quiet(self, state: Any, made: int) -> None:
        for at, step in self.quiet:
            if at == made:
                self._apply(state, step)

    def public_step(self, step: Step) -> dict[str, Any]:
        """A step as the replay board lists it: the game's public move, or a correction
        (the game's record move for it, when it has one: where the piece went)."""
        if step.move is not None:
            return self.game.replays.public_move(step.move)
        assert step.correction is not None
        try:
            corrections = self.game.corrections
            move = None if corrections is None else corrections.record_move(step.correction)
        except TableError:
            move = None
        return dict(CORRECTION) if move is None else self.game.replays.public_move(move)

    def summary(self) -> dict[str, Any]:
        """The whole game in one walk: ``game``, ``analyzes`` (whether the game has an
        analysis), ``names``, ``moves`` (the last position), ``over``, ``steps`` (per
        position from 1, the public move that led there and the round it is in), ``rounds``
        (each round's first position) and ``charts``."""
        names = list(self.names)
        notes = self.game.replays.chart_notes(names)
        steps: list[dict[str, Any]] = []
        rounds: list[dict[str, int]] = []
        over = False
        for n, step, state in self.positions():
            number = self.game.replays.round_of(state)
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
        return {"game": self.game.id, "analyzes": self.game.advisor is not None,
                "names": names,
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
        return [self.game.replays.view(state, names)
                for n, _, state in self.positions(last) if n >= first]
