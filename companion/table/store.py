"""The hub's SQLite file: reader dedup, the per-table event logs, the tag registry and the
archive of finished games.

One connection and one re-entrant lock serve everything, so that a reader event, its dedup
record and the table event it causes are committed in **one** transaction (the reader is
acked only after it). Tablet inputs are appended and committed before they are applied.
The log is append-only: undo and corrections are new events.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from companion.readers.store import DedupStore, StoreError
from companion.table.archive_store import ARCHIVE_SCHEMA, ArchiveRows

HUB_SCHEMA_VERSION = 5
"""Version of the hub's tables. An older file is migrated on open by adding what it lacks:
version 1 has no ``card_tags`` table, versions 1 and 2 no archive (``archive_games`` and
``archive_seats``, filled from the finished tables when the hub loads them), versions 1 to 3
no kept analyses (``archive_analyses``, filled as games are analysed), versions 1 to 4 no
``pieces`` table (the tag registry moves its pawns, cards and tokens there from the
``tags`` and ``card_tags`` tables, which it then empties). A file with a newer version is
refused."""
MIGRATED = ("1", "2", "3", "4")
"""The older hub schemas a hub opens and upgrades in place."""

_HUB_SCHEMA = """
CREATE TABLE IF NOT EXISTS hub_tables (
    id TEXT PRIMARY KEY, config TEXT NOT NULL, created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS table_events (
    table_id TEXT NOT NULL, n INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tags (
    uid TEXT PRIMARY KEY, pawn INTEGER NOT NULL UNIQUE
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS card_tags (
    uid TEXT PRIMARY KEY, kind TEXT NOT NULL, card TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pieces (
    uid TEXT PRIMARY KEY, game TEXT NOT NULL, kind TEXT NOT NULL, id INTEGER NOT NULL,
    UNIQUE (game, kind, id)
) WITHOUT ROWID;
"""


class HubStore(ArchiveRows, DedupStore):
    """Everything the hub must not lose, in one SQLite file (WAL, synchronous commits)."""

    def _create(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key='hub_schema'").fetchone()
        if row is not None and row[0] not in (*MIGRATED, str(HUB_SCHEMA_VERSION)):
            raise StoreError(f"{self.path}: hub schema version {row[0]}, "
                             f"expected {HUB_SCHEMA_VERSION}")
        self._db.executescript(_HUB_SCHEMA + ARCHIVE_SCHEMA)
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('hub_schema', ?)",
                             (str(HUB_SCHEMA_VERSION),))
        elif row[0] in MIGRATED:  # an older hub's file: the scripts above added its tables
            self._db.execute("UPDATE meta SET value=? WHERE key='hub_schema'",
                             (str(HUB_SCHEMA_VERSION),))

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        """Run one statement; commit at once unless an outer transaction is open."""
        with self.lock:
            if self._db.in_transaction:
                self._db.execute(sql, args)
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(sql, args)
                self._db.execute("COMMIT")
                self._committed()
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Hold the lock and make every write inside one transaction: all of it is committed
        at the end, or none of it if the block raises (or the process dies before the end).

        Inside a transaction that is already open (a reader batch's), the block simply joins
        it, and that outer transaction commits or rolls back everything together.
        """
        with self.lock:
            if self._db.in_transaction:
                yield
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self._committed()

    # -- tables ----------------------------------------------------------------------------

    def add_table(self, table_id: str, config: dict[str, Any], created: int) -> None:
        """Record a new table's configuration."""
        self._write("INSERT INTO hub_tables VALUES (?, ?, ?)",
                    (table_id, json.dumps(config), created))

    def replace_config(self, table_id: str, config: dict[str, Any]) -> None:
        """Store a table's configuration in a newer form (a migration on load: the table's
        facts never change after creation; later changes are events in its log)."""
        self._write("UPDATE hub_tables SET config=? WHERE id=?", (json.dumps(config), table_id))

    def tables(self) -> list[tuple[str, dict[str, Any]]]:
        """Every table, oldest first, with its configuration."""
        with self.lock:
            rows = self._db.execute("SELECT id, config FROM hub_tables ORDER BY created, id")
            return [(tid, json.loads(config)) for tid, config in rows]

    def append(self, table_id: str, n: int, kind: str, body: dict[str, Any]) -> None:
        """Append event number ``n`` of a table (synchronously committed)."""
        self._write("INSERT INTO table_events VALUES (?, ?, ?, ?)",
                    (table_id, n, kind, json.dumps(body, separators=(",", ":"))))

    def events(self, table_id: str,  # type: ignore[override]  # not DedupStore.events()
               ) -> list[tuple[int, str, dict[str, Any]]]:
        """A table's log in order: ``(n, kind, body)``."""
        with self.lock:
            rows = self._db.execute("SELECT n, kind, body FROM table_events WHERE table_id=? "
                                    "ORDER BY n", (table_id,))
            return [(n, kind, json.loads(body)) for n, kind, body in rows]

    # -- tag registry ----------------------------------------------------------------------

    def pieces(self) -> dict[str, tuple[str, str, int]]:
        """Every enrolled tag: UID -> ``(game, kind, piece number)``."""
        with self.lock:
            rows = self._db.execute("SELECT uid, game, kind, id FROM pieces")
            return {uid: (game, kind, number) for uid, game, kind, number in rows}

    def set_piece(self, uid: str, game: str, kind: str, number: int) -> None:
        """Enroll one tag."""
        self._write("INSERT INTO pieces VALUES (?, ?, ?, ?)", (uid, game, kind, number))

    def replace_pieces(self, pieces: dict[str, tuple[str, str, int]]) -> None:
        """Replace the whole registry in one transaction (and empty an older hub's ``tags``
        and ``card_tags`` tables, which the registry has read into it)."""
        with self.transaction():
            for table in ("pieces", "tags", "card_tags"):
                self._db.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed names
            self._db.executemany("INSERT INTO pieces VALUES (?, ?, ?, ?)",
                                 [(u, *piece) for u, piece in pieces.items()])

    def tags(self) -> dict[str, int]:
        """An older hub's pawn tags: UID -> pawn id (read once, into :meth:`pieces`)."""
        with self.lock:
            return dict(self._db.execute("SELECT uid, pawn FROM tags"))

    def card_tags(self) -> dict[str, tuple[str, str]]:
        """An older hub's card and token tags: UID -> (kind, card id or token number)."""
        with self.lock:
            rows = self._db.execute("SELECT uid, kind, card FROM card_tags")
            return {uid: (kind, card) for uid, kind, card in rows}
