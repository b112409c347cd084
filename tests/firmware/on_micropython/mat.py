"""The cinema mat's firmware on MicroPython itself, against the fake bus of four RC522s.

``tests/firmware/test_fw_mat_on_micropython.py`` runs this program on MicroPython's Unix
port with the folders to put on ``sys.path`` as arguments (this folder's shims,
``tests/firmware`` for ``fake_rc522``, and ``firmware/``), as ``health.py`` is run. The real
driver, scanner, zone debounce, delivery and messages run on MicroPython's own integers,
bytes and ``json``; the virtual clock of ``fake_rc522.FakeBus`` times the scans.

Each scenario prints one line, ``<name> <JSON>``: what the mat sent (every message a hub
would read), or what a test checks (counts, the modeled scan time).
"""

import sys

for _path in sys.argv[1:]:
    sys.path.insert(0, _path)

import json  # noqa: E402

import config  # noqa: E402
import messages  # noqa: E402
from fake_rc522 import FakeBus, Tag, ntag_uid  # noqa: E402
from mat import Mat, Scanner  # noqa: E402
from mfrc522 import hexlify  # noqa: E402
from transport_serial import SerialTransport  # noqa: E402

EXIT = 3


class Stream:
    """A serial line: what the hub sends waits in ``incoming``, what the mat writes is kept."""

    def __init__(self):
        self.incoming = b""
        self.written = b""

    def read(self):
        """Up to 128 bytes from the hub."""
        data, self.incoming = self.incoming[:128], self.incoming[128:]
        return data

    def write(self, data):
        """Keep what the mat sends."""
        self.written += bytes(data)


class Rig:
    """A mat on a fake bus; :meth:`scan` turns its loop once per full scan."""

    def __init__(self, auto_ack=True):
        self.bus = FakeBus(4)
        self.clock = self.bus.clock
        self.stream = Stream()
        self.cfg = config.check({"reader": "mat-1", "kind": "mat"})
        self.scanner = Scanner(self.bus.spi, [(chip.cs, chip.rst) for chip in self.bus.chips],
                               self.cfg["rx_timeout_us"], self.cfg["startup_us"],
                               self.cfg["guard_us"], sleep_us=self.clock.sleep_us,
                               ticks_us=self.clock.ticks_us, ticks_ms=self.clock.ticks_ms)
        self.mat = Mat(self.cfg, self.scanner, SerialTransport(self.stream), 42,
                       ticks=self.clock.ticks_ms)
        self.auto_ack = auto_ack
        self.mat.start()

    def scan(self, times=1):
        """Turn the loop ``times`` times; the messages sent meanwhile (as dicts)."""
        out = []
        for _ in range(times):
            self.mat.step()
            self.clock.sleep_us(self.cfg["poll_ms"] * 1000)
            lines = [json.loads(line) for line in self.stream.written.split(b"\n") if line]
            self.stream.written = b""
            out += lines
            seqs = [m["seq"] for m in lines if "seq" in m]
            if self.auto_ack and seqs:
                self.hub({"v": 1, "type": "ack", "reader": "mat-1", "boot": 42,
                          "seq": max(seqs)})
        return out

    def hub(self, message):
        """A line from the hub."""
        self.stream.incoming += json.dumps(message).encode() + b"\n"


def states(sent):
    """The ``zones`` messages of ``sent`` as ``[zone, tags]``, each seq once."""
    seen = []
    out = []
    for msg in sent:
        if msg["type"] == "zones" and msg["seq"] not in seen:
            seen.append(msg["seq"])
            out.append([msg["zone"], msg["tags"]])
    return out


def uid(n, size=7):
    """A made-up UID as hex."""
    return hexlify(ntag_uid(n, size))


def tag(n, size=7):
    """A fake tag with :func:`uid` ``n``."""
    return Tag(ntag_uid(n, size))


def report(name, value):
    """One line for the test."""
    print(name, json.dumps(value))


def settled(rig):
    """The rig after its first two turns (hello, then every zone's state once known);
    prints what they sent."""
    report("first", rig.scan(2))
    return rig


def figure():
    """The modeled full scan of 3 + 1 + 2 + 6 tags with 7-byte UIDs."""
    rig = Rig()
    n = 0
    for zone, count in enumerate((3, 1, 2, 6)):
        for _ in range(count):
            rig.bus.place(tag(n), zone)
            n += 1
    rig.scan(2)
    chips = rig.bus.chips
    transfers, bytes_before = sum(c.transfers for c in chips), rig.bus.bytes
    rig.scan()
    report("figure", {"scan_us": rig.scanner.scan_us, "zone_us": rig.scanner.zone_us,
                      "counts": [len(z.tags) for z in rig.mat.zones],
                      "transfers": sum(c.transfers for c in chips) - transfers,
                      "bytes": rig.bus.bytes - bytes_before, "baud": rig.bus.baud,
                      "read_fail": rig.mat.health()["read_fail"]})


