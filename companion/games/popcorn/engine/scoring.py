"""Final scoring of Popcorn: from what each player owns at the end to the winners.

The rulebook ("End of the Game") adds four amounts per player:

* **bucket**: the popcorn gained during the game;
* **money**: 1 popcorn per full :data:`DOLLARS_PER_POPCORN` dollars, the rest is lost;
* **theater trophy**: players compare the printed prices of the theaters in their cinema,
  and the trophies of :attr:`PlayerCountSetup.trophies` go to the highest (see :func:`trophies`);
* **awards**: each award card held scores by its structured rule in the catalog (see
  :func:`award_popcorn`). No card value lives in this module: every count, need, table and
  popcorn amount is read from :class:`~companion.games.popcorn.engine.catalog.Award.popcorn`.

Before the awards are revealed, each advertising token still on the board gives its owner a
choice (rule clarification 21): a token on a colored space may count as a virtual guest of that
color; a token on the multicolor space may move to a color first; a token on the white space may
send one of the owner's white guests back to the reserve. Counting a guest is not always good
("6 or fewer guests" rewards having few), so :func:`best_token_uses` tries every combination
and keeps the one that scores the most award popcorn.

The most popcorn wins; a tie goes to whoever owns fewer movies; a remaining tie is shared.

The module is pure: it reads no file and knows the game only through the :class:`Catalog`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .catalog import (
    COLORS,
    GUEST_COLORS,
    Award,
    Catalog,
    CatalogError,
    Movie,
    Theater,
)

DOLLARS_PER_POPCORN = 5
"""Rulebook, End of the Game: "Gain 1 Popcorn for every $5 you have" (the remainder is lost)."""

CINEMA_SLOTS = 3
"""Theater slots of a cinema board: left, center and far right (rulebook: "your 3 theaters")."""

UNUSED = "unused"
"""Token use: the token is taken back and changes nothing."""

COUNT_AS = "count_as"
"""Token use: the token counts as one virtual guest of a color for every award."""

RETURN_WHITE = "return_white"
"""Token use: one of the player's white guests goes back to the reserve."""


class ScoreInputError(ValueError):
    """The end-of-game description cannot happen in a real game; the message says who and why.

    The message is a single line meant for the person who typed the score sheet, for example
    ``"Bob: movie 'the_volcano' is owned also by Ana"``.
    """


@dataclass(frozen=True)
class PlayerFinal:
    """What one player owns when the game ends: the input of the final scoring.

    ``theaters`` lists the cinema slots left to right, ``None`` for an empty slot; a slot holds a
    bought tile id or the id of the default theater printed there. ``movies`` is every movie the
    player owned during the game (archive and showing, the starting movie included): the
    rulebook moves showing movies to the archive before scoring. ``guests`` maps a guest color
    to how many of the player's pawns have it, wherever they are (bag, seats, exit zone);
    a missing color means 0. ``audience`` is the draw value of the audience space (not its
    index). ``ad_tokens`` are the advertising-board space ids of the player's tokens still on the
    board, and ``awards`` the award cards in hand.
    """

    name: str
    bucket: int
    money: int
    theaters: tuple[str | None, ...]
    movies: tuple[str, ...]
    guests: dict[str, int] = field(hash=False)
    audience: int
    ad_tokens: tuple[str, ...] = ()
    awards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Holdings:
    """The three things award cards count, plus the audience, for one choice of token uses.

    ``guests`` already includes the virtual guests of counted tokens and excludes white guests
    returned to the reserve. ``theaters`` holds only the filled cinema slots.
    """

    movies: tuple[Movie, ...]
    theaters: tuple[Theater, ...]
    guests: Mapping[str, int]
    audience: int

    def count(self, category: str, color: str) -> int:
        """How many ``movies``, ``guests`` or ``seats`` of ``color`` (``"total"`` for all).

        Seats come from every theater in the cinema; a grey seat has no color, so it only
        counts towards ``"total"``.
        """
        if category == "guests":
            return sum(self.guests.values()) if color == "total" else self.guests.get(color, 0)
        if category == "movies":
            return sum(1 for m in self.movies if color in ("total", m.color))
        if category == "seats":
            colors = [c for t in self.theaters for c in t.seat_colors]
            return len(colors) if color == "total" else colors.count(color)
        raise CatalogError(f"award rule counts unknown things {category!r}")

    def measure(self, path: str) -> int:
        """A threshold measure such as ``"guests.total"``, ``"guests.white"`` or ``"audience"``."""
        if path == "audience":
            return self.audience
        category, _, color = path.partition(".")
        if not color:
            raise CatalogError(f"award rule measure {path!r} is not category.color")
        return self.count(category, color)


