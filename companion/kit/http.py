"""A small JSON-over-HTTP client of the hub's REST API, on the standard library alone.

Tests, benchmarks and the games' remote players use it to talk to a hub in another process
as a tablet does: :func:`call` sends a request and decodes the answer, and a refusal comes
back as :class:`HttpError` with the hub's stable ``code``. :func:`call` opens a connection
per request; a :class:`Session` keeps one open between requests, as a browser does (the
hub's server keeps an idle connection for :data:`companion.hub.server.KEEPALIVE` seconds).
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any


class HttpError(Exception):
    """A non-2xx answer: ``status`` and the hub's ``code`` and ``message``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


def call(url: str, method: str = "GET", body: Any = None,
         headers: dict[str, str] | None = None, timeout: float = 10) -> Any:
    """One request: decoded JSON (text for the record); :class:`HttpError` on a refusal."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read().decode()
            is_json = response.headers.get_content_type() == "application/json"
    except urllib.error.HTTPError as exc:
        try:
            err = json.loads(exc.read().decode())
        except ValueError:
            err = {"code": "HTTP", "message": exc.reason}
        raise HttpError(exc.code, err.get("code", "HTTP"), err.get("message", "")) from None
    return json.loads(text) if is_json else text


class Session:
    """Requests over one kept-alive HTTP/1.1 connection, for one thread at a time: what a
    tablet's browser does, and what the benches' players do to load the hub as tablets
    would (a new connection per request costs both sides more than the request).

    >>> hub = Session()                                        # doctest: +SKIP
    >>> hub.call("http://127.0.0.1:8000/api/health")           # doctest: +SKIP
    {'ok': True, ...}

    :meth:`call` takes :func:`call`'s arguments. A connection the server closed while idle
    (its keep-alive ran out, or it restarted) is noticed on the next request, which is sent
    once more on a new connection: the server had closed it before reading that request.
    A server that dies in the middle of a request could have played it, and would then
    see it twice: where a hub may be killed (the soak), use :func:`call`, which never
    resends.
    """

    def __init__(self) -> None:
        self._conn: http.client.HTTPConnection | None = None
        self._where: tuple[str, int | None] | None = None

    def call(self, url: str, method: str = "GET", body: Any = None,
             headers: dict[str, str] | None = None, timeout: float = 10) -> Any:
        """One request on the kept connection: decoded JSON (text for the record);
        :class:`HttpError` on a refusal."""
        parts = urllib.parse.urlsplit(url)
        where = (parts.hostname or "127.0.0.1", parts.port)
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json", **(headers or {})}
        if where != self._where:
            self.close()
        for again in (False, True):
            fresh = self._conn is None
            if self._conn is None:
                self._conn = http.client.HTTPConnection(*where, timeout=timeout)
                self._where = where
            try:
                self._conn.request(method, target, body=data, headers=sent)
                response = self._conn.getresponse()
                text = response.read().decode()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if fresh or again:
                    raise
                continue
            if response.will_close:
                self.close()
            return _answer(response.status, response.getheader("Content-Type", ""), text,
                           response.reason)
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        """Close the kept connection (the next call opens another)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _answer(status: int, content_type: str, text: str, reason: str) -> Any:
    """A response's decoded body, or :class:`HttpError` for a status of 400 and above."""
    is_json = content_type.split(";")[0].strip() == "application/json"
    if status >= 400:
        try:
            err = json.loads(text)
        except ValueError:
            err = {"code": "HTTP", "message": reason}
        raise HttpError(status, err.get("code", "HTTP"), err.get("message", ""))
    return json.loads(text) if is_json else text
