"""The whole firmware against the hub's real serial link, over a real pseudo-terminal.

``app.main()`` runs in a thread on the fake ESP32 (the register-level RC522 fake wired to its
SPI bus and chip-select pin), with the pty's master side as its USB stream. The hub side is
the real ``SerialLink`` + ``Ingest`` + ``DedupStore``, opening the pty's slave through a stable
symlink, exactly as it opens ``/dev/serial/by-id/...`` for a real reader.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import app as firmware
import board_esp32
import machine
import pytest

from companion.readers.serial_link import SerialLink
from tests.firmware.fake_rc522 import FakeRC522, Tag
from tests.firmware.harness import GARBLED, PtyCable, safely
from tests.readers.links import make_ingest
from tests.waiting import wait_for

READER = "bag-1"


class Bench:
    """A reader on a pty cable, read by the hub; taps are placed on the fake chip's pad."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.chip = FakeRC522()
        machine.attach(self.chip, board_esp32.SPI_ID, board_esp32.PINS["cs"])
        self.cable = PtyCable(tmp_path / "dev" / READER)
        self.cable.link.parent.mkdir()
        self.cable.plug()
        self.config = tmp_path / "config.json"
        self.config.write_text(json.dumps({
            "reader": READER, "transport": "serial", "poll_ms": 10, "dwell_ms": 20,
            "gone_ms": 100, "resend_ms": 200}))
        self.state = str(tmp_path / "state.json")
        self.ingest, self.record = make_ingest(tmp_path, [READER])
        self.link = SerialLink(self.ingest, [str(self.cable.link)]).start()
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None
        self.app: firmware.App | None = None
        self.boot()

    def boot(self) -> None:
        """Power the reader on (again): main() reads the config and a new boot id."""
        firmware.current = None
        self.stop.clear()
        self.thread = threading.Thread(
            target=firmware.main, args=(str(self.config), self.state),
            kwargs={"stream": self.cable, "stop": self.stop.is_set, "safe_window_ms": 0},
            daemon=True)
        self.thread.start()
        assert wait_for(lambda: firmware.current is not None and firmware.current.rfid_ok, 10)
        self.app = firmware.current

    def power_off(self) -> None:
        """Stop the firmware (its RAM is gone; its flash state file stays)."""
        self.stop.set()
        assert self.thread is not None
        self.thread.join(10)
        assert not self.thread.is_alive()

    def tap(self, uid: str) -> None:
        """Place a pawn, wait until the reader has reported it, lift it, wait until the
        reader has seen it go."""
        assert self.app is not None
        app = self.app
        before = app.taps
        tag = self.chip.place(Tag(uid))
        assert wait_for(lambda: app.taps == before + 1, 10), "the tap was not reported"
        self.chip.lift(tag)
        key = bytes.fromhex(uid)
        assert wait_for(lambda: safely(lambda: key not in app.debouncer.tracked()), 10)

    def all_acked(self, timeout: float = 20) -> bool:
        """Whether the reader's ring emptied."""
        assert self.app is not None
        app = self.app
        return wait_for(lambda: app.delivery.pending == 0, timeout)

    def stored(self) -> list[tuple[str, int, int, str]]:
        """What the hub stored, in order."""
        with self.record.lock:
            return [(e.reader, e.boot, e.seq, e.uid) for e in self.record.events]

    def close(self) -> None:
        if self.thread is not None and self.thread.is_alive():
            self.power_off()
        self.link.stop()
        self.ingest.stop()
        self.ingest.store.close()
        self.cable.unplug()


@pytest.fixture
def bench(tmp_path: Path) -> Iterator[Bench]:
    rig = Bench(tmp_path)
    yield rig
    rig.close()


UIDS = ["04a1b2c3d4e5f6", "a1b2c3d4", "0102030405060708090a", "04a1b2c3d4e5f7"]