@dataclass
class PlayerScore:
    """One player's final score and where each popcorn came from.

    ``ad_tokens_used`` describes, in input order, what the scorer chose for each token: a dict
    with ``space`` and ``use`` (:data:`UNUSED`, :data:`COUNT_AS` with a ``color``, or
    :data:`RETURN_WHITE`). ``movies_owned`` is the tie-break figure (fewer wins).
    """

    name: str
    total: int
    bucket: int
    money: int
    trophy: int
    awards: dict[str, int]
    ad_tokens_used: list[dict[str, str]]
    movies_owned: int


@dataclass
class GameScore:
    """Every player's score in input order, and the names of the winners (a tie is shared)."""

    players: list[PlayerScore]
    winners: list[str]


# --------------------------------------------------------------------------- input checks


def check_final(catalog: Catalog, players: Sequence[PlayerFinal]) -> None:
    """Raise :class:`ScoreInputError` unless the players' end state could happen in a real game.

    It checks the player count, every id against the catalog, that no tile, movie or award
    card is owned twice, that no guest color exceeds the box, that amounts are whole and not
    negative, that the audience is a draw value of the track, the number of advertising tokens,
    and the cinema layout (at most :data:`CINEMA_SLOTS` slots, a default theater only in its
    printed slot). The first problem found is reported.
    """
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise ScoreInputError("players must be a list")
    if len(players) not in catalog.setups:
        counts = sorted(catalog.setups)
        raise ScoreInputError(
            f"Popcorn is played by {counts[0]} to {counts[-1]} players, got {len(players)}"
        )
    for player in players:
        if not isinstance(player, PlayerFinal):
            raise ScoreInputError(f"expected a PlayerFinal, got {type(player).__name__}")
    _check_names(players)
    for player in players:
        _check_player(catalog, player)
    _check_unique(players, "movie", lambda p: p.movies)
    _check_unique(players, "theater tile", lambda p: _bought_tiles(catalog, p))
    _check_unique(players, "award", lambda p: p.awards)
    _check_box(catalog, players)


def _check_names(players: Sequence[PlayerFinal]) -> None:
    seen: set[str] = set()
    for index, player in enumerate(players):
        if not isinstance(player.name, str) or not player.name.strip():
            raise ScoreInputError(f"player {index + 1}: the name must be a non-empty string")
        if player.name in seen:
            raise ScoreInputError(f"two players are named {player.name!r}")
        seen.add(player.name)


def _check_player(catalog: Catalog, player: PlayerFinal) -> None:
    who = player.name
    for label in ("theaters", "movies", "ad_tokens", "awards"):
        if not isinstance(getattr(player, label), list | tuple):
            raise ScoreInputError(f"{who}: {label} must be a list")
    for label, value in (("bucket", player.bucket), ("money", player.money)):
        _check_amount(f"{who}: {label}", value)
    _check_guests(who, player.guests)
    _check_audience(catalog, player)
    _check_theaters(catalog, player)
    _check_movies(catalog, player)
    _check_ids(who, "award", player.awards, catalog.awards)
    _check_ids(who, "advertising space", player.ad_tokens, catalog.ad_spaces)
    if len(player.ad_tokens) > catalog.tokens_per_player:
        raise ScoreInputError(
            f"{who}: {len(player.ad_tokens)} advertising tokens on the board, "
            f"but a player has only {catalog.tokens_per_player}"
        )


def _check_amount(where: str, value: Any) -> None:
    if type(value) is not int:
        raise ScoreInputError(f"{where} must be a whole number, got {value!r}")
    if value < 0:
        raise ScoreInputError(f"{where} cannot be negative, got {value}")


def _check_guests(who: str, guests: Any) -> None:
    if not isinstance(guests, Mapping):
        raise ScoreInputError(f"{who}: guests must map a color to a count")
    for color, count in guests.items():
        if color not in GUEST_COLORS:
            raise ScoreInputError(
                f"{who}: unknown guest color {color!r} (expected one of {', '.join(GUEST_COLORS)})"
            )
        _check_amount(f"{who}: {color} guests", count)


