"""A register-level MFRC522 with ISO 14443-3 type A tags on its pad, for driver tests.

Nothing here knows the firmware's driver. The fake speaks the chip's SPI byte protocol
(address byte ``reg << 1`` to write, ``(reg << 1) | 0x80`` to read, one answer byte per byte
clocked), keeps the registers the driver uses with their reset values and side effects, and
puts tags in its field that follow the ISO 14443-3 state machine:

* ``REQA`` wakes IDLE tags, ``WUPA`` IDLE and HALT tags; both answer the ATQA;
* anticollision (``SEL NVB uid-bits``) is answered by every READY tag of that cascade level
  whose UID level bytes start with the bits sent; where answers differ the chip flags a
  collision (``ErrorReg`` CollErr, ``CollReg`` CollPos) and, with ValuesAfterColl clear, reads
  the bits from the collision on as 0;
* ``SELECT`` with a good CRC_A and the right level bytes answers SAK + CRC_A (SAK bit 0x04
  while more cascade levels follow) and makes the tag ACTIVE at the last level;
* ``HLTA`` with a good CRC_A halts an ACTIVE tag; any unexpected frame sends a READY or
  ACTIVE tag back to IDLE (or HALT, if it was woken from HALT).

The transmitter must be on (``TxControlReg`` bits 0-1) for tags to hear anything, a reply
timeout is only signalled (``ComIrqReg`` TimerIRq) when ``TModeReg`` TAuto is set, and the
CRC coprocessor uses the preset chosen in ``ModeReg``: a driver that skips a set-up step
fails here as it would on the bench. Tags can be placed and lifted at any time (the fake is
thread safe), carry 4, 7 or 10-byte UIDs, and can be told to send a bad BCC or a bad CRC.
"""

from __future__ import annotations

import threading

try:
    from collections.abc import Iterable
except ImportError:  # MicroPython (test_fw_on_micropython.py runs this fake there too)
    Iterable = list

COMMAND, COM_IRQ, DIV_IRQ, ERROR = 0x01, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
MODE, TX_CONTROL, CRC_H, CRC_L, T_MODE, VERSION = 0x11, 0x14, 0x21, 0x22, 0x2A, 0x37

CALC_CRC, TRANSCEIVE, SOFT_RESET = 0x03, 0x0C, 0x0F
CRC_PRESETS = {0: 0x0000, 1: 0x6363, 2: 0xA671, 3: 0xFFFF}

RESET_VALUES = {COMMAND: 0x20, 0x02: 0x80, COM_IRQ: 0x14, CONTROL: 0x10, COLL: 0xA0,
                MODE: 0x3F, TX_CONTROL: 0x80, 0x18: 0x84, 0x19: 0x4D, 0x24: 0x26,
                0x26: 0x48, VERSION: 0x92}


def crc_a(data: Iterable[int], preset: int = 0x6363) -> int:
    """ISO 14443-3 CRC_A (annex B), as a 16-bit integer; it is sent low byte first."""
    crc = preset
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return crc


def with_crc(frame: bytes) -> bytes:
    """``frame`` followed by its CRC_A, low byte first."""
    crc = crc_a(frame)
    return frame + bytes((crc & 0xFF, crc >> 8))


def bits_of(data: bytes, count: int) -> list[int]:
    """The first ``count`` bits of ``data``, least significant bit of each byte first."""
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(count)]


