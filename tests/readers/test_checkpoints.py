"""Checkpoints out of the commit: no ``COMMIT`` folds the write-ahead log back into the
database file (that flush held the hub's lock), a thread of its own does it once enough
commits have gone into the log, and closing the store ends that thread and folds the rest
(``companion/readers/checkpoints.py``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.readers.protocol import Tag
from companion.readers.store import DedupStore


def tag(seq: int) -> tuple[Tag, str]:
    return Tag("bag-1", 1, seq, "04a1b2c3d4e5f6"), "serial"


def rows_in_file(path: Path) -> int:
    """The tap rows the database file itself holds, its log ignored (``immutable``); 0 when
    not even the table has reached the file yet."""
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name='reader_events'").fetchone():
            return 0
        return db.execute("SELECT COUNT(*) FROM reader_events").fetchone()[0]
    finally:
        db.close()


def test_no_commit_checkpoints_in_place(tmp_path: Path) -> None:
    """Far past SQLite's own threshold (1,000 pages), the file still has none of the rows:
    every commit only appended to the log (the thread is kept from running here)."""
    path = tmp_path / "d.sqlite"
    store = DedupStore(path)
    store.checkpoints.every = 10**9
    for seq in range(1, 1201):
        store.accept([tag(seq)])
    assert rows_in_file(path) == 0
    assert store.seen("bag-1", 1, 1200)
    store.close()
    assert rows_in_file(path) == 1200  # the last connection to close folds the log


def quick_store(path: Path, every: int, taps: int) -> DedupStore:
    """A store whose thread folds every ``every`` commits, with ``taps`` taps committed one
    by one."""
    store = DedupStore(path)
    store.checkpoints.every = every
    for seq in range(1, taps + 1):
        store.accept([tag(seq)])
    return store


def test_the_thread_folds_the_log_after_enough_commits(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    store = quick_store(path, 40, 10)
    assert store.checkpoints.done == 0
    seq = 10
    while store.checkpoints._folded == 0:  # commit until one is due, then no more: a
        seq += 1  # PASSIVE checkpoint beside a writer may leave the file whole only with
        store.accept([tag(seq)])  # its log, and this reads the file alone
    assert 40 <= seq < 60
    assert store.checkpoints.wait_for(1, timeout=30)
    assert rows_in_file(path) >= 40
    store.close()


def test_closing_ends_the_thread_and_keeps_every_row(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    store = quick_store(path, 5, 30)
    thread = store.checkpoints._thread
    assert thread is not None and thread.is_alive()
    store.close()
    assert not thread.is_alive()
    assert not (tmp_path / "d.sqlite-wal").exists()
    assert rows_in_file(path) == 30
    again = DedupStore(path)
    assert again.mark("bag-1", 1) == 30
    again.close()
