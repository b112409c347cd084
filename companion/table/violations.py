"""The rules' refusals as the API answers them: one move's, and a batch's that names the
move refused (its index), so that a screen can say which of its moves the rules refused."""

from __future__ import annotations

from typing import Any

from companion.kit.errors import TableError


class BatchViolation(Exception):
    """A batch of moves refused by the rules: the violation of its first bad move, and where."""

    def __init__(self, violation: Any, index: int, size: int) -> None:
        super().__init__(f"move {index}: {violation}")
        self.violation, self.index, self.size = violation, index, size

    def error(self) -> TableError:
        """The API's error: the violation's code, a message naming the move, and its index."""
        base = violation_error(self.violation)
        message = (f"Move {self.index + 1} of {self.size} was refused, so none of the "
                   f"{self.size} was made: {base.message}")
        params = {**base.params, "index": self.index, "size": self.size}
        return TableError(base.code, message, base.status, self.index, params)


def violation_error(exc: Any) -> TableError:
    """A rule violation as an API error (409: it conflicts with the game's state)."""
    status = 400 if exc.code in ("BAD_MOVE", "UNKNOWN_MOVE") else 409
    return TableError(exc.code, exc.message, status, params=exc.params)
