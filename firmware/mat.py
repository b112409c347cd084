"""The cinema mat: zones, not taps (protocol v2, ``docs/protocol.md``, "Mats").

A mat lies under a player's cinema board. One ESP32 reads several **zones** (a Popcorn
cinema: its three theater slots, 0 to 2 from left to right, and its exit zone, 3), each
through its own MFRC522 and antenna. The chips share one SPI bus; each has its own chip
select and its own reset line (NRSTPD), and every chip but the one being scanned is held in
reset, so that no two antennas are live at once (``hardware/mat/``).

:class:`Scanner` reads every zone in turn. For one zone it

1. takes the zone's chip out of reset and waits its oscillator's start-up time
   (``startup_us``: the crystal's start-up plus the 37.74 us the datasheet adds before the
   chip can be addressed);
2. sets the chip up (its registers came back from reset at their reset values, so no
   SoftReset), with a short reply timeout (``rx_timeout_us``) instead of the bag reader's
   10 ms: an empty field costs one timeout, and so does each HLTA, whose success is
   silence. The chip checks that it kept what was written (a chip that was not started yet
   would have lost it);
3. switches the antenna on and waits ``guard_us`` for the tags to power up (ISO 14443-3
   lets a tag take up to 5 ms);
4. reads every tag in the field (:meth:`mfrc522.MFRC522.inventory`: REQA, anticollision,
   SELECT and HLTA, one tag at a time, until no tag answers), at most 16;
5. puts the chip back into reset: its field goes off and its tags lose power, so at the
   next scan they are all IDLE again and REQA finds them.

A chip that does not answer, or a bus error, fails that zone's scan only; it is counted in
``read_fail`` and the zone keeps its state (a mat cannot tell an unread zone from an empty
one, and must not report moves it did not see). A tag whose read fails is counted too and
left out of that scan only. For the same reason a zone's state is sent only once the zone is
known (:meth:`zones.ZoneTags.known`: read in two scans since start): the first hello after a
restart is followed by each zone's state as soon as it is known, not by an "empty" that
would tell the hub every tag had left.

:class:`Mat` is the reader's main loop (:class:`app.App`) with zone states for taps: each
scan feeds every zone's :class:`zones.ZoneTags` (2 scans in a row to arrive, 3 missed to
leave, arrival order kept), and a zone whose settled tags changed gets a ``zones`` message
with the next seq, delivered as taps are (:mod:`delivery`: kept until acked, resent). At
every ``hello`` (start, reconnection, the hub's ``resync``) every zone's state goes out
again: a zone whose latest state is still unacked is in the resend that follows the hello;
the others get a new message. A state the outbox had no room for is sent at a later scan.
"""

import messages
from app import App, make_transport, safe_mode_held
from compat import sleep_us, ticks_diff, ticks_ms, ticks_us
from mfrc522 import MFRC522, RfidError, hexlify
from zones import ZONE_LIMIT, ZoneTags


class Scanner:
    """Every zone's MFRC522 on one SPI bus, scanned one zone at a time.

    ``zones`` are ``(cs, rst)`` pin pairs, zone 0 first. ``sleep_us``, ``ticks_us`` and
    ``ticks_ms`` are the clock (a test gives its virtual one).
    """

    def __init__(self, spi, zones, rx_timeout_us=400, startup_us=1000, guard_us=1000,
                 limit=ZONE_LIMIT, sleep_us=sleep_us, ticks_us=ticks_us,
                 ticks_ms=ticks_ms):
        self.readers = [MFRC522(spi, cs, rst, ticks=ticks_ms, soft_crc=True)
                        for cs, rst in zones]
        self.rx_timeout_us, self.startup_us, self.guard_us = rx_timeout_us, startup_us, guard_us
        self.limit = limit
        self.sleep_us, self.ticks_us = sleep_us, ticks_us
        self.failures = 0
        """Zone scans that failed as a whole (a chip that did not answer, a bus error)."""
        self.last_error = None
        self.zone_us = [0] * len(self.readers)
        """How long each zone's last scan took, in microseconds."""
        self.found = [None] * len(self.readers)
        """What each zone's last scan read (:meth:`scan_zone`'s answer)."""
        self.scan_us = None
        """How long the last full scan took, in microseconds (``None`` before the first)."""

    @property
    def errors(self):
        """Failed reads since start: tags the driver rejected and zone scans that failed."""
        return self.failures + sum(reader.errors for reader in self.readers)

    def init(self):
        """Hold every zone's chip in reset (the state between scans)."""
        for reader in self.readers:
            reader.rst.value(0)

    def scan_zone(self, zone):
        """Scan one zone: the UIDs (bytes) read there in the order read, or ``None`` when
        the zone could not be read at all. The chip is back in reset afterwards."""
        reader = self.readers[zone]
        start = self.ticks_us()
        reader.rst.value(1)
        try:
            self.sleep_us(self.startup_us)
            reader.init(soft_reset=False, timeout_us=self.rx_timeout_us)
            if self.guard_us:
                self.sleep_us(self.guard_us)
            return reader.inventory(self.limit)
        except (RfidError, OSError) as exc:
            self.failures += 1
            self.last_error = "zone " + str(zone) + ": " + str(exc)
            return None
        finally:
            reader.rst.value(0)
            self.zone_us[zone] = ticks_diff(self.ticks_us(), start)

    def scan(self):
        """Scan every zone in turn; a list with :meth:`scan_zone`'s answer for each."""
        start = self.ticks_us()
        self.found = [self.scan_zone(zone) for zone in range(len(self.readers))]
        self.scan_us = ticks_diff(self.ticks_us(), start)
        return self.found


