"""Game records: a header line, then one move or chance outcome per line (JSON Lines).

The format is described in ``docs/game-record.md``. :func:`dumps_record` writes the
canonical text, and :func:`loads_record` reads it back, so a canonical record
round-trips byte for byte. :func:`replay` re-runs a record through the engine and stops
at the first illegal move, naming its line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.engine.catalog import Catalog
from companion.engine.moves import Move, move_from_dict
from companion.engine.setup import new_game
from companion.engine.state import GameState
from companion.engine.violations import Violation

FORMAT = "popcorn-record"
"""The ``format`` value of a record's header line."""
VERSION = 1
"""The record format version this code writes and reads."""


class RecordError(ValueError):
    """A record that cannot be read: ``line`` is its 1-based line number."""

    def __init__(self, line: int, message: str, code: str = "BAD_RECORD") -> None:
        super().__init__(f"line {line}: {code}: {message}")
        self.line, self.code, self.message = line, code, message


@dataclass
class Record:
    """A game as written down: who played, who started, and every move in order."""

    names: tuple[str, ...]
    first_player: int
    moves: list[Move]
    lines: list[int] | None = None
    """The 1-based line number of each move in the text it was read from."""

    def line_of(self, index: int) -> int:
        """The line number of move ``index`` (as written canonically when not read)."""
        return self.lines[index] if self.lines else index + 2


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))


def header(names: Sequence[str], first_player: int) -> dict[str, Any]:
    """The first line of a record."""
    return {"format": FORMAT, "version": VERSION, "players": list(names),
            "first_player": first_player}


def dumps_record(record: Record) -> str:
    """The canonical text of a record, one JSON object per line, ending with a newline."""
    lines = [_dumps(header(record.names, record.first_player))]
    lines += [_dumps(m.to_dict()) for m in record.moves]
    return "\n".join(lines) + "\n"


def loads_record(text: str | Iterable[str]) -> Record:
    """Parse a record; raises :class:`RecordError` naming the first bad line."""
    lines = text.splitlines() if isinstance(text, str) else list(text)
    if not lines:
        raise RecordError(1, "the record is empty")
    head = _parse_line(lines[0], 1)
    names, first = _check_header(head)
    moves, numbers = [], []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            moves.append(move_from_dict(_parse_line(line, number)))
        except Violation as exc:
            raise RecordError(number, exc.message, exc.code) from exc
        numbers.append(number)
    return Record(names, first, moves, numbers)


def _parse_line(line: str, number: int) -> Any:
    try:
        return json.loads(line)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise RecordError(number, f"not a JSON object ({exc})") from exc


def _check_header(head: Any) -> tuple[tuple[str, ...], int]:
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise RecordError(1, f'the first line must be a header with "format": "{FORMAT}"')
    if head.get("version") != VERSION:
        raise RecordError(1, f"unsupported record version {head.get('version')!r}")
    names, first = head.get("players"), head.get("first_player")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RecordError(1, '"players" must be a list of names')
    if type(first) is not int:
        raise RecordError(1, '"first_player" must be an integer')
    return tuple(names), first


def replay(catalog: Catalog, record: Record) -> GameState:
    """Re-run every move; raises :class:`RecordError` at the first illegal one."""
    try:
        state = new_game(catalog, record.names, record.first_player)
    except Violation as exc:
        raise RecordError(1, exc.message, exc.code) from exc
    for index, move in enumerate(record.moves):
        try:
            state.apply(move)
        except Violation as exc:
            raise RecordError(record.line_of(index), exc.message, exc.code) from exc
    return state
