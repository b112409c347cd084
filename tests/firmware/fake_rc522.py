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
thread safe), carry 4, 7 or 10-byte UIDs, and can be told to send a bad BCC or a bad CRC, or
to ignore HLTA.

**Several chips on one bus, with time** (the cinema mat, :class:`FakeBus`): a bus holds one
chip per zone, each chosen by its own chip select and held in hard power-down while its reset
line (NRSTPD, :class:`FakeRST`) is low. A chip in reset, or still starting after its reset
line went high (its crystal's start-up plus the 37.74 us the datasheet adds), does not answer
on the bus (MISO reads 0xFF) and forgets what is written to it; going into reset loses every
register and switches its field off, so the tags on its zone lose power. A bus keeps an
:class:`AirClock`, a virtual clock that moves as the real parts would:

* each SPI byte takes 8 bits at the bus's baud rate;
* a frame to the tags takes its air time at 106 kbit/s (128 carrier cycles a bit: start of
  frame, data with a parity bit after each whole byte, end of frame); a tag answers after
  the frame delay time of ISO 14443-3 (1236 cycles) and its answer takes its own air time;
  the chip's flags (``ComIrqReg``), FIFO and errors change only when that time has come;
* with no answer, ``TimerIRq`` comes when the chip's timer (``TModeReg``, ``TPrescalerReg``,
  ``TReloadReg``) runs out after the frame; a timer shorter than the frame delay time plus
  the five bits that stop it loses the answer, as on the chip;
* a tag powered by a field that has just come on answers only after its power-up time;
* the CRC coprocessor takes a little time per byte.

