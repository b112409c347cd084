"""Folding SQLite's write-ahead log back into the database, away from the hub's lock.

In WAL mode every commit appends to the log, and from time to time the log's pages must be
copied back into the database file: a *checkpoint*. Left to SQLite, the checkpoint runs
inside whichever ``COMMIT`` pushes the log past 1,000 pages, and it flushes both files to
disk there: while the hub's one lock is held, so that every table's taps wait for the
disk (issue 26).

:class:`Checkpointer` takes the job out of the commit. The store turns SQLite's own
checkpoints off (``PRAGMA wal_autocheckpoint=0``), and a thread of this class, with a
connection of its own, runs a ``PASSIVE`` checkpoint once :data:`EVERY_COMMITS` commits
have gone into the log since the last one (the log's file keeps its size when SQLite
starts it over, so its size cannot say how much is new). A passive checkpoint never waits
for a writer and never makes one wait: commits go on appending while it copies, and SQLite
starts the log over at the first commit after a checkpoint that caught up. The checkpoint
flushes the log before it copies and the database after, so it never weakens what
:meth:`~.store.DedupStore.sync` promised.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

log = logging.getLogger("companion.readers")

EVERY_COMMITS = 250
"""Commits between two checkpoints: a tap's commit adds 3 to 6 pages of 4 KiB to the log,
so about SQLite's own 1,000 pages."""


class Checkpointer:
    """A daemon thread that checkpoints one database file every :attr:`every` commits.

    The store tells it of each commit (:meth:`committed`, under the store's lock); the thread
    sleeps until a checkpoint is due, so an idle store costs nothing.

    >>> cp = Checkpointer("hub.sqlite")        # doctest: +SKIP
    >>> cp.committed(250)                       # doctest: +SKIP
    >>> cp.wait_for(1, timeout=5)               # doctest: +SKIP
    True
    >>> cp.stop()                               # doctest: +SKIP
    """

    def __init__(self, path: str, every: int = EVERY_COMMITS) -> None:
        self.path, self.every = path, every
        self.done = 0
        """Checkpoints run so far (each one that ran, caught up or not)."""
        self._folded = 0  # the store's commits when the last checkpoint was asked for
        self._due = threading.Event()
        self._stopping = False
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def committed(self, commits: int) -> None:
        """The store has committed ``commits`` transactions in all (it opened the log with
        none): start the thread at the first, wake it once :attr:`every` more have gone
        into the log since the last checkpoint."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint",
                                            daemon=True)
            self._thread.start()
        if commits - self._folded >= self.every:
            self._folded = commits
            self._due.set()

    def stop(self) -> None:
        """End the thread (waits for a checkpoint under way); its connection closes."""
        self._stopping = True
        self._due.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def wait_for(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` checkpoints have run; False after ``timeout`` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: self.done >= count, timeout)

    def _run(self) -> None:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            while True:
                self._due.wait()
                self._due.clear()
                if self._stopping:
                    return
                self._checkpoint(db)
        finally:
            db.close()

    def _checkpoint(self, db: sqlite3.Connection) -> None:
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error as exc:  # a busy or vanished file: the next one will fold more
            log.warning("store: checkpoint failed: %s", exc)
            return
        with self._changed:
            self.done += 1
            self._changed.notify_all()
