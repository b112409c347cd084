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
from collections.abc import Callable

log = logging.getLogger("companion.readers")

EVERY_COMMITS = 250
"""Commits between two checkpoints: a tap's commit adds 3 to 6 pages of 4 KiB to the log,
so about SQLite's own 1,000 pages."""

POLL_SECONDS = 0.25
"""How often the thread looks at the count of commits."""


class Checkpointer:
    """A daemon thread that checkpoints one database file when its log grows too big.

    >>> cp = Checkpointer("hub.sqlite", lambda: store.commits).start()  # doctest: +SKIP
    >>> cp.wait_for(1, timeout=5)                 # doctest: +SKIP
    True
    >>> cp.stop()                                 # doctest: +SKIP
    """

    def __init__(self, path: str, commits: Callable[[], int], every: int = EVERY_COMMITS,
                 poll: float = POLL_SECONDS) -> None:
        self.path, self.commits, self.every, self.poll = path, commits, every, poll
        self.done = 0
        """Checkpoints run so far (each one that ran, caught up or not)."""
        self._changed = threading.Condition()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Checkpointer:
        """Start the thread (once; later calls do nothing)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint",
                                            daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """End the thread (waits for a checkpoint under way) and close its connection."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def wait_for(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` checkpoints have run; False after ``timeout`` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: self.done >= count, timeout)

    def _run(self) -> None:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        folded = 0  # commits the log held when the store opened it: none (it folds at close)
        try:
            while not self._stopping.wait(self.poll):
                now = self.commits()
                if now - folded >= self.every and self._checkpoint(db):
                    folded = now
        finally:
            db.close()

    def _checkpoint(self, db: sqlite3.Connection) -> bool:
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error as exc:  # a busy or vanished file: try again at the next look
            log.warning("store: checkpoint failed: %s", exc)
            return False
        with self._changed:
            self.done += 1
            self._changed.notify_all()
        return True
