"""The B Movies score sheet of ``popcorn-companion score``: a finished game entered by hand.

A table that played without the hub writes down what the Final Cut reveals::

    {"game": "b-movies", "variant": "hidden",
     "players": [{"name": "Ana", "tokens": [0, 1, 1, 4], "studio": 2,
                  "movies": [3, {"cards": 4, "title": "Attack of the Killer Tomatoes"}]}, ...]}

``tokens`` are the values of the player's tokens; ``movies`` the made movies, each a card
count or ``{"cards", "title"}``; ``studio`` (0 to 5) is needed in the Hidden Team variant only.

:func:`parse_sheet` refuses a sheet that no finished game could leave on the table, with a
:class:`SheetError` whose ``code`` (one of :data:`SHEET_CODES`) names the bound and whose
``params`` name the player: the box (players, movie sizes, tokens per value, the studio
chart), then what the game's pitches allow (:mod:`.engine.bounds`): no more movies than
rounds, no more tokens than one player can draw, no fewer than the rejected pitches forced on
a player, and no fewer in all than every pitch must have drawn. A sheet exactly at a limit is
accepted. :func:`score_sheet` gives the :class:`~companion.games.bmovies.engine.FinalCut`.
``docs/b-movies.md`` ("The score sheet") lists each bound with its rulebook passage.
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
    fewest_game_draws,
    fewest_pitch_draws,
    fewest_tokens,
    most_tokens,
    rounds,
    score_table,
)

SHEET_CODES: dict[str, str] = {
    "BAD_SHEET": "the sheet is not a well-formed B Movies sheet (keys, types, variant, names)",
    "SHEET_PLAYER_COUNT": "the sheet lists fewer or more players than the game takes",
    "SHEET_MOVIE_SIZE": "a made movie has fewer or more Title cards than a pitch may",
    "SHEET_BUCKET": "the players hold more tokens of a value than the bucket holds",
    "SHEET_STUDIO_DEAL": "the studios do not follow the Hidden Team deal chart",
    "SHEET_MOVIES_BEYOND_ROUNDS": "a player lists more movies made than the game has rounds",
    "SHEET_TOKENS_BEYOND_DRAWS": "a player holds more tokens than one player can draw",
    "SHEET_TOKENS_BELOW_DRAWS": "a player holds fewer tokens than the others' pitches made "
                                "them draw",
    "SHEET_TOO_FEW_TOKENS": "the players hold fewer tokens in all than the game's pitches "
                            "must have drawn",
}
"""Every code a refused sheet may carry, with what it means; codes never change meaning."""

Params = dict[str, str | int | None]
"""What a refusal names: ``player`` (seat from 0) and ``name``, the counts and the limit."""


class SheetError(ValueError):
    """A sheet that is malformed or that no finished game could produce.

    ``code`` is one of :data:`SHEET_CODES`, ``message`` the English sentence (naming the
    player and the bound), ``params`` its facts, so the hub can say it in any language.
    """

    def __init__(self, code: str, message: str, params: Params | None = None) -> None:
        if code not in SHEET_CODES:
            raise ValueError(f"unknown sheet code {code!r}")
        super().__init__(message)
        self.code, self.message, self.params = code, message, dict(params or {})

    def to_dict(self) -> dict[str, object]:
        """The JSON error shape of the hub: ``{"code", "params", "message"}``."""
        return {"code": self.code, "params": dict(self.params), "message": self.message}


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
        raise SheetError("BAD_SHEET", 'a B Movies score sheet has "game": "b-movies"')
    variant = doc.get("variant", STANDARD)
    if variant not in (STANDARD, HIDDEN):
        raise SheetError("BAD_SHEET",
                         f"variant must be {STANDARD!r} or {HIDDEN!r}, not {variant!r}")
    players = doc.get("players")
    if not isinstance(players, list):
        raise SheetError("BAD_SHEET", "players must be a list")
    lo, hi = facts.min_players, facts.max_players
    if not lo <= len(players) <= hi:
        raise SheetError("SHEET_PLAYER_COUNT",
                         f"players must list {lo} to {hi} players, not {len(players)}",
                         {"count": len(players), "min": lo, "max": hi})
    rows = [_player(row, i, facts, variant == HIDDEN) for i, row in enumerate(players)]
    piles = tuple(r[1] for r in rows)
    _check_bucket(piles, facts)
    studios = tuple(r[3] for r in rows) if variant == HIDDEN else None
    if studios is not None:
        _check_deal(studios, facts)
    sheet = Sheet(variant, tuple(r[0] for r in rows), piles, tuple(r[2] for r in rows),
                  studios)
    check_bounds(sheet, facts)
    return sheet


def score_sheet(sheet: Sheet, facts: Facts) -> FinalCut:
    """The Final Cut of a read sheet."""
    return score_table(facts, sheet.piles, sheet.movies, sheet.studios)


def _player(row: Any, seat: int, facts: Facts,
            hidden: bool) -> tuple[str, tuple[int, ...], tuple[Movie, ...], int]:
    where = f"player {seat + 1}"
    if not isinstance(row, dict) or not isinstance(row.get("name"), str):
        raise SheetError("BAD_SHEET", f"{where}: an object with a name", {"player": seat})
    name = row["name"]
    where, who = f"{where} ({name})", {"player": seat, "name": name}
    tokens = row.get("tokens", [])
    if not isinstance(tokens, list) or not all(type(t) is int and t in facts.values
                                               for t in tokens):
        raise SheetError("BAD_SHEET",
                         f"{where}: tokens are values 0 to {len(facts.token_counts) - 1}", who)
    movies = row.get("movies", [])
    if not isinstance(movies, list):
        raise SheetError("BAD_SHEET", f"{where}: movies must be a list", who)
    studio = -1
    if hidden:
        given = row.get("studio")
        if type(given) is not int or not 0 <= given < facts.studios:
            raise SheetError("BAD_SHEET", f"{where}: the Hidden Team variant needs a studio "
                             f"0 to {facts.studios - 1}", who)
        studio = given
    made = tuple(_movie(m, where, who, facts) for m in movies)
    return name, tuple(tokens), made, studio


def _movie(item: Any, where: str, who: Params, facts: Facts) -> Movie:
    cards, title = (item.get("cards"), item.get("title")) if isinstance(item, dict) else (
        item, None)
    if type(cards) is not int:
        raise SheetError("BAD_SHEET", f"{where}: a movie is a card count", who)
    lo, hi = facts.pitch_min, facts.pitch_max
    if not lo <= cards <= hi:
        raise SheetError("SHEET_MOVIE_SIZE",
                         f"{where}: a movie is {lo} to {hi} Title cards, not {cards}",
                         {**who, "cards": cards, "min": lo, "max": hi})
    if title is not None and not isinstance(title, str):
        raise SheetError("BAD_SHEET", f"{where}: a movie's title is text", who)
    return Movie(cards, title, 0)


def _check_bucket(piles: tuple[tuple[int, ...], ...], facts: Facts) -> None:
    for value, count in enumerate(facts.token_counts):
        held = sum(pile.count(value) for pile in piles)
        if held > count:
            raise SheetError("SHEET_BUCKET", f"the players hold {held} tokens worth {value}; "
                             f"the bucket has only {count}",
                             {"value": value, "count": held, "limit": count})


def _check_deal(studios: tuple[int, ...], facts: Facts) -> None:
    chart = sorted(facts.hidden_deal[len(studios)], reverse=True)
    copies = sorted((studios.count(s) for s in set(studios)), reverse=True)
    if copies != chart:
        shown = "+".join(map(str, chart))
        raise SheetError("SHEET_STUDIO_DEAL", f"with {len(studios)} players the studios come "
                         f"in copies {shown}", {"players": len(studios), "chart": shown})


# --- what the game's pitches allow (engine.bounds) --------------------------------------


def check_bounds(sheet: Sheet, facts: Facts) -> None:
    """Refuse a well-formed sheet that no finished game could leave: each player's movies
    and tokens against the pitches of ``n`` players over their rounds, then the tokens drawn
    in all. The lower bounds hold only while the bucket never ran dry, that is when fewer
    tokens than the whole bucket were drawn (clarification 6: an empty bucket gives
    nothing)."""
    n = len(sheet.names)
    for seat in range(n):
        _movies_within_rounds(sheet, facts, seat)
    for seat in range(n):
        _tokens_within_draws(sheet, facts, seat)
    drawn = sum(map(len, sheet.piles))
    if drawn >= facts.tokens_total:
        return
    for seat in range(n):
        _tokens_above_forced(sheet, facts, seat, drawn)
    _enough_drawn(sheet, facts, drawn)


def _others(sheet: Sheet, facts: Facts, seat: int) -> tuple[list[int], int]:
    """The card counts of the other players' made movies, and how many of their pitches
    were rejected (each pitches once a round)."""
    made = [m.cards for other, ms in enumerate(sheet.movies) if other != seat for m in ms]
    pitches = (len(sheet.names) - 1) * rounds(facts, len(sheet.names))
    return made, pitches - len(made)


def _tokens(count: int) -> str:
    return f"{count} token" if count == 1 else f"{count} tokens"


def _who(sheet: Sheet, seat: int, count: int, limit: int) -> Params:
    return {"player": seat, "name": sheet.names[seat], "count": count, "limit": limit,
            "players": len(sheet.names)}


def _movies_within_rounds(sheet: Sheet, facts: Facts, seat: int) -> None:
    n, count = len(sheet.names), len(sheet.movies[seat])
    limit = rounds(facts, n)
    if count > limit:
        raise SheetError(
            "SHEET_MOVIES_BEYOND_ROUNDS",
            f"{sheet.names[seat]} lists {count} movies made, but a {n}-player game has "
            f"{limit} rounds (the first player's clapboards) and a player pitches once a "
            f"round: at most {limit} movies", _who(sheet, seat, count, limit))


def _tokens_within_draws(sheet: Sheet, facts: Facts, seat: int) -> None:
    made, rejected = _others(sheet, facts, seat)
    count, limit = len(sheet.piles[seat]), most_tokens(facts, len(sheet.names) - 1, made,
                                                       rejected)
    if count > limit:
        name = sheet.names[seat]
        raise SheetError(
            "SHEET_TOKENS_BEYOND_DRAWS",
            f"{name} holds {_tokens(count)}, but a player draws at most {limit} in this game: "
            f"one per pitch of the others they vote on ({len(made) + rejected}), and with "
            f"their single Yes! one per Title card of the movie it backs (the others' "
            f"longest made movie has {max(made, default=0)} cards)",
            {**_who(sheet, seat, count, limit), "pitches": len(made) + rejected,
             "longest": max(made, default=0)})


def _tokens_above_forced(sheet: Sheet, facts: Facts, seat: int, drawn: int) -> None:
    made, rejected = _others(sheet, facts, seat)
    count, limit = len(sheet.piles[seat]), fewest_tokens(facts, len(sheet.names) - 1, made,
                                                         rejected)
    if count < limit:
        name = sheet.names[seat]
        raise SheetError(
            "SHEET_TOKENS_BELOW_DRAWS",
            f"{name} holds {_tokens(count)}, but must have drawn at least {limit}: with "
            f"{len(sheet.names) - 1} producers a pitch is rejected only when every one votes "
            f"No, and every No voter draws, so each of the others' {rejected} rejected "
            f"pitches gave {name} a token (the bucket never ran dry: {drawn} of its "
            f"{facts.tokens_total} tokens were drawn)",
            {**_who(sheet, seat, count, limit), "rejected": rejected})


def _enough_drawn(sheet: Sheet, facts: Facts, drawn: int) -> None:
    n = len(sheet.names)
    pitches, made = n * rounds(facts, n), [m.cards for ms in sheet.movies for m in ms]
    limit = min(facts.tokens_total, fewest_game_draws(facts, n - 1, made, pitches - len(made)))
    if drawn < limit:
        least_made = min(fewest_pitch_draws(facts, n - 1, True, c) for c in made or [
            facts.pitch_min])
        least_rejected = min(fewest_pitch_draws(facts, n - 1, False, c)
                             for c in range(facts.pitch_min, facts.pitch_max + 1))
        raise SheetError(
            "SHEET_TOO_FEW_TOKENS",
            f"the players hold {_tokens(drawn)} in all, but a finished {n}-player game draws "
            f"at least {limit}: {pitches} pitches, {len(made)} made (each draws at least "
            f"{least_made}) and {pitches - len(made)} rejected (each draws at least "
            f"{least_rejected}); only an empty bucket ({facts.tokens_total} tokens) stops "
            f"the draws",
            {"count": drawn, "limit": limit, "players": n, "pitches": pitches,
             "made": len(made), "rejected": pitches - len(made)})
