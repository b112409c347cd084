"""Request bodies: one JSON object, of bounded size and bounded nesting.

A hub on a Raspberry Pi must not be run out of memory, or into a crash, by a client on the
Wi-Fi. Flask refuses a body over :data:`MAX_BODY` bytes with 413 before reading it
(``MAX_CONTENT_LENGTH``; a chunked body is cut off as it arrives), and :func:`json_object`
refuses JSON nested deeper than :data:`MAX_DEPTH` with ``400 BAD_JSON``, where the
standard parser would otherwise hit Python's recursion limit.
"""

from __future__ import annotations

import json
from typing import Any

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