class Mat(App):
    """A cinema mat's main loop: the bag reader's (:class:`app.App`), reporting zones."""

    PROTOCOL = messages.MAT_VERSION

    def __init__(self, cfg, scanner, transport, boot, wdt=None, ticks=ticks_ms, log=None,
                 supply=None):
        super().__init__(cfg, scanner, transport, boot, None, wdt, ticks, log, supply)
        count = len(scanner.readers)
        self.zones = [ZoneTags(capacity=ZONE_LIMIT) for _ in range(count)]
        """Each zone's :class:`~zones.ZoneTags`, zone 0 first."""
        self.scans = 0
        """Full scans since start."""
        self._dirty = [False] * count  # the zone's state is still to be sent
        self._sent = [0] * count  # the seq of each zone's latest state message

    def scan(self, now):
        """Scan every zone, update their settled tags, and send the states that changed (and
        those a hello asked for that were not known yet)."""
        found = self.rfid.scan()
        self.scans += 1
        for zone, uids in enumerate(found):
            if uids is None:
                continue
            state = self.zones[zone]
            was_known = state.known()
            if state.update([hexlify(uid) for uid in uids]) or (
                    state.known() and not was_known and not self._sent[zone]):
                self._dirty[zone] = True
        self._flush(now)

    def on_hello(self, now):
        """After a hello and its resend: every zone's state that the resend did not carry."""
        for zone in range(len(self.zones)):
            if not self.delivery.outbox.holds(self._sent[zone]):
                self._dirty[zone] = True
        self._flush(now)

    def _flush(self, now):
        for zone in range(len(self.zones)):
            if not self._dirty[zone] or not self.zones[zone].known():
                continue
            seq = self.delivery.event(self._state(zone), now)
            if not seq:  # the outbox is full: this zone (and the next) at a later scan
                return
            self._sent[zone] = seq
            self._dirty[zone] = False

    def _state(self, zone):
        """What builds ``zone``'s ``zones`` message once its seq is known."""
        tags = list(self.zones[zone].tags)
        return lambda seq: messages.zones(self.reader, self.delivery.boot, seq, zone, tags)

    def health(self):
        """The bag reader's health fields (``read_fail`` counts every zone's failed reads
        and failed zone scans), with ``too_fast`` the tags that hovered over a zone without
        settling, and ``scan_ms`` the last full scan's time."""
        out = App.health(self)
        out["too_fast"] = sum(zone.hovered for zone in self.zones)
        if self.rfid.scan_us is not None:
            out["scan_ms"] = min(messages.MAX_SCAN_MS, (self.rfid.scan_us + 500) // 1000)
        return out


def main(cfg, state_path="state.json", stream=None, stop=None, safe_window_ms=1500):
    """Build the mat from the checked config ``cfg`` and the board, and run it.

    Called by :func:`app.main` when the config says ``"kind": "mat"``. As for a bag reader,
    holding the safe-mode button during the first ``safe_window_ms`` stops the firmware
    there (a mat has no LED to show the window: press reset, then hold BOOT at once).
    """
    import app
    import board
    import persist

    hw = board.load_mat(cfg["board"], cfg["pins"], cfg["supply_divider"], cfg["zones"],
                        cfg["spi_baud"])
    if safe_mode_held(hw, safe_window_ms):
        return None
    boot = persist.next_boot(state_path)
    transport, log = make_transport(cfg, stream)
    scanner = Scanner(hw.spi, hw.zones, cfg["rx_timeout_us"], cfg["startup_us"],
                      cfg["guard_us"])
    wdt = hw.watchdog(cfg["watchdog_ms"])
    mat = app.current = Mat(cfg, scanner, transport, boot, wdt, log=log,
                            supply=hw.supply_mv if hw.supply is not None else None)
    try:
        mat.run(stop)
    except KeyboardInterrupt:
        hw.keep_fed(wdt)
    mat.close()
    return mat
