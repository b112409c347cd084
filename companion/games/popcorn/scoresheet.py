"""The JSON front end of the final scoring: a score sheet in, a scored game out.

A score sheet describes what every player owns when the game ends::

    {"players": [{"name": "Ana", "bucket": 20, "money": 12,
                  "theaters": ["default_one_seat_tile", "default_two_seat_tile",
                               "three_seat_red_grey_grey"],
                  "movies": ["its_my_war", "the_volcano"],
                  "guests": {"white": 5, "red": 6, "blue": 1, "green": 1, "yellow": 1},
                  "audience": 5,
                  "ad_tokens": ["red", "any", "white"],
                  "awards": ["four_movies_same_color"]}]}

Every player field is required; a guest color left out of ``guests`` means 0, and ``null`` in
``theaters`` is an empty slot. Ids are those of
``companion/games/popcorn/data/popcorn-cards.json``. The
meaning of each field is documented on :class:`~companion.games.popcorn.engine.scoring.PlayerFinal`.
"""

from __future__ import annotations

from typing import Any

from .engine import GUEST_COLORS, Catalog, GameScore, PlayerFinal, ScoreInputError
from .engine.scoring import check_final

PLAYER_FIELDS: tuple[str, ...] = (
    "name",
    "bucket",
    "money",
    "theaters",
    "movies",
    "guests",
    "audience",
    "ad_tokens",
    "awards",
)
"""The keys every player object of a score sheet must have, and the only ones it may have."""


def parse_score_input(doc: Any, catalog: Catalog) -> list[PlayerFinal]:
    """Turn a decoded score sheet into checked :class:`PlayerFinal` objects.

    Wrong types, missing or unknown keys, and every inconsistency :func:`check_final` finds
    raise :class:`ScoreInputError` with a one-line message that points at the bad field.
    """
    if not isinstance(doc, dict):
        raise ScoreInputError(f"the score sheet must be a JSON object, got {_kind(doc)}")
    _no_unknown_keys(doc, ("players",), "the score sheet")
    if "players" not in doc:
        raise ScoreInputError("the score sheet has no 'players' list")
    raw_players = doc["players"]
    if not isinstance(raw_players, list):
        raise ScoreInputError(f"'players' must be a list, got {_kind(raw_players)}")
    players = [_player(raw, index) for index, raw in enumerate(raw_players)]
    check_final(catalog, players)
    return players


def score_to_json(score: GameScore) -> dict[str, Any]:
    """The scored game as plain JSON data, players in input order, winners last."""
    return {
        "players": [
            {
                "name": p.name,
                "total": p.total,
                "breakdown": {
                    "bucket": p.bucket,
                    "money": p.money,
                    "trophy": p.trophy,
                    "awards": dict(p.awards),
                },
                "ad_tokens_used": [dict(use) for use in p.ad_tokens_used],
            }
            for p in score.players
        ],
        "winners": list(score.winners),
    }


def _player(raw: Any, index: int) -> PlayerFinal:
    where = f"players[{index}]"
    if not isinstance(raw, dict):
        raise ScoreInputError(f"{where} must be an object, got {_kind(raw)}")
    name = raw.get("name")
    if isinstance(name, str) and name:
        where = f"{where} ({name})"
    _no_unknown_keys(raw, PLAYER_FIELDS, where)
    for key in PLAYER_FIELDS:
        if key not in raw:
            raise ScoreInputError(f"{where}: missing field {key!r}")
    return PlayerFinal(
        name=_string(raw["name"], f"{where}.name"),
        bucket=_integer(raw["bucket"], f"{where}.bucket"),
        money=_integer(raw["money"], f"{where}.money"),
        theaters=tuple(_string_list(raw["theaters"], f"{where}.theaters", allow_null=True)),
        movies=tuple(_string_list(raw["movies"], f"{where}.movies")),
        guests=_guests(raw["guests"], f"{where}.guests"),
        audience=_integer(raw["audience"], f"{where}.audience"),
        ad_tokens=tuple(_string_list(raw["ad_tokens"], f"{where}.ad_tokens")),
        awards=tuple(_string_list(raw["awards"], f"{where}.awards")),
    )


def _guests(raw: Any, where: str) -> dict[str, int]:
    if not isinstance(raw, dict):
        raise ScoreInputError(f"{where} must be an object of color: count, got {_kind(raw)}")
    _no_unknown_keys(raw, GUEST_COLORS, where)
    return {c: _integer(raw.get(c, 0), f"{where}.{c}") for c in GUEST_COLORS}


def _no_unknown_keys(raw: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in raw:
        if key not in allowed:
            raise ScoreInputError(f"{where}: unknown key {key!r} (expected {', '.join(allowed)})")


def _integer(value: Any, where: str) -> int:
    if type(value) is not int:
        raise ScoreInputError(f"{where} must be a whole number, got {_kind(value)}")
    return value


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ScoreInputError(f"{where} must be a string, got {_kind(value)}")
    return value


def _string_list(value: Any, where: str, allow_null: bool = False) -> list[Any]:
    if not isinstance(value, list):
        raise ScoreInputError(f"{where} must be a list, got {_kind(value)}")
    for i, item in enumerate(value):
        if item is None and allow_null:
            continue
        _string(item, f"{where}[{i}]")
    return value


def _kind(value: Any) -> str:
    """A JSON-flavoured description of a value, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {_short(value)!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
