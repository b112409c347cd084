"""Durable duplicate detection for reader events, in SQLite.

A reader event (a bag reader's tag, a mat's zone state) is identified by
``(reader, boot, seq)``. :meth:`DedupStore.accept` stores a
batch of events in one transaction, skipping those already stored, and only then may the
link ack them. Because the store outlives the process, a reader that resends after a hub
restart is recognised.

Per ``(reader, boot)`` the store also keeps the *contiguous mark*: the highest ``seq`` such
that every seq from 1 up to it has been stored. That is what the hub acks.

**Durable outside the lock.** A commit writes its transaction to SQLite's write-ahead log
(``synchronous=NORMAL``): it survives the process being killed at once, but not yet a power
cut. :meth:`DedupStore.sync` makes everything committed so far durable (one ``fsync`` of the
log, shared by every caller that was waiting for it), *without* the store's lock, so that
the disk's slow flushes (tens of milliseconds now and then) no longer hold every other
table up. The rule that keeps the old promise: nothing committed is told to anyone (a
reader's ack, a screen's push, an HTTP answer) before a :meth:`~DedupStore.sync` that began
after its commit has returned.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from .checkpoints import Checkpointer
from .protocol import Event, Tag, Zones

SCHEMA_VERSION = 2
"""Version of the tables below. Version 1 (before mats) is upgraded in place: its events
table gains the ``zone`` and ``tags`` columns of a mat's zone states. A file with a newer
version is refused."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reader_events (
    reader TEXT NOT NULL, boot INTEGER NOT NULL, seq INTEGER NOT NULL,
    uid TEXT NOT NULL, transport TEXT NOT NULL, zone INTEGER, tags TEXT, count INTEGER,
    PRIMARY KEY (reader, boot, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS reader_marks (
    reader TEXT NOT NULL, boot INTEGER NOT NULL, mark INTEGER NOT NULL,
    PRIMARY KEY (reader, boot)
) WITHOUT ROWID;
"""


class StoreError(RuntimeError):
    """The dedup database cannot be used (wrong schema version, unreadable file)."""


class DedupStore:
    """Stored reader events and contiguous marks; safe to call from several threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.lock = threading.RLock()
        """Held around every use of the connection; subclasses share it (re-entrant)."""
        self._lock = self.lock
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # durable at sync(): see above
            self._db.execute("PRAGMA wal_autocheckpoint=0")  # a thread's job: .checkpoints
            self._db.executescript(_SCHEMA)
            self._check_version()
            self._create()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: {exc}") from exc
        self._marks: dict[tuple[str, int], int] = {}
        self._above: dict[tuple[str, int], set[int]] = {}
        self._sync_lock = threading.Lock()
        self.commits = 0
        """Transactions committed so far (counted once each COMMIT has returned)."""
        self._flushed = 0  # the commits a finished fsync covers
        self._wal: int | None = None
        self.checkpoints = Checkpointer(self.path)
        """The thread that folds the log back into the file, out of every commit (started
        at the first commit: a store opened only to read never needs it)."""

    def _create(self) -> None:
        """Subclasses add their tables here (same file, same connection)."""

    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif row[0] not in ("1", str(SCHEMA_VERSION)):
            raise StoreError(f"{self.path}: schema version {row[0]}, expected {SCHEMA_VERSION}")
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(reader_events)")}
        for name, kind in (("zone", "INTEGER"), ("tags", "TEXT"), ("count", "INTEGER")):
            if name not in columns:  # a file from before mats: the zone states' columns
                self._db.execute(f"ALTER TABLE reader_events ADD COLUMN {name} {kind}")
        if row is not None and row[0] != str(SCHEMA_VERSION):
            self._db.execute("UPDATE meta SET value=? WHERE key='schema'",
                             (str(SCHEMA_VERSION),))

    def in_transaction(self) -> bool:
        """Whether this thread is inside an open transaction (holding the lock)."""
        return self.lock._is_owned() and self._db.in_transaction  # type: ignore[attr-defined]

    def sync(self) -> None:
        """Make every transaction committed before this call durable (it survives a power
        cut): one ``fsync`` of the write-ahead log, outside the store's lock, and none when
        a flush that began after those commits has already returned. Callers that arrive
        while a flush is under way wait for it, and the first of them flushes for all."""
        wanted = self.commits
        if wanted <= self._flushed:
            return
        with self._sync_lock:
            if wanted <= self._flushed:
                return  # the flush we waited for began after our commits: done
            covers = self.commits
            fd = self._wal_fd()
            if fd is not None:
                os.fsync(fd)
            self._flushed = max(self._flushed, covers)

    def _committed(self) -> None:
        """Count a transaction just committed (every COMMIT of the store calls this): what
        :meth:`sync` has to flush, and what the checkpoints thread folds back."""
        self.commits += 1
        self.checkpoints.committed(self.commits)

    def _wal_fd(self) -> int | None:
        """The write-ahead log, open for fsync (reopened if SQLite made a new file)."""
        path = self.path + "-wal"
        try:
            inode = os.stat(path).st_ino
        except OSError:
            return None  # no log: everything is in the database file, already flushed
        if self._wal is not None and os.fstat(self._wal).st_ino != inode:
            os.close(self._wal)
            self._wal = None
        if self._wal is None:
            self._wal = os.open(path, os.O_RDONLY)
        return self._wal

    def close(self) -> None:
        """Close the database (SQLite folds the write-ahead log back in, flushed)."""
        self.checkpoints.stop()  # its connection first: the last one to close folds the log
        with self._lock:
            self._db.close()
            with self._sync_lock:
                if self._wal is not None:
                    os.close(self._wal)
                    self._wal = None

    def _load(self, key: tuple[str, int]) -> None:
        if key in self._marks:
            return
        row = self._db.execute("SELECT mark FROM reader_marks WHERE reader=? AND boot=?",
                               key).fetchone()
        mark = row[0] if row else 0
        above = self._db.execute(
            "SELECT seq FROM reader_events WHERE reader=? AND boot=? AND seq>?", (*key, mark))
        self._marks[key] = mark
        self._above[key] = {r[0] for r in above}

    def seen(self, reader: str, boot: int, seq: int) -> bool:
        """Whether this event is already stored."""
        with self._lock:
            key = (reader, boot)
            self._load(key)
            return seq <= self._marks[key] or seq in self._above[key]

    def mark(self, reader: str, boot: int) -> int:
        """The contiguous mark of a reader's boot (0 when nothing is stored)."""
        with self._lock:
            self._load((reader, boot))
            return self._marks[(reader, boot)]

    def accept(self, events: Iterable[tuple[Event, str]],
               apply: Callable[[Event, str], None] | None = None
               ) -> list[tuple[Event, str]]:
        """Store the new ``(event, transport)`` pairs in one transaction; return them.

        ``apply`` runs for each new event inside the transaction, before the commit, so a
        crash can repeat an effect but never lose one. Duplicates (within the batch too)
        are skipped.
        """
        with self._lock:
            fresh: list[tuple[Event, str]] = []
            keys: set[tuple[str, int, int]] = set()
            for tag, transport in events:
                key = (tag.reader, tag.boot)
                self._load(key)
                ident = (tag.reader, tag.boot, tag.seq)
                if tag.seq <= self._marks[key] or tag.seq in self._above[key] or ident in keys:
                    continue
                keys.add(ident)
                fresh.append((tag, transport))
            if fresh:
                self._commit(fresh, apply)
            return fresh

    def _commit(self, fresh: list[tuple[Event, str]],
                apply: Callable[[Event, str], None] | None) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany("INSERT INTO reader_events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           [_row(t, tr) for t, tr in fresh])
            marks = self._advance([t for t, _ in fresh])
            db.executemany("INSERT OR REPLACE INTO reader_marks VALUES (?, ?, ?)",
                           [(r, b, m) for (r, b), m in marks.items()])
            if apply:
                for tag, transport in fresh:
                    apply(tag, transport)
            db.execute("COMMIT")
            self._committed()
        except BaseException:
            db.execute("ROLLBACK")
            for key in {(t.reader, t.boot) for t, _ in fresh}:
                self._marks.pop(key, None)
                self._above.pop(key, None)
            raise

    def _advance(self, tags: list[Event]) -> dict[tuple[str, int], int]:
        touched = {}
        for tag in tags:
            key = (tag.reader, tag.boot)
            above = self._above[key]
            above.add(tag.seq)
            mark = self._marks[key]
            while mark + 1 in above:
                mark += 1
                above.discard(mark)
            self._marks[key] = touched[key] = mark
        return touched

    def events(self) -> list[tuple[str, int, int, str, str]]:
        """Every stored event as ``(reader, boot, seq, uid, transport)``, in key order (a
        zone state's ``uid`` is empty: :meth:`stored` gives its zone and tags)."""
        with self._lock:
            return self._db.execute(
                "SELECT reader, boot, seq, uid, transport FROM reader_events "
                "ORDER BY reader, boot, seq").fetchall()

    def stored(self) -> list[tuple[Event, str]]:
        """Every stored event as it was accepted, with its transport, in key order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT reader, boot, seq, uid, transport, zone, tags, count FROM reader_events"
                " ORDER BY reader, boot, seq").fetchall()
        return [(_event(row[0], row[1], row[2], row[3], row[5], row[6], row[7]), row[4])
                for row in rows]


def _row(event: Event, transport: str) -> tuple[object, ...]:
    """An event as a row of ``reader_events``."""
    if isinstance(event, Zones):
        return (event.reader, event.boot, event.seq, "", transport, event.zone,
                ",".join(event.tags), event.count)
    return (event.reader, event.boot, event.seq, event.uid, transport, None, None, None)


def _event(reader: str, boot: int, seq: int, uid: str, zone: int | None,
           tags: str | None, count: int | None) -> Event:
    """A row of ``reader_events`` as its event."""
    if zone is None:
        return Tag(reader, boot, seq, uid)
    listed = tuple(t for t in (tags or "").split(",") if t)
    return Zones(reader, boot, seq, zone, listed, len(listed) if count is None else count)
