"""The hub's OpenAPI 3.1 document, built from the code, served at ``GET /api/openapi.json``.

Each route's contract is an :class:`~companion.kit.contract.Operation`: the core's are
:mod:`.operations`, a game's come from its routes part
(:meth:`~companion.kit.parts.Routes.operations`), so the core never names a game. Request
bodies are typed models (:mod:`.models`, ``msgspec`` Structs) whose JSON Schemas go into
``components.schemas``; every operation's ``default`` answer is the hub's refusal,
:class:`~.models.ErrorBody`. The three secrets are ``components.securitySchemes``
(``X-Table-Pin``, ``X-Admin-Pin``, ``X-Player-Token``) and every operation takes ``?lang=``.
The Socket.IO pushes' schemas are ``components.schemas`` too, named by event in
``x-socketio-events`` (:mod:`.push_models`), and so are the answers given as typed models
rather than JSON Schemas (``GET /api/readers``'s is the ``readers`` push's); a value of
several shapes (a :class:`~companion.kit.contract.OneOf`) is a component ``anyOf`` its
members'.

An ``/api/`` rule of the app that no operation describes (a game's route left undescribed)
is still listed, with its method and path alone and ``x-undescribed: true``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import msgspec
from flask import Blueprint, Flask, current_app, jsonify

from companion import __version__
from companion.hub import models, operations, push_models
from companion.hub.hub import Hub
from companion.kit.contract import ADMIN_PIN, PLAYER_TOKEN, TABLE_PIN, OneOf, Operation

REF = "#/components/schemas/{name}"
"""Where a model's schema is in the document."""

SECURITY = {
    TABLE_PIN: ("X-Table-Pin", "the table's PIN (or \"pin\" in the body)"),
    ADMIN_PIN: ("X-Admin-Pin", "the hub's admin PIN, printed by serve (or \"admin_pin\")"),
    PLAYER_TOKEN: ("X-Player-Token", "a seat's token (or ?token=, or \"token\" in a body)"),
}
"""Each secret's header and what it is."""

TAGS = {"hub": "The hub's own facts", "tables": "Tables, moves and their readings",
        "phones": "Players' phones", "tags": "The tag registry and enrollment",
        "archive": "Finished games: the archive, its replays and analyses"}
"""The core's groups of operations (a game adds its own)."""

_PARAM = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")


def all_operations(hub: Hub) -> list[Operation]:
    """The core's operations, then each hosted game's; a correction's body with each hosted
    game's model of its own fields (:meth:`~companion.kit.parts.Corrections.model`)."""
    fixes = tuple(filter(None, (game.corrections.model() for game in hub.games.values()
                                if game.corrections is not None)))
    found = [replace(op, game_bodies=fixes) if op.body is models.CorrectBody else op
             for op in operations.operations()]
    for game in hub.games.values():
        if game.routes is not None:
            found.extend(game.routes.operations())
    return found


def document(app: Flask, described: list[Operation],
             games: list[str] | None = None) -> dict[str, Any]:
    """The OpenAPI document of ``app``'s ``/api/`` routes, ``described`` by operations; a
    table's ``game`` is one of ``games`` (the hosted games' ids), when given."""
    bodies = [body for op in described for body in (op.body, *op.game_bodies)
              if body is not None]
    answers = [op.answer for op in described if not isinstance(op.answer, dict)]
    pushes = push_models.EVENTS
    kinds = list(dict.fromkeys([models.ErrorBody, *bodies, *pushes.values(), *answers]))
    ref, schemas = components(kinds)
    paths: dict[str, dict[str, Any]] = {}
    for op in [*described, *_undescribed(app, described)]:
        path, parameters = _path(op.rule)
        paths.setdefault(path, {})[op.method.lower()] = _operation(op, parameters, ref)
    if games:
        schemas[models.CreateTable.__name__]["properties"]["game"]["enum"] = games
    tags = {**TAGS, **{op.tag: f"{op.tag}'s own routes" for op in described
                       if op.tag not in TAGS}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Popcorn Companion hub", "version": __version__,
                 "description": "The hub's HTTP API; docs/api.md tells each route in prose."},
        "tags": [{"name": name, "description": text} for name, text in tags.items()],
        "paths": dict(sorted(paths.items())),
        "components": {
            "schemas": schemas,
            "securitySchemes": {name: {"type": "apiKey", "in": "header", "name": header,
                                       "description": text}
                                for name, (header, text) in SECURITY.items()},
        },
        "x-socketio-events": {event: ref[kind] for event, kind in pushes.items()},
    }


def components(kinds: list[Any]) -> tuple[dict[Any, dict[str, Any]], dict[str, Any]]:
    """The schemas of typed models (``msgspec`` types, :class:`OneOf` values among them,
    however deep): each kind's schema (mostly a reference), and ``components.schemas``,
    with a component for each :class:`OneOf` met and one for each of its members."""
    unions: dict[type[OneOf], None] = {}
    while True:
        met: dict[type[OneOf], None] = {}
        members = [m for union in unions for m in union.members]
        refs, schemas = msgspec.json.schema_components(
            [*kinds, *members], schema_hook=_hook(met), ref_template=REF)
        if met.keys() <= unions.keys():  # a new union's members may hold another
            break
        unions.update(met)
    schemas.update({union.__name__: union.schema(REF) for union in unions})
    return dict(zip(kinds, refs[:len(kinds)], strict=True)), dict(sorted(schemas.items()))


