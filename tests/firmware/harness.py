"""Helpers for the firmware tests: a hand-driven clock, in-memory and pty serial streams that
honour the board's Ctrl-C, and garbled hub commands."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import config
import micropython  # the fake, from fakes/

from companion.readers.virtual import PtyCable as HubCable

GARBLED_OBEYED_ON_A_BOARD: list[tuple[bytes, dict[str, Any]]] = [
    (b'{"v":1 "type":"resync"}', {"v": 1, "type": "resync"}),
    (b'{"v":1,"type":"ack","boot":42,"seq":3,}', {"v": 1, "type": "ack", "boot": 42, "seq": 3}),
    (b'{"v":1,"type":"resync"}\x00', {"v": 1, "type": "resync"}),
    (b'{"v":1,"type":"resync"}\x00 and noise', {"v": 1, "type": "resync"}),
    (b'{"v" 1,"type":"resync"}', {"v": 1, "type": "resync"}),
    (b'{"v":1,,"type":"resync"}', {"v": 1, "type": "resync"}),
    (b'{,"v":1,"type":"resync"}', {"v": 1, "type": "resync"}),
    (b'{"v":1:"type":"resync"}', {"v": 1, "type": "resync"}),
    (b'{"v":1,"type":"resync"]', {"v": 1, "type": "resync"}),
    (b'{"v":01,"type":"resync"}', {"v": 1, "type": "resync"}),
    (b'{"v":1,"type":"feedback","level":"w\\arn"}', {"v": 1, "type": "feedback",
                                                      "level": "warn"}),
    (b'{"v":1,"type":"feedback","level":"error",}', {"v": 1, "type": "feedback",
                                                     "level": "error"}),
    (b'{"v":1,"type":"ack","reader":"bag-1","boot":42 "seq":3}',
     {"v": 1, "type": "ack", "reader": "bag-1", "boot": 42, "seq": 3}),
    (b'{"v":1,"type":"ack","boot":42,"seq":1,"seq":3}',
     {"v": 1, "type": "ack", "boot": 42, "seq": 3}),
]
"""Garbled commands for reader ``bag-1`` of boot 42, each with what MicroPython's lenient
``json.loads`` makes of it on a board: a valid command (``micropython_json`` in these tests
does the same). Missing, doubled, leading and trailing commas, a missing colon, a NUL and
what follows it, ``]`` closing the object, a leading zero, a bad escape (read as ``warn``),
a repeated key."""

GARBLED_REFUSED_ANYWAY: list[bytes] = [
    b'{"v":1,"type":"ack","seq":3,}',
    b'{"v":1,"type":"resync"',
    b'{"v":1,"type":"resync"}}',
    b'{"v":1,"type":"resync"}x',
    b'\x03{"v":1,"type":"resync"}',
    b'{"v":1,"type":"re\x03sync"}',
]
"""Garbled commands that even a board's ``json.loads`` would not turn into a valid one: a
trailing comma but no ``boot``, unbalanced braces, trailing garbage, a Ctrl-C byte."""

GARBLED: list[bytes] = [line for line, _ in GARBLED_OBEYED_ON_A_BOARD] + GARBLED_REFUSED_ANYWAY
"""Every garbled command above."""


def usb_input(data: bytes) -> bytes:
    """``data`` as the firmware's read of its USB port returns it.

    On a board, while Ctrl-C is on (``micropython.kbd_intr(3)``, the state the fake keeps),
    the byte 0x03 never reaches the code: it raises ``KeyboardInterrupt`` in it. A byte here
    counts as arriving when the firmware reads it.
    """
    char = micropython.interrupt_char
    if 0 <= char < 256 and char in data:
        raise KeyboardInterrupt
    return data


def settings(**overrides: Any) -> dict[str, Any]:
    """A checked firmware config for reader ``bag-1`` with ``overrides``."""
    raw: dict[str, Any] = {"reader": "bag-1", "table": "demo", "transport": "serial"}
    raw.update(overrides)
    return config.check(raw)


def safely(check: Callable[[], bool]) -> bool:
    """Evaluate ``check`` while the firmware thread may be changing the dict it reads."""
    try:
        return check()
    except RuntimeError:  # "dictionary changed size during iteration"
        return False


class Clock:
    """Tick counts that only move when the test says so."""

    def __init__(self, start: int = 1000) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> int:
        """Move time on by ``ms`` milliseconds; returns the new tick count."""
        self.now += ms
        return self.now


class MemoryStream:
    """A serial stream in memory: the test feeds bytes in and reads the lines written."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.written = bytearray()
        self.broken = False

    def feed(self, data: bytes) -> None:
        """Bytes the hub sends."""
        self.incoming += data

    def read(self) -> bytes:
        """What has arrived (up to 128 bytes, like the board's stream); a Ctrl-C byte while
        Ctrl-C is on raises ``KeyboardInterrupt`` (:func:`usb_input`)."""
        if self.broken:
            raise OSError("the stream is broken")
        data = bytes(self.incoming[:128])
        del self.incoming[:128]
        return usb_input(data)

    def write(self, data: bytes) -> None:
        """What the firmware sends."""
        if self.broken:
            raise OSError("the stream is broken")
        self.written += data

    def lines(self) -> list[bytes]:
        """The complete lines written so far, and forget them."""
        text = bytes(self.written)
        cut = text.rfind(b"\n") + 1
        del self.written[:cut]
        return text[:cut].splitlines()


class PtyCable(HubCable):
    """The reader's USB cable as a pseudo-terminal (the hub side's :class:`HubCable`), plus
    what the firmware's stream needs: reads that never block, a "deaf" switch that loses what
    the hub writes, and a way to write as if the hub did.

    While unplugged, reads return nothing and writes raise ``OSError``, as on a board
    whose host went away. A Ctrl-C byte read while Ctrl-C is on raises ``KeyboardInterrupt``
    (:func:`usb_input`).
    """

    def __init__(self, link: Path) -> None:
        super().__init__(link)
        self.deaf = False
        """While true, what the hub writes is read and thrown away (acks get lost)."""

    def read(self) -> bytes:
        """Bytes the hub wrote, if any (never blocks)."""
        with self.lock:
            if self.master < 0:
                return b""
            try:
                data = os.read(self.master, 4096)
            except OSError:  # nothing yet (BlockingIOError), or the other side is gone
                return b""
            return b"" if self.deaf else usb_input(data)

    def hub_write(self, data: bytes) -> None:
        """Write bytes as if the hub sent them (for bad-input tests)."""
        with self.lock:
            fd = os.open(os.ttyname(self.slave), os.O_WRONLY | os.O_NOCTTY)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
