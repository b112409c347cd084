"""The archive's rows in the hub's SQLite file: one per finished game, one per seat.

:class:`ArchiveRows` is part of :class:`~companion.table.store.HubStore` (the same file, the
same connection and lock). ``archive_games`` keeps what the archive shows of a game (the
record, its final public view and scores as JSON) and ``archive_seats`` one row per player,
so that the list filters by a player's name and a player's page adds up their games in SQL.
A game deleted by the admin keeps a row marked ``deleted`` and nothing else: the hub does
not archive that table's game again. ``archive_analyses`` keeps a game's analysis (a game
with an advisor), computed once, with the digest of the record it judged: an analysis
counts only while the game's record is that one. :class:`~companion.table.archive.Archive`
decides what goes in; this module only reads and writes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

ARCHIVE_SCHEMA = """
CREATE TABLE IF NOT EXISTS archive_games (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, played INTEGER NOT NULL, source TEXT NOT NULL,
    events INTEGER, deleted INTEGER NOT NULL DEFAULT 0, digest TEXT, record TEXT,
    detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS archive_newest ON archive_games (deleted, played DESC, id);
CREATE INDEX IF NOT EXISTS archive_digest ON archive_games (digest);
CREATE TABLE IF NOT EXISTS archive_seats (
    game_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL,
    score INTEGER, place INTEGER, winner INTEGER NOT NULL, PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS archive_seat_names ON archive_seats (name_key);
CREATE TABLE IF NOT EXISTS archive_analyses (
    game_id TEXT PRIMARY KEY, digest TEXT NOT NULL, analysis TEXT NOT NULL
) WITHOUT ROWID;
"""
"""The archive's tables (``archive_games`` and ``archive_seats`` from hub schema 3 on,
``archive_analyses`` from 4 on); a file of an older schema gets them when opened."""

_COLUMNS = "g.id, g.game, g.played, g.source, g.events, g.digest IS NOT NULL, g.detail"


@dataclass(frozen=True)
class Seat:
    """One seat of an archived game: the player's ``name`` and, for a game that gives its
    standings, the ``score``, the ``place`` (1 for the winners) and whether they won."""

    name: str
    score: int | None = None
    place: int | None = None
    winner: bool = False

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "score", "place", "winner"}``."""
        return {"name": self.name, "score": self.score, "place": self.place,
                "winner": self.winner}


@dataclass(frozen=True)
class ArchiveRow:
    """One archived game as stored: ``played`` in nanoseconds since the epoch (the table's
    creation, or the import), ``source`` ``table`` or ``import``, ``events`` the table's log
    length when it was archived, ``detail`` the JSON of what the archive shows beside the
    seats (title, variant, table name, scores, final view), ``seats`` in seat order."""

    id: str
    game: str
    played: int
    source: str
    events: int | None
    has_record: bool
    detail: dict[str, Any]
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class Filter:
    """Which archived games a listing wants: of one ``game`` (its id), and with a player
    whose casefolded name holds ``player`` (a casefolded piece of a name); None for any."""

    game: str | None = None
    player: str | None = None

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition on ``archive_games g`` and its arguments."""
        sql, args = ["g.deleted = 0"], []
        if self.game is not None:
            sql.append("g.game = ?")
            args.append(self.game)
        if self.player is not None:
            sql.append("EXISTS (SELECT 1 FROM archive_seats s WHERE s.game_id = g.id "
                       "AND instr(s.name_key, ?) > 0)")
            args.append(self.player)
        return " AND ".join(sql), args


class ArchiveRows:
    """The archive's reads and writes, for :class:`~companion.table.store.HubStore`."""

    lock: threading.RLock
    _db: sqlite3.Connection
    _committed: Callable[[], None]

    def archive_put(self, row: ArchiveRow, record: str | None, digest: str | None,
                    keys: Sequence[str]) -> None:
        """Store (or replace) a game and its seats; ``keys`` is each seat's name as the
        filters compare it. Callers hold a transaction (:meth:`HubStore.transaction`)."""
        with self.lock:
            self._db.execute("DELETE FROM archive_seats WHERE game_id=?", (row.id,))
            self._db.execute("DELETE FROM archive_analyses WHERE game_id=? AND digest IS NOT ?",
                             (row.id, digest))
            self._db.execute(
                "INSERT OR REPLACE INTO archive_games VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
                (row.id, row.game, row.played, row.source, row.events, digest, record,
                 json.dumps(row.detail, separators=(",", ":"))))
            self._db.executemany(
                "INSERT INTO archive_seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(row.id, seat, s.name, key, s.score, s.place, int(s.winner))
                 for seat, (s, key) in enumerate(zip(row.seats, keys, strict=True))])

    def archive_remove(self, game_id: str, tombstone: bool) -> None:
        """Take a game out of the archive; with ``tombstone`` its row stays, marked deleted
        and emptied, so that the hub does not archive that table's game again."""
        with self.lock:
            self._db.execute("DELETE FROM archive_seats WHERE game_id=?", (game_id,))
            self._db.execute("DELETE FROM archive_analyses WHERE game_id=?", (game_id,))
            if tombstone:
                self._db.execute("UPDATE archive_games SET deleted=1, digest=NULL, record=NULL, "
                                 "detail='{}' WHERE id=?", (game_id,))
            else:
                self._db.execute("DELETE FROM archive_games WHERE id=?", (game_id,))

    def archive_marks(self) -> dict[str, tuple[int | None, bool]]:
        """Every game archived from a table (or deleted from the archive): its id (the
        table's), the log length archived, and whether it was deleted."""
        with self.lock:
            rows = self._db.execute("SELECT id, events, deleted FROM archive_games "
                                    "WHERE source='table' OR deleted=1")
            return {gid: (events, bool(deleted)) for gid, events, deleted in rows}

    def archive_count(self, where: Filter) -> int:
        """How many archived games ``where`` keeps."""
        sql, args = where.where()
        with self.lock:
            row = self._db.execute(f"SELECT count(*) FROM archive_games g WHERE {sql}", args)
            return int(row.fetchone()[0])

    def archive_page(self, where: Filter, limit: int, offset: int) -> list[ArchiveRow]:
        """The games ``where`` keeps, newest first, from ``offset``, at most ``limit``."""
        sql, args = where.where()
        with self.lock:
            rows = self._db.execute(f"SELECT {_COLUMNS} FROM archive_games g WHERE {sql} "
                                    "ORDER BY g.played DESC, g.id LIMIT ? OFFSET ?",
                                    [*args, limit, offset]).fetchall()
            return [self._row(r) for r in rows]

    def archive_get(self, game_id: str) -> ArchiveRow | None:
        """One archived game (None if there is none, or it was deleted)."""
        with self.lock:
            row = self._db.execute(f"SELECT {_COLUMNS} FROM archive_games g "
                                   "WHERE g.id=? AND g.deleted=0", (game_id,)).fetchone()
            return None if row is None else self._row(row)

    def archive_record(self, game_id: str) -> str | None:
        """The record text of an archived game (None without one)."""
        with self.lock:
            row = self._db.execute("SELECT record FROM archive_games WHERE id=? AND deleted=0",
                                   (game_id,)).fetchone()
            return None if row is None else row[0]

    def archive_digest(self, digest: str) -> str | None:
        """The id of the archived game whose record has this digest, if any."""
        with self.lock:
            row = self._db.execute("SELECT id FROM archive_games WHERE digest=? AND deleted=0",
                                   (digest,)).fetchone()
            return None if row is None else str(row[0])

    def archive_records(self) -> Iterator[tuple[ArchiveRow, str]]:
        """Every archived game that has a record, newest first, with its record."""
        with self.lock:
            rows = self._db.execute(f"SELECT {_COLUMNS}, g.record FROM archive_games g "
                                    "WHERE g.deleted=0 AND g.record IS NOT NULL "
                                    "ORDER BY g.played DESC, g.id").fetchall()
            found = [(self._row(r[:-1]), str(r[-1])) for r in rows]
        yield from found

    def archive_analysis(self, game_id: str) -> dict[str, Any] | None:
        """The kept analysis of an archived game, if any (only while its record is the one
        that was analysed)."""
        with self.lock:
            row = self._db.execute(
                "SELECT a.analysis FROM archive_analyses a JOIN archive_games g "
                "ON g.id = a.game_id AND g.digest = a.digest WHERE a.game_id=? AND g.deleted=0",
                (game_id,)).fetchone()
            return None if row is None else dict(json.loads(row[0]))

    def archive_analysis_put(self, game_id: str, digest: str,
                             analysis: dict[str, Any]) -> bool:
        """Keep the analysis of the record whose digest is ``digest``; False (nothing kept)
        when the game is gone or its record is another one now. Committed at once (or with
        the transaction that is open)."""
        with self.lock:
            row = self._db.execute("SELECT digest FROM archive_games WHERE id=? AND deleted=0",
                                   (game_id,)).fetchone()
            if row is None or row[0] != digest:
                return False
            outer = self._db.in_transaction  # an open transaction commits it with the rest
            if not outer:
                self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT OR REPLACE INTO archive_analyses VALUES (?, ?, ?)",
                                 (game_id, digest,
                                  json.dumps(analysis, separators=(",", ":"))))
                if not outer:
                    self._db.execute("COMMIT")
                    self._committed()
            except BaseException:
                if not outer:
                    self._db.execute("ROLLBACK")
                raise
            return True

    def archive_of_player(self, key: str) -> list[tuple[ArchiveRow, int]]:
        """Every archived game with a seat whose name is ``key`` (casefolded), oldest first,
        with that seat."""
        with self.lock:
            rows = self._db.execute(
                f"SELECT {_COLUMNS}, s.seat FROM archive_games g JOIN archive_seats s "
                "ON s.game_id = g.id WHERE g.deleted=0 AND s.name_key=? "
                "ORDER BY g.played, g.id", (key,)).fetchall()
            return [(self._row(r[:-1]), int(r[-1])) for r in rows]

    def _row(self, row: Sequence[Any]) -> ArchiveRow:
        game_id, game, played, source, events, has_record, detail = row
        seats = self._db.execute("SELECT name, score, place, winner FROM archive_seats "
                                 "WHERE game_id=? ORDER BY seat", (game_id,))
        return ArchiveRow(game_id, game, played, source, events, bool(has_record),
                          json.loads(detail),
                          tuple(Seat(n, s, p, bool(w)) for n, s, p, w in seats))
