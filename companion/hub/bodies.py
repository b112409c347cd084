"""Request bodies: one JSON object, of bounded size and bounded nesting, decoded by its model.

A hub on a Raspberry Pi must not be run out of memory, or into a crash, by a client on the
Wi-Fi. Flask refuses a body over :data:`MAX_BODY` bytes with 413 before reading it
(``MAX_CONTENT_LENGTH``; a chunked body is cut off as it arrives), and :func:`json_object`
refuses JSON nested deeper than :data:`MAX_DEPTH` with ``400 BAD_JSON``, where the
standard parser would otherwise hit Python's recursion limit.

Each route then decodes the object with its body's typed model (:mod:`.models`, the same
``msgspec`` Structs the OpenAPI document describes): :func:`decode` checks every field's
type, strictly (a string is no bool), and that the required ones are there, and refuses a
bad one as a :class:`TableError` of the route's own code (``BAD_MOVE`` for a move,
``BAD_REQUEST`` for most) whose ``params`` name the field (:func:`field_error`). Keys the
model does not name are let through, as before. A route reads the object first
(:func:`json_body`) and decodes it where it checked its fields before: after the table's
lookup and the secret, which reads the object's ``pin`` (``docs/api.md`` orders the checks).
What a type cannot say (a seat in range, names that differ, a game's own move) the route
and the table still check.

The secrets (``pin``, ``admin_pin``, ``token``) are never decoded here: :mod:`.auth` reads
them where it checks them, headers first, and a wrong or malformed one is its 403.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec
from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from companion.kit.errors import TableError

MAX_BODY = 256 * 1024
"""The largest request body, in bytes. The largest legitimate ones are a tag-registry import
(about 4 KB for the 60 pawns of the box) and a game record (about 33 KB for a 4-player game);
this leaves room for either several times over."""

MAX_DEPTH = 20
"""The deepest nesting of arrays and objects a body may have. A tag-registry import, the
deepest legitimate body, nests 4 deep (``{"registry": {"tags": [{...}]}}``)."""


def json_object(*, optional: bool = False) -> dict[str, Any] | None:
    """The request's body as a JSON object, or a ``400 BAD_JSON`` saying what is wrong.

    With ``optional``, an empty body gives None (routes whose body only may carry a PIN);
    a body that is there must still be a JSON object.
    """
    data = request.get_data(cache=True)  # over MAX_BODY: 413 before anything is read
    if request.content_length is None and len(data) >= MAX_BODY:
        raise RequestEntityTooLarge()  # a chunked body, cut off at the limit as it came
    if optional and not data.strip():
        return None
    if not request.is_json:
        raise _bad("The request body must be a JSON object sent as application/json.")
    try:
        value = json.loads(data)
    except RecursionError:
        raise _too_deep() from None
    except ValueError:
        raise _bad("The request body must be a JSON object; this is not valid JSON.") from None
    if not isinstance(value, dict):
        raise _bad("The request body must be a JSON object.")
    if nesting_exceeds(value, MAX_DEPTH):
        raise _too_deep()
    return value


def json_body() -> dict[str, Any]:
    """The request's body as a JSON object, for a route that needs one (a missing or empty
    body is ``400 BAD_JSON``, as with :func:`json_object`)."""
    body = json_object()
    assert body is not None
    return body


T = TypeVar("T")

SECRETS = frozenset({"pin", "admin_pin", "token"})
"""The body keys :mod:`.auth` reads and checks itself (see the module's text)."""


def decode(model: type[T], body: Mapping[str, Any], *, code: str = "BAD_REQUEST",
           codes: Mapping[str, str] | None = None, secrets: frozenset[str] = SECRETS) -> T:
    """``body`` (a JSON object, read by :func:`json_object`) as an instance of ``model``,
    its ``secrets`` left out (:data:`SECRETS`; none for a game's own fields, where
    ``token`` may be a popcorn token's id); a field of the wrong type, or a required one
    missing, is a 400 of ``code`` naming it (``codes``: another code for some top-level
    fields, such as ``{"player": "BAD_SEAT"}``; see :func:`field_error`)."""
    fields = {key: value for key, value in body.items() if key not in secrets}
    try:
        return msgspec.convert(fields, model)
    except msgspec.ValidationError as exc:
        raise field_error(str(exc), code, codes or {}) from None


_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$\.?(?P<path>[^`]*)`)?$", re.DOTALL)
_MISSING = re.compile(r"Object missing required field `(?P<name>[^`]*)`$")
_WRONG = re.compile(r"Expected `(?P<expected>[^`]*)`(?:, got `(?P<got>[^`]*)`)?(?P<rule>.*)$")

TYPE_WORDS = {"bool": "true or false", "int": "an integer", "float": "a number",
              "str": "a string", "array": "a list", "object": "a JSON object", "null": "null"}
"""msgspec's names of the JSON types, as an English sentence says them."""
GOT_WORDS = {**TYPE_WORDS, "bool": "a boolean"}
"""The same, for the value a request sent: "not a boolean"."""


def field_error(text: str, code: str, codes: Mapping[str, str] | None = None) -> TableError:
    """The refusal of a body msgspec refused with ``text``: a 400 of ``code`` (or of the one
    ``codes`` gives its top-level field) whose ``params`` are :func:`field_problem`'s."""
    params, message = field_problem(text)
    top = re.split(r"[.\[]", params["field"], maxsplit=1)[0]
    return TableError((codes or {}).get(top, code), message, 400, params=params)


def field_problem(text: str) -> tuple[dict[str, Any], str]:
    """msgspec's sentence as a refusal's ``params`` and English message. ``params`` are
    ``field``, the field's path (``forced``, ``players[1]``, ``registry.pieces[0].uid``),
    and ``problem``: ``missing``; ``type``, with the ``expected`` type and the one it ``got``
    (msgspec's names: ``bool``, ``int``, ``str``, ``array``, ``object``, ``null``, a union
    as ``int | null``); or ``value``, a value outside the type's bounds, with what was
    ``expected`` (``array of length <= 64``)."""
    at = _AT.match(text)
    assert at is not None  # the pattern takes any text
    what, path = at["what"], at["path"] or ""
    missing = _MISSING.match(what)
    if missing:
        field = ".".join(part for part in (path, missing["name"]) if part)
        return {"field": field, "problem": "missing"}, f'The request needs the field "{field}".'
    wrong = _WRONG.match(what)
    if wrong is None:  # a sentence of another form: kept as it is
        return {"field": path, "problem": "value", "expected": what}, f'"{path}": {what}.'
    expected, got, rule = wrong["expected"], wrong["got"], wrong["rule"]
    if got:
        return ({"field": path, "problem": "type", "expected": expected, "got": got},
                f'"{path}" must be {_words(expected)}, not {_words(got, GOT_WORDS)}.')
    return ({"field": path, "problem": "value", "expected": expected + rule},
            f'"{path}" must be {_words(expected)}{rule}.')


def _words(types: str, words: Mapping[str, str] = TYPE_WORDS) -> str:
    """msgspec's ``int | null`` as English: "an integer or null"."""
    return " or ".join(words.get(name, name) for name in types.split(" | "))


DRAIN_LIMIT = 16 * 1024 * 1024
"""How much of a refused body the hub still reads, and drops, before it answers 413."""


def drain_body() -> None:
    """Read and drop what is left of a refused body (up to :data:`DRAIN_LIMIT`), so that a
    client still sending it gets the 413 instead of a connection closed under its feet
    (the production server closes a connection whose body was left unread). A body even
    larger than that is cut off."""
    stream = request.environ.get("wsgi.input")
    left = DRAIN_LIMIT
    while stream is not None and left > 0:
        chunk = stream.read(min(64 * 1024, left))
        if not chunk:
            return
        left -= len(chunk)


def nesting_exceeds(value: Any, limit: int) -> bool:
    """Whether parsed JSON nests arrays and objects more than ``limit`` deep (a walk with a
    stack of its own, so no depth can hit the recursion limit)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, dict | list))
    return False


def _bad(message: str) -> TableError:
    return TableError("BAD_JSON", message, 400)


def _too_deep() -> TableError:
    return _bad(f"The request body nests arrays and objects more than {MAX_DEPTH} deep.")
