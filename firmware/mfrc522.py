"""A driver for the NXP MFRC522 (the "RC522" board) over SPI: find ISO 14443A tags, read UIDs.

How the chip is talked to
    Every SPI transfer starts by pulling chip select low and sends an address byte: bit 7 is
    1 to read and 0 to write, bits 6..1 are the register number, bit 0 is 0. A write sends
    the data bytes after the address; a read clocks out the value of the addressed register
    during the next byte. The chip has a 64-byte FIFO, a command register, interrupt flags
    (``ComIrqReg``, ``DivIrqReg``), a timer for reply timeouts and a CRC coprocessor.

How a tag is found (ISO 14443-3 type A)
    1. ``REQA`` (7-bit frame 0x26) wakes idle tags, ``WUPA`` (0x52) also halted ones; each
       answers with its 2-byte ATQA.
    2. Anticollision, per cascade level (select codes 0x93, 0x95, 0x97): the reader sends the
       UID bits it knows so far; every tag whose UID starts with them answers the rest. Where
       two tags disagree the chip reports a collision and its bit position; the reader
       chooses 1 for that bit and asks again, until one tag's 32 bits and its check byte
       ``BCC`` (the XOR of the four UID bytes) are known.
    3. ``SELECT`` (the same 5 bytes with ``CRC_A``) makes that tag answer with ``SAK`` (and a
       ``CRC_A``). SAK bit 0x04 says the UID goes on at the next cascade level; the 4 bytes of
       this level then start with the cascade tag 0x88. A 4-byte UID needs one level, a
       7-byte one (NTAG213 stickers) two, a 10-byte one three.
    4. ``HLTA`` puts the tag to sleep, so that the next ``REQA`` finds the others and the next
       ``WUPA`` (a new poll) wakes it again.

The CRC_A of ISO 14443-3 (x^16 + x^12 + x^5 + 1, preset 0x6363, sent low byte first) comes
from the chip's coprocessor; every BCC and every received CRC is checked, and a frame that
fails is dropped with an :class:`RfidError` counted in :attr:`MFRC522.errors`.

The driver needs an SPI object with ``write`` and ``write_readinto`` (MicroPython's
``machine.SPI``, mode 0, up to 10 MHz) and a chip-select pin with ``value()``.

Two ways to read a field
    A bag reader keeps its field on: :meth:`MFRC522.scan` checks the tags it already knows
    with WUPA + SELECT (they were halted, so REQA no longer reaches them) and finds new ones
    with REQA. A cinema mat switches each zone's chip on only for its scan, so every tag has
    just powered up, IDLE: :meth:`MFRC522.inventory` sends REQA, reads and halts one tag,
    and sends REQA again until no tag answers, which reads every tag once. Its reply timeout
    is short (``init(timeout_us=...)``), because an empty field costs one timeout per REQA
    and every HLTA waits one out.
"""

from compat import ticks_diff, ticks_ms

try:
    from micropython import const
except ImportError:  # CPython (tests)

    def const(value):
        """MicroPython's compile-time constant marker; the identity elsewhere."""
        return value


TICK_US = 25
"""The timer's tick with TPrescaler 0xA9: 13.56 MHz / (2 * 169 + 1), 25 us."""
TIMEOUT_US = 10000
"""The bag reader's reply timeout: a tag that has not answered in 10 ms is not there."""

# registers (datasheet section 9)
_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_DIV_IRQ = const(0x05)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_CRC_RESULT_H = const(0x21)
_CRC_RESULT_L = const(0x22)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

# commands (CommandReg bits 3..0)
_IDLE = const(0x00)
_CALC_CRC = const(0x03)
_TRANSCEIVE = const(0x0C)
_SOFT_RESET = const(0x0F)

# ISO 14443-3 type A
REQA = const(0x26)
"""Request: wakes tags in the IDLE state (a 7-bit short frame)."""
WUPA = const(0x52)
"""Wake-up: wakes tags in the IDLE and HALT states (a 7-bit short frame)."""
HLTA = const(0x50)
"""Halt: sends the selected tag to the HALT state (``50 00`` and CRC_A)."""
CASCADE_TAG = const(0x88)
"""First byte of a cascade level whose UID goes on at the next level."""
SELECT_CODES = (0x93, 0x95, 0x97)
"""The SEL byte of cascade levels 1, 2 and 3."""
SAK_CASCADE = const(0x04)
"""SAK bit: the UID is not complete yet."""


