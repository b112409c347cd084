"""The Final Cut: scores, sides (players or Hidden Team teams), winners and the tie-break.

A player scores the sum of their tokens plus a point per Title card of each made movie
(clarification 7). In the Hidden Team variant the players who reveal the same studio form a
team whose total is the sum of their scores, and a player whose studio matches nobody's
doubles their own (clarification 9). The highest total wins; a tie goes to the side whose
longest made movie has the most cards, and if that ties too the tied sides share the victory
(clarification 8). The length of a typed title never decides.

:func:`final_cut` works on any state (the hub may show a running score); :func:`score_table`
scores a table described by hand, as the ``score`` command's sheet does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .facts import Facts
from .state import Movie, State


@dataclass(frozen=True)
class PlayerScore:
    """One player's Final Cut: tokens revealed, movies made, and their own score."""

    seat: int
    tokens: tuple[int, ...]
    token_total: int
    movies: tuple[Movie, ...]
    movie_points: int
    score: int
    studio: int | None

    @property
    def longest(self) -> int:
        """Cards in this player's longest made movie (0 without one): the tie-breaker."""
        return max((m.cards for m in self.movies), default=0)

    def to_dict(self) -> dict[str, Any]:
        """``{seat, tokens, token_total, movies: [{cards, title}], movie_points, score,
        studio}``."""
        return {"seat": self.seat, "tokens": list(self.tokens), "token_total": self.token_total,
                "movies": [{"cards": m.cards, "title": m.title} for m in self.movies],
                "movie_points": self.movie_points, "score": self.score, "studio": self.studio}


@dataclass(frozen=True)
class Side:
    """Who wins or loses together: one player, or a Hidden Team team sharing a studio."""

    members: tuple[int, ...]
    studio: int | None
    total: int
    doubled: bool
    longest: int

    def to_dict(self) -> dict[str, Any]:
        """``{members, studio, total, doubled, longest}``."""
        return {"members": list(self.members), "studio": self.studio, "total": self.total,
                "doubled": self.doubled, "longest": self.longest}


@dataclass(frozen=True)
class FinalCut:
    """The whole Final Cut: ``winners`` are indexes into ``sides``."""

    players: tuple[PlayerScore, ...]
    sides: tuple[Side, ...]
    winners: tuple[int, ...]
    tie_break: str
    """``"none"`` (one side on top), ``"longest_movie"`` or ``"shared"``."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form the hub's ``/scores`` and the ``replay`` command print."""
        return {"players": [p.to_dict() for p in self.players],
                "sides": [s.to_dict() for s in self.sides],
                "winners": list(self.winners), "tie_break": self.tie_break}


def final_cut(state: State) -> FinalCut:
    """Score ``state`` as the Final Cut would (Hidden Team sides once studios are dealt)."""
    return score_table(state.facts, state.piles, state.movies, state.studios)


def score_table(facts: Facts, piles: Sequence[Sequence[int]],
                movies: Sequence[Sequence[Movie]],
                studios: Sequence[int] | None = None) -> FinalCut:
    """Score a table given each seat's token values, made movies and (Hidden Team) studio.

    Without ``studios`` every player is their own side and nobody doubles: the standard
    game, where studio cards are only markers.
    """
    players = tuple(_player(facts, seat, pile, movies[seat],
                            None if studios is None else studios[seat])
                    for seat, pile in enumerate(piles))
    sides = _sides(facts, players, studios is not None)
    winners, tie_break = _winners(sides)
    return FinalCut(players, sides, winners, tie_break)


def _player(facts: Facts, seat: int, pile: Sequence[int], movies: Sequence[Movie],
            studio: int | None) -> PlayerScore:
    tokens = tuple(sorted(pile))
    points = facts.card_points * sum(m.cards for m in movies)
    return PlayerScore(seat, tokens, sum(tokens), tuple(movies), points,
                       sum(tokens) + points, studio)


def _sides(facts: Facts, players: tuple[PlayerScore, ...], teams: bool) -> tuple[Side, ...]:
    if not teams:
        return tuple(Side((p.seat,), None, p.score, False, p.longest) for p in players)
    groups: dict[int, list[PlayerScore]] = {}
    for p in players:
        assert p.studio is not None
        groups.setdefault(p.studio, []).append(p)
    sides = []
    for studio, members in sorted(groups.items(), key=lambda g: g[1][0].seat):
        alone = len(members) == 1
        total = sum(m.score for m in members) * (facts.unmatched_factor if alone else 1)
        sides.append(Side(tuple(m.seat for m in members), studio, total, alone,
                          max(m.longest for m in members)))
    return tuple(sides)


def _winners(sides: tuple[Side, ...]) -> tuple[tuple[int, ...], str]:
    best = max(s.total for s in sides)
    tied = [i for i, s in enumerate(sides) if s.total == best]
    if len(tied) == 1:
        return tuple(tied), "none"
    longest = max(sides[i].longest for i in tied)
    top = tuple(i for i in tied if sides[i].longest == longest)
    return top, "longest_movie" if len(top) == 1 else "shared"
