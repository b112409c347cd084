"""Helpers for reader-link tests: a hub-side link with a recording callback."""

from __future__ import annotations

import random
import threading
from pathlib import Path

from companion.kit.tags import random_uid
from companion.readers.ingest import Ingest, TagEvent
from companion.readers.store import DedupStore


class Recorder:
    """Collects accepted events and rejections from an :class:`Ingest`."""

    def __init__(self) -> None:
        self.events: list[TagEvent] = []
        self.rejections: list[tuple[str, str]] = []
        self.lock = threading.Lock()

    def event(self, event: TagEvent) -> None:
        with self.lock:
            self.events.append(event)

    def reject(self, rejection, who: str) -> None:
        with self.lock:
            self.rejections.append((who, rejection.code))

    def codes(self) -> set[str]:
        with self.lock:
            return {code for _, code in self.rejections}

    def seen(self) -> list[tuple[str, int, int]]:
        with self.lock:
            return [(e.reader, e.boot, e.seq) for e in self.events]


def make_ingest(tmp: Path, readers: list[str], **options) -> tuple[Ingest, Recorder]:
    """A started Ingest on a fresh store, recording into a Recorder."""
    record = Recorder()
    store = DedupStore(tmp / "dedup.sqlite")
    ingest = Ingest(store, readers, on_event=record.event, on_reject=record.reject, **options)
    return ingest.start(), record


def good_taps_still_arrive(bank, record: Recorder, reader: str = "bag-2", count: int = 5) -> None:
    """Tap ``count`` new pawns on ``reader``: all are acked and recorded (boot 1)."""
    rng = random.Random(9)
    keys = [(reader, 1, bank.tap(reader, random_uid(rng))) for _ in range(count)]
    assert bank.wait_acked(15)
    assert set(keys) <= set(record.seen())
