"""The typed models of the hub's request bodies and of its error answer (``msgspec`` Structs).

They describe what each route reads from its JSON body, for the OpenAPI document
(:mod:`.openapi`, whose ``components.schemas`` are their JSON Schemas). Each field is
optional unless the route refuses a body without it, and a body may carry other keys (a
game's correction reads its own, an older screen's body its older ones): the routes' own
checks (:mod:`.bodies` and each route's) still decide, with the hub's codes, and refuse a
bad body as :class:`ErrorBody` in the device's language. Some constraints are said in the
document only (``extra_json_schema``: the players' and readers' counts and patterns): the
routes check them with the table's game and their own sentences.

A secret may ride in the body: ``pin`` (a table's PIN, also as a number) where a route
reads the table PIN, ``admin_pin`` (a string) where it reads the admin PIN, ``token``
where it reads a player token; the headers win (see ``docs/api.md``, Authentication).
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from companion.readers.protocol import READER_ID
from companion.table.table import MAX_BATCH

Pin = Annotated[str | int, msgspec.Meta(description="the table's PIN (header X-Table-Pin wins)")]
"""A table PIN sent in a body: six digits, as text or a number."""
AdminPin = Annotated[str, msgspec.Meta(description="the admin PIN (header X-Admin-Pin wins)")]
"""The admin PIN sent in a body: always a string."""
Token = Annotated[str, msgspec.Meta(description="a player token (header X-Player-Token wins)")]
"""A player token sent in a body."""
Name = Annotated[str, msgspec.Meta(extra_json_schema={"pattern": r"\S"})]
"""A player's name: not blank (the hub keeps its first 24 characters, trimmed)."""
ReaderId = Annotated[str, msgspec.Meta(extra_json_schema={"pattern": READER_ID.pattern})]
"""A reader's id, as its firmware names itself."""
Move = Annotated[dict[str, Any], msgspec.Meta(
    description='one move in its game\'s JSON: {"move": kind, field: value, ...}')]
"""A move, in its game's own JSON (each game documents its fields)."""


class ErrorBody(msgspec.Struct, kw_only=True):
    """Every refusal: a stable ``code``, the facts its sentence names (``params``), the
    sentence in the request's language, and in a refused batch the move's ``index``."""

    code: str
    params: dict[str, Any]
    message: str
    index: int | msgspec.UnsetType = msgspec.UNSET


class CreateTable(msgspec.Struct, kw_only=True):
    """``POST /api/tables``: the players, their readers, and the table's choices."""

    players: Annotated[list[Name], msgspec.Meta(
        description="2 to 4 names (a game may allow more), all different",
        extra_json_schema={"minItems": 2, "uniqueItems": True})]
    readers: Annotated[list[ReaderId], msgspec.Meta(
        description="one reader id per seat, each its own",
        extra_json_schema={"minItems": 2, "uniqueItems": True})]
    game: str = "popcorn"
    options: dict[str, Any] | None = None
    first_player: int = 0
    name: Any = None
    deal_seed: int | None = None
    hints: bool = True


class MoveBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/moves``: one ``move``, or a batch of ``moves`` (not both)."""

    move: Move | msgspec.UnsetType = msgspec.UNSET
    moves: Annotated[list[Move], msgspec.Meta(min_length=1, max_length=MAX_BATCH)] | \
        msgspec.UnsetType = msgspec.UNSET
    forced: bool = False
    token: Token | msgspec.UnsetType = msgspec.UNSET
    pin: Pin | msgspec.UnsetType = msgspec.UNSET


class ChoiceBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/choice``: the card's new slot."""

    index: int
    token: Token | msgspec.UnsetType = msgspec.UNSET


class PinBody(msgspec.Struct, kw_only=True):
    """A body that only may carry the table PIN (or a player token, where the route reads
    one)."""

    pin: Pin | msgspec.UnsetType = msgspec.UNSET
    token: Token | msgspec.UnsetType = msgspec.UNSET


class CloseBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/close``: the table PIN, or the admin PIN."""

    pin: Pin | msgspec.UnsetType = msgspec.UNSET
    admin_pin: AdminPin | msgspec.UnsetType = msgspec.UNSET


class CorrectBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/correct``: the PIN and the game's own correction fields
    (Popcorn: ``pawn`` or ``color``/``from``, ``zone``, ``player``...)."""

    pin: Pin | msgspec.UnsetType = msgspec.UNSET


class IdentifyBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/identify``: light the table's readers (``on``) or not."""

    on: bool = True
    pin: Pin | msgspec.UnsetType = msgspec.UNSET


class HintsBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/hints``: the advisor's pre-filled placement on or off."""

    hints: bool
    pin: Pin | msgspec.UnsetType = msgspec.UNSET


class DealBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/deal``: turn "deal for us" on with a seed."""

    seed: int | None = None
    pin: Pin | msgspec.UnsetType = msgspec.UNSET


class AuditBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/audits``: one ``player``'s bag, or ``all`` from ``player``."""

    player: int | msgspec.UnsetType = msgspec.UNSET
    all: bool = False
    pin: Pin | msgspec.UnsetType = msgspec.UNSET
    token: Token | msgspec.UnsetType = msgspec.UNSET


class AdminBody(msgspec.Struct, kw_only=True):
    """A body that only may carry the admin PIN."""

    admin_pin: AdminPin | msgspec.UnsetType = msgspec.UNSET


class TagsImport(msgspec.Struct, kw_only=True):
    """``PUT /api/tags``: a whole registry, as ``GET /api/tags`` exports it."""

    registry: Annotated[dict[str, Any], msgspec.Meta(
        description='{"format": "companion-tags", "version": 3, "pieces": [...]} '
                    "(or an older hub's version 1 or 2)")]
    admin_pin: AdminPin | msgspec.UnsetType = msgspec.UNSET


class EnrollBody(msgspec.Struct, kw_only=True):
    """``POST /api/enroll``: a game's kind and how each new tag gets its piece (``value``,
    ``next`` or ``pick``), or an older screen's ``color``, ``cards`` or ``tokens``."""

    game: str | None = None
    kind: str | None = None
    value: Any = None
    next: bool | None = None
    pick: bool | None = None
    color: str | None = None
    cards: bool | str | None = None
    tokens: int | None = None
    admin_pin: AdminPin | msgspec.UnsetType = msgspec.UNSET


class EnrollPiece(msgspec.Struct, kw_only=True):
    """``POST /api/enroll/piece``: a UID and the piece's game, kind and value."""

    uid: str
    game: str
    kind: str
    value: Any
    admin_pin: AdminPin | msgspec.UnsetType = msgspec.UNSET


class EnrollCard(msgspec.Struct, kw_only=True):
    """``POST /api/enroll/card``: an older screen's card binding."""

    uid: str
    kind: str
    card: str
    admin_pin: AdminPin | msgspec.UnsetType = msgspec.UNSET


class ArchiveImport(msgspec.Struct, kw_only=True):
    """``POST /api/archive``: a game record's text (JSON Lines)."""

    record: str
    admin_pin: AdminPin | msgspec.UnsetType = msgspec.UNSET
