"""What the hub tells browsers, and what it refuses from other sites' pages.

Every response carries a Content Security Policy that lets a page load scripts, styles,
images and connections from the hub itself only, and never be framed by another page
(clickjacking), plus ``X-Content-Type-Options: nosniff``. The dashboard has no inline
script or style attribute and no CDN, so it needs little more: ``connect-src`` names the
hub's own ``ws:``/``wss:`` address beside ``'self'`` for the Socket.IO WebSocket, as older
browsers do not count a WebSocket to the page's own host as ``'self'``, and ``img-src``
allows ``data:`` for the page's empty icon (``<link rel="icon" href="data:,">``, which
spares a request for ``/favicon.ico``).

A state-changing call (``POST``, ``PUT``, ``DELETE``, ``PATCH``) whose ``Origin`` header
names another site is refused with ``403 BAD_ORIGIN``: a page elsewhere cannot make a
visitor's browser act on the hub. Calls without an ``Origin``, such as curl and scripts,
are allowed.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import Flask, Response, request

from companion.kit.errors import TableError

STATE_CHANGING = frozenset({"POST", "PUT", "DELETE", "PATCH"})
"""Methods refused from another site's page."""

HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$")
"""A ``Host`` header that is a plain host name or address, with an optional port."""


def protect(app: Flask) -> None:
    """Add the headers to every response and the origin check to every request."""
    app.before_request(refuse_other_origins)
    app.after_request(add_headers)


def content_security_policy(host: str) -> str:
    """The policy for a page served as ``host``."""
    sockets = f" ws://{host} wss://{host}" if HOST.match(host) else ""
    return (f"default-src 'self'; connect-src 'self'{sockets}; img-src 'self' data:; "
            "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


def add_headers(response: Response) -> Response:
    """The security headers of every response."""
    response.headers["Content-Security-Policy"] = content_security_policy(request.host)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def refuse_other_origins() -> None:
    """``403 BAD_ORIGIN`` for a state-changing request sent by a page of another site."""
    origin = request.headers.get("Origin")
    if request.method not in STATE_CHANGING or origin is None:
        return
    if not same_origin(origin, request.scheme, request.host):
        raise TableError("BAD_ORIGIN", f"A page of {origin} may not change this hub; use the "
                         "hub's own pages.", 403)


def same_origin(origin: str, scheme: str, host: str) -> bool:
    """Whether an ``Origin`` header names the hub as the request reached it."""
    parts = urlsplit(origin)
    return parts.scheme == scheme and parts.netloc.lower() == host.lower()