class Tag:
    """An ISO 14443A tag: its UID, its protocol state and injectable faults."""

    def __init__(self, uid: bytes | str, sak: int = 0x00, *, bad_bcc: bool = False,
                 bad_crc: bool = False) -> None:
        self.uid = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        if len(self.uid) not in (4, 7, 10):
            raise ValueError("a type A UID has 4, 7 or 10 bytes")
        self.sak = sak
        self.bad_bcc, self.bad_crc = bad_bcc, bad_crc
        self.state = "OFF"
        self.level = 0
        self.from_halt = False
        self.selections = 0
        """How many times the tag was selected to its last level."""
        self.halts = 0

    @property
    def levels(self) -> list[bytes]:
        """The 4 bytes of each cascade level (with the cascade tag 0x88 where the UID goes on)."""
        u = self.uid
        if len(u) == 4:
            return [u]
        if len(u) == 7:
            return [b"\x88" + u[:3], u[3:]]
        return [b"\x88" + u[:3], b"\x88" + u[3:6], u[6:]]

    def level_bytes(self, level: int) -> bytes:
        """The 5 bytes a tag answers at ``level``: 4 UID-level bytes and their BCC."""
        part = self.levels[level]
        bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
        return part + bytes((bcc ^ 0x01 if self.bad_bcc else bcc,))

    @property
    def atqa(self) -> bytes:
        """ATQA: UID size in bits 7-6 (single, double, triple), bit-frame anticollision."""
        return bytes(({4: 0x04, 7: 0x44, 10: 0x84}[len(self.uid)], 0x00))

    def _other(self) -> None:
        """An unexpected frame: back to IDLE, or to HALT if woken from there."""
        if self.state in ("READY", "ACTIVE"):
            self.state = "HALT" if self.from_halt else "IDLE"

    def hear(self, frame: bytes, nbits: int) -> list[int] | None:
        """React to one frame from the reader; the answer's bits, or None for silence."""
        if self.state == "OFF":
            return None
        if nbits == 7:
            command = frame[0] & 0x7F
            if (command == 0x26 and self.state == "IDLE") or (
                    command == 0x52 and self.state in ("IDLE", "HALT")):
                self.from_halt = self.state == "HALT"
                self.state, self.level = "READY", 0
                return bits_of(self.atqa, 16)
            self._other()
            return None
        if nbits % 8 == 0 and len(frame) == 4 and frame[:2] == b"\x50\x00":
            if self.state == "ACTIVE" and with_crc(frame[:2]) == frame:
                self.state = "HALT"
                self.halts += 1
                return None
            self._other()
            return None
        if self.state == "READY" and nbits >= 16 and frame[0] == (0x93, 0x95, 0x97)[self.level]:
            return self._anticollision_or_select(frame, nbits)
        self._other()
        return None

    def _anticollision_or_select(self, frame: bytes, nbits: int) -> list[int] | None:
        nvb = frame[1]
        mine = self.level_bytes(self.level)
        if nvb == 0x70:
            if nbits != 72 or with_crc(frame[:7]) != frame:
                self._other()  # a garbled SELECT
                return None
            if frame[2:7] != mine:
                return None  # selects another tag: stay READY, silent
            last = self.level == len(self.levels) - 1
            sak = self.sak & ~0x04 if last else 0x04
            answer = with_crc(bytes((sak,)))
            if self.bad_crc:
                answer = answer[:2] + bytes((answer[2] ^ 0xFF,))
            if last:
                self.state = "ACTIVE"
                self.selections += 1
            else:
                self.level += 1
            return bits_of(answer, 24)
        full, extra = (nvb >> 4) - 2, nvb & 0x0F
        known = full * 8 + extra
        if not (0 <= full <= 4 and extra <= 7 and known < 40 and nbits == 16 + known):
            self._other()
            return None
        if bits_of(frame, nbits)[16:] != bits_of(mine, known):
            return None  # not this tag: silent, still READY
        return bits_of(mine, 40)[known:]


class FakeSPI:
    """``machine.SPI`` as the driver uses it, wired to one fake chip."""

    def __init__(self, chip: FakeRC522) -> None:
        self.chip = chip

    def init(self, *args: object, **kwargs: object) -> None:
        """Reconfigure (ignored)."""

    def deinit(self) -> None:
        """Release the bus (ignored)."""

    def write(self, buf: bytes) -> None:
        """Clock out ``buf``, ignoring what comes back."""
        for byte in bytes(buf):
            self.chip.exchange(byte)

    def read(self, nbytes: int, write: int = 0x00) -> bytes:
        """Clock ``nbytes`` bytes in while sending ``write``."""
        return bytes(self.chip.exchange(write) for _ in range(nbytes))

    def readinto(self, buf: bytearray, write: int = 0x00) -> None:
        """Clock ``len(buf)`` bytes into ``buf`` while sending ``write``."""
        for i in range(len(buf)):
            buf[i] = self.chip.exchange(write)

    def write_readinto(self, write_buf: bytes, read_buf: bytearray) -> None:
        """Full duplex: send ``write_buf`` and keep each byte clocked in."""
        if len(write_buf) != len(read_buf):
            raise ValueError("buffers of different lengths")
        for i, byte in enumerate(bytes(write_buf)):
            read_buf[i] = self.chip.exchange(byte)


