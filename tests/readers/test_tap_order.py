"""One reader's taps are applied in seq order, through a real pty and the serial link."""

from __future__ import annotations

import os
import pty
import tty
from pathlib import Path

import pytest

from companion.readers import protocol as proto
from companion.readers.ordering import HOLD_SECONDS
from companion.readers.serial_link import SerialLink
from tests.readers.links import make_ingest
from tests.waiting import wait_for

UIDS = {1: "04000000000001", 2: "04000000000002", 3: "04000000000003"}


class RawReader:
    """The reader's end of a pseudo-terminal, written to by hand, line by line."""

    def __init__(self) -> None:
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)

    def send(self, message: dict) -> None:
        os.write(self.master, proto.encode(message) + b"\n")

    def tap(self, seq: int, boot: int = 1) -> None:
        self.send(proto.tag("bag-1", boot, seq, UIDS[seq]))

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def link(tmp_path: Path, request: pytest.FixtureRequest):
    """A raw reader on a pty, the serial link and an ingest holding gaps for ``hold`` s."""
    hold = getattr(request, "param", HOLD_SECONDS)
    reader = RawReader()
    ingest, record = make_ingest(tmp_path, ["bag-1"], hold=hold)
    serial = SerialLink(ingest, [reader.path]).start()
    assert wait_for(lambda: serial.is_open(reader.path))
    yield reader, ingest, record
    serial.stop()
    ingest.stop()
    reader.close()


def applied(record) -> list[tuple[int, int]]:
    """(boot, seq) of every tap applied, in the order it was applied."""
    return [(boot, seq) for _, boot, seq in record.seen()]


def test_seq_1_3_2_is_applied_as_1_2_3(link) -> None:
    """3 waits behind the gap, and goes right after 2 fills it."""
    reader, ingest, record = link
    reader.tap(1)
    assert wait_for(lambda: applied(record) == [(1, 1)])
    reader.tap(3)
    assert wait_for(lambda: ingest.stats()["held"] == 1)
    reader.tap(2)
    assert wait_for(lambda: len(applied(record)) == 3)
    assert applied(record) == [(1, 1), (1, 2), (1, 3)]
    assert ingest.stats()["held"] == 0 and ingest.store.mark("bag-1", 1) == 3
    stats = ingest.stats()
    assert stats["released"] == 1  # 3 waited; 1 and 2 never did
    assert 0 < stats["held_seconds"]["longest"] == stats["held_seconds"]["total"]


def test_a_gap_never_filled_is_given_up_after_the_bound(link) -> None:
    """Seq 2 never comes: 3 is applied once the bound has passed, still after 1."""
    reader, ingest, record = link
    reader.tap(1)
    reader.tap(3)
    assert wait_for(lambda: len(applied(record)) == 2, timeout=HOLD_SECONDS + 15)
    assert applied(record) == [(1, 1), (1, 3)]
    assert ingest.store.mark("bag-1", 1) == 1  # 2 is still missing, and never acked
    assert ingest.stats()["released"] == 1
    assert ingest.stats()["held_seconds"]["longest"] >= HOLD_SECONDS
    reader.tap(3)
    reader.tap(2)  # a late 2 is still applied (once); the resent 3 is a duplicate
    # the duplicate is counted once its batch is stored, just after the 2 is applied
    assert wait_for(lambda: len(applied(record)) == 3 and ingest.duplicates >= 1)
    assert applied(record) == [(1, 1), (1, 3), (1, 2)]


@pytest.mark.parametrize("link", [600.0], indirect=True)
def test_a_hello_from_a_new_boot_releases_the_old_boots_taps_at_once(link) -> None:
    """The reader restarted: the old boot's missing seq can never come, so its held taps go
    on at once (the bound here is ten minutes), before the new boot's first tap."""
    reader, ingest, record = link
    reader.tap(1)
    reader.tap(3)
    assert wait_for(lambda: ingest.stats()["held"] == 1)
    reader.send(proto.hello("bag-1", 2, "test/1", 0))
    reader.tap(1, boot=2)
    assert wait_for(lambda: len(applied(record)) == 3)
    assert applied(record) == [(1, 1), (1, 3), (2, 1)]
    assert ingest.stats()["released"] == 1
    assert ingest.stats()["held_seconds"]["longest"] < 600


@pytest.mark.parametrize("link", [600.0], indirect=True)
def test_a_hello_that_holds_nothing_at_the_gap_releases_at_once(link) -> None:
    """Same boot, but the reader's highest unacked seq is below the missing one."""
    reader, ingest, record = link
    reader.tap(1)
    reader.tap(3)
    assert wait_for(lambda: ingest.stats()["held"] == 1)
    reader.send(proto.hello("bag-1", 1, "test/1", 0))
    assert wait_for(lambda: applied(record) == [(1, 1), (1, 3)])


def test_taps_in_order_are_never_counted_as_held(link) -> None:
    """Three taps in seq order, perhaps in one batch: none waited, so none is counted."""
    reader, ingest, record = link
    for seq in range(1, 4):
        reader.tap(seq)
    assert wait_for(lambda: len(applied(record)) == 3)
    stats = ingest.stats()
    assert stats["released"] == 0 and stats["held_seconds"] == {"total": 0.0, "longest": 0.0}
