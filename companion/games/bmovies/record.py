"""B Movies game records: a header line, then one move per line (JSON Lines).

The header names the game, so one reader can tell a B Movies record from a Popcorn one
(whose header has ``"format": "popcorn-record"`` and no ``game``)::

    {"format": "companion-record", "game": "b-movies", "version": 1, "players": ["Ana", ...],
     "first_player": 0, "variant": "standard"}

:func:`dumps_record` writes the canonical text and :func:`loads_record` reads it back, so a
canonical record round-trips byte for byte. :func:`replay` re-runs a record through the
engine and stops at the first illegal move, naming its line. The format is described in
``docs/b-movies.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.kit.records import RecordError
from companion.kit.records import parse_line as _parse_line

from .engine import (
    STANDARD,
    VARIANTS,
    Facts,
    Move,
    State,
    Violation,
    move_from_dict,
    new_game,
)

__all__ = ["FORMAT", "GAME", "VERSION", "Record", "RecordError", "dumps_record", "header",
           "is_bmovies_header", "loads_record", "replay"]

FORMAT = "companion-record"
"""The ``format`` value of the header line (shared by every game but Popcorn's older one)."""
GAME = "b-movies"
"""The ``game`` value of the header line."""
VERSION = 1
"""The record format version this code writes and reads."""


@dataclass
class Record:
    """A game as written down: who played, who started, the variant and every move."""

    names: tuple[str, ...]
    first_player: int = 0
    variant: str = STANDARD
    moves: list[Move] = field(default_factory=list)
    lines: list[int] | None = None
    """The 1-based line number of each move in the text it was read from."""

    def line_of(self, index: int) -> int:
        """The line number of move ``index`` (as written canonically when not read)."""
        return self.lines[index] if self.lines else index + 2


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))


def header(names: Sequence[str], first_player: int = 0, variant: str = STANDARD) -> dict[str, Any]:
    """The first line of a record, keys in their canonical order."""
    return {"format": FORMAT, "game": GAME, "version": VERSION, "players": list(names),
            "first_player": first_player, "variant": variant}


def dumps_record(record: Record) -> str:
    """The canonical text of a record, one JSON object per line, ending with a newline."""
    lines = [_dumps(header(record.names, record.first_player, record.variant))]
    lines += [_dumps(m.to_dict()) for m in record.moves]
    return "\n".join(lines) + "\n"


def loads_record(text: str | Iterable[str]) -> Record:
    """Parse a record; raises :class:`RecordError` naming the first bad line. Blank lines
    are skipped (their numbers still count)."""
    lines = text.splitlines() if isinstance(text, str) else list(text)
    if not lines:
        raise RecordError(1, "the record is empty")
    names, first, variant = _check_header(_parse_line(lines[0], 1))
    moves, numbers = [], []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            moves.append(move_from_dict(_parse_line(line, number)))
        except Violation as exc:
            raise RecordError(number, exc.message, exc.code) from exc
        numbers.append(number)
    return Record(names, first, variant, moves, numbers)


def is_bmovies_header(line: str) -> bool:
    """Whether ``line`` (a record's first line) is a B Movies header: the CLI's test."""
    try:
        head = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return False
    return isinstance(head, dict) and head.get("game") == GAME


def _check_header(head: Any) -> tuple[tuple[str, ...], int, str]:
    if not isinstance(head, dict) or head.get("format") != FORMAT or head.get("game") != GAME:
        raise RecordError(1, f'the first line must be a header with "format": "{FORMAT}" '
                          f'and "game": "{GAME}"')
    version = head.get("version")
    if type(version) is not int or version != VERSION:
        raise RecordError(1, f"unsupported record version {version!r}")
    names, first = head.get("players"), head.get("first_player", 0)
    variant = head.get("variant", STANDARD)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RecordError(1, '"players" must be a list of names')
    if type(first) is not int:
        raise RecordError(1, '"first_player" must be an integer')
    if variant not in VARIANTS:
        raise RecordError(1, f'"variant" must be one of {", ".join(VARIANTS)}')
    return tuple(names), first, variant


def replay(record: Record, facts: Facts | None = None) -> State:
    """Re-run every move; raises :class:`RecordError` at the first illegal one.

    ``facts`` default to the box's (:func:`~companion.games.bmovies.facts_file.load_facts`).
    """
    if facts is None:
        from .facts_file import load_facts
        facts = load_facts()
    try:
        state = new_game(facts, len(record.names), record.first_player, record.variant)
    except Violation as exc:
        raise RecordError(1, exc.message, exc.code) from exc
    for index, move in enumerate(record.moves):
        try:
            state.apply(move)
        except Violation as exc:
            raise RecordError(record.line_of(index), exc.message, exc.code) from exc
    return state