def _check_audience(catalog: Catalog, player: PlayerFinal) -> None:
    draws = sorted({space.draw for space in catalog.audience_track})
    if type(player.audience) is not int or player.audience not in draws:
        raise ScoreInputError(
            f"{player.name}: audience {player.audience!r} is not a draw value of the track "
            f"({', '.join(map(str, draws))})"
        )


def _check_theaters(catalog: Catalog, player: PlayerFinal) -> None:
    who = player.name
    if len(player.theaters) > CINEMA_SLOTS:
        raise ScoreInputError(
            f"{who}: {len(player.theaters)} theater slots, a cinema has {CINEMA_SLOTS}"
        )
    defaults = [tile.id for tile in catalog.default_theaters]
    for slot, theater_id in enumerate(player.theaters):
        if theater_id is None:
            continue
        if not isinstance(theater_id, str) or not catalog.is_theater(theater_id):
            raise ScoreInputError(f"{who}: unknown theater {theater_id!r}")
        if theater_id in defaults and defaults.index(theater_id) != slot:
            raise ScoreInputError(
                f"{who}: default theater {theater_id!r} is printed in slot "
                f"{defaults.index(theater_id) + 1}, not slot {slot + 1}"
            )


def _check_movies(catalog: Catalog, player: PlayerFinal) -> None:
    _check_ids(player.name, "movie", player.movies, catalog.movies)
    starting = [m for m in player.movies if catalog.movies[m].starting]
    if len(starting) != 1:
        found = ", ".join(starting) if starting else "none"
        raise ScoreInputError(
            f"{player.name}: every player owns exactly one starting movie, found {found}"
        )


def _check_ids(who: str, kind: str, ids: Iterable[Any], known: Iterable[str]) -> None:
    known_ids = set(known)
    for item in ids:
        if not isinstance(item, str) or item not in known_ids:
            raise ScoreInputError(f"{who}: unknown {kind} {item!r}")


def _bought_tiles(catalog: Catalog, player: PlayerFinal) -> list[str]:
    """Tile ids in the cinema; default theaters are printed on every board, so never shared."""
    return [t for t in player.theaters if t is not None and t in catalog.theaters]


def _check_unique(
    players: Sequence[PlayerFinal], kind: str, items: Callable[[PlayerFinal], Iterable[str]]
) -> None:
    owner: dict[str, str] = {}
    for player in players:
        for item in items(player):
            if item in owner:
                other = owner[item]
                where = "twice" if other == player.name else f"also by {other}"
                raise ScoreInputError(f"{player.name}: {kind} {item!r} is owned {where}")
            owner[item] = player.name


def _check_box(catalog: Catalog, players: Sequence[PlayerFinal]) -> None:
    for color, in_box in catalog.box.items():
        total = sum(p.guests.get(color, 0) for p in players)
        if total > in_box:
            raise ScoreInputError(
                f"the players own {total} {color} guests together, but the box holds {in_box}"
            )


# --------------------------------------------------------------------------- awards


def award_popcorn(award: Award, holdings: Holdings) -> int:
    """The popcorn one award card scores for these holdings, following its catalog rule.

    Four rule types exist; each reads all its numbers from ``award.popcorn``:

    * ``per_set``: ``set`` maps a category (movies, guests, seats) to ``{color: need}``; the
      number of complete sets is the smallest ``count // need`` over every requirement.
    * ``per_set_each_color``: ``set`` is ``{"<category>_of_one_color": need}``; each color
      forms its own sets, and the sets of all colors add up.
    * ``per_item``: ``count`` names the items (``movies`` or ``theaters``) and their filters.
    * ``threshold``: ``count.of`` names a measure looked up in ``table`` (``max: null`` is open).
    """
    rule = award.popcorn
    kind = rule["type"]
    if kind in ("per_set", "per_set_each_color"):
        per_set: int = rule["popcorn_per_set"]
        if kind == "per_set":
            return _per_set(award, holdings) * per_set
        return _per_set_each_color(award, holdings) * per_set
    if kind == "per_item":
        per_item: int = rule["popcorn_per_item"]
        return _per_item(award, holdings) * per_item
    if kind == "threshold":
        return _threshold(award, holdings.measure(rule["count"]["of"]))
    raise CatalogError(f"award {award.id}: unknown scoring type {kind!r}")


