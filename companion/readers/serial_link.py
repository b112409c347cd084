"""USB serial transport: many ports, one thread, lines of JSON.

Each port is opened by the stable name it was given (``/dev/serial/by-id/...`` for a real
reader, a symlink for a virtual one) at 115200 baud. One thread waits on every open port
with a selector, cuts the byte stream into lines, and hands each line to the
:class:`~.ingest.Ingest`. A line is at most :data:`~.protocol.MAX_MESSAGE` bytes counting its
``\\n`` (and a ``\\r`` before it), as an MQTT payload is at most that many; a longer line is
dropped whole (``TOO_LONG``) without ever being held in memory.

pyserial opens and configures each port; reads and writes go straight to its file
descriptor, so that hundreds of ports work (pyserial's own calls use ``select()``). An
unplugged reader shows up as a read error or as what pyserial calls "device reports
readiness to read but returned no data": an empty read from a readable port. The port is
closed and reopened with exponential backoff until it comes back, and then the hub sends
``resync`` so that the reader says ``hello`` and resends what it holds unacked.
"""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import serial

from . import protocol as proto
from .ingest import Ingest

log = logging.getLogger("companion.readers.serial")

BAUD = 115200
"""The USB CDC line speed readers use."""


@dataclass
class _Port:
    path: str
    handle: serial.Serial | None = None
    buffer: bytearray = field(default_factory=bytearray)
    discarding: bool = False
    delay: float = 0.0
    retry_at: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)
    opened: int = 0
    problem: str | None = None
    """Why the last open failed, as said in the log (said again only when it changes)."""


def _write_all(fd: int, data: bytes, timeout: float = 1.0) -> None:
    view = memoryview(data)
    deadline = time.monotonic() + timeout
    while view:
        try:
            view = view[os.write(fd, view):]
        except (BlockingIOError, InterruptedError):
            if time.monotonic() > deadline:
                raise OSError("write timed out: the reader does not read") from None
            time.sleep(0.001)


class SerialLink:
    """Reads reader messages from serial ports and writes the hub's replies back."""

    name = "serial"

    def __init__(self, ingest: Ingest, ports: Iterable[str], *, min_backoff: float = 0.05,
                 max_backoff: float = 2.0) -> None:
        self.ingest = ingest
        self.ports = {path: _Port(path) for path in ports}
        self.min_backoff, self.max_backoff = min_backoff, max_backoff
        self._selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> SerialLink:
        """Open what can be opened and start the reading thread."""
        self._thread = threading.Thread(target=self._run, name="serial-link", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop reading and close every port."""
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)
        for port in self.ports.values():
            self._close(port, reopen=False)

    def is_open(self, path: str) -> bool:
        """Whether the port is open now."""
        return self.ports[path].handle is not None

    def opened_count(self, path: str) -> int:
        """How many times the port has been (re)opened."""
        return self.ports[path].opened

    # -- writing ---------------------------------------------------------------------------

    def send(self, source: str, message: dict[str, Any]) -> None:
        """Write one message line to the port ``source``; raises ``OSError`` if it is not open.

        The file descriptor is written directly (pyserial's own ``write`` waits with
        ``select()``, which cannot watch descriptors above 1023 and so fails for hundreds
        of ports).
        """
        port = self.ports[source]
        with port.lock:
            if port.handle is None:
                raise OSError(f"{source} is not open")
            _write_all(port.handle.fileno(), proto.encode(message) + b"\n")

    # -- the loop --------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            now = time.monotonic()
            for port in self.ports.values():
                if port.handle is None and now >= port.retry_at:
                    self._open(port)
            waits = [p.retry_at - now for p in self.ports.values() if p.handle is None]
            timeout = max(0.0, min([0.2, *waits]))
            if not self._selector.get_map():
                self._stop.wait(timeout)
                continue
            for key, _ in self._selector.select(timeout):
                self._read(key.data)

    @staticmethod
    def _say_why(port: _Port, exc: Exception) -> None:
        """Log why a port does not open, once per reason: a reader not plugged in yet is
        normal, but a port that can never open (no permission) must not fail in silence."""
        problem = str(exc)
        if problem == port.problem:
            return
        port.problem = problem
        hint = ""
        if isinstance(exc, PermissionError) or "Permission denied" in problem:
            hint = " (is this user in the dialout group? see docs/deploy.md)"
        log.warning("serial: cannot open %s: %s%s; trying again", port.path, problem, hint)

    def _open(self, port: _Port) -> None:
        try:
            handle = serial.Serial(port.path, BAUD, timeout=0, write_timeout=1)
        except (serial.SerialException, OSError, ValueError) as exc:
            self._say_why(port, exc)
            port.delay = min(self.max_backoff, max(self.min_backoff, port.delay * 2))
            port.retry_at = time.monotonic() + port.delay
            return
        port.problem = None
        os.set_blocking(handle.fileno(), False)
        with port.lock:
            port.handle = handle
        port.buffer.clear()
        port.discarding = False
        port.delay = 0.0
        port.opened += 1
        self._selector.register(handle.fileno(), selectors.EVENT_READ, port)
        log.info("serial: opened %s", port.path)
        try:
            self.send(port.path, proto.resync())
        except OSError as exc:
            log.debug("serial: resync to %s failed: %s", port.path, exc)

    def _close(self, port: _Port, reopen: bool = True) -> None:
        with port.lock:
            handle, port.handle = port.handle, None
        if handle is None:
            return
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(handle.fileno())
        with contextlib.suppress(serial.SerialException, OSError):
            handle.close()
        if reopen:
            log.warning("serial: lost %s; reopening with backoff", port.path)
            port.delay = self.min_backoff
            port.retry_at = time.monotonic() + port.delay
            self.ingest.mark_offline(self, port.path)

    def _read(self, port: _Port) -> None:
        handle = port.handle
        if handle is None:
            return
        try:
            chunk = os.read(handle.fileno(), 65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            log.debug("serial: %s: read failed: %s", port.path, exc)
            self._close(port)
            return
        if not chunk:
            log.debug("serial: %s: device reports readiness to read but returned no data "
                      "(device disconnected?)", port.path)
            self._close(port)
            return
        self._frame(port, chunk)

    def _too_long(self, port: _Port) -> None:
        """Refuse the line in the buffer: with its newline still to come it is over
        :data:`~.protocol.MAX_MESSAGE` bytes (a ``\\r`` before the newline counts too).

        The first ``MAX_MESSAGE`` bytes and a newline go to the ingest, which refuses them as
        ``TOO_LONG``; the rest of the line is skipped as it arrives, never held.
        """
        self.ingest.submit(self, port.path, bytes(port.buffer[: proto.MAX_MESSAGE]) + b"\n")
        port.buffer.clear()
        port.discarding = True

    def _frame(self, port: _Port, chunk: bytes) -> None:
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if not port.discarding:
                port.buffer += piece
                if len(port.buffer) >= proto.MAX_MESSAGE:
                    self._too_long(port)
            if end < 0:
                return
            if port.discarding:
                port.discarding = False
            elif port.buffer.strip():
                self.ingest.submit(self, port.path, bytes(port.buffer.rstrip(b"\r")))
            port.buffer.clear()
            start = end + 1
