"""The card facts of Popcorn, parsed and checked.

Every number a rule needs (a movie's price and actions, a theater's seats, an award's
formula, the audience track, the setup per player count) comes from the catalog data
file, never from code. This module turns the already-decoded JSON document into frozen
objects and refuses a document that is incomplete or inconsistent, naming the problem.

Reading the file is not done here (the engine does no I/O): see
:mod:`companion.games.popcorn.facts_file`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

COLORS: tuple[str, ...] = ("blue", "green", "red", "yellow")
"""The four movie and guest colors, in the catalog's order. Guests may also be white."""

GUEST_COLORS: tuple[str, ...] = ("white", *COLORS)
"""Every guest color. Pawn ids are grouped by this order (see :mod:`.pawns`)."""

EXPECTED_COUNTS = {"movies": 48, "theaters": 28, "default_theaters": 2, "awards": 26}
"""How many items of each kind a complete Popcorn box holds."""


class CatalogError(ValueError):
    """The catalog document is malformed: the message names the item and the field."""


@dataclass(frozen=True, slots=True)
class Movie:
    """A movie card. ``actions[0]`` is the top slot, the last one the lobby slider covers."""

    id: str
    title: str
    color: str
    price: int
    premiers_price: int | None
    starting: bool
    actions: tuple[str, ...]
    bonus: str | None
    bonus_seats: int | None


@dataclass(frozen=True, slots=True)
class Theater:
    """A theater tile (or a printed default theater): seats listed from seat #1."""

    id: str
    seats: int
    seat_colors: tuple[str, ...]
    seat_actions: tuple[str, ...]
    price: int
    default: bool = False


@dataclass(frozen=True, slots=True)
class Award:
    """An award card; ``popcorn`` is the structured scoring rule from the data file."""

    id: str
    title: str
    condition: str
    popcorn: dict[str, Any] = field(hash=False, compare=False)


@dataclass(frozen=True, slots=True)
class AudienceSpace:
    """One space of the audience track: how many guests to draw and the entry bonus."""

    index: int
    draw: int
    bonus: str | None


@dataclass(frozen=True, slots=True)
class PlayerCountSetup:
    """What changes with the number of players."""

    players: int
    starting_money: tuple[int, ...]
    reserve_after_setup: int
    final_showing_below: int
    trophies: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GuestSetup:
    """Where guests start, and the sizes of the rows, columns and award draws."""

    reserve_per_color: int
    bag: dict[str, int]
    bag_extra_of_starting_color: int
    exit_zone: dict[str, int]
    row_size: int
    column_size: int
    award_draw: int
    award_keep: int


@dataclass(frozen=True)
class Catalog:
    """Everything the rules engine knows about the printed components."""

    movies: dict[str, Movie]
    theaters: dict[str, Theater]
    default_theaters: tuple[Theater, ...]
    awards: dict[str, Award]
    audience_track: tuple[AudienceSpace, ...]
    audience_past_end: str
    ad_spaces: tuple[str, ...]
    multicolor_space: str
    white_space: str
    tokens_per_player: int
    setups: dict[int, PlayerCountSetup]
    actions: frozenset[str]
    box: dict[str, int]
    guest_setup: GuestSetup

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> Catalog:
        """Build and check a catalog from the decoded ``popcorn-cards.json`` document."""
        try:
            return _parse(doc)
        except CatalogError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise CatalogError(f"malformed catalog: {type(exc).__name__}: {exc}") from exc

    @cached_property
    def all_theaters(self) -> dict[str, Theater]:
        """Buyable tiles and default theaters together, by id."""
        return {**self.theaters, **{t.id: t for t in self.default_theaters}}

    def theater(self, theater_id: str) -> Theater:
        """A bought tile or a default theater, by id (KeyError if unknown)."""
        return self.all_theaters[theater_id]

    def is_theater(self, theater_id: str) -> bool:
        """Whether the id names a buyable tile or a default theater."""
        return theater_id in self.all_theaters

    @property
    def regular_movies(self) -> list[Movie]:
        """The 44 movies of the shuffled deck (starting movies excluded)."""
        return [m for m in self.movies.values() if not m.starting]

    @property
    def starting_movies(self) -> list[Movie]:
        """The starting movies, one per color."""
        return [m for m in self.movies.values() if m.starting]

    def theater_sizes(self) -> tuple[int, ...]:
        """Tile sizes in stack order, left to right (1, 2, 3)."""
        return tuple(sorted({t.seats for t in self.theaters.values()}))

    @property
    def last_audience_index(self) -> int:
        """Index of the last space of the audience track."""
        return len(self.audience_track) - 1


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise CatalogError(message)


