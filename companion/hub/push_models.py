"""The typed models of the Socket.IO events the hub pushes (``msgspec`` Structs).

The OpenAPI document carries their JSON Schemas in ``components.schemas`` and names them by
event in ``x-socketio-events`` (:mod:`.openapi`); ``docs/api.md`` (Socket.IO) tells when each
is sent. Views are the games' own JSON, so they are objects here; a push may carry more keys
than a model names, except where a model forbids them (a secret piece carries no value). A
payload of several shapes (an enrollment tap's outcome, what an identify tap names) is a
:class:`~companion.kit.contract.OneOf` of a Struct per shape.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from companion.kit.contract import OneOf

PieceValueId = str | int
"""A piece's value: a pawn's color, a card's catalog id, a token's worth."""

Revision = tuple[str, int]
"""An enrollment stamp ``[boot, n]``: the hub's run and its enrollment changes so far
(:meth:`Enrollment.stamp <companion.hub.enrollment.Enrollment.stamp>`)."""


class StatePush(msgspec.Struct, kw_only=True):
    """``state``: a table's public view after a change, and its log length."""

    table: str
    events: int
    view: dict[str, Any]


class PrivatePush(msgspec.Struct, kw_only=True):
    """``private``: one player's private view, to that player's room."""

    table: str
    view: dict[str, Any]


class Alert(msgspec.Struct, kw_only=True):
    """An alert: a tap the table could not take as a move, with its fix."""

    code: str
    message: str
    id: int
    params: dict[str, Any]
    fix: str | None = None
    player: int | None = None


class AlertPush(msgspec.Struct, kw_only=True):
    """``alert``: a tap that became an alert, to the table's room."""

    table: str
    alert: Alert


class HandledPush(msgspec.Struct, kw_only=True):
    """``handled``: the id of an alert that was dismissed or fixed."""

    table: str
    alert: int


class ShownPiece(msgspec.Struct, kw_only=True):
    """A piece of a public kind (Popcorn's pawns, its movie and theater cards): its game,
    kind, number in the kind and value."""

    game: str
    kind: str
    id: int
    value: PieceValueId


