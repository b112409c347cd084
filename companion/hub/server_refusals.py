"""The web server's own refusals, answered as the hub's API answers: JSON with a code.

gunicorn refuses some requests before the app sees them: a request line longer than its
limit (``414``), headers too large (``431``), a request it cannot parse (``400``). It writes
them as an HTML page. Every other refusal of the hub is an :class:`~.models.ErrorBody`
(``code``, ``params``, ``message``), which the OpenAPI document promises for every answer
that is not a success; so :func:`install` has the serving process write these ones so too.
"""

from __future__ import annotations

import json
import re
import socket
from typing import Any

CODES: dict[int, tuple[str, str]] = {
    400: ("BAD_REQUEST", "The request could not be read as HTTP: {detail}."),
    403: ("FORBIDDEN", "The request was refused before it reached the hub: {detail}."),
    414: ("URI_TOO_LONG", "The request's address is too long ({detail}): shorten its query."),
    417: ("EXPECTATION_FAILED", "The request's Expect header cannot be met: {detail}."),
    431: ("HEADERS_TOO_LARGE", "The request's headers are too large: {detail}."),
    500: ("SERVER_ERROR", "The server failed on this request; the hub keeps running."),
    501: ("NOT_IMPLEMENTED", "The server cannot read this request: {detail}."),
}
"""Per status the web server refuses with: the stable code and the English sentence (the
server refuses before it has read the request's language)."""


def body(status: int, detail: str) -> dict[str, Any]:
    """The JSON body of a refusal with ``status``; ``detail`` is the server's own words."""
    code, sentence = CODES.get(status, CODES[400])
    detail = re.sub(r"\s+", " ", detail).strip()[:200] or "no detail"
    return {"code": code, "params": {"status": status}, "message": sentence.format(detail=detail)}


def write(sock: socket.socket, status: int, reason: str, detail: str) -> None:
    """Send the refusal on ``sock`` and close the exchange (gunicorn's ``write_error``)."""
    from gunicorn import util

    payload = json.dumps(body(status, detail)).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + payload)


def install() -> None:
    """Make gunicorn write its refusals with :func:`write` in this process (the worker's:
    gunicorn looks ``util.write_error`` up at each refusal)."""
    from gunicorn import util

    util.write_error = write
