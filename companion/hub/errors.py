"""The hub's error answers: every refusal, as JSON ``{"code", "params", "message"}``.

Routes refuse by raising: a :class:`~companion.table.table.TableError` carries its own code,
status and parameters (and, for a move of a batch, the batch's ``index``), a
:class:`~companion.table.registry.RegistryError` is a 409 for a tag or a place already taken
and a 400 otherwise, and Flask's own refusals (no such route, a method the route does not
take, a body too large) get a code of the same form. Anything else is a 500
``INTERNAL_ERROR``, logged, whose body says that nothing was changed. The ``message`` is in
the request's language (:func:`.language.error_body`); a ``429 TOO_MANY_TRIES`` also carries
``Retry-After``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.hub.bodies import MAX_BODY, drain_body
from companion.hub.language import error_body
from companion.hub.pin_tries import TooManyTries
from companion.kit.errors import TableError
from companion.table.registry import RegistryError

CONFLICTS = frozenset({"DUPLICATE_UID", "DUPLICATE_PIECE", "VALUE_FULL", "KIND_FULL",
                       "DUPLICATE_PAWN", "COLOR_FULL", "CARD_FULL", "DUPLICATE_TOKEN",
                       "TOKEN_FULL"})
"""Registry codes that mean "already taken" (409); any other registry code is a 400."""


def json_error(code: str, message: str, status: int,
               params: dict[str, Any] | None = None) -> tuple[Response, int]:
    """An error answer: the JSON body (message in the request's language) and its status."""
    return jsonify(error_body(code, params or {}, message)), status


def blueprint() -> Blueprint:
    """The error handlers, for the whole app (they answer for every Blueprint's routes and
    for requests no route matched)."""
    errors = Blueprint("errors", __name__)
    errors.app_errorhandler(TableError)(table_error)
    errors.app_errorhandler(RegistryError)(registry_error)
    errors.app_errorhandler(Exception)(unexpected)
    errors.app_errorhandler(404)(not_found)
    errors.app_errorhandler(405)(bad_method)
    errors.app_errorhandler(413)(too_large)
    return errors


def table_error(exc: TableError) -> tuple[Response, int]:
    """A refusal the hub or a table raised, with its own status (and ``index`` in a batch)."""
    extra = {} if exc.index is None else {"index": exc.index}
    body = error_body(exc.code, exc.params, exc.message, **extra)
    response, status = jsonify(body), exc.status
    if isinstance(exc, TooManyTries):
        response.headers["Retry-After"] = str(exc.retry_after)
    return response, status


def registry_error(exc: RegistryError) -> tuple[Response, int]:
    """A tag the registry refused: 409 when the UID, pawn, color or card is taken, else 400."""
    return json_error(exc.code, exc.message, 409 if exc.code in CONFLICTS else 400,
                      exc.params)


def unexpected(exc: Exception) -> tuple[Response, int]:
    """Flask's refusals under their own names; any other exception is a logged 500."""
    if isinstance(exc, HTTPException):
        return json_error(exc.name.upper().replace(" ", "_"), exc.description or "",
                          exc.code or 500)
    current_app.logger.exception("unexpected error")
    return json_error("INTERNAL_ERROR", "The hub hit an unexpected error; nothing was "
                      "changed by this request.", 500)


def not_found(exc: Any) -> tuple[Response, int]:
    """``404 NOT_FOUND``: no route has this path."""
    return json_error("NOT_FOUND", f"No route {request.path}.", 404)


def bad_method(exc: Any) -> tuple[Response, int]:
    """``405 METHOD_NOT_ALLOWED``: the route does not take this method; the ``Allow``
    header lists those it takes (RFC 9110, 15.5.6)."""
    response, status = json_error("METHOD_NOT_ALLOWED",
                                  f"{request.method} is not allowed here.", 405)
    allowed = getattr(exc, "valid_methods", None)
    if allowed:
        response.headers["Allow"] = ", ".join(sorted(allowed))
    return response, status


def too_large(exc: Any) -> tuple[Response, int]:
    """``413 BODY_TOO_LARGE``: the body is over :data:`.bodies.MAX_BODY` (what is left of
    it is read and dropped first: :func:`.bodies.drain_body`)."""
    drain_body()
    return json_error("BODY_TOO_LARGE", f"The request body is over {MAX_BODY // 1024} KiB, "
                      "the most the hub reads.", 413)