def _hook(met: dict[type[OneOf], None]) -> Any:
    """msgspec's ``schema_hook``: a :class:`OneOf` is a reference to its component (and
    noted in ``met``); any other type msgspec does not know is an error."""
    def hook(kind: Any) -> dict[str, Any]:
        if isinstance(kind, type) and issubclass(kind, OneOf):
            met[kind] = None
            return {"$ref": REF.format(name=kind.__name__)}
        raise NotImplementedError
    return hook


def blueprint(hub: Hub) -> Blueprint:
    """``GET /api/openapi.json``: the document, built on its first request and kept."""
    bp = Blueprint("openapi", __name__)

    @bp.get("/api/openapi.json")
    def openapi_json():
        built = current_app.extensions.get("openapi")
        if built is None:
            built = document(current_app, all_operations(hub), list(hub.games))
            current_app.extensions["openapi"] = built
        return jsonify(built)

    return bp


def api_rules(app: Flask) -> set[tuple[str, str]]:
    """Every ``(method, rule)`` of ``app`` under ``/api/`` (HEAD and OPTIONS aside)."""
    return {(method, rule.rule) for rule in app.url_map.iter_rules()
            if rule.rule.startswith("/api/")
            for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}}


def _undescribed(app: Flask, described: list[Operation]) -> list[Operation]:
    known = {(op.method, op.rule) for op in described}
    return [Operation(method, rule, "(undescribed)", "undescribed", answer={})
            for method, rule in sorted(api_rules(app) - known)]


def operation_id(method: str, rule: str) -> str:
    """The ``operationId`` of the operation at Flask ``rule`` under ``method``: the method
    and the OpenAPI path (``POST /api/tables/{table_id}/moves``), which links name."""
    return f"{method.upper()} {_path(rule)[0]}"


def _links(op: Operation) -> dict[str, Any]:
    """The OpenAPI links of ``op``'s success answer."""
    out = {}
    for link in op.links:
        target: dict[str, Any] = {"operationId": operation_id(link.method, link.rule)}
        if link.parameters:
            target["parameters"] = link.parameters
        if link.body is not None:  # the whole body, not fields to mix into another
            target["requestBody"] = link.body
            target["x-schemathesis"] = {"merge_body": False}
        out[link.name] = target
    return out


def _path(rule: str) -> tuple[str, list[dict[str, Any]]]:
    """A Flask rule as an OpenAPI path, and its path parameters."""
    parameters = []
    for converter, name in _PARAM.findall(rule):
        schema: dict[str, Any] = ({"type": "integer", "minimum": 0} if converter == "int"
                                  else {"type": "string", "pattern": "^[^/]+$"})
        parameters.append({"name": name, "in": "path", "required": True, "schema": schema})
    return _PARAM.sub(r"{\2}", rule), parameters


def _operation(op: Operation, parameters: list[dict[str, Any]],
               ref: dict[Any, dict[str, Any]]) -> dict[str, Any]:
    query = [{"name": q.name, "in": "query", "required": q.required, "schema": q.schema,
              **({"description": q.description} if q.description else {})} for q in op.query]
    if PLAYER_TOKEN in op.secrets:
        query.append({"name": "token", "in": "query", "required": False,
                      "schema": {"type": "string"}, "description": "a seat's token"})
    query.append({"name": "lang", "in": "query", "required": False,
                  "schema": {"type": "string"}, "description": "the language of messages"})
    schema = op.answer if isinstance(op.answer, dict) else ref[op.answer]
    answer = {"description": op.summary, "content": {op.media_type: {"schema": schema}}}
    out: dict[str, Any] = {
        "summary": op.summary, "tags": [op.tag],
        "operationId": operation_id(op.method, op.rule),
        "parameters": [*parameters, *query],
        "responses": {
            **{str(status): answer for status in op.statuses},
            str(op.status): {**answer, **({"links": _links(op)} if op.links else {})},
            "default": {"description": "A refusal: the hub's error, in the request's language",
                        "content": {"application/json": {"schema": ref[models.ErrorBody]}}},
        },
    }
    if op.body is not None:
        schema = ref[op.body] if not op.game_bodies else {
            "allOf": [ref[op.body], {"anyOf": [ref[body] for body in op.game_bodies]}]}
        out["requestBody"] = {"required": not op.body_optional,
                              "content": {"application/json": {"schema": schema}}}
    if op.secrets:
        out["security"] = [{name: []} for name in op.secrets] + (
            [{}] if op.secret_optional else [])
    if op.tag == "undescribed":
        out["x-undescribed"] = True
    return out