def test_tapped_pawns_arrive_exactly_once(bench: Bench) -> None:
    """Four pawns of the three UID sizes, one tapped twice, one left resting: five events,
    each stored once, in order, with the boot id from the flash file."""
    for uid in UIDS:
        bench.tap(uid)
    bench.tap(UIDS[0])
    resting = bench.chip.place(Tag("04ffeeddccbbaa"))
    assert bench.all_acked()
    assert wait_for(lambda: len(bench.stored()) == 6)
    threading.Event().wait(0.5)  # the resting pawn stays: nothing more may arrive
    bench.chip.lift(resting)
    boot = json.loads(Path(bench.state).read_text())["boot"]
    expected = [(READER, boot, i + 1, uid) for i, uid in enumerate(UIDS + [UIDS[0]])]
    assert bench.stored() == expected + [(READER, boot, 6, "04ffeeddccbbaa")]
    assert bench.ingest.readers[READER].fw == firmware.FW_VERSION


def test_taps_during_a_usb_disconnect_arrive_once_after_reconnecting(bench: Bench) -> None:
    """Pull the cable, tap three pawns, plug it back: the hub reopens the port, sends
    resync, and the reader's hello and resends bring every tap, each stored once."""
    bench.tap(UIDS[0])
    bench.tap(UIDS[1])
    assert bench.all_acked()
    opened = bench.link.opened_count(str(bench.cable.link))
    bench.cable.unplug()
    for uid in UIDS[2:] + ["04a1b2c3d4e5f8"]:
        bench.tap(uid)
    assert bench.app is not None and bench.app.delivery.pending == 3
    bench.cable.plug()
    assert bench.all_acked()
    assert bench.link.opened_count(str(bench.cable.link)) > opened, "the unplug went unnoticed"
    assert [key[2] for key in bench.stored()] == [1, 2, 3, 4, 5]
    assert len(set(bench.stored())) == 5


def test_lost_acks_make_resends_that_are_stored_once(bench: Bench) -> None:
    """The hub's acks get lost: the reader resends, the hub sees duplicates, stores once."""
    bench.cable.deaf = True
    for uid in UIDS[:3]:
        bench.tap(uid)
    assert wait_for(lambda: bench.ingest.duplicates >= 3), "no resend reached the hub"
    assert bench.app is not None and bench.app.delivery.pending == 3
    bench.cable.deaf = False
    assert bench.all_acked()
    assert [key[2] for key in bench.stored()] == [1, 2, 3]


def test_garbage_from_the_hub_side_does_not_stop_the_reader(bench: Bench) -> None:
    """Noise, Ctrl-C bytes and malformed or garbled commands written into the reader's line;
    taps still arrive (the cable's read raises KeyboardInterrupt at a 0x03 while Ctrl-C is
    on, as a board does)."""
    rng = random.Random(3)
    noise = bytes(rng.randrange(256) for _ in range(3000))
    assert noise.count(3) > 3
    bench.cable.hub_write(noise + b"\n\x03\n")
    bench.cable.hub_write(b'{"v":1,"type":"ack","boot":"x","seq":[1]}\n{"v":1}\n[[[\n'
                          + b"z" * 2000 + b"\n")
    bench.cable.hub_write(b"\n".join(GARBLED) + b"\n")
    bench.tap(UIDS[0])
    bench.cable.hub_write(b'{"v":1,"type":"feedback","reader":"bag-1","level":"error"}\n')
    assert bench.all_acked()
    app = bench.app
    assert app is not None
    assert wait_for(lambda: "error" in app.player.played)
    assert app.step_errors == 0 and app.ignored >= 3 + len(GARBLED)
    assert bench.thread is not None and bench.thread.is_alive()
    assert [key[3] for key in bench.stored()] == [UIDS[0]]


def test_a_reboot_starts_a_new_boot_and_seqs_start_again(bench: Bench) -> None:
    """After a power cycle the boot id from flash is one higher and seq starts at 1 again;
    the hub keeps both boots apart."""
    bench.tap(UIDS[0])
    bench.tap(UIDS[1])
    assert bench.all_acked()
    bench.power_off()
    bench.boot()
    bench.tap(UIDS[2])
    assert bench.all_acked()
    boot = json.loads(Path(bench.state).read_text())["boot"]
    assert [key[1:3] for key in bench.stored()] == [(boot - 1, 1), (boot - 1, 2), (boot, 1)]
