"""Game records: a header line, then one move or chance outcome per line (JSON Lines).

The format is described in ``docs/game-record.md``. :func:`dumps_record` writes the
canonical text, and :func:`loads_record` reads it back, so a canonical record
round-trips byte for byte. :func:`replay` re-runs a record through the engine and stops
at the first illegal move, naming its line.

Version 3 (written now) may hold the table's corrections, each as a ``correct`` line
(``{"move": "correct", "pawn": 17, "zone": "bag", "player": 0}``: the pawn is put there,
and the game goes on; see :mod:`.engine.corrections`). Version 2 names the acting guest's
``seat`` in every ``seat_action``, ``movie_action`` and ``end_guest``, as version 3 does;
version 1 left it out, and is still read: its activation moves act for the guest whose turn
it was, as they did then (see :func:`~companion.games.popcorn.engine.name_guest`). Neither
holds a correction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from companion.kit.records import RecordError, parse_line

from .engine import (
    Catalog,
    GameState,
    Move,
    Violation,
    move_from_dict,
    name_guest,
    new_game,
)

FORMAT = "popcorn-record"
"""The ``format`` value of a record's header line."""
VERSION = 3
"""The record format version this code writes."""
READABLE = (1, 2, 3)
"""The record format versions this code reads."""


@dataclass
class Record:
    """A game as written down: who played, who started, and every move in order."""

    names: tuple[str, ...]
    first_player: int
    moves: list[Move]
    lines: list[int] | None = None
    """The 1-based line number of each move in the text it was read from."""
    version: int = VERSION
    """The format version: a version-1 record's activation moves may lack ``seat``; only a
    version-3 record may hold ``correct`` lines."""

    def line_of(self, index: int) -> int:
        """The line number of move ``index`` (as written canonically when not read)."""
        return self.lines[index] if self.lines else index + 2


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))


def header(names: Sequence[str], first_player: int, version: int = VERSION) -> dict[str, Any]:
    """The first line of a record."""
    return {"format": FORMAT, "version": version, "players": list(names),
            "first_player": first_player}


def dumps_record(record: Record) -> str:
    """The canonical text of a record, one JSON object per line, ending with a newline."""
    lines = [_dumps(header(record.names, record.first_player, record.version))]
    lines += [_dumps(m.to_dict()) for m in record.moves]
    return "\n".join(lines) + "\n"


def loads_record(text: str | Iterable[str]) -> Record:
    """Parse a record; raises :class:`RecordError` naming the first bad line."""
    lines = text.splitlines() if isinstance(text, str) else list(text)
    if not lines:
        raise RecordError(1, "the record is empty")
    head = parse_line(lines[0], 1)
    names, first, version = _check_header(head)
    moves, numbers = [], []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            move = move_from_dict(parse_line(line, number), legacy=version == 1)
        except Violation as exc:
            raise RecordError(number, exc.message, exc.code) from exc
        if move.kind == "correct" and version < 3:
            raise RecordError(number, f"a version-{version} record holds no correction "
                              "(corrections came with version 3)")
        moves.append(move)
        numbers.append(number)
    return Record(names, first, moves, numbers, version)


def _check_header(head: Any) -> tuple[tuple[str, ...], int, int]:
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise RecordError(1, f'the first line must be a header with "format": "{FORMAT}"')
    version = head.get("version")
    if type(version) is not int or version not in READABLE:
        raise RecordError(1, f"unsupported record version {version!r}")
    names, first = head.get("players"), head.get("first_player")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RecordError(1, '"players" must be a list of names')
    if type(first) is not int:
        raise RecordError(1, '"first_player" must be an integer')
    return tuple(names), first, version


class Replay:
    """A record re-run move by move, for a reader that looks at each position on the way.

    Iterating gives ``(index, move)`` for every move in order, with :attr:`state` the
    position just *before* that move (the move's ``seat`` filled in for a version-1
    activation move); the move is applied when the loop asks for the next one, and an
    illegal one raises :class:`RecordError` naming its line. After the loop, :attr:`state`
    is the final position. The state belongs to the replay: a reader that wants to try
    something on it works on a :meth:`~.engine.GameState.clone`::

        run = Replay(catalog, loads_record(text))
        for index, move in run:
            run.state.round        # the round in which move ``index`` is played
    """

    def __init__(self, catalog: Catalog, record: Record) -> None:
        self.record = record
        try:
            self.state: GameState = new_game(catalog, record.names, record.first_player)
        except Violation as exc:
            raise RecordError(1, exc.message, exc.code) from exc

    def __iter__(self) -> Iterator[tuple[int, Move]]:
        for index, move in enumerate(self.record.moves):
            move = name_guest(self.state, move)
            yield index, move
            try:
                self.state.apply(move)
            except Violation as exc:
                raise RecordError(self.record.line_of(index), exc.message, exc.code) from exc


def replay(catalog: Catalog, record: Record) -> GameState:
    """Re-run every move; raises :class:`RecordError` at the first illegal one.

    An activation move without its ``seat`` (version 1) acts for the guest acting then.
    """
    run = Replay(catalog, record)
    for _ in run:
        pass
    return run.state


def upgraded(catalog: Catalog, record: Record) -> Record:
    """The same game as a current-version record: each activation move names its seat."""
    state = new_game(catalog, record.names, record.first_player)
    moves = []
    for move in record.moves:
        move = name_guest(state, move)
        state.apply(move)
        moves.append(move)
    return Record(record.names, record.first_player, moves)
