"""The API contract of a route: what the hub's OpenAPI document says about it.

Each HTTP route the hub serves, the core's and a game's (its :class:`~.parts.Routes` part's
:meth:`~.parts.Routes.operations`), is described by one :class:`Operation`: its method and
Flask rule, its body as a typed model (a ``msgspec.Struct``, whose JSON Schema the document
carries), its query parameters, the secrets it reads, and its answer. The hub builds
``GET /api/openapi.json`` from them (:mod:`companion.hub.openapi`), and a test checks that
every ``/api/`` rule of the app has its operation.

An answer is a JSON Schema (a plain dict: :func:`keys` is an object with the keys the
route always gives, typed where :func:`keys` is told their schemas), or a typed model (a
``msgspec`` type: a Struct, ``list[Struct]``) whose schema the document carries in
``components.schemas``, as the Socket.IO pushes' are. A value that takes one of several
shapes is a :class:`OneOf`. Every refusal has the hub's error shape, which the document adds
to each operation itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

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
    requests its success answer leads to (:class:`Link`). ``answer`` may also be a typed
    model (a ``msgspec`` Struct, ``list[Struct]``, a :class:`OneOf`): the document then
    refers to its schema in ``components.schemas``.
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
    answer: Any = field(default_factory=dict)
    status: int = 200
    statuses: tuple[int, ...] = ()
    media_type: str = "application/json"
    links: tuple[Link, ...] = ()


class OneOf:
    """A JSON value of one of several shapes, each a ``msgspec`` Struct: what ``msgspec``
    cannot say with a union of Structs that share no tag. Subclass it and name the
    ``members``; the subclass is then a type a Struct's field, a push or an answer may have,
    and the OpenAPI document carries it as a component of its own, ``anyOf`` its members::

        class Thing(OneOf):  # its docstring is the schema's description
            members = (ShownPiece, SecretPiece)
    """

    members: ClassVar[tuple[type, ...]] = ()
    """The shapes, each a Struct (a value is one of them)."""

    @classmethod
    def schema(cls, ref_template: str) -> dict[str, Any]:
        """This value's JSON Schema: ``anyOf`` a reference to each member's schema, found
        where ``ref_template`` (``"#/components/schemas/{name}"``) says."""
        return {"title": cls.__name__, "description": " ".join((cls.__doc__ or "").split()),
                "anyOf": [{"$ref": ref_template.format(name=m.__name__)} for m in cls.members]}


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


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema``, or null: a key that is always there, with no value at times."""
    return {"anyOf": [schema, {"type": "null"}]}


SEAT_QUERY = Query("player", {"type": "integer", "minimum": 0},
                   "the seat (0 is the first player)", True)
"""The ``?player=`` of a seat's reading (a game's helpers): a seat number."""
