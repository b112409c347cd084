"""The refusal of a request or a table input: a stable code, a sentence, an HTTP status.

Tables, the hub's routes and every game raise :class:`TableError`; the hub answers it as
``{"code", "params", "message"}`` in the asker's language (see :mod:`companion.i18n`), and
nothing has changed.
"""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A refused table request: a stable ``code``, an English sentence, the HTTP status to use,
    and ``params``, the facts the sentence names (so a client renders it in its own language:
    see :mod:`companion.i18n`)."""

    def __init__(self, code: str, message: str, status: int = 400,
                 index: int | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.status = code, message, status
        self.index = index
        """In a refused batch of moves, the position (from 0) of the first bad move."""
        self.params: dict[str, Any] = dict(params or {})

    def to_dict(self) -> dict[str, Any]:
        """The API's error body, ``{"code", "params", "message"}`` (with ``index`` when a
        batch's move was refused)."""
        body: dict[str, Any] = {"code": self.code, "params": dict(self.params),
                                "message": self.message}
        if self.index is not None:
            body["index"] = self.index
        return body