class FakeCS:
    """The chip-select pin: low starts a transfer, high ends it."""

    def __init__(self, chip: FakeRC522) -> None:
        self.chip = chip
        self.level = 1

    def value(self, level: int | None = None) -> int | None:
        """Read or set the pin like ``machine.Pin.value``."""
        if level is None:
            return self.level
        level = 1 if level else 0
        if self.level and not level:
            self.chip.begin()
        elif level and not self.level:
            self.chip.end()
        self.level = level
        return None

    def __call__(self, level: int | None = None) -> int | None:
        return self.value(level)

    def on(self) -> None:
        """Drive high."""
        self.value(1)

    def off(self) -> None:
        """Drive low."""
        self.value(0)


class FakeRC522:
    """The chip: 64 registers, a 64-byte FIFO, the transceiver, the CRC unit and the pad."""

    def __init__(self, version: int = 0x92) -> None:
        self.lock = threading.RLock()
        self.version = version
        self.regs = bytearray(64)
        self.fifo: list[int] = []  # a list: MicroPython's bytearray has no clear() or pop()
        self.tags: list[Tag] = []
        self.spi = FakeSPI(self)
        self.cs = FakeCS(self)
        self.frames: list[tuple[bytes, int]] = []
        """Every frame sent to the air, with its bit count (for assertions)."""
        self.transfers = 0
        self.dead = False
        """When true the chip does not drive MISO (reads give 0xFF): no chip on the bus."""
        self._selected = False
        self._first = True
        self._reading: int | None = None
        self._writing: int | None = None
        self.soft_reset()

    # -- the pad ---------------------------------------------------------------------------

    def place(self, tag: Tag) -> Tag:
        """Put a tag in the field: it powers up IDLE."""
        with self.lock:
            tag.state, tag.level, tag.from_halt = "IDLE", 0, False
            if tag not in self.tags:
                self.tags.append(tag)
        return tag

    def lift(self, tag: Tag) -> None:
        """Take a tag out of the field: it loses power."""
        with self.lock:
            if tag in self.tags:
                self.tags.remove(tag)
            tag.state = "OFF"

    # -- SPI byte protocol -----------------------------------------------------------------

    def begin(self) -> None:
        """Chip select went low."""
        with self.lock:
            self._selected, self._first = True, True
            self._reading = self._writing = None

    def end(self) -> None:
        """Chip select went high."""
        with self.lock:
            self._selected = False
            self.transfers += 1

    def exchange(self, mosi: int) -> int:
        """One byte on the bus: returns what the chip drives on MISO."""
        with self.lock:
            if not self._selected:
                raise AssertionError("SPI traffic while chip select is high")
            if self.dead:
                return 0xFF
            if self._first:
                self._first = False
                self._address(mosi)
                return 0x00
            if self._writing is not None:
                self.write_reg(self._writing, mosi)
                return 0x00
            if self._reading is None:
                raise AssertionError("a read went on after its 0x00 end byte")
            out = self.read_reg(self._reading)
            if mosi == 0x00:
                self._reading = None
            else:
                if not mosi & 0x80 or mosi & 0x01:
                    raise AssertionError(f"bad read address byte {mosi:#04x}")
                self._reading = (mosi >> 1) & 0x3F
            return out

    def _address(self, byte: int) -> None:
        if byte & 0x01:
            raise AssertionError(f"address byte {byte:#04x} has bit 0 set")
        if byte & 0x80:
            self._reading = (byte >> 1) & 0x3F
        else:
            self._writing = (byte >> 1) & 0x3F

    # -- registers -------------------------------------------------------------------------

    def soft_reset(self) -> None:
        """Registers back to their reset values (the FIFO is emptied too)."""
        self.regs = bytearray(64)
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.regs[VERSION] = self.version
        self.fifo.clear()

    def read_reg(self, reg: int) -> int:
        """What reading register ``reg`` returns, with its side effects."""
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0x00
        if reg == FIFO_LEVEL:
            return len(self.fifo) & 0x7F
        return self.regs[reg]

    def write_reg(self, reg: int, value: int) -> None:
        """Write register ``reg`` with its side effects."""
        if reg == FIFO_DATA:
            if len(self.fifo) >= 64:
                self.regs[ERROR] |= 0x10  # BufferOvfl
            else:
                self.fifo.append(value)
        elif reg == FIFO_LEVEL:
            if value & 0x80:  # FlushBuffer
                self.fifo.clear()
                self.regs[ERROR] &= ~0x10 & 0xFF
        elif reg in (COM_IRQ, DIV_IRQ):  # bit 7 says whether the 1 bits set or clear
            if value & 0x80:
                self.regs[reg] |= value & 0x7F
            else:
                self.regs[reg] &= ~value & 0x7F
        elif reg == COLL:
            self.regs[COLL] = (self.regs[COLL] & 0x7F) | (value & 0x80)
        elif reg == COMMAND:
            self._command(value)
        elif reg == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value
            if value & 0x80 and self.regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._transceive()
        elif reg == TX_CONTROL:
            was_on = self.regs[TX_CONTROL] & 0x03 == 0x03
            self.regs[TX_CONTROL] = value
            if was_on and value & 0x03 != 0x03:  # field off: every tag loses power
                for tag in self.tags:
                    tag.state, tag.level, tag.from_halt = "IDLE", 0, False
        elif reg in (ERROR, CONTROL, VERSION, CRC_H, CRC_L):
            pass  # read-only here (ControlReg's writable bits are timer strobes)
        else:
            self.regs[reg] = value

    def _command(self, value: int) -> None:
        command = value & 0x0F
        if command == SOFT_RESET:
            self.soft_reset()
            return
        self.regs[COMMAND] = value & 0x3F
        if command == CALC_CRC:
            crc = crc_a(self.fifo, CRC_PRESETS[self.regs[MODE] & 0x03])
            self.fifo.clear()
            self.regs[CRC_H], self.regs[CRC_L] = crc >> 8, crc & 0xFF
            self.regs[DIV_IRQ] |= 0x04  # CRCIRq

    # -- the air ---------------------------------------------------------------------------

    def _transceive(self) -> None:
        framing = self.regs[BIT_FRAMING]
        tx_last, rx_align = framing & 0x07, (framing >> 4) & 0x07
        frame = bytes(self.fifo)
        self.fifo.clear()
        nbits = len(frame) * 8 if tx_last == 0 else (len(frame) - 1) * 8 + tx_last
        self.frames.append((frame, nbits))
        self.regs[COM_IRQ] |= 0x40  # TxIRq
        self.regs[ERROR] &= 0x10
        answers: list[list[int]] = []
        if self.regs[TX_CONTROL] & 0x03 == 0x03 and nbits > 0:
            for tag in list(self.tags):
                answer = tag.hear(frame, nbits)
                if answer is not None:
                    answers.append(answer)
        if not answers:
            if self.regs[T_MODE] & 0x80:  # TAuto: the timer runs out
                self.regs[COM_IRQ] |= 0x01
            return
        self._receive(answers, rx_align)

    def _receive(self, answers: list[list[int]], rx_align: int) -> None:
        length = max(len(a) for a in answers)
        bits: list[int] = []
        collision = None
        for i in range(length):
            values = {a[i] for a in answers if i < len(a)}
            if len(values) > 1 and collision is None:
                collision = i
            bits.append(1 if 1 in values else 0)
        if collision is not None and not self.regs[COLL] & 0x80:  # ValuesAfterColl clear
            bits[collision:] = [0] * (length - collision)
        total = rx_align + length
        data = bytearray((total + 7) // 8)
        for i, bit in enumerate(bits):
            pos = rx_align + i
            data[pos // 8] |= bit << (pos % 8)
        self.fifo[:] = list(data[:64])
        self.regs[CONTROL] = (self.regs[CONTROL] & 0xF8) | (total % 8)
        coll = self.regs[COLL] & 0x80
        if collision is None:
            coll |= 0x20  # CollPosNotValid
        else:
            self.regs[ERROR] |= 0x08  # CollErr
            position = rx_align + collision + 1
            coll |= (position & 0x1F) if position <= 32 else 0x20
        self.regs[COLL] = coll
        self.regs[COM_IRQ] |= 0x20 | (0x02 if self.regs[ERROR] & 0x1F else 0)  # RxIRq, ErrIRq

    # -- helpers for tests -----------------------------------------------------------------

    def commands_sent(self) -> list[int]:
        """The first byte of every frame sent so far (REQA, WUPA, SEL codes, HLTA)."""
        return [frame[0] for frame, _ in self.frames if frame]
