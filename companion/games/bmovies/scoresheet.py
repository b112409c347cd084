"""The B Movies score sheet of ``popcorn-companion score``: a finished game entered by hand.

A table that played without the hub writes down what the Final Cut reveals::

    {"game": "b-movies", "variant": "hidden",
     "players": [{"name": "Ana", "tokens": [0, 1, 1, 4], "studio": 2,
                  "movies": [3, {"cards": 4, "title": "Attack of the Killer Tomatoes"}]}, ...]}

``tokens`` are the values of the player's tokens; ``movies`` the made movies, each a card
count or ``{"cards", "title"}``; ``studio`` (0 to 5) is needed in the Hidden Team variant only,
and the studios must follow the deal chart. :func:`parse_sheet` checks the sheet against the
box (no more tokens of a value than the bucket holds, pitches of 2 to 4 cards) and
:func:`score_sheet` gives the :class:`~companion.games.bmovies.engine.FinalCut`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .engine import (
    HIDDEN,
    STANDARD,
    Facts,
    FinalCut,
    Movie,
    score_table,
)


class SheetError(ValueError):
    """The score sheet is malformed or describes an impossible end of game."""


@dataclass(frozen=True)
class Sheet:
    """A read score sheet: names, and each seat's tokens, movies and studio."""

    variant: str
    names: tuple[str, ...]
    piles: tuple[tuple[int, ...], ...]
    movies: tuple[tuple[Movie, ...], ...]
    studios: tuple[int, ...] | None


def is_bmovies_sheet(doc: Any) -> bool:
    """Whether a decoded JSON document is a B Movies sheet (``"game": "b-movies"``)."""
    return isinstance(doc, dict) and doc.get("game") == "b-movies"


def parse_sheet(doc: Any, facts: Facts) -> Sheet:
    """Read and check a sheet; raises :class:`SheetError` with the first problem."""
    if not is_bmovies_sheet(doc):
        raise SheetError('a B Movies score sheet has "game": "b-movies"')
    variant = doc.get("variant", STANDARD)
    if variant not in (STANDARD, HIDDEN):
        raise SheetError(f"variant must be {STANDARD!r} or {HIDDEN!r}, not {variant!r}")
    players = doc.get("players")
    if not isinstance(players, list) or not (
            facts.min_players <= len(players) <= facts.max_players):
        raise SheetError(f"players must list {facts.min_players} to {facts.max_players} players")
    rows = [_player(row, i, facts, variant == HIDDEN) for i, row in enumerate(players)]
    piles = tuple(r[1] for r in rows)
    _check_bucket(piles, facts)
    studios = tuple(r[3] for r in rows) if variant == HIDDEN else None
    if studios is not None:
        _check_deal(studios, facts)
    return Sheet(variant, tuple(r[0] for r in rows), piles, tuple(r[2] for r in rows), studios)


def score_sheet(sheet: Sheet, facts: Facts) -> FinalCut:
    """The Final Cut of a read sheet."""
    return score_table(facts, sheet.piles, sheet.movies, sheet.studios)


def _player(row: Any, seat: int, facts: Facts,
            hidden: bool) -> tuple[str, tuple[int, ...], tuple[Movie, ...], int]:
    where = f"player {seat + 1}"
    if not isinstance(row, dict) or not isinstance(row.get("name"), str):
        raise SheetError(f"{where}: an object with a name")
    tokens = row.get("tokens", [])
    if not isinstance(tokens, list) or not all(type(t) is int and t in facts.values
                                               for t in tokens):
        raise SheetError(f"{where}: tokens are values 0 to {len(facts.token_counts) - 1}")
    movies = row.get("movies", [])
    if not isinstance(movies, list):
        raise SheetError(f"{where}: movies must be a list")
    studio = -1
    if hidden:
        given = row.get("studio")
        if type(given) is not int or not 0 <= given < facts.studios:
            raise SheetError(f"{where}: the Hidden Team variant needs a studio 0 to "
                             f"{facts.studios - 1}")
        studio = given
    made = tuple(_movie(m, where, facts) for m in movies)
    return row["name"], tuple(tokens), made, studio


def _movie(item: Any, where: str, facts: Facts) -> Movie:
    cards, title = (item.get("cards"), item.get("title")) if isinstance(item, dict) else (
        item, None)
    if type(cards) is not int or not facts.pitch_min <= cards <= facts.pitch_max:
        raise SheetError(f"{where}: a movie is {facts.pitch_min} to {facts.pitch_max} cards")
    if title is not None and not isinstance(title, str):
        raise SheetError(f"{where}: a movie's title is text")
    return Movie(cards, title, 0)


def _check_bucket(piles: tuple[tuple[int, ...], ...], facts: Facts) -> None:
    for value, count in enumerate(facts.token_counts):
        held = sum(pile.count(value) for pile in piles)
        if held > count:
            raise SheetError(f"the players hold {held} tokens worth {value}; "
                             f"the bucket has only {count}")


def _check_deal(studios: tuple[int, ...], facts: Facts) -> None:
    chart = sorted(facts.hidden_deal[len(studios)], reverse=True)
    copies = sorted((studios.count(s) for s in set(studios)), reverse=True)
    if copies != chart:
        raise SheetError(f"with {len(studios)} players the studios come in copies "
                         f"{'+'.join(map(str, chart))}")
