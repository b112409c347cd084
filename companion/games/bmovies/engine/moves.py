"""Moves of B Movies and their JSON form.

Every change to a game is a :class:`Move`: a decision (a pitch, a vote) or a chance outcome
the table reports (a token drawn from the bucket, the secret studio deal). The engine never
draws or shuffles by itself; chance is an input, so a game is fully described by its moves
and a record replays to the very same state. ``Move.to_dict`` and :func:`move_from_dict`
round-trip exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .violations import Violation

FIELDS: dict[str, tuple[str, ...]] = {
    "pitch": ("player", "cards", "title?"),
    "vote": ("player", "vote"),
    "draw_token": ("player", "value", "token?"),
    "deal_studios": ("studios",),
}
"""For each move kind, its fields; a trailing ``?`` marks an optional one."""

CHANCE_KINDS: frozenset[str] = frozenset({"draw_token", "deal_studios"})
"""Kinds that report chance: the table (or a seeded generator) picks the outcome."""

_INT_FIELDS = ("player", "cards", "value", "token")
_STR_FIELDS = ("title", "vote")


@dataclass(frozen=True, slots=True)
class Move:
    """One move or chance outcome. Build it with keywords: ``Move("vote", player=1, vote="no")``.

    Only the fields of :data:`FIELDS` for the kind are used; the others stay ``None``.
    """

    kind: str
    player: int | None = None
    cards: int | None = None
    title: str | None = None
    vote: str | None = None
    value: int | None = None
    token: int | None = None
    studios: tuple[int, ...] | None = None

    @property
    def is_chance(self) -> bool:
        """Whether this move reports a chance outcome rather than a decision."""
        return self.kind in CHANCE_KINDS

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the move, ``{"move": kind, field: value, ...}``, without the
        ``None`` fields."""
        out: dict[str, Any] = {"move": self.kind}
        for name in FIELDS.get(self.kind, ()):
            value = getattr(self, name.rstrip("?"))
            if value is not None:
                out[name.rstrip("?")] = list(value) if isinstance(value, tuple) else value
        return out

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.to_dict().items() if k != "move")
        return f"{self.kind}({args})"


def move_from_dict(data: Any) -> Move:
    """Parse a move's JSON object; raises ``BAD_MOVE`` or ``UNKNOWN_MOVE``.

    Only the shape is checked here (kinds, fields, types); whether the move is legal now is
    the state's business (:meth:`State.apply`).
    """
    if not isinstance(data, dict):
        raise Violation("BAD_MOVE", "A move must be a JSON object.")
    kind = data.get("move")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise Violation("UNKNOWN_MOVE", f"Unknown move kind {kind!r}.", {"move": str(kind)})
    spec = FIELDS[kind]
    extra = sorted(set(data) - {n.rstrip("?") for n in spec} - {"move"})
    if extra:
        raise Violation("BAD_MOVE", f"{kind}: unexpected field {extra[0]!r}.",
                        {"move": kind, "field": extra[0]})
    values: dict[str, Any] = {}
    for name in spec:
        key = name.rstrip("?")
        if data.get(key) is None:
            if not name.endswith("?"):
                raise Violation("BAD_MOVE", f"{kind}: the field {key!r} is missing.",
                                {"move": kind, "field": key})
            continue
        values[key] = _typed(kind, key, data[key])
    return Move(kind, **values)


def check_fields(move: Move) -> None:
    """Raise ``UNKNOWN_MOVE`` or ``BAD_MOVE`` unless the move's fields are present and typed.

    A move built in Python skips :func:`move_from_dict`, so :meth:`State.apply` checks it here.
    """
    spec = FIELDS.get(move.kind)
    if spec is None:
        raise Violation("UNKNOWN_MOVE", f"Unknown move kind {move.kind!r}.", {"move": move.kind})
    used = {n.rstrip("?") for n in spec}
    for name in ("player", "cards", "title", "vote", "value", "token", "studios"):
        value = getattr(move, name)
        if value is None:
            if name in used and f"{name}?" not in spec:
                raise Violation("BAD_MOVE", f"{move.kind}: the field {name!r} is missing.",
                                {"move": move.kind, "field": name})
        elif name not in used:
            raise Violation("BAD_MOVE", f"{move.kind}: unexpected field {name!r}.",
                            {"move": move.kind, "field": name})
        else:
            _typed(move.kind, name, value)


def _typed(kind: str, name: str, value: Any) -> Any:
    if name in _INT_FIELDS and (type(value) is not int or value < 0):
        raise Violation("BAD_MOVE", f"{kind}: {name} must be a non-negative integer.",
                        {"move": kind, "field": name})
    if name in _STR_FIELDS and not isinstance(value, str):
        raise Violation("BAD_MOVE", f"{kind}: {name} must be a string.",
                        {"move": kind, "field": name})
    if name == "studios":
        if not isinstance(value, list | tuple) or not all(
                type(v) is int and v >= 0 for v in value):
            raise Violation("BAD_MOVE", f"{kind}: studios must be a list of studio numbers.",
                            {"move": kind, "field": name})
        return tuple(value)
    return value