A driver polls the interrupt flags until something happens. To keep the tests fast, a poll
that finds the chip busy stands for every poll the driver would make until the next event:
the clock moves on to that event (the driver sees it within one poll of when it would on the
bench). Without a clock (a lone :class:`FakeRC522`, the bag reader's tests) everything
happens at once, as before.
"""

from __future__ import annotations

import threading

try:
    from collections.abc import Callable, Iterable
except ImportError:  # MicroPython (test_fw_on_micropython.py runs this fake there too)
    Callable = Iterable = list

COMMAND, COM_IRQ, DIV_IRQ, ERROR = 0x01, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
MODE, TX_CONTROL, CRC_H, CRC_L, T_MODE, VERSION = 0x11, 0x14, 0x21, 0x22, 0x2A, 0x37

T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2B, 0x2C, 0x2D

IDLE, CALC_CRC, TRANSCEIVE, SOFT_RESET = 0x00, 0x03, 0x0C, 0x0F
CRC_PRESETS = {0: 0x0000, 1: 0x6363, 2: 0xA671, 3: 0xFFFF}

RESET_VALUES = {COMMAND: 0x20, 0x02: 0x80, COM_IRQ: 0x14, CONTROL: 0x10, COLL: 0xA0,
                MODE: 0x3F, TX_CONTROL: 0x80, 0x18: 0x84, 0x19: 0x4D, 0x24: 0x26,
                0x26: 0x48, VERSION: 0x92}


FC_HZ = 13560000
"""The carrier frequency: every time on the air is a number of its cycles."""


def cycles_ns(cycles: int) -> int:
    """``cycles`` of the 13.56 MHz carrier, in nanoseconds."""
    return cycles * 1000000000 // FC_HZ


BIT_NS = cycles_ns(128)
"""One bit at 106 kbit/s: 128 carrier cycles, 9.44 us."""
FDT_NS = cycles_ns(1236)
"""ISO 14443-3's frame delay time from the end of the reader's frame to a tag's answer
(1236 cycles after a frame that ends with a 1; 1172 after a 0), 91 us."""
CRC_BYTE_NS = cycles_ns(8)
"""How long the CRC coprocessor takes a byte (an assumption: the datasheet gives no figure;
it is far below an SPI byte's time)."""
STARTUP_US = 800
"""A fake chip's crystal start-up time after its reset line goes high: an assumption (the
datasheet leaves it to the crystal), below the firmware's default wait (``startup_us``
1000) so that the tests show the wait is enough, and the readback check catches a shorter
one."""
INTERNAL_DELAY_NS = 37740
"""What the datasheet adds to the crystal's start-up before the chip can be addressed:
1024 / 27.12 MHz = 37.74 us."""
TAG_POWER_UP_US = 500
"""How long a fake tag takes to power up in a field that just came on (ISO 14443-3 lets a
tag take up to 5 ms; an NTAG213 is much quicker)."""


def reader_frame_ns(nbits: int) -> int:
    """Air time of a reader's frame of ``nbits`` data bits: start of frame, the bits, a
    parity bit after each whole byte, end of frame (two bit times)."""
    return (1 + nbits + nbits // 8 + 2) * BIT_NS


def tag_frame_ns(nbits: int) -> int:
    """Air time of a tag's answer of ``nbits`` bits: start, bits, parity bits, end."""
    return (1 + nbits + nbits // 8 + 1) * BIT_NS


class AirClock:
    """Virtual time in nanoseconds, moved by the bus, the air and the firmware's sleeps."""

    def __init__(self) -> None:
        self.ns = 0

    def advance(self, ns: int) -> None:
        """Let ``ns`` nanoseconds pass."""
        self.ns += ns

    def sleep_us(self, us: int) -> None:
        """The firmware's ``sleep_us``: the clock moves, nothing waits."""
        self.ns += us * 1000

    def ticks_us(self) -> int:
        """The firmware's ``ticks_us`` on this clock."""
        return self.ns // 1000

    def ticks_ms(self) -> int:
        """The firmware's ``ticks_ms`` on this clock."""
        return self.ns // 1000000


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


def ntag_uid(n: int, size: int = 7) -> bytes:
    """A made-up UID, the same on CPython and MicroPython: ``size`` bytes (4, 7 or 10), the
    first 0x04 (NXP, as on an NTAG213 sticker) and the rest scattered from ``n`` by a
    multiplicative hash, so that tags collide at all sorts of bits."""
    out = [0x04]
    x = (n + 1) * 2654435761 & 0xFFFFFFFF
    while len(out) < size:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append((x >> 16) & 0xFF)
    if out[:1] == [0x88] or (size == 4 and out[0] == 0x88):
        out[0] = 0x08
    return bytes(out)


def bits_of(data: bytes, count: int) -> list[int]:
    """The first ``count`` bits of ``data``, least significant bit of each byte first."""
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(count)]


class Tag:
    """An ISO 14443A tag: its UID, its protocol state and injectable faults."""

    def __init__(self, uid: bytes | str, sak: int = 0x00, *, bad_bcc: bool = False,
                 bad_crc: bool = False, no_halt: bool = False) -> None:
        self.uid = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        if len(self.uid) not in (4, 7, 10):
            raise ValueError("a type A UID has 4, 7 or 10 bytes")
        self.sak = sak
        self.bad_bcc, self.bad_crc = bad_bcc, bad_crc
        self.no_halt = no_halt
        """A broken tag that ignores HLTA: it stays ACTIVE, and a REQA makes it IDLE again."""
        self.state = "OFF"
        self.level = 0
        self.from_halt = False
        self.selections = 0
        """How many times the tag was selected to its last level."""
        self.halts = 0
        self.power_up_us = TAG_POWER_UP_US
        """How long the tag needs in a field that just came on before it answers."""
        self.skip_fields = 0
        """How many of the next times its zone's field comes on the tag stays silent (it lies
        at the edge of the antenna): a flicker, as a scan sees it."""
        self.asleep = False
        self.fields_left: int | None = None
        """How many more times its zone's field may come on with the tag still there
        (``None``: it stays): a hand carrying it past, as a scan sees it."""

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
        if self.state == "OFF" or self.asleep:
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
            if self.state == "ACTIVE" and with_crc(frame[:2]) == frame and not self.no_halt:
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
    """``machine.SPI`` as the driver uses it, wired to one fake chip or a :class:`FakeBus`."""

    def __init__(self, chip: FakeRC522 | FakeBus) -> None:
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


class EdgePin:
    """A pin the firmware drives like ``machine.Pin``, whose falling and rising edges call
    ``fall`` and ``rise``; it starts high."""

    def __init__(self, fall: Callable[[], None], rise: Callable[[], None]) -> None:
        self.fall, self.rise = fall, rise
        self.level = 1

    def value(self, level: int | None = None) -> int | None:
        """Read or set the pin like ``machine.Pin.value``."""
        if level is None:
            return self.level
        level = 1 if level else 0
        if self.level and not level:
            self.fall()
        elif level and not self.level:
            self.rise()
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


class FakeCS(EdgePin):
    """The chip-select pin: low starts a transfer, high ends it."""

    def __init__(self, chip: FakeRC522) -> None:
        super().__init__(chip.begin, chip.end)
        self.chip = chip


class FakeRC522:
    """The chip: 64 registers, a 64-byte FIFO, the transceiver, the CRC unit and the pad."""

    def __init__(self, version: int = 0x92, clock: AirClock | None = None,
                 bus: FakeBus | None = None, startup_us: int = STARTUP_US) -> None:
        self.lock = threading.RLock()
        self.version = version
        self.clock = clock
        """The bus's virtual clock, or ``None``: then everything happens at once."""
        self.bus = bus
        self.startup_ns = startup_us * 1000 + INTERNAL_DELAY_NS
        """From the reset line going high to the chip answering on the bus."""
        self.in_reset = False
        """Whether the reset line (NRSTPD) is low: hard power-down."""
        self.ready_at = 0
        """The clock's time from which the chip answers (after a reset)."""
        self.field_on_at = 0
        self.unready_bytes = 0
        """SPI bytes clocked while the chip was in reset or starting: lost."""
        self.resets = 0
        """How many times the reset line went low."""
        self._pending: list[list] = []  # [due ns, what happens], for a chip with a clock
        self.rst = FakeRST(self)
        self.regs = bytearray(64)
        self.fifo: list[int] = []  # a list: MicroPython's bytearray has no clear() or pop()
        self.tags: list[Tag] = []
        self.spi = FakeSPI(self)
        self.cs = FakeCS(self)
        self.frames: list[tuple[bytes, int]] = []
        """Every frame sent to the air, with its bit count (for assertions)."""
        self.transfers = 0
        self.crcs = 0
        """How many times the CRC coprocessor ran (CalcCRC)."""
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
            tag.asleep = False
            tag.fields_left = None
            tag.powered_at = self.clock.ns if self.clock is not None else 0
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
            if not self.ready():
                self.unready_bytes += 1
                return 0xFF  # nothing drives MISO; what is written is lost
            if self.clock is not None:
                self._settle()
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
        if reg in (COM_IRQ, DIV_IRQ) and self._pending:
            self._skip_to_next_event()
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
            elif not was_on and value & 0x03 == 0x03:
                self._field_on()
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
        if command == IDLE:
            self._pending = []  # Idle stops whatever the chip was doing
        if command == CALC_CRC:
            self.crcs += 1
            crc = crc_a(self.fifo, CRC_PRESETS[self.regs[MODE] & 0x03])
            count = len(self.fifo)
            self.fifo.clear()

            def done() -> None:
                self.regs[CRC_H], self.regs[CRC_L] = crc >> 8, crc & 0xFF
                self.regs[DIV_IRQ] |= 0x04  # CRCIRq

            self._at(count * CRC_BYTE_NS, done)

    # -- the air ---------------------------------------------------------------------------

    def _transceive(self) -> None:
        framing = self.regs[BIT_FRAMING]
        tx_last, rx_align = framing & 0x07, (framing >> 4) & 0x07
        frame = bytes(self.fifo)
        self.fifo.clear()
        nbits = len(frame) * 8 if tx_last == 0 else (len(frame) - 1) * 8 + tx_last
        self.frames.append((frame, nbits))
        self.regs[ERROR] &= 0x10
        if self.bus is not None:
            self.bus.frame_sent(self)
        answers: list[list[int]] = []
        if self.regs[TX_CONTROL] & 0x03 == 0x03 and nbits > 0:
            for tag in list(self.tags):
                if self._powered(tag):
                    answer = tag.hear(frame, nbits)
                    if answer is not None:
                        answers.append(answer)
        if self.clock is None:  # everything at once
            self.regs[COM_IRQ] |= 0x40  # TxIRq
            if answers:
                self._receive(answers, rx_align)
            elif self.regs[T_MODE] & 0x80:  # TAuto: the timer runs out
                self.regs[COM_IRQ] |= 0x01
            return
        tx_ns = reader_frame_ns(nbits)
        self._at(tx_ns, self._sent)
        timer = self.timer_ns() if self.regs[T_MODE] & 0x80 else None
        if answers and (timer is None or timer >= FDT_NS + 5 * BIT_NS):
            length = max(len(a) for a in answers)
            self._at(tx_ns + FDT_NS + tag_frame_ns(length),
                     lambda: self._receive(answers, rx_align))
        elif timer is not None:  # nobody answered (or the timer ran out before the answer)
            self._at(tx_ns + timer, self._timed_out)

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

    # -- time, reset and power -------------------------------------------------------------

    def ready(self) -> bool:
        """Whether the chip answers on the bus: out of reset, and started."""
        if self.in_reset:
            return False
        return self.clock is None or self.clock.ns >= self.ready_at

    def field(self) -> bool:
        """Whether the chip's antenna field is on."""
        return not self.in_reset and self.regs[TX_CONTROL] & 0x03 == 0x03

    def power_down(self) -> None:
        """The reset line went low: hard power-down. Every register goes back to its reset
        value, the FIFO empties, whatever ran stops and the field goes off, so the tags on
        this zone lose power."""
        with self.lock:
            self.in_reset = True
            self.resets += 1
            self.soft_reset()
            self._pending = []
            for tag in self.tags:
                tag.state, tag.level, tag.from_halt = "IDLE", 0, False

    def power_up(self) -> None:
        """The reset line went high: the crystal starts; the chip answers after
        :attr:`startup_ns`."""
        with self.lock:
            if self.in_reset:
                self.in_reset = False
                self.ready_at = (self.clock.ns if self.clock is not None else 0) + self.startup_ns

    def timer_ns(self) -> int:
        """The chip's timer period from its registers: (2 * TPrescaler + 1) * (TReload + 1)
        carrier cycles."""
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        return cycles_ns((2 * prescaler + 1) * (reload + 1))

    def _field_on(self) -> None:
        self.field_on_at = self.clock.ns if self.clock is not None else 0
        for tag in list(self.tags):
            if tag.fields_left is not None:
                if tag.fields_left <= 0:  # the hand has moved on
                    self.lift(tag)
                    continue
                tag.fields_left -= 1
            tag.state, tag.level, tag.from_halt = "IDLE", 0, False
            tag.powered_at = self.field_on_at
            tag.asleep = tag.skip_fields > 0
            if tag.asleep:
                tag.skip_fields -= 1
        if self.bus is not None:
            self.bus.field_switched_on(self)

    def _powered(self, tag: Tag) -> bool:
        """Whether ``tag`` has had its power-up time since the field (or the tag) came."""
        if self.clock is None:
            return True
        return self.clock.ns >= getattr(tag, "powered_at", 0) + tag.power_up_us * 1000

    def _at(self, delay_ns: int, what) -> None:
        """Make ``what`` happen ``delay_ns`` from now (at once without a clock)."""
        if self.clock is None:
            what()
            return
        self._pending.append([self.clock.ns + delay_ns, what])
        self._pending.sort(key=lambda item: item[0])

    def _settle(self) -> None:
        """Let every event whose time has come happen, in order."""
        while self._pending and self._pending[0][0] <= self.clock.ns:
            self._pending.pop(0)[1]()

    def _skip_to_next_event(self) -> None:
        """A poll of the interrupt flags while the chip is busy: move the clock on to the
        next event (see the module's docstring)."""
        due = self._pending[0][0]
        if due > self.clock.ns:
            self.clock.ns = due
        self._settle()

    def _sent(self) -> None:
        self.regs[COM_IRQ] |= 0x40  # TxIRq

    def _timed_out(self) -> None:
        self.regs[COM_IRQ] |= 0x01  # TimerIRq

    # -- helpers for tests -----------------------------------------------------------------

    def commands_sent(self) -> list[int]:
        """The first byte of every frame sent so far (REQA, WUPA, SEL codes, HLTA)."""
        return [frame[0] for frame, _ in self.frames if frame]


class FakeRST(EdgePin):
    """A chip's reset pin (NRSTPD): low holds the chip in hard power-down."""

    def __init__(self, chip: FakeRC522) -> None:
        super().__init__(chip.power_down, chip.power_up)
        self.chip = chip


class FakeBus:
    """A cinema mat's bus: one MFRC522 per zone on one SPI bus, with a virtual clock.

    Each chip (:attr:`chips`, one per zone) has its own chip select (``chip.cs``) and reset
    line (``chip.rst``); at power-on the reset lines are high (the modules pull them up), so
    the firmware must hold the idle ones down itself. The bus checks what the hardware design
    relies on and counts each breach: :attr:`couplings` (a field switched on while another
    chip's field was on), :attr:`overlaps` (a frame sent while another chip was out of reset),
    and two chip selects low at once is an error at the first byte.

    Tags are placed on a zone, lifted, moved between zones, carried over a zone for a scan
    or two (:meth:`hover`), or told to miss the next few scans of their zone
    (:meth:`flicker`).
    """

    def __init__(self, zones: int = 4, baud: int = 4000000, clock: AirClock | None = None,
                 startup_us: int = STARTUP_US) -> None:
        self.clock = clock if clock is not None else AirClock()
        self.baud = baud
        self.chips = [FakeRC522(clock=self.clock, bus=self, startup_us=startup_us)
                      for _ in range(zones)]
        self.spi = FakeSPI(self)
        self.bytes = 0
        """SPI bytes clocked on the bus."""
        self.couplings = 0
        self.overlaps = 0

    def set_baud(self, baud: int) -> None:
        """The firmware opened the bus at ``baud`` (``machine.SPI(baudrate=...)``)."""
        self.baud = baud

    def exchange(self, mosi: int) -> int:
        """One byte on the bus, to the one chip whose chip select is low."""
        selected = [chip for chip in self.chips if chip._selected]
        if len(selected) != 1:
            raise AssertionError(str(len(selected)) + " chips selected on the bus")
        self.bytes += 1
        self.clock.advance(8 * 1000000000 // self.baud)
        return selected[0].exchange(mosi)

    def frame_sent(self, chip: FakeRC522) -> None:
        """``chip`` sends a frame: every other chip should be held in reset."""
        if any(other is not chip and not other.in_reset for other in self.chips):
            self.overlaps += 1

    def field_switched_on(self, chip: FakeRC522) -> None:
        """``chip``'s field came on: no other field may be on."""
        if any(other is not chip and other.field() for other in self.chips):
            self.couplings += 1

    # -- the zones -------------------------------------------------------------------------

    def zone_of(self, tag: Tag) -> int | None:
        """The zone ``tag`` lies on, or ``None``."""
        for zone, chip in enumerate(self.chips):
            if tag in chip.tags:
                return zone
        return None

    def place(self, tag: Tag, zone: int) -> Tag:
        """Set ``tag`` down on ``zone``."""
        self.lift(tag)
        return self.chips[zone].place(tag)

    def lift(self, tag: Tag) -> None:
        """Take ``tag`` off the mat."""
        zone = self.zone_of(tag)
        if zone is not None:
            self.chips[zone].lift(tag)

    def move(self, tag: Tag, zone: int) -> Tag:
        """Slide ``tag`` to another zone."""
        return self.place(tag, zone)

    def hover(self, tag: Tag, zone: int, scans: int = 1) -> Tag:
        """Carry ``tag`` over ``zone`` for its next ``scans`` scans only, then away."""
        self.place(tag, zone)
        tag.fields_left = scans
        return tag

    def flicker(self, tag: Tag, scans: int) -> None:
        """``tag`` stays where it is but is missed by its zone's next ``scans`` scans."""
        tag.skip_fields = scans