def _parse(doc: dict[str, Any]) -> Catalog:
    _need(isinstance(doc, dict), "catalog root must be a JSON object")
    actions = frozenset(a["id"] for a in doc["actions"])
    movies = {m.id: m for m in (_movie(raw, actions) for raw in doc["movies"])}
    theaters = {t.id: t for t in (_theater(raw, actions, False) for raw in doc["theaters"])}
    defaults = tuple(
        _theater(raw, actions, True)
        for raw in sorted(doc["default_theaters"]["tiles"], key=lambda t: t["slot"])
    )
    awards = {a.id: a for a in (_award(raw) for raw in doc["awards"])}
    counts = {
        "movies": (len(doc["movies"]), len(movies)),
        "theaters": (len(doc["theaters"]), len(theaters)),
        "default_theaters": (len(defaults), len(defaults)),
        "awards": (len(doc["awards"]), len(awards)),
    }
    for kind, expected in EXPECTED_COUNTS.items():
        listed, unique = counts[kind]
        _need(listed == unique, f"catalog {kind}: duplicate ids")
        _need(listed == expected, f"catalog {kind}: expected {expected}, found {listed}")
    board = doc["advertising_board"]
    spaces = tuple(s["id"] for s in sorted(board["spaces"], key=lambda s: s["board_order"]))
    multicolor = [s["id"] for s in board["spaces"] if s.get("multicolor")]
    _need(len(multicolor) == 1, "advertising board needs exactly one multicolor space")
    _need(set(COLORS) <= set(spaces) and "white" in spaces, "advertising board spaces incomplete")
    for space in spaces:
        _need(f"ad_{space}" in actions, f"advertising space {space!r} has no ad_ action")
    return Catalog(
        movies=movies,
        theaters=theaters,
        default_theaters=defaults,
        awards=awards,
        audience_track=_audience(doc["audience_track"], actions),
        audience_past_end=_known(doc["audience_track"]["past_end_bonus"], actions, "past_end"),
        ad_spaces=spaces,
        multicolor_space=multicolor[0],
        white_space="white",
        tokens_per_player=_int(board["tokens_per_player"], "advertising tokens_per_player"),
        setups={n: _setup(n, doc["setup"][str(n)]) for n in (2, 3, 4)},
        actions=actions,
        box=_box(doc["box"]["guests"]),
        guest_setup=_guest_setup(doc["structured_setup"]),
    )


def _box(raw: dict[str, Any]) -> dict[str, int]:
    _need(set(raw) == set(GUEST_COLORS), "box: guests must list every guest color")
    return {c: _int(raw[c], f"box {c}", 1) for c in GUEST_COLORS}


def _guest_setup(raw: dict[str, Any]) -> GuestSetup:
    draw = raw["award_draw"]
    return GuestSetup(
        reserve_per_color=_int(raw["reserve_per_color"], "reserve_per_color"),
        bag={c: _int(n, f"setup bag {c}") for c, n in raw["bag"].items()},
        bag_extra_of_starting_color=_int(raw["bag_extra_of_starting_color_from_reserve"], "extra"),
        exit_zone={c: _int(n, f"setup exit {c}") for c, n in raw["exit_zone"].items()},
        row_size=_int(raw["row_size"], "row_size", 1),
        column_size=_int(raw["theater_column_size"], "theater_column_size", 1),
        award_draw=_int(draw["draw"], "award draw", 1),
        award_keep=_int(draw["keep"], "award keep", 1),
    )


