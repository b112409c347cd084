"""The API contract of a route: what the hub's OpenAPI document says about it.

Each HTTP route the hub serves, the core's and a game's (its :class:`~.parts.Routes` part's
:meth:`~.parts.Routes.operations`), is described by one :class:`Operation`: its method and
Flask rule, its body as a typed model (a ``msgspec.Struct``, whose JSON Schema the document
carries), its query parameters, the secrets it reads, and its answer. The hub builds
``GET /api/openapi.json`` from them (:mod:`companion.hub.openapi`), and a test checks that
every ``/api/`` rule of the app has its operation.

Answers are JSON Schemas (plain dicts), often loose: :func:`keys` is an object with the
keys the route always gives. Every refusal has the hub's error shape, which the document
adds to each operation itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TABLE_PIN = "tablePin"
"""The secret of a table: header ``X-Table-Pin`` (or ``"pin"`` in the body)."""

ADMIN_PIN = "adminPin"
"""The hub's admin PIN: header ``X-Admin-Pin`` (or ``"admin_pin"`` in the body)."""

PLAYER_TOKEN = "playerToken"
"""A seat's token: header ``X-Player-Token`` (or ``?token=``, or ``"token"`` in a body)."""


@dataclass(frozen=True)
class Query:
    """One query parameter: its name, its JSON Schema, whether it is needed, what it is."""

    name: str
    schema: dict[str, Any]
    description: str = ""
    required: bool = False


@dataclass(frozen=True)
class Link:
    """A way from one operation's answer to a next request: an OpenAPI link.

    ``method`` and ``rule`` name the next operation; ``parameters`` give its path and
    query values as runtime expressions (``"$response.body#/id"``: the key ``id`` of this
    answer; ``"$request.path.table_id"``: this request's own), or constants; ``body``, if
    given, is the next request's body, whose string values may be expressions too. A client
    (or Schemathesis's stateful run) follows them to chain calls: create a table, read it,
    play the legal move its view offers, undo it.
    """

    name: str
    method: str
    rule: str
    parameters: dict[str, Any] = field(default_factory=dict)
    body: Any = None


@dataclass(frozen=True)
class Operation:
    """One route under one method, as the OpenAPI document describes it.

    ``rule`` is the Flask rule (``/api/tables/<table_id>/moves``); ``body`` the request
    body's type (None: the route reads no body), ``body_optional`` when an empty body is
    fine too, ``game_bodies`` the models of the fields a table's game adds to it, one per
    hosted game (a correction's: the body is ``body`` and one of them); ``secrets`` the
    secrets any of which the route may ask for (:data:`TABLE_PIN`, ...),
    ``secret_optional`` when some requests need none of them; ``answer`` the JSON
    Schema of the success answer, of status ``status`` and media type ``media_type``;
    ``statuses`` the other success statuses the same answer may have; ``links`` the
    requests its success answer leads to (:class:`Link`).
    """

    method: str
    rule: str
    summary: str
    tag: str
    body: Any = None
    body_optional: bool = False
    game_bodies: tuple[Any, ...] = ()
    query: tuple[Query, ...] = ()
    secrets: tuple[str, ...] = ()
    secret_optional: bool = False
    answer: dict[str, Any] = field(default_factory=dict)
    status: int = 200
    statuses: tuple[int, ...] = ()
    media_type: str = "application/json"
    links: tuple[Link, ...] = ()


def keys(*required: str, **properties: dict[str, Any]) -> dict[str, Any]:
    """A JSON object's schema that names the keys it always has (``required``), and the
    schemas of some of them (``properties``); other keys may come too."""
    schema: dict[str, Any] = {"type": "object", "required": list(required)}
    if properties:
        schema["properties"] = properties
    return schema


def array_of(items: dict[str, Any]) -> dict[str, Any]:
    """A JSON array's schema, each item ``items``."""
    return {"type": "array", "items": items}


SEAT_QUERY = Query("player", {"type": "integer", "minimum": 0},
                   "the seat (0 is the first player)", True)
"""The ``?player=`` of a seat's reading (a game's helpers): a seat number."""
