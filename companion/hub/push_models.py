"""The typed models of the Socket.IO events the hub pushes (``msgspec`` Structs).

The OpenAPI document carries their JSON Schemas in ``components.schemas`` and names them by
event in ``x-socketio-events`` (:mod:`.openapi`); ``docs/api.md`` (Socket.IO) tells when each
is sent. Views are the games' own JSON, so they are objects here; a push may carry more keys
than a model names.
"""

from __future__ import annotations

from typing import Any

import msgspec


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


class IdentifyPush(msgspec.Struct, kw_only=True):
    """``identify``: what a tap the table waited for names (null for an unknown tag)."""

    table: str
    player: int | None
    thing: Any


class ReaderStatus(msgspec.Struct, kw_only=True):
    """One reader's entry of ``GET /api/readers`` and of the ``readers`` push."""

    reader: str
    online: bool
    table: str | None
    seat: int | None


class ReaderHealthPush(msgspec.Struct, kw_only=True):
    """``reader_health``: a table's reader has new problems."""

    table: str
    reader: str
    seat: int | None
    problems: list[str]
    status: ReaderStatus


class AdminPush(msgspec.Struct, kw_only=True):
    """``admin``: the tag counts, the pending UIDs and the last enrollment push."""

    counts: dict[str, Any]
    pending: list[str]
    last: dict[str, Any] | None


class EnrollPush(msgspec.Struct, kw_only=True):
    """``enroll``: an enrollment tap's outcome (``ok`` false carries the error's fields)."""

    ok: bool


class ErrorPush(msgspec.Struct, kw_only=True):
    """``error``: a refused join, or a seat's replaced token (``retry_after`` after too
    many wrong PINs)."""

    code: str
    params: dict[str, Any]
    message: str
    retry_after: int | msgspec.UnsetType = msgspec.UNSET


EVENTS: dict[str, Any] = {
    "state": StatePush, "private": PrivatePush, "alert": AlertPush, "handled": HandledPush,
    "identify": IdentifyPush, "reader_health": ReaderHealthPush,
    "readers": list[ReaderStatus], "admin": AdminPush, "enroll": EnrollPush,
    "error": ErrorPush,
}
"""Each pushed event's payload type."""
