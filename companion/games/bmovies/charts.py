"""B Movies' charts of a game, for the replay board: the tokens drawn and the movies made,
round by round.

:class:`BMoviesNotes` watches a game replayed position by position and counts, per player
and per round, what everyone at the table saw: how many popcorn tokens they drew from the
bucket (their count, never their values, which stay face down until the Final Cut) and how
many movies they made as the screenwriter. A bar opens the board where its round ended.
"""

from __future__ import annotations

from typing import Any

from companion.kit.charts import Chart, ChartNotes, Series
from companion.kit.texts import N_

from .engine import State


class BMoviesNotes(ChartNotes):
    """B Movies' :class:`~companion.kit.charts.ChartNotes` (see the module docstring)."""

    def __init__(self, names: list[str]) -> None:
        self.names = list(names)
        self.round = 0
        self.position = 0
        self.counts: list[tuple[int, int]] = []
        """Each player's tokens and movies at the position seen last."""
        self.at_start: list[tuple[int, int]] = []
        """Each player's tokens and movies when the current round began."""
        self.ends: dict[int, tuple[int, list[tuple[int, int]]]] = {}
        """Per round ended: the position where it ended and what each player got in it."""

    def start(self, state: Any) -> None:
        """Nothing drawn, nothing made."""
        self.counts = self.at_start = _counts(state)
        self.round = state.round

    def see(self, position: int, move: Any | None, state: Any) -> None:
        """Count the move's tokens and movies; close a round that ended (the move that
        ended it is its last)."""
        now = _counts(state)
        if state.round != self.round:
            if self.round >= 1:
                self.ends[self.round] = (position, _gained(now, self.at_start))
            self.at_start = now
        self.round, self.counts, self.position = state.round, now, position

    def charts(self) -> list[Chart]:
        """Tokens drawn and movies made per round (the running round as far as it went)."""
        ends = dict(self.ends)
        if self.round >= 1 and self.round not in ends:
            ends[self.round] = (self.position, _gained(self.counts, self.at_start))
        rounds = sorted(ends)
        if not rounds:
            return []
        labels, positions = [str(r) for r in rounds], [ends[r][0] for r in rounds]
        return [Chart(key, "bar", title, N_("Round"), axis, labels,
                      [Series(name, [ends[r][1][p][k] for r in rounds], positions)
                       for p, name in enumerate(self.names)])
                for k, (key, title, axis) in enumerate((
                    ("tokens", N_("Tokens drawn per round"), N_("Tokens")),
                    ("movies", N_("Movies made per round"), N_("Movies")),
                ))]


def _counts(state: State) -> list[tuple[int, int]]:
    return [(len(state.piles[p]), len(state.movies[p])) for p in range(state.n)]


def _gained(now: list[tuple[int, int]], then: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(t - t0, m - m0) for (t, m), (t0, m0) in zip(now, then, strict=True)]