def debounce():
    """Set down, hover, flicker, lift."""
    rig = settled(Rig())
    pawn = rig.bus.place(tag(1), 0)
    report("set_down", [states(rig.scan()), states(rig.scan()), states(rig.scan(5))])
    rig.bus.hover(tag(2), 1)
    report("hover", [states(rig.scan(6)), rig.mat.health()["too_fast"]])
    flicker = []
    for missed in (1, 2, 1, 2):
        rig.bus.flicker(pawn, missed)
        flicker += states(rig.scan(missed + 1))
    report("flicker", [flicker, rig.mat.zones[0].tags])
    rig.bus.lift(pawn)
    report("lift", [states(rig.scan(2)), states(rig.scan()), states(rig.scan(3))])


def order_and_move():
    """Two tags in one scan, a later one, one moved to the exit zone."""
    rig = settled(Rig())
    rig.bus.place(tag(1), 2)
    rig.bus.place(tag(2), 2)
    rig.scan()
    read = [hexlify(u) for u in rig.scanner.found[2]]
    together = states(rig.scan())
    rig.bus.place(tag(3), 2)
    later = states(rig.scan(2))
    report("order", {"read": read, "together": together, "later": later})
    movie = rig.bus.chips[2].tags[0]
    rig.bus.move(movie, EXIT)
    sent = rig.scan(3)
    report("move", {"uid": hexlify(movie.uid), "states": states(sent),
                    "seqs": [m["seq"] for m in sent if m["type"] == "zones"]})


def many():
    """Twelve tags on the exit zone; the chips' isolation while it is read."""
    rig = settled(Rig())
    for n in range(12):
        rig.bus.place(tag(n), EXIT)
    rig.bus.place(tag(20), 0)
    sent = rig.scan(2)
    report("twelve", {"states": states(sent), "expected": [uid(n) for n in range(12)],
                      "read_fail": rig.mat.health()["read_fail"]})
    report("isolation", {"overlaps": rig.bus.overlaps, "couplings": rig.bus.couplings,
                         "in_reset": [c.in_reset for c in rig.bus.chips],
                         "unready_bytes": sum(c.unready_bytes for c in rig.bus.chips)})


def delivery():
    """hello re-sends every zone; unacked states are resent until acked."""
    rig = settled(Rig())
    rig.bus.place(tag(1), 0)
    rig.bus.place(tag(2), EXIT)
    rig.scan(2)
    rig.hub({"v": 1, "type": "resync"})
    report("hello", rig.scan())
    rig = Rig(auto_ack=False)
    rig.scan(2)
    rig.hub({"v": 1, "type": "ack", "reader": "mat-1", "boot": 42, "seq": 4})
    rig.bus.place(tag(1), 1)
    sent = rig.scan(60)
    rig.hub({"v": 1, "type": "ack", "reader": "mat-1", "boot": 42, "seq": 5})
    rig.scan()
    after = rig.scan(60)
    report("resend", {"fives": len([m for m in sent if m.get("seq") == 5]),
                      "after": len([m for m in after if m["type"] == "zones"]),
                      "pending": rig.mat.delivery.pending})


def bad():
    """A dead chip on zone 1, a tag with a bad CRC among good ones on the exit zone."""
    rig = settled(Rig())
    rig.bus.place(tag(1), 1)
    rig.scan(2)
    rig.bus.chips[1].dead = True
    for n in range(4):
        rig.bus.place(tag(10 + n), EXIT)
    rig.bus.place(Tag(ntag_uid(9), bad_crc=True), EXIT)
    sent = rig.scan(4)
    report("bad", {"states": states(sent), "zone1": rig.mat.zones[1].tags,
                   "expected": [uid(10 + n) for n in range(4)],
                   "read_fail": rig.mat.health()["read_fail"],
                   "step_errors": rig.mat.step_errors})
    rig.clock.sleep_us(5000000)
    report("heartbeat", [m for m in rig.scan() if m["type"] == "heartbeat"])


def main():
    """Every scenario, then the longest ``zones`` message."""
    figure()
    debounce()
    order_and_move()
    many()
    delivery()
    bad()
    longest = messages.zones("r" * 32, messages.MAX_U32, messages.MAX_U32, 7,
                             [uid(n, 10) for n in range(16)])
    print("longest", longest.decode())


main()
