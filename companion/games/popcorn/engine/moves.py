"""Moves and chance outcomes, and their JSON form.

Every change to a game is a :class:`Move`: a player's decision (buy a movie, seat a guest)
or a chance outcome that the table reports (which pawn came out of the bag, which card was
revealed). A move is a small immutable value; the fields a kind uses are listed in
:data:`FIELDS`, and the rest stay ``None``. ``Move.to_dict`` and :func:`move_from_dict`
round-trip exactly, which is what the game record is made of.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .violations import Violation

CHANCE_KINDS: frozenset[str] = frozenset(
    {"deal_starting", "reveal_movie", "reveal_theater", "draw_award", "draw_pawn"}
)
"""Kinds that report chance: the table (or a seeded RNG) picks among the listed outcomes."""

FIELDS: dict[str, tuple[str, ...]] = {
    # chance
    "deal_starting": ("player", "card"),
    "reveal_movie": ("card",),
    "reveal_theater": ("card",),
    "draw_award": ("player", "card"),
    "draw_pawn": ("player", "pawn"),
    # setup and awards
    "keep_award": ("player", "card"),
    # buying and advertising
    "buy_movie": ("player", "card", "slot"),
    "buy_theater": ("player", "card", "slot"),
    "activate_ad": ("player", "space", "color?"),
    "take_back_ad": ("player", "space"),
    "end_turn": ("player",),
    "gain_pawn": ("player", "pawn", "target?"),
    # showings
    "place": ("player", "pawn", "slot", "seat"),
    "to_exit": ("player", "pawn"),
    "seat_action": ("player", "slot", "seat", "index?", "pawn?"),
    "movie_action": ("player", "slot", "seat", "index", "pawn?"),
    "end_guest": ("player", "slot", "seat"),
    "bonus_action": ("player", "pawn"),
    "decline": ("player",),
    # the table's own word: a pawn is somewhere else (never listed; see .corrections)
    "correct": ("pawn", "zone", "player?"),
}
"""For each move kind, its fields; a trailing ``?`` marks an optional one."""

ACTIVATION_KINDS: frozenset[str] = frozenset({"seat_action", "movie_action", "end_guest"})
"""Moves of an acting guest. Each names its guest by ``slot`` and ``seat`` (0 is seat #1), and
is refused (``GUEST_NOT_ACTING``, ``GUEST_LEFT``) when that guest is not the one to act, so a
slip at the table never lands on the wrong guest. Records of version 1 left ``seat`` out: read
them with ``move_from_dict(data, legacy=True)`` and :func:`.showing_choices.name_guest`."""

_INT_FIELDS = ("player", "slot", "seat", "index", "pawn", "target")
_STR_FIELDS = ("card", "space", "color", "zone")


@dataclass(frozen=True, slots=True)
class Move:
    """One move or chance outcome. Build it with keywords: ``Move("end_turn", player=0)``."""

    kind: str
    player: int | None = None
    card: str | None = None
    slot: int | None = None
    seat: int | None = None
    index: int | None = None
    pawn: int | None = None
    space: str | None = None
    color: str | None = None
    target: int | None = None
    zone: str | None = None

    @property
    def is_chance(self) -> bool:
        """Whether this move reports a chance outcome rather than a decision."""
        return self.kind in CHANCE_KINDS

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the move: ``{"move": kind, field: value, ...}``."""
        out: dict[str, Any] = {"move": self.kind}
        for name in FIELDS[self.kind]:
            name = name.rstrip("?")
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.to_dict().items() if k != "move")
        return f"{self.kind}({args})"


def move_from_dict(data: Any, *, legacy: bool = False) -> Move:
    """Parse a move's JSON object, raising a ``BAD_MOVE`` or ``UNKNOWN_MOVE`` violation.

    With ``legacy``, a move written before activation moves named their guest (a version-1
    record, an old hub log) may leave ``seat`` out of an activation move; the move then has
    ``seat=None`` until :func:`.showing_choices.name_guest` fills it in from the state.
    """
    if not isinstance(data, dict):
        raise Violation("BAD_MOVE", "a move must be a JSON object")
    kind = data.get("move")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise Violation("UNKNOWN_MOVE", f"unknown move kind {kind!r}")
    spec = FIELDS[kind]
    allowed = {name.rstrip("?") for name in spec} | {"move"}
    extra = sorted(set(data) - allowed)
    if extra:
        raise Violation("BAD_MOVE", f"{kind}: unexpected field {extra[0]!r}")
    values: dict[str, Any] = {}
    for name in spec:
        optional = name.endswith("?") or (legacy and name == "seat" and kind in ACTIVATION_KINDS)
        name = name.rstrip("?")
        if name not in data or data[name] is None:
            if not optional:
                raise Violation("BAD_MOVE", f"{kind}: missing field {name!r}")
            continue
        values[name] = _typed(kind, name, data[name])
    return Move(kind, **values)


def check_fields(move: Move) -> None:
    """Raise ``BAD_MOVE`` unless the move's kind is known and its fields are well typed."""
    if move.kind not in FIELDS:
        raise Violation("UNKNOWN_MOVE", f"unknown move kind {move.kind!r}")
    for name in _INT_FIELDS:
        value = getattr(move, name)
        if value is not None and (type(value) is not int or value < 0):
            _typed(move.kind, name, value)
    for name in _STR_FIELDS:
        value = getattr(move, name)
        if value is not None and type(value) is not str:
            _typed(move.kind, name, value)


def _typed(kind: str, name: str, value: Any) -> Any:
    if name in _INT_FIELDS:
        if type(value) is not int or value < 0:
            raise Violation("BAD_MOVE", f"{kind}: {name} must be a non-negative integer")
    elif name in _STR_FIELDS and not isinstance(value, str):
        raise Violation("BAD_MOVE", f"{kind}: {name} must be a string")
    return value