def _need(award: Award, value: Any) -> int:
    if type(value) is not int or value < 1:
        raise CatalogError(f"award {award.id}: a set needs a positive whole number, got {value!r}")
    return int(value)


def _per_set(award: Award, holdings: Holdings) -> int:
    return min(
        holdings.count(category, color) // _need(award, need)
        for category, needs in award.popcorn["set"].items()
        for color, need in needs.items()
    )


def _per_set_each_color(award: Award, holdings: Holdings) -> int:
    sets = 0
    for key, need in award.popcorn["set"].items():
        category, suffix, _ = key.partition("_of_one_color")
        if not suffix:
            raise CatalogError(f"award {award.id}: set key {key!r} is not <category>_of_one_color")
        sets += sum(holdings.count(category, c) // _need(award, need) for c in COLORS)
    return sets


_Item = TypeVar("_Item", Movie, Theater)

_MOVIE_FILTERS: dict[str, Callable[[Movie, Any], bool]] = {
    "price_min": lambda movie, value: movie.price >= value,
    "price_max": lambda movie, value: movie.price <= value,
    "starting": lambda movie, value: value is None or movie.starting == value,
    "color": lambda movie, value: movie.color == value,
}
_THEATER_FILTERS: dict[str, Callable[[Theater, Any], bool]] = {
    "seats": lambda theater, value: theater.seats == value,
    "price_min": lambda theater, value: theater.price >= value,
    "price_max": lambda theater, value: theater.price <= value,
}


def _per_item(award: Award, holdings: Holdings) -> int:
    spec: dict[str, Any] = dict(award.popcorn["count"])
    of = spec.pop("of", None)
    if of == "movies":
        return _count_items(award, of, holdings.movies, _MOVIE_FILTERS, spec)
    if of == "theaters":
        return _count_items(award, of, holdings.theaters, _THEATER_FILTERS, spec)
    raise CatalogError(f"award {award.id}: per_item cannot count {of!r}")


def _count_items(award: Award, of: str, items: Iterable[_Item],
                 filters: Mapping[str, Callable[[_Item, Any], bool]], spec: dict[str, Any]) -> int:
    for key in spec:
        if key not in filters:
            raise CatalogError(f"award {award.id}: unknown {of} filter {key!r}")
    return sum(1 for item in items if all(filters[k](item, v) for k, v in spec.items()))


def _threshold(award: Award, value: int) -> int:
    for row in award.popcorn["table"]:
        if row["min"] <= value and (row["max"] is None or value <= row["max"]):
            popcorn: int = row["popcorn"]
            return popcorn
    return 0


# --------------------------------------------------------------------------- advertising tokens


def token_options(catalog: Catalog, space: str) -> list[dict[str, str]]:
    """Every end-of-game use of one token on ``space``, the do-nothing use first.

    A colored space may count as a guest of its color; the multicolor space may count as any
    of the four colors; the white space may return a white guest (whether the player has one
    left is checked per combination by :func:`best_token_uses`).
    """
    options = [{"space": space, "use": UNUSED}]
    if space in COLORS:
        options.append({"space": space, "use": COUNT_AS, "color": space})
    elif space == catalog.multicolor_space:
        options.extend({"space": space, "use": COUNT_AS, "color": c} for c in COLORS)
    elif space == catalog.white_space:
        options.append({"space": space, "use": RETURN_WHITE})
    return options


def _apply_uses(guests: Mapping[str, int], uses: Iterable[dict[str, str]]) -> dict[str, int] | None:
    """The guests after the token uses, or ``None`` if more whites are returned than owned."""
    result = Counter({c: guests.get(c, 0) for c in GUEST_COLORS})
    for use in uses:
        if use["use"] == COUNT_AS:
            result[use["color"]] += 1
        elif use["use"] == RETURN_WHITE:
            result["white"] -= 1
    return None if result["white"] < 0 else dict(result)


def holdings_of(
    catalog: Catalog, player: PlayerFinal, uses: Iterable[dict[str, str]] = ()
) -> Holdings:
    """What the awards of ``player`` count once the given token uses are applied."""
    guests = _apply_uses(player.guests, uses)
    if guests is None:
        raise ScoreInputError(f"{player.name}: cannot return a white guest without having one")
    return _holdings(catalog, player, guests)


def _holdings(catalog: Catalog, player: PlayerFinal, guests: Mapping[str, int]) -> Holdings:
    return Holdings(
        movies=tuple(catalog.movies[m] for m in player.movies),
        theaters=tuple(catalog.theater(t) for t in player.theaters if t is not None),
        guests=guests,
        audience=player.audience,
    )


def awards_of(catalog: Catalog, player: PlayerFinal, holdings: Holdings) -> dict[str, int]:
    """The popcorn of each award card the player holds, in the order they are held."""
    return {a: award_popcorn(catalog.awards[a], holdings) for a in player.awards}


def best_token_uses(catalog: Catalog, player: PlayerFinal) -> list[dict[str, str]]:
    """The token uses that give ``player`` the most award popcorn, found by trying them all.

    A player has at most :attr:`Catalog.tokens_per_player` tokens, so the search is tiny.
    Among equally good choices the one using the fewest tokens wins, then the first one tried
    (colors in catalog order), which keeps the answer stable.
    """
    best: list[dict[str, str]] = []
    best_key: tuple[int, int] | None = None
    per_token = [token_options(catalog, space) for space in player.ad_tokens]
    for combo in itertools.product(*per_token):
        guests = _apply_uses(player.guests, combo)
        if guests is None:
            continue
        holdings = _holdings(catalog, player, guests)
        used = sum(1 for use in combo if use["use"] != UNUSED)
        key = (sum(awards_of(catalog, player, holdings).values()), -used)
        if best_key is None or key > best_key:
            best, best_key = list(combo), key
    return best


# --------------------------------------------------------------------------- totals


def money_popcorn(money: int) -> int:
    """Popcorn from leftover dollars: one per full :data:`DOLLARS_PER_POPCORN`."""
    return money // DOLLARS_PER_POPCORN


def cinema_value(catalog: Catalog, player: PlayerFinal) -> int:
    """The trophy figure: the printed prices of the theaters in the cinema (defaults are $0)."""
    return sum(catalog.theater(t).price for t in player.theaters if t is not None)


def trophies(values: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """Hand out the trophies ``prizes`` (best first) to players ranked by ``values``.

    Everyone tied for a rank gets that rank's trophy, and the next trophy is handed out only
    if exactly one player took this one. With prizes ``(5, 3)`` and values ``[9, 9, 4]``, both
    9s get 5 and nobody gets 3; with ``[9, 4, 4]`` the 9 gets 5 and both 4s get 3.
    """
    awarded = [0] * len(values)
    levels = sorted(set(values), reverse=True)
    for prize, level in zip(prizes, levels, strict=False):
        group = [i for i, v in enumerate(values) if v == level]
        for i in group:
            awarded[i] = prize
        if len(group) > 1:
            break
    return awarded


def winners(scores: Sequence[PlayerScore]) -> list[str]:
    """Most popcorn wins; on a tie, fewest movies owned; a remaining tie is shared."""
    best = max((s.total, -s.movies_owned) for s in scores)
    return [s.name for s in scores if (s.total, -s.movies_owned) == best]


def _player_score(catalog: Catalog, player: PlayerFinal, trophy: int) -> PlayerScore:
    uses = best_token_uses(catalog, player)
    awards = awards_of(catalog, player, holdings_of(catalog, player, uses))
    money = money_popcorn(player.money)
    return PlayerScore(
        name=player.name,
        total=player.bucket + money + trophy + sum(awards.values()),
        bucket=player.bucket,
        money=money,
        trophy=trophy,
        awards=awards,
        ad_tokens_used=uses,
        movies_owned=len(player.movies),
    )


def score_game(catalog: Catalog, players: Sequence[PlayerFinal]) -> GameScore:
    """Score a finished game: check the input, then add bucket, money, trophy and awards.

    Raises :class:`ScoreInputError` (via :func:`check_final`) for an impossible end state.
    """
    check_final(catalog, players)
    prizes = catalog.setups[len(players)].trophies
    won = trophies([cinema_value(catalog, p) for p in players], prizes)
    scores = [_player_score(catalog, p, t) for p, t in zip(players, won, strict=True)]
    return GameScore(players=scores, winners=winners(scores))
