"""What an enrollment hands each new tag, as ``POST /api/enroll`` asks for it.

A mode names a game's kind of pieces (:class:`~companion.kit.pieces.PieceKind`) and how its
pieces are handed out, one per tap:

- ``value``: the next free piece of one value (Popcorn's blue pawns, B Movies' 3s);
- ``next``: the next piece of the kind, in its order, that has no tag yet (the movie cards
  in catalog order);
- ``pick``: each new UID waits until the admin names its piece's value (a card picked from
  a list); the kind may be left open, so that any kind enrolled by picking is named then.

An older request's shapes still work: ``{"color"}`` (pawns of a color), ``{"cards": true}``
or ``{"cards": kind}`` (cards, tap then pick, or a kind in catalog order), ``{"tokens":
value}``; their answers and pushes keep the older fields and codes
(:func:`older_fields`, :func:`~companion.table.registry.older`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.kit.errors import TableError
from companion.kit.pieces import Piece
from companion.table.registry import PAWN, TOKEN, RegistryError, TagRegistry

HOWS = ("value", "next", "pick")
"""How a mode hands out pieces (see the module's text)."""


@dataclass(frozen=True)
class Mode:
    """One enrollment mode: ``game`` and ``kind`` (None in an open ``pick``), ``how`` and,
    for ``value``, the ``value``; ``shape`` is the older request's (``pawn``, ``card``,
    ``token``), whose codes a refusal keeps, or ``""``."""

    game: str | None
    kind: str | None
    how: str
    value: Any = None
    shape: str = ""

    def to_dict(self) -> dict[str, Any]:
        """``{"game", "kind", "how", "value"}``, as the enrollment status names it."""
        return {"game": self.game, "kind": self.kind, "how": self.how, "value": self.value}


def mode_of(body: dict[str, Any], registry: TagRegistry) -> Mode:
    """The mode a request asks for, checked against the hosted games' kinds; a bad one is a
    ``BAD_REQUEST`` naming what would do."""
    if body.get("tokens") is not None:
        return _tokens(body["tokens"], registry)
    if body.get("cards") is not None:
        return _cards(body["cards"], registry)
    if body.get("color") is not None:
        return _color(body["color"], registry)
    if body.get("pick") is True and body.get("kind") is None:
        return Mode(_game(body.get("game"), registry), None, "pick")
    return _generic(body, registry)


def _generic(body: dict[str, Any], registry: TagRegistry) -> Mode:
    game, kind = body.get("game"), body.get("kind")
    try:
        pieces = registry.kind(game, kind)
    except RegistryError as exc:
        raise TableError("BAD_REQUEST", 'give a "game" and one of its "kind"s of pieces ('
                         f'{_kinds(registry)}), or an older "color", "cards" or "tokens"',
                         params=exc.params) from exc
    if body.get("pick") is True:
        return Mode(game, kind, "pick")
    if body.get("next") is True:
        return Mode(game, kind, "next")
    values = [v.value for v in pieces.values]
    if body.get("value") not in values:
        raise TableError("BAD_REQUEST", f'"value" must be one of {game} {kind}\'s values ('
                         + ", ".join(str(v) for v in values) + '), or give "next": true or '
                         '"pick": true', params={"game": game, "kind": kind})
    return Mode(game, kind, "value", body["value"])


def _game(game: Any, registry: TagRegistry) -> str | None:
    if game is not None and game not in {g for g, _ in registry.kinds}:
        raise TableError("BAD_REQUEST", f"no hosted game has pieces to enroll named {game!r}",
                         params={"game": game})
    return game


def _tokens(value: Any, registry: TagRegistry) -> Mode:
    key = registry.older_key(TOKEN)
    values = [] if key is None else [v.value for v in registry.kinds[key].values]
    if key is None or type(value) is not int or value not in values:
        raise TableError("BAD_REQUEST", "tokens must be a popcorn token value: "
                         + ", ".join(str(v) for v in values))
    return Mode(*key, "value", value, "token")


def _cards(cards: Any, registry: TagRegistry) -> Mode:
    kinds = registry.card_kinds()
    if cards is True:
        return Mode(None, None, "pick", shape="card")
    key = registry.older_key(cards) if isinstance(cards, str) and cards in kinds else None
    if key is None:
        raise TableError("BAD_REQUEST", 'cards must be true (tap, then pick) or one '
                         f'of {", ".join(kinds)} (catalog order)')
    return Mode(*key, "next", shape="card")


def _color(color: Any, registry: TagRegistry) -> Mode:
    key = registry.older_key(PAWN)
    if key is None or not isinstance(color, str) or color not in registry.capacity():
        raise TableError("BAD_REQUEST", "color must be a guest color, or give "
                         '"cards": true or a card kind')
    return Mode(*key, "value", color, "pawn")


def _kinds(registry: TagRegistry) -> str:
    return ", ".join(f"{game} {kind}" for game, kind in registry.kinds) or "none"


def older_status(mode: Mode | None, registry: TagRegistry) -> dict[str, Any]:
    """The older status fields of the mode: ``enrolling`` (a pawn color),
    ``enrolling_cards`` (``pick`` or a card kind) and ``enrolling_tokens`` (a value)."""
    out: dict[str, Any] = {"enrolling": None, "enrolling_cards": None, "enrolling_tokens": None}
    if mode is None:
        return out
    shape = shape_of(mode, registry)
    if mode.how == "pick" and shape in ("card", ""):
        out["enrolling_cards"] = "pick"
    elif shape == "card" and mode.how == "next":
        out["enrolling_cards"] = mode.kind
    elif mode.how == "value" and shape == "pawn":
        out["enrolling"] = mode.value
    elif mode.how == "value" and shape == "token":
        out["enrolling_tokens"] = mode.value
    return out


def shape_of(mode: Mode | Piece, registry: TagRegistry) -> str:
    """The older shape of a mode's kind or a piece's: ``pawn`` (the first game's pawns),
    ``card`` (a kind enrolled by picking), ``token`` (the first game's tokens), or ``""``."""
    game = mode.game
    if game is None or mode.kind is None:
        return ""
    key = (game, mode.kind)
    if key == registry.older_key(PAWN):
        return "pawn"
    if key in registry.kinds and registry.kinds[key].pick:
        return "card"
    return "token" if key == registry.older_key(TOKEN) else ""


def older_fields(piece: Piece, registry: TagRegistry) -> dict[str, Any]:
    """What an older screen reads of an enrolled piece, by its shape: a pawn's ``pawn``,
    ``color`` and ``counts``; a card's ``kind``, ``card``, ``title`` and ``cards``; a
    token's ``token``, ``value``, ``tokens`` and ``capacity``."""
    shape = shape_of(piece, registry)
    if shape == "pawn":
        return {"pawn": piece.id, "color": piece.value, "counts": registry.counts()}
    if shape == "card":
        return {"kind": piece.kind, "card": piece.value,
                "title": registry.kinds[(piece.game, piece.kind)].title_of(piece.value),
                "cards": registry.card_counts()}
    if shape == "token":
        return {"token": piece.id, "value": piece.value, "tokens": registry.token_counts(),
                "capacity": registry.token_capacity()}
    return {}