class SecretPiece(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A piece of a secret kind (Popcorn's award cards, B Movies' tokens): its game and
    kind only, never its number or value (every screen of the table gets the push)."""

    game: str
    kind: str


class Thing(OneOf):
    """A tapped piece as every screen of a table may see it (the tag registry's
    ``shown``)."""

    members = (ShownPiece, SecretPiece)


class IdentifyPush(msgspec.Struct, kw_only=True):
    """``identify``: what a tap the table waited for names, on the seat ``player``'s
    reader (``thing`` null for an unknown tag)."""

    table: str
    player: int
    thing: Thing | None


class ReaderStatus(msgspec.Struct, kw_only=True):
    """One reader's entry of ``GET /api/readers`` and of the ``readers`` push: whether it
    is online and how it was last heard, the table and seat it is bound to, and its health
    from its last heartbeat (null: not sent, or no heartbeat yet) with its levels
    (:mod:`companion.readers.health`)."""

    reader: str
    kind: Literal["bag", "mat"]
    """A bag reader taps; a cinema mat reports its zones (``docs/protocol.md``)."""
    online: bool
    transport: Literal["serial", "mqtt"] | None
    table: str | None
    seat: int | None
    heartbeat_age: float | None
    rssi: int | None
    supply_mv: int | None
    read_fail: int | None
    too_fast: int | None
    fails_last_minute: int
    signal: Literal["good", "fair", "weak", "unknown"]
    battery: Literal["ok", "low", "unknown"]
    reads: Literal["ok", "many", "unknown"]
    problems: list[Literal["battery", "signal", "reads"]]
    scan_ms: int | None
    """A mat's last full scan of its zones, in milliseconds (null: a bag reader)."""
    zones: list[int] | None
    """A bound mat's tags on each zone, as its table keeps them (null: a bag reader)."""
    zones_age: float | None
    """Seconds since the mat's last zone state (null: none yet, or a bag reader)."""


class ReaderHealthPush(msgspec.Struct, kw_only=True):
    """``reader_health``: a table's reader (at seat ``seat``) has new problems, in the
    order :data:`companion.readers.health.PROBLEMS` gives them; ``status`` is its entry of
    the readers' list."""

    table: str
    reader: str
    seat: int
    problems: list[Literal["battery", "signal", "reads"]]
    status: ReaderStatus


class TitledPiece(ShownPiece, kw_only=True):
    """An enrolled piece: a :class:`ShownPiece` with what a person reads on it."""

    title: str


class Enrolled(msgspec.Struct, kw_only=True, tag_field="shape", tag=""):
    """A tag enrolled: its ``uid``, the ``piece`` it is on, how many of its value have tags
    (``enrolled``) against the box (``cap``), and the piece's older ``shape`` (``""``: none;
    see :class:`EnrolledPawn`, :class:`EnrolledCard`, :class:`EnrolledToken`). A UID bound by
    ``POST /api/enroll/piece`` or ``/card`` also carries the UIDs still ``waiting``."""

    ok: Literal[True]
    uid: str
    piece: TitledPiece
    enrolled: int
    cap: int
    revision: Revision
    waiting: list[str] | msgspec.UnsetType = msgspec.UNSET


class EnrolledPawn(Enrolled, kw_only=True, tag="pawn"):
    """A pawn enrolled, with an older screen's fields: its number (``pawn``), ``color``,
    and the enrolled pawns per color (``counts``)."""

    pawn: int
    color: str
    counts: dict[str, int]


class EnrolledCard(Enrolled, kw_only=True, tag="card"):
    """A card enrolled, with an older screen's fields: its ``kind``, catalog id (``card``),
    ``title``, and the enrolled cards per kind (``cards``)."""

    kind: str
    card: PieceValueId
    title: str
    cards: dict[str, int]


class EnrolledToken(Enrolled, kw_only=True, tag="token"):
    """A token enrolled, with an older screen's fields: its number (``token``), ``value``,
    and the enrolled tokens and the box's per value (``tokens``, ``capacity``)."""

    token: int
    value: int
    tokens: dict[str, int]
    capacity: dict[str, int]


class PendingUid(msgspec.Struct, kw_only=True):
    """A UID tapped in ``pick`` mode (``pending``), waiting with the others (``waiting``,
    oldest first) until the admin names its piece."""

    ok: Literal[True]
    pending: str
    waiting: list[str]
    revision: Revision


class EnrollRefused(msgspec.Struct, kw_only=True):
    """A tap refused (a known tag, a full value or kind): the error's ``code``, ``message``
    and ``params`` (``docs/api.md``, "Enrollment")."""

    ok: Literal[False]
    code: str
    message: str
    params: dict[str, Any]
    revision: Revision


class EnrollPush(OneOf):
    """``enroll``: an enrollment tap's outcome, or a UID bound: a piece enrolled (in its
    older shape, if any), a UID left pending, or a refusal."""

    members = (Enrolled, EnrolledPawn, EnrolledCard, EnrolledToken, PendingUid,
               EnrollRefused)


class EnrollMode(msgspec.Struct, kw_only=True):
    """An enrollment's mode: a game's kind of pieces (both null in an open ``pick``), how
    each new tag gets its piece, and the value for ``value``
    (:mod:`companion.hub.enroll_modes`)."""

    game: str | None
    kind: str | None
    how: Literal["value", "next", "pick"]
    value: PieceValueId | None


class AdminPush(msgspec.Struct, kw_only=True):
    """``admin``: the enrollment status, as ``GET /api/tags/counts`` gives it (every hosted
    game's kinds with their tags per value, the mode, the older panels' counts and modes,
    the ``revision``), with the UIDs that wait for their piece (``pending``) and the last
    ``enroll`` push of the enrollment under way (``last``)."""

    pieces: list[dict[str, Any]]
    enrolling_piece: EnrollMode | None
    counts: dict[str, int]
    capacity: dict[str, int]
    cards: dict[str, int]
    card_capacity: dict[str, int]
    tokens: dict[str, int]
    token_capacity: dict[str, int]
    enrolling: str | None
    enrolling_cards: str | None
    enrolling_tokens: int | None
    revision: Revision
    pending: list[str]
    last: EnrollPush | None


class ErrorPush(msgspec.Struct, kw_only=True):
    """``error``: a refused join, or a seat's replaced token (``retry_after`` after too
    many wrong PINs)."""

    code: str
    params: dict[str, Any]
    message: str
    retry_after: int | msgspec.UnsetType = msgspec.UNSET


class MatZonesPush(msgspec.Struct, kw_only=True):
    """``mat_zones``: a mat's zone changed; to its table's screens alone, how many tags lie
    on each of its zones now (its ``zones`` in the readers' list) and ``zones_age``, 0;
    ``events``, the table's log length once the zone's state is in: a screen that has drawn
    the views pushed before this has the view of that many events (a zone state that
    plays nothing is logged and pushes no view; one that plays moves pushed its view
    first)."""

    table: str
    reader: str
    events: int
    zones: list[int] | None
    zones_age: float | None


EVENTS: dict[str, Any] = {
    "state": StatePush, "private": PrivatePush, "alert": AlertPush, "handled": HandledPush,
    "identify": IdentifyPush, "reader_health": ReaderHealthPush,
    "readers": list[ReaderStatus], "admin": AdminPush, "enroll": EnrollPush,
    "error": ErrorPush, "mat_zones": MatZonesPush,
}
"""Each pushed event's payload type."""
