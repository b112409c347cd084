"""Durable outside the lock: a commit reaches the write-ahead log, :meth:`DedupStore.sync`
flushes it (one fsync shared by the callers waiting), and the ingest acks a tap only after
the sync that made it durable (``companion/readers/store.py``)."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from companion.readers import protocol
from companion.readers import store as store_module
from companion.readers.ingest import Ingest
from companion.readers.protocol import Tag
from companion.readers.store import DedupStore


def tag(seq: int) -> tuple[Tag, str]:
    return Tag("bag-1", 1, seq, "04a1b2c3d4e5f6"), "serial"


def test_sync_flushes_the_write_ahead_log(tmp_path: Path, monkeypatch) -> None:
    """The fsync is of the log's file, where the commit went."""
    flushed: list[int] = []
    monkeypatch.setattr(store_module.os, "fsync", lambda fd: flushed.append(os.fstat(fd).st_ino))
    store = DedupStore(tmp_path / "d.sqlite")
    store.accept([tag(1)])
    store.sync()
    assert flushed == [os.stat(tmp_path / "d.sqlite-wal").st_ino]
    store.close()


def test_callers_waiting_for_a_flush_share_the_next_one(tmp_path: Path, monkeypatch) -> None:
    """While one slow flush runs, callers whose commits came after it began wait for it and
    then share a single further flush; with nothing committed since, no flush at all."""
    store = DedupStore(tmp_path / "d.sqlite")
    store.accept([tag(1)])
    started, go_on = threading.Event(), threading.Event()
    flushes: list[float] = []

    def slow_fsync(fd: int) -> None:
        flushes.append(time.monotonic())
        started.set()
        go_on.wait(10)

    monkeypatch.setattr(store_module.os, "fsync", slow_fsync)
    first = threading.Thread(target=store.sync)
    first.start()
    assert started.wait(5)
    store.accept([tag(2)])  # committed while the first flush runs: it needs another
    waiting = [threading.Thread(target=store.sync) for _ in range(4)]
    for thread in waiting:
        thread.start()
    go_on.set()
    for thread in [first, *waiting]:
        thread.join(10)
    assert len(flushes) == 2
    store.sync()
    assert len(flushes) == 2  # nothing new since
    store.close()


class Port:
    """A transport that records what it sends, beside the store's syncs."""

    name = "serial"

    def __init__(self, order: list[str]) -> None:
        self.order = order

    def send(self, source: str, message: dict[str, Any]) -> None:
        self.order.append(message["type"])


def test_the_ingest_acks_a_tap_only_after_it_is_durable(tmp_path: Path) -> None:
    """The batch is committed, then synced, and only then is the reader acked."""
    order: list[str] = []

    class Recording(DedupStore):
        def sync(self) -> None:
            order.append("sync")
            super().sync()

    ingest = Ingest(Recording(tmp_path / "d.sqlite"), ["bag-1"])
    line = json.dumps(protocol.tag("bag-1", 1, 1, "04a1b2c3d4e5f6"))
    ingest.process([store_module_raw(Port(order), line)])
    assert "ack" in order and order.index("sync") < order.index("ack")


def store_module_raw(port: Port, line: str) -> Any:
    from companion.readers.ingest import _Raw

    return _Raw(port, "pty0", line.encode(), None, time.monotonic())
