"""USB serial transport: one JSON message per line over the board's USB port.

On both targets the USB port is MicroPython's ``sys.stdin`` / ``sys.stdout`` (the ESP32's
USB-UART bridge, the Pico W's own USB CDC), shared with the REPL: in serial mode the firmware
prints nothing else. :class:`UsbStream` reads it without blocking. :class:`SerialTransport`
takes any stream with ``read() -> bytes`` (what is available now, maybe ``b""``) and
``write(bytes)``, so the tests hand it a pseudo-terminal instead.

Lines from the hub are cut at ``\\n`` (a ``\\r`` before it is dropped). A line longer than
:data:`~messages.MAX_MESSAGE` bytes is thrown away whole, and never held in memory beyond
that size, just as the hub does with the reader's lines.

The same port carries the REPL's Ctrl-C: a 0x03 byte arriving on it would raise
``KeyboardInterrupt`` and stop the reader until someone resets it, and noise on a cable can
be that byte. While a :class:`SerialTransport` owns the line, Ctrl-C is off
(``micropython.kbd_intr(-1)``): a 0x03 is an ordinary byte of a garbled line, which is
ignored. :meth:`SerialTransport.close` turns it back on. Safe mode never builds a transport,
so Ctrl-C works there.

A tool that wants the REPL still gets it: ``mpremote``, Thonny and ``popcorn-companion reader
flash`` ask for the raw REPL with Ctrl-C then Ctrl-A (0x03, maybe a ``\r``, then 0x01). That
pair, and only that pair, hands the line back: Ctrl-C goes on again and the reader stops as if
interrupted. A lone 0x03 from a noisy cable is still just a garbled byte.
"""

from compat import kbd_intr
from messages import MAX_MESSAGE

CTRL_C = 3
"""The byte that interrupts the running code on a board, and the REPL's default."""
CTRL_A = 1
"""The byte that asks the REPL for raw mode: after a Ctrl-C, a tool wants the REPL."""
NO_INTERRUPT = -1
"""``kbd_intr``'s value for "no byte interrupts"."""


class UsbStream:
    """The board's USB serial port, read without blocking through ``select.poll``."""

    def __init__(self, chunk=128):
        import select
        import sys

        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self.chunk = chunk

    def read(self):
        """The bytes available now (at most ``chunk``), maybe none."""
        data = b""
        while len(data) < self.chunk and self._poll.poll(0):
            byte = self._in.read(1)
            if not byte:
                break
            data += byte
        return data

    def write(self, data):
        """Send ``data`` as it is (no newline translation)."""
        self._out.write(data)


class SerialTransport:
    """Lines of protocol v1 over a byte stream; Ctrl-C is off from creation to :meth:`close`."""

    name = "serial"

    def __init__(self, stream, max_line=MAX_MESSAGE):
        self.stream = stream
        self.max_line = max_line
        self.connected = True
        """Serial cannot tell whether the hub listens; the hub's ``resync`` says when."""
        self.dropped = 0
        """Incoming lines thrown away for being too long."""
        self._buffer = b""
        self._discarding = False
        self._fresh = True
        self._ctrl_c = False
        kbd_intr(NO_INTERRUPT)

    def take_connected(self):
        """True once after start: say hello at boot (the hub may already be listening)."""
        fresh, self._fresh = self._fresh, False
        return fresh

    def poll(self, now):
        """The complete lines received since the last call (without their newline)."""
        try:
            chunk = self.stream.read()
        except OSError:
            return []
        if self._ctrl_c or CTRL_C in chunk:
            self._watch_for_tool(chunk)
        lines = []
        while chunk:
            cut = chunk.find(b"\n")
            piece = chunk if cut < 0 else chunk[:cut]
            chunk = b"" if cut < 0 else chunk[cut + 1:]
            if not self._discarding:
                self._buffer += piece
                if len(self._buffer) >= self.max_line:
                    self._buffer = b""
                    self._discarding = True
                    self.dropped += 1
            if cut < 0:
                break
            if not self._discarding and self._buffer.strip():
                lines.append(self._buffer[:-1] if self._buffer.endswith(b"\r") else self._buffer)
            self._discarding = False
            self._buffer = b""
        return lines

    def _watch_for_tool(self, chunk):
        """Hand the line back when Ctrl-C then Ctrl-A arrive (line ends may sit between):
        Ctrl-C goes on again and ``KeyboardInterrupt`` stops the reader."""
        for byte in chunk:
            if byte == CTRL_C:
                self._ctrl_c = True
            elif byte == CTRL_A and self._ctrl_c:
                kbd_intr(CTRL_C)
                raise KeyboardInterrupt
            elif byte not in (10, 13):
                self._ctrl_c = False

    def send(self, payload):
        """Write one message and its newline; False if it is too long or the write failed."""
        if len(payload) + 1 > MAX_MESSAGE:
            return False
        try:
            self.stream.write(payload + b"\n")
        except OSError:
            return False
        return True

    def close(self):
        """Give the line back to the REPL: a Ctrl-C byte interrupts again."""
        kbd_intr(CTRL_C)
