"""Popcorn's charts of a game, for the replay board: per round, and the final score by source.

:class:`PopcornNotes` watches a game replayed position by position (the hub's timeline) and
charts what everyone at the table saw:

* **popcorn**, **money** and **audience** (the cube's space on the audience track, 0 at the
  start) of each player at the end of each round, one line per player; a point opens the
  board where the round ended (the move that ended it made);
* once the game is over, the **final score by source**, a stacked bar per player that adds
  up to their total: the popcorn of their bucket split by where it came from (the movies'
  actions and bonuses, the theaters' seat actions, the audience track, anything else), then
  the popcorn of their money, the theater trophy, the awards counted without the
  advertising tokens, and what the tokens added to the awards.

Where a bucket's popcorn came from is read from the move that brought it: a movie action
(``movie_action``, or a ``seat_action`` that plays one of the movie's actions), a seat's own
action, a move whose action is ``audience_up`` or that moved the cube (its bonus, or the
popcorn past the track's end), a bought movie's bonus. The sources add up to the bucket.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.kit.charts import Chart, ChartNotes, Series
from companion.kit.texts import N_

from .engine import GameState, Move, final_positions, score_game

MOVIES, SEATS, AUDIENCE, OTHER = "movies", "seats", "audience", "other"
"""Where a bucket's popcorn came from."""
SOURCES: tuple[tuple[str, str], ...] = (
    (MOVIES, N_("Movies")), (SEATS, N_("Theater seats")), (AUDIENCE, N_("Audience track")),
    (OTHER, N_("Other popcorn")), ("money", N_("Money")), ("trophy", N_("Theater trophy")),
    ("awards", N_("Awards")), ("ad_tokens", N_("Advertising tokens")),
)
"""The stacks of the final score, bottom first, with their English names."""
FIGURES: tuple[tuple[str, str, str], ...] = (
    ("popcorn", N_("Popcorn per round"), N_("Popcorn")),
    ("money", N_("Money per round"), N_("Dollars")),
    ("audience", N_("Audience per round"), N_("Audience track space")),
)
"""The per-round charts: the figure, the chart's title and its y axis's title."""


class PopcornNotes(ChartNotes):
    """Popcorn's :class:`~companion.kit.charts.ChartNotes` (see the module docstring)."""

    def __init__(self, names: list[str]) -> None:
        self.names = list(names)
        self.last: list[tuple[int, int, int]] = []
        """Each player's popcorn, money and audience at the position seen last."""
        self.round = 0
        self.ends: dict[int, tuple[int, list[tuple[int, int, int]]]] = {}
        """Per round ended so far: the position where it ended (its last move made) and
        every player's figures there."""
        self.position = 0
        self.sources: list[dict[str, int]] = [{} for _ in names]
        self.final: GameState | None = None

    def start(self, state: Any) -> None:
        """The figures before the first move."""
        self.last = _figures(state)
        self.round = state.round

    def see(self, position: int, move: Any | None, state: Any) -> None:
        """Attribute each player's new popcorn to its source; close a round that ended."""
        now = _figures(state)
        for p, (before, after) in enumerate(zip(self.last, now, strict=True)):
            gained = after[0] - before[0]
            if gained:
                source = _source(state, p, move, after[2] > before[2])
                self.sources[p][source] = self.sources[p].get(source, 0) + gained
        if state.round != self.round and self.round >= 1:
            self.ends[self.round] = (position, now)
        self.round, self.last, self.position = state.round, now, position
        self.final = state if state.is_over else None

    def charts(self) -> list[Chart]:
        """The per-round lines (the running round counted as far as it went) and, once the
        game is over, the final score by source."""
        ends = dict(self.ends)
        if self.round >= 1 and self.round not in ends:
            ends[self.round] = (self.position, self.last)
        rounds = sorted(ends)
        charts = [Chart(figure, "line", title, N_("Round"), axis, [str(r) for r in rounds],
                        [Series(name, [ends[r][1][p][k] for r in rounds],
                                [ends[r][0] for r in rounds])
                         for p, name in enumerate(self.names)])
                  for k, (figure, title, axis) in enumerate(FIGURES)] if rounds else []
        if self.final is not None:
            charts.append(self._score_chart(self.final))
        return charts

    def _score_chart(self, state: GameState) -> Chart:
        stacks = _final_sources(state, self.sources)
        shown = [(key, word) for key, word in SOURCES if any(s.get(key) for s in stacks)]
        return Chart("score", "bar", N_("Final score by source"), N_("Player"),
                     N_("Popcorn"), list(self.names),
                     [Series(word, [s.get(key, 0) for s in stacks],
                             [self.position] * len(stacks), word=True)
                      for key, word in shown], stacked=True)


def _figures(state: GameState) -> list[tuple[int, int, int]]:
    return [(ps.popcorn, ps.money, ps.audience) for ps in state.players]


def _source(state: GameState, player: int, move: Move | None, cube_moved: bool) -> str:
    """Where the popcorn a move brought ``player`` came from."""
    if move is None:
        return OTHER
    action = _action(state, move)
    if cube_moved or action == "audience_up":
        return AUDIENCE
    if move.kind == "movie_action" or move.kind == "buy_movie" or (
            move.kind == "seat_action" and move.index is not None):
        return MOVIES
    if move.kind == "seat_action":
        return SEATS
    return OTHER


def _action(state: GameState, move: Move) -> str | None:
    """The action an activation move took: a movie's, or a theater seat's own."""
    p, slot, seat = move.player, move.slot, move.seat
    if move.kind not in ("movie_action", "seat_action") or p is None or slot is None:
        return None
    if move.index is not None:
        movie = state.movie(p, slot)
        if movie is not None and 0 <= move.index < len(movie.actions):
            return movie.actions[move.index]
        return None
    theater = state.theater(p, slot)
    if theater is None or seat is None or not 0 <= seat < len(theater.seat_actions):
        return None
    return theater.seat_actions[seat]


def _final_sources(state: GameState, bucket: list[dict[str, int]]) -> list[dict[str, int]]:
    """Each player's final score split by source; the parts add up to the total."""
    positions = final_positions(state)
    scored = score_game(state.catalog, positions)
    plain = score_game(state.catalog, [dataclasses.replace(p, ad_tokens=())
                                       for p in positions])
    stacks = []
    for p, (score, without) in enumerate(zip(scored.players, plain.players, strict=True)):
        parts = {key: value for key, value in bucket[p].items() if key != OTHER}
        parts[OTHER] = score.bucket - sum(parts.values())
        awards, before_tokens = sum(score.awards.values()), sum(without.awards.values())
        parts.update(money=score.money, trophy=score.trophy,
                     awards=min(awards, before_tokens),
                     ad_tokens=max(0, awards - before_tokens))
        stacks.append(parts)
    return stacks
