"""``reader flash`` stops a serial reader through a real pseudo-terminal.

The firmware runs ``app.main()`` in a thread with the pty's master side as its USB stream,
Ctrl-C off as on a board (the fake ``micropython`` keeps that state). The host side is the
companion's own :func:`~companion.readers.flashing.release_repl`, writing through pyserial
to the pty's slave, as it does to ``/dev/ttyUSB0``. There is no REPL behind the fake, so
nothing answers the request: what is checked is that the reader stopped and gave Ctrl-C back.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import app as firmware
import board_esp32
import machine
import micropython

from companion.readers.flashing import release_repl
from tests.firmware.fake_rc522 import FakeRC522
from tests.firmware.harness import PtyCable
from tests.waiting import wait_for


def running_reader(tmp_path: Path, stop: threading.Event | None = None
                   ) -> tuple[PtyCable, threading.Thread]:
    """A serial reader on a plugged pty cable, its main() running in a thread until ``stop``."""
    stop = stop or threading.Event()
    machine.attach(FakeRC522(), board_esp32.SPI_ID, board_esp32.PINS["cs"])
    cable = PtyCable(tmp_path / "bag-1")
    cable.plug()
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"reader": "bag-1", "transport": "serial", "poll_ms": 10}))
    firmware.current = None
    thread = threading.Thread(target=firmware.main, args=(str(config), str(tmp_path / "s")),
                              kwargs={"stream": cable, "stop": stop.is_set, "safe_window_ms": 0},
                              daemon=True)
    thread.start()
    assert wait_for(lambda: firmware.current is not None, 10)
    assert micropython.interrupt_char == -1
    return cable, thread


def test_release_repl_stops_a_running_serial_reader(tmp_path: Path) -> None:
    """The reader's loop ends, Ctrl-C is on again, and a timer feeds the watchdog."""
    cable, thread = running_reader(tmp_path)
    try:
        assert release_repl(str(cable.link), timeout=1.0) is False  # no REPL behind the fake
        thread.join(10)
        assert not thread.is_alive(), "the reader is still running"
        assert micropython.interrupt_char == micropython.CTRL_C
        assert machine.timers, "main() did not leave the watchdog to a timer"
    finally:
        cable.unplug()


def test_a_lone_ctrl_c_through_the_same_cable_does_not(tmp_path: Path) -> None:
    """The control: a stray 0x03 written the same way leaves the reader running."""
    import serial

    stop = threading.Event()
    cable, thread = running_reader(tmp_path, stop)
    try:
        with serial.Serial(str(cable.link), 115200) as line:
            line.write(b"\x03\n\x03")
        assert not wait_for(lambda: not thread.is_alive(), 1.0)
        assert micropython.interrupt_char == -1
    finally:
        stop.set()
        thread.join(10)
        cable.unplug()
    assert micropython.interrupt_char == micropython.CTRL_C
