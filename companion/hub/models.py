"""The typed models of the hub's request bodies and of its error answer (``msgspec`` Structs).

One source of truth: each route decodes its JSON body with its model
(:func:`.bodies.decode`), and the OpenAPI document (:mod:`.openapi`) carries the same models'
JSON Schemas in ``components.schemas``. Each field is optional unless the route refuses a
body without it; its type is checked strictly (a string is no bool), and a wrong one is
refused with the route's code, ``params`` naming the field, as :class:`ErrorBody` in the
device's language. A body may carry other keys (a game's correction reads its own, an older
screen's body its older ones). What a type cannot say (a seat in range, names that differ,
a move's own fields) the route and the table check after. Some constraints are said in the
document only (``extra_json_schema``: the players' and readers' counts and patterns): the
routes check them with the table's game and their own sentences.

A secret may ride in the body: ``pin`` (a table's PIN, also as a number) where a route
reads the table PIN, ``admin_pin`` (a string) where it reads the admin PIN, ``token``
where it reads a player token; the headers win (see ``docs/api.md``, Authentication). The
models describe them; :mod:`.auth` reads and checks them, and refuses a wrong or malformed
one with its own 403, so decoding leaves them out.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from companion.games import DEFAULT
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
    game: str = DEFAULT
    options: dict[str, Any] | None = None
    first_player: int = 0
    name: Any = None
    deal_seed: int | None = None
    hints: bool = True
    play_on: bool = False
    mats: Annotated[list[ReaderId | None], msgspec.Meta(
        description="per seat, the id of the cinema mat under that player's board, or null "
                    "(a game whose tables read mats)")] | None = None


class MoveBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/moves``: one ``move``, or a batch of ``moves`` (not both)."""

    move: Move | msgspec.UnsetType = msgspec.UNSET
    moves: Annotated[list[Move], msgspec.Meta(min_length=1, max_length=MAX_BATCH)] | \
        msgspec.UnsetType = msgspec.UNSET
    forced: bool = False
    go_on: bool = False
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
    """``POST /api/tables/{id}/correct``: the PIN, the ``alert`` the correction fixes, and
    the table's game's own correction fields, which its own model decodes
    (:meth:`companion.kit.parts.Corrections.model`: Popcorn's ``pawn`` or ``color`` and
    ``from``, ``zone``, ``player``; B Movies' ``token`` or ``value``, ``zone``, ``player``)."""

    alert: Annotated[int | None, msgspec.Meta(
        description="the id of the open alert this correction fixes")] = None
    pin: Pin | msgspec.UnsetType = msgspec.UNSET


class IdentifyBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/identify``: hold the table's next tap for the correction
    dialog (``on``: true), or stop waiting (false)."""

    on: bool
    pin: Pin | msgspec.UnsetType = msgspec.UNSET


class HintsBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/hints``: the advisor's pre-filled placement on or off."""

    hints: bool
    play_on: bool | msgspec.UnsetType = msgspec.UNSET
    pin: Pin | msgspec.UnsetType = msgspec.UNSET


class DealBody(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/deal``: turn "deal for us" on with a seed."""

    seed: int
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