class RfidError(Exception):
    """A frame from a tag failed a check (length, BCC, CRC, collision) or the chip is silent."""


def crc_a(data):
    """The CRC_A of ISO 14443-3 (annex B) computed in Python, as the two bytes sent after a
    frame (low byte first): what :meth:`MFRC522.crc` asks the chip for."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def hexlify(uid):
    """A UID as lowercase hex, the form protocol v1 sends."""
    return "".join("0123456789abcdef"[b >> 4] + "0123456789abcdef"[b & 15] for b in uid)


class MFRC522:
    """One MFRC522 on an SPI bus; :meth:`scan` returns the UIDs in the field."""

    def __init__(self, spi, cs, rst=None, timeout_ms=50, ticks=ticks_ms, soft_crc=False):
        self.spi, self.cs, self.rst = spi, cs, rst
        self._frame_crc = crc_a if soft_crc else self.crc
        """Where the CRC_A of SELECT, SAK and HLTA frames comes from: the chip's coprocessor
        (nine SPI transfers a frame), or with ``soft_crc`` :func:`crc_a` in Python (the
        mat's choice: on a board each SPI transfer costs tens of microseconds of
        interpreter time, a few bytes of CRC in Python less)."""
        self.timeout_ms = timeout_ms
        """How long the driver waits for the chip itself (a safety net: the chip's timer
        always ends a transceive first)."""
        self.ticks = ticks
        """The millisecond clock of that safety net (a test gives its virtual clock)."""
        self.errors = 0
        """How many frames or tags were rejected since start."""
        self.last_error = None
        """The reason of the last rejection (for the log and the tests)."""
        self._pair = bytearray(2)
        cs.value(1)

    # -- registers over SPI ----------------------------------------------------------------

    def _read(self, reg):
        self.cs.value(0)
        try:
            self.spi.write_readinto(bytes((((reg << 1) & 0x7E) | 0x80, 0)), self._pair)
        finally:
            self.cs.value(1)
        return self._pair[1]

    def _write(self, reg, value):
        self.cs.value(0)
        try:
            self.spi.write(bytes(((reg << 1) & 0x7E, value)))
        finally:
            self.cs.value(1)

    def _write_fifo(self, data):
        self.cs.value(0)
        try:
            self.spi.write(bytes(((_FIFO_DATA << 1) & 0x7E,)) + bytes(data))
        finally:
            self.cs.value(1)

    def _read_fifo(self, count):
        if not count:
            return b""
        address = ((_FIFO_DATA << 1) & 0x7E) | 0x80
        out = bytearray(count + 1)
        self.cs.value(0)
        try:  # the address once per byte, then 0: each answer is the previous address's value
            self.spi.write_readinto(bytes([address] * count + [0]), out)
        finally:
            self.cs.value(1)
        return bytes(out[1:])

    _STATUS = (_ERROR, _COLL, _FIFO_LEVEL, _CONTROL)
    """What a receive leaves to read: errors, the collision's position, how many bytes
    came, and how many bits of the last byte are valid."""

    def _read_regs(self, regs):
        """Several registers in one transfer (each address byte clocks out the value of
        the one before), as a bytearray."""
        out = bytearray(len(regs) + 1)
        self.cs.value(0)
        try:
            self.spi.write_readinto(bytes([((r << 1) & 0x7E) | 0x80 for r in regs] + [0]), out)
        finally:
            self.cs.value(1)
        return out[1:]

    def _set_bits(self, reg, mask):
        self._write(reg, self._read(reg) | mask)

    def _clear_bits(self, reg, mask):
        self._write(reg, self._read(reg) & ~mask & 0xFF)

    # -- chip set-up -----------------------------------------------------------------------

    def init(self, soft_reset=True, timeout_us=TIMEOUT_US):
        """Reset and configure the chip and switch the antenna on; raises if none answers.

        ``timeout_us``: how long the chip waits for a tag's answer after each frame (in
        steps of :data:`TICK_US`). ``soft_reset`` False skips the SoftReset command, for a
        chip that has just come out of a hard reset (the mat's): its registers already hold
        their reset values. The timer's reload value is then read back, so that a chip that
        was not yet started, and lost what was written, is an error rather than a chip that
        never finds a tag.
        """
        if self.rst is not None:
            self.rst.value(1)
        if soft_reset:
            self._write(_COMMAND, _SOFT_RESET)
            start = self.ticks()
            while self._read(_COMMAND) & 0x10:  # PowerDown stays set until the reset is done
                if ticks_diff(self.ticks(), start) > 100:
                    raise RfidError("MFRC522 does not come out of reset")
        reload = max(1, min(0xFFFF, timeout_us // TICK_US))  # 10 ms: 400 ticks (0x0190)
        self._write(_T_MODE, 0x80)  # TAuto: the timer starts when a transmission ends
        self._write(_T_PRESCALER, 0xA9)  # 13.56 MHz / (2 * 169 + 1): one tick is 25 us
        self._write(_T_RELOAD_H, reload >> 8)  # a tag that has not answered within
        self._write(_T_RELOAD_L, reload & 0xFF)  # reload + 1 ticks is not there
        if not soft_reset and self._read(_T_RELOAD_L) != reload & 0xFF:
            raise RfidError("MFRC522 not ready: it lost what was written")
        self._write(_TX_ASK, 0x40)  # 100 % ASK modulation, as type A wants
        self._write(_MODE, 0x3D)  # CRC coprocessor preset 0x6363 (CRC_A)
        self.antenna(True)
        version = self.version()
        if version in (0x00, 0xFF):
            raise RfidError("no MFRC522 answers on the SPI bus")
        return version

    def version(self):
        """``VersionReg``: 0x91 or 0x92 for NXP chips, other values for clones."""
        return self._read(_VERSION)

    def antenna(self, on):
        """Drive the antenna (pins TX1 and TX2) or stop the field."""
        if on:
            self._set_bits(_TX_CONTROL, 0x03)
        else:
            self._clear_bits(_TX_CONTROL, 0x03)

    # -- frames ----------------------------------------------------------------------------

    def _transceive(self, data, tx_last_bits=0, rx_align=0):
        """Send ``data`` and receive the answer.

        ``tx_last_bits``: how many bits of the last byte to send (0: all 8); ``rx_align``: at
        which bit of the first FIFO byte the first received bit lands. Returns ``None`` when
        no tag answered before the chip's timer ran out, else ``(bytes, last_bits,
        collision)`` where ``last_bits`` counts the valid bits of the last byte (0: all 8)
        and ``collision`` is the 1-based bit position of the first collision or ``None``.
        """
        framing = (rx_align << 4) | tx_last_bits
        self._write(_COMMAND, _IDLE)
        self._write(_COM_IRQ, 0x7F)  # clear every interrupt flag
        self._write(_FIFO_LEVEL, 0x80)  # flush the FIFO
        self._write_fifo(data)
        self._write(_BIT_FRAMING, framing)
        self._write(_COMMAND, _TRANSCEIVE)
        self._write(_BIT_FRAMING, framing | 0x80)  # StartSend
        start = self.ticks()
        while True:
            irq = self._read(_COM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq: something was received
                break
            if irq & 0x01:  # TimerIRq: no answer in time
                self._write(_BIT_FRAMING, framing)
                return None
            if ticks_diff(self.ticks(), start) > self.timeout_ms:
                raise RfidError("MFRC522 does not finish the transceive")
        self._write(_BIT_FRAMING, framing)
        error, coll, level, control = self._read_regs(self._STATUS)
        if error & 0x13:  # BufferOvfl, ParityErr, ProtocolErr
            raise RfidError("receive error, ErrorReg " + hex(error))
        collision = None
        if error & 0x08:  # CollErr
            if coll & 0x20:  # CollPosNotValid
                raise RfidError("collision out of range")
            collision = (coll & 0x1F) or 32
        received = self._read_fifo(level & 0x7F)
        return received, control & 0x07, collision

    def crc(self, data):
        """CRC_A of ``data`` from the coprocessor, as the two bytes sent after a frame."""
        self._write(_COMMAND, _IDLE)
        self._write(_DIV_IRQ, 0x04)  # clear CRCIRq
        self._write(_FIFO_LEVEL, 0x80)
        self._write_fifo(data)
        self._write(_COMMAND, _CALC_CRC)
        start = self.ticks()
        while not self._read(_DIV_IRQ) & 0x04:
            if ticks_diff(self.ticks(), start) > self.timeout_ms:
                raise RfidError("the CRC coprocessor does not finish")
        self._write(_COMMAND, _IDLE)
        return bytes((self._read(_CRC_RESULT_L), self._read(_CRC_RESULT_H)))

    # -- ISO 14443-3 -----------------------------------------------------------------------

    def request(self, wake=False):
        """Send REQA (or WUPA if ``wake``); the ATQA bytes, or ``None`` if no tag answers."""
        self._clear_bits(_COLL, 0x80)  # ValuesAfterColl 0: bits after a collision read as 0
        answer = self._transceive(bytes((WUPA if wake else REQA,)), tx_last_bits=7)
        if answer is None:
            return None
        data, last_bits, _ = answer  # tags of different kinds may collide in the ATQA
        if len(data) != 2 or last_bits:
            raise RfidError("ATQA is not 16 bits")
        return data

    def anticollision(self, level, prefer=1):
        """Resolve one tag at cascade ``level`` (0, 1, 2): its 4 UID-level bytes and BCC.

        At each collision the reader chooses the bit ``prefer`` (1 unless told): the tags
        with that bit go on answering, the others fall silent until the next request.
        """
        sel = SELECT_CODES[level]
        known = 0  # UID bits of this level agreed so far
        uid = bytearray(5)
        for _ in range(33):
            full, extra = known // 8, known % 8
            nvb = ((2 + full) << 4) | extra  # bytes and bits the reader sends
            frame = bytes((sel, nvb)) + bytes(uid[: full + (1 if extra else 0)])
            answer = self._transceive(frame, tx_last_bits=extra, rx_align=extra)
            if answer is None:
                raise RfidError("the tag left during anticollision")
            data, last_bits, collision = answer
            if full + len(data) > 5 or not data:
                raise RfidError("anticollision answer too long")
            for i, byte in enumerate(data):
                if i == 0 and extra:
                    mask = (0xFF << extra) & 0xFF
                    uid[full] = (uid[full] & ~mask & 0xFF) | (byte & mask)
                else:
                    uid[full + i] = byte
            if collision is None:
                got = (len(data) - 1) * 8 + (last_bits or 8) - extra
                if got != 40 - known:
                    raise RfidError("anticollision answer of " + str(got) + " bits")
                break
            # bits before the collision are shared; choose 1 for the colliding bit
            bit = full * 8 + collision - 1
            if bit < known or bit >= 32:
                raise RfidError("collision outside the UID bits")
            if prefer:
                uid[bit // 8] = (uid[bit // 8] | 1 << (bit % 8)) & ((2 << (bit % 8)) - 1)
            else:
                uid[bit // 8] = uid[bit // 8] & ((1 << (bit % 8)) - 1)
            for i in range(bit // 8 + 1, 5):
                uid[i] = 0
            known = bit + 1
        else:
            raise RfidError("anticollision does not settle")
        if uid[0] ^ uid[1] ^ uid[2] ^ uid[3] != uid[4]:
            raise RfidError("BCC mismatch")
        return bytes(uid)

    def select(self, level, uid5):
        """SELECT the tag whose level bytes and BCC are ``uid5``; its SAK, or ``None``."""
        frame = bytes((SELECT_CODES[level], 0x70)) + bytes(uid5)
        answer = self._transceive(frame + self._frame_crc(frame))
        if answer is None:
            return None
        data, last_bits, collision = answer
        if collision is not None or len(data) != 3 or last_bits:
            raise RfidError("SAK is not 24 bits")
        if self._frame_crc(data[:1]) != data[1:3]:
            raise RfidError("SAK CRC mismatch")
        return data[0]

    def read_uid(self, wake=True, prefer=1):
        """Wake (WUPA) or request (REQA) a tag and select it through every cascade level.

        Returns its 4, 7 or 10-byte UID, or ``None`` if no tag answered; raises
        :class:`RfidError` when a frame fails a check. The tag is left selected. ``prefer``
        is the bit chosen at each collision (see :meth:`anticollision`).
        """
        if self.request(wake) is None:
            return None
        uid = b""
        for level in range(3):
            part = self.anticollision(level, prefer)
            sak = self.select(level, part)
            if sak is None:
                raise RfidError("no SAK")
            if not sak & SAK_CASCADE:
                if level == 0 and part[0] == CASCADE_TAG:
                    raise RfidError("a single-size UID cannot start with the cascade tag")
                return uid + part[:4]
            if part[0] != CASCADE_TAG:
                raise RfidError("SAK says cascade but the cascade tag is missing")
            uid += part[1:4]
        raise RfidError("more than three cascade levels")

    def halt(self):
        """Send HLTA to the selected tag (a halted tag answers only WUPA)."""
        frame = bytes((HLTA, 0x00))
        self._transceive(frame + self._frame_crc(frame))  # success is silence

    def present(self, uid):
        """Whether the tag ``uid`` (read earlier and halted) is still in the field.

        WUPA wakes every tag; SELECT with the known UID, level by level, makes only that tag
        answer; HLTA then halts it again and sends the others back to sleep.
        """
        if self.request(True) is None:
            return False
        parts = level_bytes(uid)
        try:
            for level, part in enumerate(parts):
                sak = self.select(level, part)
                if sak is None:
                    return False
                if bool(sak & SAK_CASCADE) != (level < len(parts) - 1):
                    raise RfidError("SAK does not match the UID size")
            return True
        finally:
            self.halt()

    def scan(self, known=(), max_new=2):
        """One poll: the UIDs (bytes) in the field now; never raises :class:`RfidError`.

        ``known`` are UIDs found by earlier polls, which were halted and so no longer
        answer REQA: each is checked with :meth:`present`. Then REQA finds the tags that
        are new in the field (up to ``max_new``), one at a time, halting each. A tag that
        fails a check (BCC, CRC, a broken frame) is not reported; the failure is counted in
        :attr:`errors` and the tag, left unhalted, is asked again at the next poll.
        """
        found = []
        try:
            for uid in known:
                if self.present(uid):
                    found.append(uid)
            for _ in range(max_new):
                uid = self.read_uid(False)
                if uid is None:
                    break
                if uid not in found:
                    found.append(uid)
                self.halt()
        except RfidError as exc:
            self.errors += 1
            self.last_error = str(exc)
        return found


    def inventory(self, limit=16, failures=3):
        """Every tag in a field that has just come on, in the order read; never raises
        :class:`RfidError`.

        Each tag has just powered up, IDLE, so REQA reaches them all: each round reads one
        tag through anticollision and SELECT and halts it (a halted tag stays silent under
        REQA until the field goes off or a WUPA), and the next REQA finds the rest, until no
        tag answers. At most ``limit`` tags are read. A tag whose read fails (a bad BCC or
        CRC, a tag that left mid-read) is counted in :attr:`errors` and sent HLTA in case it
        was selected, and the next round chooses the other bit at collisions: a broken tag
        is then read last on that side, so it cannot hide the tags behind it. After
        ``failures`` failed reads the rounds stop (one broken tag fails at most three times:
        first on one side, then on the other, then alone). A tag read a second time (it did
        not halt) is a failed read too. ``OSError`` from the bus is left to the caller.
        """
        found = []
        prefer = 1
        failed = 0
        while len(found) < limit and failed < failures:
            try:
                uid = self.read_uid(False, prefer)
                if uid in found:
                    raise RfidError("a tag did not halt")
            except RfidError as exc:
                self.errors += 1
                self.last_error = str(exc)
                failed += 1
                prefer ^= 1
                self._quiet_halt()
                continue
            if uid is None:
                break
            found.append(uid)
            self._quiet_halt()
        return found

    def _quiet_halt(self):
        """HLTA, where an answer garbled by a tag is no reason to stop."""
        try:
            self.halt()
        except RfidError as exc:
            self.errors += 1
            self.last_error = str(exc)


def level_bytes(uid):
    """The 5 bytes of each cascade level of ``uid``: 4 level bytes (with the cascade tag
    0x88 before a UID that goes on) and their BCC."""
    uid = bytes(uid)
    if len(uid) == 4:
        parts = [uid]
    elif len(uid) == 7:
        parts = [bytes((CASCADE_TAG,)) + uid[:3], uid[3:]]
    elif len(uid) == 10:
        parts = [bytes((CASCADE_TAG,)) + uid[:3], bytes((CASCADE_TAG,)) + uid[3:6], uid[6:]]
    else:
        raise ValueError("a UID has 4, 7 or 10 bytes")
    return [p + bytes((p[0] ^ p[1] ^ p[2] ^ p[3],)) for p in parts]
