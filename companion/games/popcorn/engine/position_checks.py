"""Whether a position document can be a game of Popcorn, checked before anything is built.

:func:`check_position` reads a decoded ``popcorn-position`` document (``docs/position.md``)
and raises a :class:`~.violations.Violation` at the first problem:

* ``BAD_POSITION``: not a position of this format and version, a missing or unexpected key,
  a value of the wrong type, or a value out of range (a phase that does not exist, player 5,
  an audience space off the track, Showings progress outside the Showings);
* ``NEGATIVE_AMOUNT``: money, popcorn, tokens or a counter below 0;
* ``PAWN_COUNT``: not exactly the pawns of the box (61 pawns, 59, or an id the box does not
  have); ``PAWN_TWICE``: one pawn in two places;
* ``UNKNOWN_CARD``, ``CARD_TWICE``: a card id the catalog does not have, or a movie, tile or
  award card in two places (the printed default theaters excepted: every cinema has them);
* ``TOKEN_COUNT``: a player's advertising tokens in supply and on the board do not add up;
* ``SEAT_INVALID``: a theater's seat list does not match its seat count.

It checks what the table could see is impossible, not whether legal play could have reached
the position: a test may start from any position a real table could hold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from .base_state import PlayerState, Showing, Task
from .catalog import Catalog
from .violations import Violation

FORMAT = "popcorn-position"
"""The ``format`` value of a position document."""
VERSION = 1
"""The only position version there is."""

PHASES = ("setup", "buying", "showings", "over")
"""The phases a position may be in."""
TASK_KINDS: dict[str, tuple[str, ...]] = {
    "deal_starting": ("player",), "lineup": (), "theater": ("size",),
    "award": ("player",), "gain": ("player", "color"), "bonus": ("player", "action"),
    "draw_seat": ("player",),
}
"""The kinds of pending step, each with the keys it cannot do without."""

_TOP = ("format", "version", "names", "phase", "round", "first_player", "current",
        "turns_left", "movie_pool", "above_final", "final_revealed", "last_round", "features",
        "premiers", "starting_pool", "award_pool", "award_queue", "theater_pool",
        "theater_queue", "columns", "box", "reserve", "board", "players", "showings", "tasks")
_PLACES = ("bag", "exit", "hand", "seats")


def _bad(message: str, code: str = "BAD_POSITION") -> Violation:
    return Violation(code, message)


def _keys(where: str, data: Any, keys: Iterable[str], optional: bool = False) -> None:
    if not isinstance(data, dict):
        raise _bad(f"{where} must be a JSON object.")
    keys = set(keys)
    extra = sorted(set(data) - keys)
    if extra:
        raise _bad(f"{where} has an unexpected key {extra[0]!r}.")
    missing = sorted(keys - set(data))
    if missing and not optional:
        raise _bad(f"{where} lacks the key {missing[0]!r}.")


def _int(where: str, value: Any, below: int | None = None, low: int = 0) -> int:
    if type(value) is not int:
        raise _bad(f"{where} must be an integer.")
    if value < low:
        raise _bad(f"{where} is {value}, below {low}.", "NEGATIVE_AMOUNT" if low == 0 else
                   "BAD_POSITION")
    if below is not None and value >= below:
        raise _bad(f"{where} is {value}; it must be below {below}.")
    return value


def _list(where: str, value: Any, item: type | tuple[type, ...], size: int | None = None,
          ) -> list[Any]:
    if not isinstance(value, list) or not all(isinstance(v, item) for v in value):
        raise _bad(f"{where} must be a list of {getattr(item, '__name__', 'values')}.")
    if item is int and any(type(v) is bool for v in value):
        raise _bad(f"{where} must be a list of int.")
    if size is not None and len(value) != size:
        raise _bad(f"{where} must have {size} items, not {len(value)}.")
    return value


def _bool(where: str, value: Any) -> None:
    if type(value) is not bool:
        raise _bad(f"{where} must be true or false.")


def check_position(catalog: Catalog, data: Any) -> None:
    """Raise a :class:`~.violations.Violation` unless ``data`` is a consistent position."""
    _keys("The position", data, _TOP)
    if data["format"] != FORMAT or data["version"] != VERSION:
        raise _bad(f'A position has "format": "{FORMAT}" and "version": {VERSION}; this one '
                   f"has {data['format']!r} version {data['version']!r}.")
    n = _check_names(catalog, data["names"])
    _check_turn(data, n)
    _check_decks(catalog, data)
    _check_board(catalog, data["board"], n)
    _list("players", data["players"], dict, n)
    for p, raw in enumerate(data["players"]):
        _check_player(catalog, p, raw)
    _check_showings(data, n)
    for index, raw in enumerate(_list("tasks", data["tasks"], dict)):
        _check_task(catalog, f"tasks[{index}]", raw, n)
    _check_pawns(catalog, data)
    _check_cards(catalog, data)
    _check_tokens(catalog, data)


def _check_names(catalog: Catalog, names: Any) -> int:
    _list("names", names, str)
    if len(names) not in catalog.setups or len(set(names)) != len(names) or not all(names):
        raise _bad(f"names must be {min(catalog.setups)} to {max(catalog.setups)} distinct, "
                   "non-empty names.")
    return len(names)


def _check_turn(data: dict[str, Any], n: int) -> None:
    if data["phase"] not in PHASES:
        raise _bad(f"phase {data['phase']!r} is not one of {', '.join(PHASES)}.")
    _int("round", data["round"])
    _int("first_player", data["first_player"], n)
    _int("current", data["current"], n)
    _int("turns_left", data["turns_left"], n + 1)
    _int("above_final", data["above_final"])
    _bool("final_revealed", data["final_revealed"])
    _bool("last_round", data["last_round"])


def _check_decks(catalog: Catalog, data: dict[str, Any]) -> None:
    for key in ("movie_pool", "features", "premiers", "starting_pool", "award_pool",
                "award_queue"):
        _list(key, data[key], str)
    sizes = [str(size) for size in catalog.theater_sizes()]
    for key in ("theater_pool", "theater_queue", "columns"):
        _keys(key, data[key], sizes)
        for size in sizes:
            tiles = _list(f"{key}[{size}]", data[key][size], str)
            wrong = [t for t in tiles if t in catalog.theaters
                     and str(catalog.theaters[t].seats) != size]
            if wrong:
                raise _bad(f"{wrong[0]} is not a {size}-seat tile, but lies in {key}[{size}].")


def _check_board(catalog: Catalog, board: Any, n: int) -> None:
    for index, token in enumerate(_list("board", board, list)):
        where = f"board[{index}]"
        if len(token) != 3 or token[1] not in catalog.ad_spaces:
            raise _bad(f"{where} must be [player, space, round placed] with a known space.")
        _int(f"{where} player", token[0], n)
        _int(f"{where} round", token[2])


def _check_player(catalog: Catalog, p: int, raw: Any) -> None:
    where = f"players[{p}]"
    _keys(where, raw, (*PlayerState.__slots__, *_PLACES))
    for key in ("money", "popcorn", "tokens"):
        _int(f"{where} {key}", raw[key])
    _int(f"{where} audience", raw["audience"], len(catalog.audience_track))
    for key in ("theaters", "movies"):
        _list(f"{where} {key}", raw[key], (str, type(None)), 3)
    for value in _list(f"{where} covered", raw["covered"], int, 3):
        _int(f"{where} covered", value)
    for used in _list(f"{where} used", raw["used"], list, 3):
        for value in _list(f"{where} used", used, int):
            _int(f"{where} used", value)
    _list(f"{where} archive", raw["archive"], str)
    _list(f"{where} awards", raw["awards"], str)
    for key in ("right_bonus_taken", "bought_movie", "bought_theater"):
        _bool(f"{where} {key}", raw[key])
    for key in ("bag", "exit", "hand"):
        _list(f"{where} {key}", raw[key], int)
    _check_seats(catalog, where, raw)


def _check_seats(catalog: Catalog, where: str, raw: dict[str, Any]) -> None:
    for slot, seats in enumerate(_list(f"{where} seats", raw["seats"], list, 3)):
        _list(f"{where} seats[{slot}]", seats, (int, type(None)))
        tile = raw["theaters"][slot]
        if tile is not None and not catalog.is_theater(tile):
            raise _bad(f"{where} shows theater {tile!r}, which the catalog does not have.",
                       "UNKNOWN_CARD")
        count = catalog.theater(tile).seats if tile is not None else 0
        if len(seats) != count:
            raise _bad(f"{where} seats[{slot}] lists {len(seats)} seat(s); the theater in that "
                       f"slot has {count}.", "SEAT_INVALID")


def _check_showings(data: dict[str, Any], n: int) -> None:
    showings = _list("showings", data["showings"], dict)
    expected = n if data["phase"] == "showings" else 0
    if len(showings) != expected:
        raise _bad(f"showings must list {expected} player(s) in the {data['phase']} phase.")
    for p, raw in enumerate(showings):
        where = f"showings[{p}]"
        _keys(where, raw, Showing.__slots__)
        _int(f"{where} to_draw", raw["to_draw"])
        _int(f"{where} active", raw["active"], 3, -1)
        _int(f"{where} cursor", raw["cursor"], 10, -1)
        _bool(f"{where} seat_taken", raw["seat_taken"])
        _bool(f"{where} movie_taken", raw["movie_taken"])
        for value in _list(f"{where} activated", raw["activated"], bool, 3):
            _bool(f"{where} activated", value)
        if raw["active"] != -1:
            _check_acting(data["players"][p], where, raw["active"], raw["cursor"])
        _check_left(where, raw["left"])


def _check_left(where: str, left: Any) -> None:
    if left is None:
        return
    if not isinstance(left, list) or len(left) != 4:
        raise _bad(f"{where} left must be null or [slot, seat, pawn or null, took movie action].")
    _int(f"{where} left slot", left[0], 3)
    _int(f"{where} left seat", left[1])
    if left[2] is not None:
        _int(f"{where} left pawn", left[2])
    _bool(f"{where} left movie action", left[3])


def _check_acting(player: dict[str, Any], where: str, slot: int, cursor: int) -> None:
    seats = player["seats"][slot] if isinstance(player.get("seats"), list) else []
    if not 0 <= cursor < len(seats) or seats[cursor] is None:
        raise _bad(f"{where} has a guest acting on seat index {cursor} of slot {slot}, where no "
                   "guest sits.")

def _check_task(catalog: Catalog, where: str, raw: dict[str, Any], n: int) -> None:
    _keys(where, raw, Task.__slots__, optional=True)
    if not isinstance(raw.get("kind"), str) or raw["kind"] not in TASK_KINDS:
        raise _bad(f"{where} kind must be one of {', '.join(TASK_KINDS)}.")
    missing = [key for key in TASK_KINDS[raw["kind"]] if raw.get(key) is None]
    if missing:
        raise _bad(f"{where}, a {raw['kind']} step, lacks {missing[0]!r}.")
    if raw.get("player") is not None:
        _int(f"{where} player", raw["player"], n)
    if "size" in raw and raw["size"] not in catalog.theater_sizes():
        raise _bad(f"{where} size must be a theater size.")
    if "remaining" in raw:
        _int(f"{where} remaining", raw["remaining"])
    if "pawn" in raw:
        _int(f"{where} pawn", raw["pawn"])
    _list(f"{where} drawn", raw.get("drawn", []), str)
    for key in ("color", "action"):
        if key in raw and not isinstance(raw[key], str):
            raise _bad(f"{where} {key} must be a string.")


def _check_pawns(catalog: Catalog, data: dict[str, Any]) -> None:
    total = sum(catalog.box.values())
    listed = [*_list("box", data["box"], int), *_list("reserve", data["reserve"], int)]
    for raw in data["players"]:
        listed += [*raw["bag"], *raw["exit"], *raw["hand"]]
        listed += [pawn for seats in raw["seats"] for pawn in seats if pawn is not None]
    _list("pawns", listed, int)
    unknown = [pawn for pawn in listed if not 0 <= pawn < total]
    if unknown:
        raise _bad(f"There is no pawn {unknown[0]}: the box holds pawns 0 to {total - 1}.",
                   "PAWN_COUNT")
    twice = [pawn for pawn, count in Counter(listed).items() if count > 1]
    if twice:
        raise _bad(f"Pawn {twice[0]} is listed in two places.", "PAWN_TWICE")
    if len(listed) != total:
        missing = sorted(set(range(total)) - set(listed))
        raise _bad(f"The position places {len(listed)} pawns, not the box's {total}: "
                   f"pawn {missing[0]} is nowhere.", "PAWN_COUNT")


def _check_cards(catalog: Catalog, data: dict[str, Any]) -> None:
    players = data["players"]
    movies = [*data["movie_pool"], *data["features"], *data["premiers"], *data["starting_pool"]]
    movies += [m for raw in players for m in [*raw["movies"], *raw["archive"]] if m]
    tiles = [t for key in ("theater_pool", "theater_queue", "columns")
             for cards in data[key].values() for t in cards]
    tiles += [t for raw in players for t in raw["theaters"] if t]
    awards = [*data["award_pool"], *data["award_queue"]]
    awards += [a for raw in players for a in raw["awards"]]
    awards += [a for task in data["tasks"] for a in task.get("drawn", [])]
    defaults = {t.id for t in catalog.default_theaters}
    for kind, cards, known in (("movie", movies, catalog.movies),
                               ("theater", tiles, catalog.all_theaters),
                               ("award", awards, catalog.awards)):
        unknown = [c for c in cards if c not in known]
        if unknown:
            raise _bad(f"The catalog has no {kind} {unknown[0]!r}.", "UNKNOWN_CARD")
        twice = [c for c, count in Counter(cards).items() if count > 1 and c not in defaults]
        if twice:
            raise _bad(f"The {kind} {twice[0]!r} is in two places.", "CARD_TWICE")


def _check_tokens(catalog: Catalog, data: dict[str, Any]) -> None:
    on_board = Counter(token[0] for token in data["board"])
    for p, raw in enumerate(data["players"]):
        if raw["tokens"] + on_board[p] != catalog.tokens_per_player:
            raise _bad(f"{data['names'][p]} has {raw['tokens']} token(s) in supply and "
                       f"{on_board[p]} on the board; a player has "
                       f"{catalog.tokens_per_player} in all.", "TOKEN_COUNT")
