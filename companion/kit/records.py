"""What every game's records share: the error that names a bad line, and reading a line.

A game record is JSON Lines: a header, then one move per line. Each game writes and reads
its own (Popcorn's ``docs/game-record.md``, B Movies' ``docs/b-movies.md``); both name a bad
line the same way, with :class:`RecordError`, and hand a record read and replayed to the
hub's archive as a :class:`RecordedGame`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

StateT = TypeVar("StateT")
"""A game's state class (the record's replayed state)."""
MoveT = TypeVar("MoveT")
"""A game's move class."""


class RecordError(ValueError):
    """A record that cannot be read or replayed: ``line`` is its 1-based line number and
    ``code`` a violation code (or ``BAD_RECORD`` for a malformed line); every game's records
    raise it."""

    def __init__(self, line: int, message: str, code: str = "BAD_RECORD") -> None:
        super().__init__(f"line {line}: {code}: {message}")
        self.line, self.code, self.message = line, code, message


def parse_line(line: str, number: int) -> Any:
    """One line of a record as JSON, or :class:`RecordError` naming its line (every game's
    records read their lines this way)."""
    try:
        return json.loads(line)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise RecordError(number, f"not a JSON object ({exc})") from exc


@dataclass(frozen=True)
class RecordedGame(Generic[StateT, MoveT]):
    """A game record read and replayed by its game (:meth:`Records.read`): who played
    (``names`` in seat order), who started, the table ``options`` it was played with (B Movies'
    variant), every move in the current form (an older record's moves made current), and the
    ``state`` they lead to. The game writes it out again with :meth:`Records.text`."""

    names: tuple[str, ...]
    first_player: int
    options: dict[str, Any]
    moves: list[MoveT]
    state: StateT
