"""A small JSON-over-HTTP client of the hub's REST API, on the standard library alone.

Tests, benchmarks and the games' remote players use it to talk to a hub in another process
as a tablet does: :func:`call` sends a request and decodes the answer, and a refusal comes
back as :class:`HttpError` with the hub's stable ``code``.
"""

from __future__ import annotations

import json
import urllib.error
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