def _known(action: Any, actions: frozenset[str], where: str) -> str:
    _need(action in actions, f"{where}: unknown action {action!r}")
    return str(action)


def _int(value: Any, where: str, minimum: int = 0) -> int:
    _need(type(value) is int and value >= minimum, f"{where}: expected an integer >= {minimum}")
    return int(value)


def _movie(raw: dict[str, Any], actions: frozenset[str]) -> Movie:
    mid = raw["id"]
    _need(isinstance(mid, str) and mid != "", "movie without an id")
    _need(raw["color"] in COLORS, f"movie {mid}: bad color {raw['color']!r}")
    acts = tuple(raw["actions"])
    _need(0 < len(acts) <= 4, f"movie {mid}: expected 1 to 4 actions")
    for act in (*acts, *([raw["bonus"]] if raw["bonus"] else [])):
        _need(act in actions, f"movie {mid}: unknown action {act!r}")
    _need((raw["bonus"] is None) == (raw["bonus_seats"] is None), f"movie {mid}: bonus mismatch")
    return Movie(
        id=mid,
        title=raw["title"],
        color=raw["color"],
        price=_int(raw["price"], f"movie {mid} price"),
        premiers_price=raw["premiers_price"],
        starting=bool(raw["starting"]),
        actions=acts,
        bonus=raw["bonus"],
        bonus_seats=raw["bonus_seats"],
    )


def _theater(raw: dict[str, Any], actions: frozenset[str], default: bool) -> Theater:
    tid = raw["id"]
    seats = _int(raw["seats"], f"theater {tid} seats", 1)
    colors, acts = tuple(raw["seat_colors"]), tuple(raw["seat_actions"])
    _need(len(colors) == seats == len(acts), f"theater {tid}: seat lists do not match seats")
    for color in colors:
        _need(color == "grey" or color in COLORS, f"theater {tid}: bad seat color {color!r}")
    for act in acts:
        _need(act in actions, f"theater {tid}: unknown action {act!r}")
    return Theater(tid, seats, colors, acts, _int(raw["price"], f"theater {tid} price"), default)


_AWARD_TYPES = {"per_set", "per_set_each_color", "per_item", "threshold"}


def _award(raw: dict[str, Any]) -> Award:
    aid = raw["id"]
    rule = raw["popcorn"]
    _need(rule.get("type") in _AWARD_TYPES, f"award {aid}: unknown scoring type")
    if rule["type"] in ("per_item", "threshold"):
        _need(isinstance(rule.get("count"), dict), f"award {aid}: needs a structured 'count'")
    if rule["type"] == "threshold":
        _need(bool(rule.get("table")), f"award {aid}: threshold without a table")
    return Award(aid, raw["title"], raw["condition"], rule)


def _audience(raw: dict[str, Any], actions: frozenset[str]) -> tuple[AudienceSpace, ...]:
    spaces = tuple(
        AudienceSpace(s["index"], _int(s["draw"], "audience draw", 1), s["bonus"])
        for s in sorted(raw["spaces"], key=lambda s: s["index"])
    )
    _need([s.index for s in spaces] == list(range(len(spaces))), "audience track: gap in indexes")
    for space in spaces:
        _need(space.bonus is None or space.bonus in actions, "audience track: unknown bonus")
    return spaces


def _setup(players: int, raw: dict[str, Any]) -> PlayerCountSetup:
    money = tuple(_int(m, f"setup {players}p money") for m in raw["starting_money"])
    _need(len(money) == players, f"setup {players}p: starting money per seat")
    return PlayerCountSetup(
        players=players,
        starting_money=money,
        reserve_after_setup=_int(raw["reserve_guests_after_setup"], "setup reserve"),
        final_showing_below=_int(raw["final_showing_cards_below"], "setup final showing"),
        trophies=tuple(_int(t, "setup trophy") for t in raw["trophies_in_use"]),
    )
