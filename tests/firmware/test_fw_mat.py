"""The cinema mat's firmware on a fake bus of four RC522s with a virtual clock (issue 40).

The real driver (``mfrc522.py``), scanner and main loop (``mat.py``) and zone debounce
(``zones.py``) run against ``fake_rc522.FakeBus``: one register-level chip per zone, each
with its own chip select and reset line, tags placed, lifted, moved and made to flicker,
and a clock that moves with every SPI byte, every frame on the air, every reply timeout and
every start-up the firmware waits for. One step of the rig is one turn of the mat's loop,
which scans every zone once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import app as firmware
import board
import board_esp32
import config
import machine
import messages
import mfrc522
import pytest
from mat import Mat, Scanner
from mfrc522 import hexlify
from transport_mqtt import MqttTransport
from transport_serial import SerialTransport
from zones import ZoneTags

from tests.firmware.fake_rc522 import (
    FDT_NS,
    FakeBus,
    FakeRC522,
    Tag,
    ntag_uid,
    reader_frame_ns,
    tag_frame_ns,
)
from tests.firmware.fake_rc522 import crc_a as fake_crc_a
from tests.firmware.harness import MemoryStream

FULL_SCAN_BUDGET_MS = 100
"""Issue 40: a full scan of four zones holding 12 tags takes at most this long."""
EXIT = 3
"""The exit zone of a Popcorn cinema mat."""


class MatRig:
    """A mat on a fake bus and an in-memory serial line; :meth:`scan` turns its loop once."""

    def __init__(self, zones: int = 4, auto_ack: bool = True, **options: Any) -> None:
        self.bus = FakeBus(zones)
        self.clock = self.bus.clock
        self.stream = MemoryStream()
        self.cfg = config.check({"reader": "mat-1", "kind": "mat", "zones": zones, **options})
        self.scanner = Scanner(self.bus.spi, [(chip.cs, chip.rst) for chip in self.bus.chips],
                               self.cfg["rx_timeout_us"], self.cfg["startup_us"],
                               self.cfg["guard_us"], sleep_us=self.clock.sleep_us,
                               ticks_us=self.clock.ticks_us, ticks_ms=self.clock.ticks_ms)
        self.mat = Mat(self.cfg, self.scanner, SerialTransport(self.stream), boot=42,
                       ticks=self.clock.ticks_ms)
        self.auto_ack = auto_ack
        self.sent: list[dict[str, Any]] = []
        self.mat.start()

    def scan(self, times: int = 1) -> list[dict[str, Any]]:
        """Turn the loop ``times`` times (one full scan each, then ``poll_ms`` of idling);
        the messages sent meanwhile. With ``auto_ack`` the hub acks every message at once."""
        out: list[dict[str, Any]] = []
        for _ in range(times):
            self.mat.step()
            self.clock.sleep_us(self.cfg["poll_ms"] * 1000)
            lines = [json.loads(line) for line in self.stream.lines()]
            out += lines
            seqs = [msg["seq"] for msg in lines if "seq" in msg]
            if self.auto_ack and seqs:  # acks are cumulative: the highest one says it all
                self.hub({"v": 1, "type": "ack", "reader": "mat-1", "boot": 42,
                          "seq": max(seqs)})
        self.sent += out
        return out

    def hub(self, message: dict[str, Any]) -> None:
        """A line from the hub, read at the next turn."""
        self.stream.feed(json.dumps(message).encode() + b"\n")


def states(sent: list[dict[str, Any]]) -> list[tuple[int, list[str]]]:
    """The ``zones`` messages among ``sent`` as ``(zone, tags)``, each seq once."""
    seen: set[int] = set()
    out = []
    for msg in sent:
        if msg["type"] == "zones" and msg["seq"] not in seen:
            seen.add(msg["seq"])
            out.append((msg["zone"], msg["tags"]))
    return out


def uid(n: int, size: int = 7) -> str:
    """A made-up UID as hex."""
    return ntag_uid(n, size).hex()


def tag(n: int, size: int = 7) -> Tag:
    """A fake tag with :func:`uid` ``n``."""
    return Tag(ntag_uid(n, size))


def settled(rig: MatRig) -> MatRig:
    """The rig after its first two turns: hello, then every zone's state once known (read
    in two scans)."""
    assert [m["type"] for m in rig.scan()] == ["hello"]
    assert [m["type"] for m in rig.scan()] == ["zones"] * len(rig.bus.chips)
    return rig


# -- what a zone reports -------------------------------------------------------------------


def test_hello_says_v2_and_each_zone_follows_once_known() -> None:
    """The first turn greets with ``"v": 2``; each zone's state follows once the zone has
    been read in two scans, so tags lying there since before a restart are in it (an early
    "empty" would tell the hub they had all left)."""
    rig = MatRig()
    rig.bus.place(tag(1), 2)
    assert rig.scan() == [{"v": 2, "type": "hello", "reader": "mat-1", "boot": 42,
                           "fw": firmware.FW_VERSION, "unacked": 0}]
    assert rig.scan() == [{"v": 2, "type": "zones", "reader": "mat-1", "boot": 42, "seq": s,
                           "zone": s - 1, "tags": [uid(1)] if s == 3 else []}
                          for s in (1, 2, 3, 4)]
    assert rig.scan(5) == []


def test_a_zone_never_read_is_never_reported() -> None:
    """A chip dead from the start: its zone's state is unknown, so no ``zones`` message
    claims it is empty; the others are reported, and a resync does not change that."""
    rig = MatRig()
    rig.bus.chips[1].dead = True
    rig.scan(2)
    rig.hub({"v": 1, "type": "resync"})
    rig.scan()
    assert sorted({zone for zone, _ in states(rig.sent)}) == [0, 2, 3]
    assert rig.mat.health()["read_fail"] == 3


def test_a_tag_set_down_is_reported_once_after_two_scans() -> None:
    """Read in one scan: nothing yet; in the second: one ``zones`` message; then silence."""
    rig = settled(MatRig())
    rig.bus.place(tag(1), 0)
    assert states(rig.scan()) == []
    assert states(rig.scan()) == [(0, [uid(1)])]
    assert states(rig.scan(10)) == []


def test_a_hovering_tag_is_never_reported() -> None:
    """A hand carrying a tag over a zone for one scan is no move; it counts as too fast."""
    rig = settled(MatRig())
    hand = rig.bus.hover(tag(1), 1)
    assert states(rig.scan(6)) == []
    assert rig.mat.health()["too_fast"] == 1 and rig.bus.zone_of(hand) is None
    rig.bus.hover(tag(2), 2, scans=2)  # two scans: long enough to count
    assert states(rig.scan()) == [] and states(rig.scan()) == [(2, [uid(2)])]
    assert states(rig.scan(2)) == [] and states(rig.scan()) == [(2, [])]


@pytest.mark.parametrize("missed", [1, 2])
def test_a_flickering_tag_never_leaves(missed: int) -> None:
    """A resting tag missed by one or two scans in a row stays on its zone."""
    rig = settled(MatRig())
    pawn = rig.bus.place(tag(1), 2)
    assert states(rig.scan(2)) == [(2, [uid(1)])]
    for _ in range(3):
        rig.bus.flicker(pawn, missed)
        assert states(rig.scan(missed + 1)) == []
    assert rig.mat.zones[2].tags == [uid(1)]


def test_a_lifted_tag_leaves_after_three_missed_scans() -> None:
    """Missed in three scans in a row: the zone's state without it, once."""
    rig = settled(MatRig())
    pawn = rig.bus.place(tag(1), 0)
    rig.scan(2)
    rig.bus.lift(pawn)
    assert states(rig.scan(2)) == []
    assert states(rig.scan()) == [(0, [])]
    assert states(rig.scan(5)) == []


def test_tags_set_down_together_keep_the_scans_order_and_later_ones_go_last() -> None:
    """Two tags in one scan: in the order the scan read them; a later one after them; one
    that leaves and comes back goes last; the others keep their places."""
    rig = settled(MatRig())
    a, b, c = tag(1), tag(2), tag(3)
    rig.bus.place(a, EXIT)
    rig.bus.place(b, EXIT)
    rig.scan()
    read_order = [hexlify(u) for u in rig.scanner.found[EXIT]]
    assert sorted(read_order) == sorted([uid(1), uid(2)])
    assert states(rig.scan()) == [(EXIT, read_order)]
    rig.bus.place(c, EXIT)
    assert states(rig.scan(2)) == [(EXIT, read_order + [uid(3)])]
    first = a if read_order[0] == uid(1) else b
    rig.bus.lift(first)
    rest = read_order[1:] + [uid(3)]
    assert states(rig.scan(3)) == [(EXIT, rest)]
    rig.bus.place(first, EXIT)
    assert states(rig.scan(2)) == [(EXIT, rest + [read_order[0]])]


def test_moving_a_tag_from_a_theater_to_the_exit_gives_two_zones_messages() -> None:
    """The exit zone gains it two scans after the move, the theater loses it a scan later
    (3 missed scans): two states, each with its own seq."""
    rig = settled(MatRig())
    movie = rig.bus.place(tag(7), 1)
    assert states(rig.scan(2)) == [(1, [uid(7)])]
    rig.bus.move(movie, EXIT)
    sent = rig.scan(3)
    assert states(sent) == [(EXIT, [uid(7)]), (1, [])]
    seqs = [m["seq"] for m in sent if m["type"] == "zones"]
    assert seqs == sorted(set(seqs)) and len(seqs) == 2


def test_twelve_tags_on_the_exit_zone_are_all_read() -> None:
    """Anticollision across many tags: twelve 7-byte UIDs on one zone, every one read in
    every scan, none twice, no read failing."""
    rig = settled(MatRig())
    for n in range(12):
        rig.bus.place(tag(n), EXIT)
    sent = rig.scan(2)
    ((zone, tags),) = states(sent)
    assert zone == EXIT and sorted(tags) == sorted(uid(n) for n in range(12))
    assert rig.mat.health()["read_fail"] == 0
    collisions = [f for f, bits in rig.bus.chips[EXIT].frames if bits not in (7, 32, 72)]
    assert len(collisions) > 24, "the tags must have collided"


def test_a_zone_of_more_than_sixteen_tags_sends_the_newest_and_the_count() -> None:
    """A ``zones`` message lists 16 tags: a zone holding 20 sends the 16 that arrived last,
    and ``count`` 20; one more set down is among the 16 of the next message."""
    rig = settled(MatRig())
    for n in range(20):
        rig.bus.place(tag(n, 4), EXIT)
    sent = [m for m in rig.scan(2) if m["type"] == "zones"]
    assert [(m["zone"], len(m["tags"]), m["count"]) for m in sent] == [(EXIT, 16, 20)]
    rig.bus.place(tag(20, 4), EXIT)
    sent = [m for m in rig.scan(2) if m["type"] == "zones"]
    assert sent[-1]["count"] == 21 and sent[-1]["tags"][-1] == uid(20, 4)


def test_the_idle_chips_are_in_reset_during_another_zones_scan() -> None:
    """While a zone's chip sends a frame, every other chip is held in reset, so no two
    fields are ever on together; between scans every chip is in reset; the chip loses its
    registers in reset, so each scan sets it up again."""
    rig = settled(MatRig())
    for zone in range(4):
        rig.bus.place(tag(zone), zone)
    rig.scan(3)
    assert rig.bus.overlaps == 0 and rig.bus.couplings == 0
    assert all(chip.in_reset for chip in rig.bus.chips)
    assert all(chip.resets >= 4 for chip in rig.bus.chips)
    assert all(chip.unready_bytes == 0 for chip in rig.bus.chips), "spoke to a chip in reset"
    assert [z.tags for z in rig.mat.zones] == [[uid(zone)] for zone in range(4)]


def test_the_bus_sees_chips_left_out_of_reset() -> None:
    """The fake's check can fail: a chip left out of reset during another's scan is an
    overlap, and two fields on together a coupling."""
    rig = settled(MatRig())
    rig.bus.place(tag(1), 0)
    rig.bus.chips[1].rst.value(1)
    rig.clock.sleep_us(2000)
    rig.scanner.readers[1].init(soft_reset=False)  # its field on, and it stays on
    rig.scanner.scan_zone(0)
    assert rig.bus.overlaps > 0 and rig.bus.couplings == 1


def test_the_scanner_waits_for_the_oscillator_and_the_tags() -> None:
    """Too short a start-up wait finds a chip that lost what was written (a failed zone,
    counted); too short a guard after the field comes on finds no tag yet."""
    rig = MatRig(startup_us=100)
    rig.bus.place(tag(1), 0)
    assert rig.scanner.scan_zone(0) is None
    assert "not ready" in rig.scanner.last_error and rig.scanner.errors == 1
    rig = MatRig(guard_us=0)
    rig.bus.place(tag(1), 0)
    assert rig.scanner.scan_zone(0) == []
    rig = MatRig()
    rig.bus.place(tag(1), 0)
    assert rig.scanner.scan_zone(0) == [ntag_uid(1)]


def test_the_reply_timeout_is_short_and_set_in_the_chips_timer() -> None:
    """``rx_timeout_us`` goes into TReloadReg: an empty zone costs its start-up, its guard
    and one short timeout, not the 25 ms a common driver waits."""
    rig = MatRig()
    rig.scanner.readers[0].rst.value(1)
    rig.clock.sleep_us(2000)
    rig.scanner.readers[0].init(soft_reset=False, timeout_us=400)
    assert 400_000 <= rig.bus.chips[0].timer_ns() <= 450_000
    rig = MatRig()
    rig.scanner.scan_zone(0)
    assert rig.scanner.zone_us[0] <= 1000 + 1000 + 600
    too_short = MatRig()  # below the frame delay time and 5 bits: the chip hears no tag
    too_short.scanner.rx_timeout_us = 100
    too_short.bus.place(tag(1), 0)
    assert too_short.scanner.scan_zone(0) == []


def test_the_full_scan_of_twelve_tags_fits_in_100_ms_of_modeled_time() -> None:
    """Four zones holding 3 + 1 + 2 + 6 tags with 7-byte UIDs: the modeled full scan (SPI
    bytes at 4 MHz, the air at 106 kbit/s, reply timeouts, start-ups, guards) takes at most
    100 ms, and the heartbeat says so in ``scan_ms``."""
    rig = settled(MatRig())
    n = 0
    for zone, count in enumerate((3, 1, 2, 6)):
        for _ in range(count):
            rig.bus.place(tag(n), zone)
            n += 1
    rig.scan(2)
    scan_us = rig.scanner.scan_us
    print(f"mat: full scan of 4 zones holding 3 + 1 + 2 + 6 tags: {scan_us / 1000:.1f} ms "
          f"(zones: {', '.join(f'{us / 1000:.1f}' for us in rig.scanner.zone_us)} ms)")
    assert [len(z.tags) for z in rig.mat.zones] == [3, 1, 2, 6]
    assert scan_us <= FULL_SCAN_BUDGET_MS * 1000
    assert sum(rig.scanner.zone_us) <= scan_us
    assert rig.mat.health()["scan_ms"] == (scan_us + 500) // 1000


# -- delivery --------------------------------------------------------------------------------


def test_hello_resends_every_zones_state() -> None:
    """After a ``resync``: hello, then the state of every zone, acked ones under new seqs."""
    rig = settled(MatRig())
    rig.bus.place(tag(1), 0)
    rig.bus.place(tag(2), EXIT)
    rig.scan(2)
    rig.hub({"v": 1, "type": "resync"})
    sent = rig.scan()
    assert sent[0]["type"] == "hello" and sent[0]["v"] == 2
    assert states(sent) == [(0, [uid(1)]), (1, []), (2, []), (EXIT, [uid(2)])]


def test_a_hello_does_not_double_an_unacked_state() -> None:
    """A zone whose latest state waits for its ack goes out again in the resend after the
    hello, under its own seq; only the other zones get new messages."""
    rig = settled(MatRig(auto_ack=False))
    rig.hub({"v": 1, "type": "ack", "reader": "mat-1", "boot": 42, "seq": 4})
    rig.bus.place(tag(1), 1)
    sent = rig.scan(2)
    assert [(m["seq"], m["zone"]) for m in sent if m["type"] == "zones"] == [(5, 1)]
    rig.hub({"v": 1, "type": "resync"})
    sent = rig.scan()
    assert [m["type"] for m in sent][:2] == ["hello", "zones"]
    assert sent[0]["unacked"] == 5
    assert [(m["seq"], m["zone"]) for m in sent if m["type"] == "zones"] == [
        (5, 1), (6, 0), (7, 2), (8, 3)]


class SilentBroker:
    """An MQTT transport whose hub never answers: it keeps what the mat publishes."""

    name = "mqtt"

    def __init__(self) -> None:
        self.published: list[dict[str, Any]] = []
        self._fresh = True

    def poll(self, now: int) -> list[bytes]:
        """Nothing from the hub."""
        return []

    def take_connected(self) -> bool:
        """Connected once, at start."""
        fresh, self._fresh = self._fresh, False
        return fresh

    def send(self, payload: bytes) -> bool:
        """Publish."""
        self.published.append(json.loads(payload))
        return True

    def close(self) -> None:
        """Nothing to close."""


def test_repeated_mqtt_hellos_do_not_pile_up_states() -> None:
    """Over MQTT the mat repeats hello until the hub acks its boot; each zone's state stays
    one unacked message (resent after each hello), not one more per hello."""
    rig = MatRig()
    broker = SilentBroker()
    mat = Mat(rig.cfg, rig.scanner, broker, boot=43, ticks=rig.clock.ticks_ms)
    mat.start()
    rig.bus.place(tag(1), EXIT)
    for _ in range(120):  # about 10 s: three more hellos
        mat.step()
        rig.clock.sleep_us(70_000)
    hellos = [m for m in broker.published if m["type"] == "hello"]
    assert len(hellos) >= 3
    seqs = {m["seq"] for m in broker.published if m["type"] == "zones"}
    assert seqs == {1, 2, 3, 4} and mat.delivery.pending == 4
    exit_state = [m["tags"] for m in broker.published if m.get("zone") == EXIT]
    assert exit_state and all(tags == [uid(1)] for tags in exit_state)


def test_states_are_resent_until_acked() -> None:
    """Unacked states go out again every ``resend_ms``; an ack stops them."""
    rig = settled(MatRig(auto_ack=False))
    rig.bus.place(tag(1), 0)
    sent = rig.scan(60)  # more than a second of scans
    fives = [m for m in sent if m.get("seq") == 5]
    assert len(fives) >= 2 and all(m["tags"] == [uid(1)] for m in fives)
    rig.hub({"v": 1, "type": "ack", "reader": "mat-1", "boot": 42, "seq": 5})
    rig.scan()
    assert [m for m in rig.scan(60) if m["type"] == "zones"] == []
    assert rig.mat.delivery.pending == 0


def test_a_full_outbox_sends_the_state_later() -> None:
    """When the hub has been away long enough to fill the outbox, a changed zone's state
    waits and goes out once there is room: the latest state, not a lost one."""
    rig = settled(MatRig(auto_ack=False, buffer=5))
    pawn = rig.bus.place(tag(1), 0)
    rig.scan(2)  # seq 5: the outbox is full
    rig.bus.lift(pawn)
    rig.bus.place(tag(2), 1)
    rig.scan(4)
    assert rig.mat.delivery.refused > 0
    rig.hub({"v": 1, "type": "ack", "reader": "mat-1", "boot": 42, "seq": 5})
    sent = rig.scan()
    assert sorted(states(sent)) == [(0, []), (1, [uid(2)])]


def test_the_heartbeat_is_v2_and_carries_the_scan_time() -> None:
    """Every 5 s: ``"v": 2``, ``scan_ms``, ``read_fail`` and ``too_fast``."""
    rig = settled(MatRig())
    rig.clock.sleep_us(5_000_000)
    beats = [m for m in rig.scan() if m["type"] == "heartbeat"]
    assert beats and beats[0]["v"] == 2
    assert set(beats[0]) == {"v", "type", "reader", "boot", "uptime", "read_fail",
                             "too_fast", "scan_ms"}
    assert 0 < beats[0]["scan_ms"] < FULL_SCAN_BUDGET_MS


def test_the_mat_ignores_feedback() -> None:
    """A mat has no LED: ``feedback`` is accepted and changes nothing."""
    rig = settled(MatRig())
    rig.hub({"v": 1, "type": "feedback", "reader": "mat-1", "level": "ok"})
    assert rig.scan() == [] and rig.mat.ignored == 0


# -- the message -----------------------------------------------------------------------------


def test_the_longest_zones_message_fits_in_512_bytes() -> None:
    """16 ten-byte UIDs, the longest reader id, every number at its widest: under 512 bytes
    with the serial line's newline."""
    tags = [uid(n, 10) for n in range(16)]
    line = messages.zones("r" * 32, messages.MAX_U32, messages.MAX_U32, 7, tags)
    assert len(line) + 1 < messages.MAX_MESSAGE
    msg = json.loads(line)
    assert msg == {"v": 2, "type": "zones", "reader": "r" * 32, "boot": messages.MAX_U32,
                   "seq": messages.MAX_U32, "zone": 7, "tags": tags}
    more = json.loads(messages.zones("r" * 32, messages.MAX_U32, messages.MAX_U32, 7,
                                     [uid(99, 10), *tags]))
    assert more["tags"] == tags and more["count"] == 17, "the newest 16, and the count"
    assert len(messages.zones("r" * 32, messages.MAX_U32, messages.MAX_U32, 7,
                              [uid(99, 10), *tags])) + 1 < messages.MAX_MESSAGE
    tricky = {"a": 'b, "c": d \\', "e": [1, 2]}  # blanks and quotes inside a string stay
    assert messages._unblank(json.dumps(tricky)) == json.dumps(tricky, separators=(",", ":"))


def test_a_mats_mqtt_status_and_last_will_say_v2() -> None:
    """Over MQTT the retained status and the last will carry the mat's version."""

    class Client:
        published: list[tuple[bytes, bytes]] = []

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.sock = None

        def set_callback(self, f: Any) -> None:
            pass

        def set_last_will(self, topic: bytes, msg: bytes, retain: bool = False,
                          qos: int = 0) -> None:
            Client.published.append((topic, msg))

        def connect(self, clean_session: bool = True, timeout: Any = None) -> int:
            return 0

        def subscribe(self, topic: bytes, qos: int = 0) -> None:
            pass

        def publish(self, topic: bytes, msg: bytes, retain: bool = False, qos: int = 0) -> None:
            Client.published.append((topic, msg))

    class Station:
        def isconnected(self) -> bool:
            return True

    cfg = config.check({"reader": "mat-1", "kind": "mat", "transport": "mqtt",
                        "wifi_ssid": "w", "mqtt_host": "h"})
    transport = MqttTransport(cfg, Station(), Client)
    transport.poll(0)
    assert [json.loads(msg)["v"] for _, msg in Client.published] == [2, 2]


# -- bad cases -------------------------------------------------------------------------------


def test_a_chip_that_does_not_answer_does_not_stop_the_scan() -> None:
    """A dead chip on zone 1: the other zones are read, zone 1 keeps its state, and every
    failed scan of it counts in ``read_fail``."""
    rig = settled(MatRig())
    rig.bus.place(tag(1), 1)
    rig.bus.place(tag(2), 2)
    rig.scan(2)
    rig.bus.chips[1].dead = True
    rig.bus.place(tag(3), 0)
    sent = rig.scan(4)
    assert states(sent) == [(0, [uid(3)])]
    assert rig.mat.zones[1].tags == [uid(1)], "an unread zone is not an empty one"
    assert rig.mat.health()["read_fail"] == 4
    assert rig.mat.step_errors == 0


def test_a_crc_error_on_one_tag_does_not_hide_the_others() -> None:
    """A tag whose SAK has a bad CRC_A is never reported, each failure is counted, and the
    tags beside it on the same zone, and the other zones, are still read."""
    rig = settled(MatRig())
    for n in range(5):
        rig.bus.place(tag(n), EXIT)
    rig.bus.place(Tag(ntag_uid(9), bad_crc=True), EXIT)
    rig.bus.place(tag(10), 0)
    sent = rig.scan(2)
    assert sorted(states(sent)) == sorted([(0, [uid(10)]), (EXIT, rig.mat.zones[EXIT].tags)])
    assert sorted(rig.mat.zones[EXIT].tags) == sorted(uid(n) for n in range(5))
    assert 2 <= rig.mat.health()["read_fail"] <= 2 * 3, "at most 3 failures a zone scan"
    assert rig.scanner.scan_us <= FULL_SCAN_BUDGET_MS * 1000


def test_a_tag_that_does_not_halt_is_read_once_and_the_others_too() -> None:
    """A tag that ignores HLTA answers the next REQA again: that is a failed read, not a
    second tag, and the tags beside it are still read."""
    rig = MatRig()
    for n in range(4):
        rig.bus.place(tag(n), EXIT)
    stuck = rig.bus.place(Tag(ntag_uid(9), no_halt=True), EXIT)
    found = rig.scanner.scan_zone(EXIT)
    assert sorted(found) == sorted([ntag_uid(n) for n in range(4)] + [stuck.uid])
    assert 1 <= rig.scanner.errors <= 3 and "did not halt" in rig.scanner.readers[EXIT].last_error


def test_a_bus_error_fails_one_zone_only() -> None:
    """An ``OSError`` from the SPI bus during a zone's scan: that zone is skipped and
    counted, its chip back in reset, the loop goes on."""
    rig = settled(MatRig())
    rig.bus.place(tag(1), 0)
    rig.bus.place(tag(2), 2)
    real = rig.bus.exchange
    failed = []

    def flaky(mosi: int) -> int:
        if rig.bus.chips[2]._selected and not failed:
            failed.append(rig.clock.ns)
            raise OSError("SPI timeout")
        return real(mosi)

    rig.bus.exchange = flaky  # type: ignore[method-assign]
    rig.scan()
    assert failed and rig.scanner.failures == 1 and rig.bus.chips[2].in_reset
    assert rig.scanner.found[2] is None and rig.scanner.found[0] == [ntag_uid(1)]
    rig.scan(2)
    assert [z.tags for z in rig.mat.zones] == [[uid(1)], [], [uid(2)], []]
    assert rig.mat.step_errors == 0


def test_the_mats_driver_computes_crc_a_in_python_and_the_bags_asks_the_chip() -> None:
    """``soft_crc`` saves the coprocessor's nine SPI transfers a frame; both CRCs agree."""
    for data in (b"\x50\x00", b"\x93\x70\x88\x04\xa1\xb2\x9f", bytes(range(20))):
        crc = fake_crc_a(data)
        assert mfrc522.crc_a(data) == bytes((crc & 0xFF, crc >> 8))
    rig = MatRig()
    rig.bus.place(tag(1), 0)
    assert rig.scanner.scan_zone(0) == [ntag_uid(1)]
    assert rig.bus.chips[0].crcs == 0
    bag = FakeRC522()
    bag.place(tag(1))
    driver = mfrc522.MFRC522(bag.spi, bag.cs)
    driver.init()
    assert driver.scan() == [ntag_uid(1)] and bag.crcs >= 5


# -- the zone debounce alone -----------------------------------------------------------------


def test_zone_tags_count_scans_not_time() -> None:
    """Two reads in a row to arrive, three misses in a row to leave, order kept."""
    zone = ZoneTags()
    assert not zone.update(["a", "b"])
    assert zone.update(["b", "a"]) and zone.tags == ["b", "a"]
    assert not zone.update(["a"]) and not zone.update(["a"]) and zone.tags == ["b", "a"]
    assert zone.update(["a"]) and zone.tags == ["a"]
    assert not zone.update(["c", "a", "c"])
    assert zone.update(["b", "c", "a"]) and zone.tags == ["a", "c"]
    assert zone.arriving() == ["b"] and zone.hovered == 0
    assert not zone.update(["c", "a"]) and zone.hovered == 1


# -- configuration, board and start ---------------------------------------------------------


def test_the_config_knows_a_mat() -> None:
    """``kind`` is ``bag`` unless told; a mat's fields are checked; a mat needs an ESP32."""
    assert config.check({"reader": "bag-1"})["kind"] == "bag"
    cfg = config.check({"reader": "mat-1", "kind": "mat", "spi_baud": 8000000})
    assert (cfg["zones"], cfg["spi_baud"]) == (4, 8000000)
    five = {"reader": "mat-1", "kind": "mat", "zones": 5, "pins": {"cs4": 13, "rst4": 14}}
    assert config.check(five)["zones"] == 5
    for bad, field in [({"kind": "rug"}, "kind"), ({"kind": "mat", "board": "picow"}, "board"),
                       ({"zones": 9}, "zones"), ({"spi_baud": 20000000}, "spi_baud"),
                       ({"rx_timeout_us": 50}, "rx_timeout_us"), ({"guard_us": -1}, "guard_us"),
                       ({"kind": "mat", "zones": 5, "pins": {"cs4": 13}}, "rst4")]:
        with pytest.raises(config.ConfigError, match=field):
            config.check({"reader": "mat-1", **bad})


def test_the_mats_example_config_is_valid_and_wires_the_default_pins() -> None:
    """``config.mat.example.json`` loads, and its pins are the ESP32 mat's defaults."""
    cfg = config.load(str(Path(config.__file__).parent / "config.mat.example.json"))
    assert cfg["kind"] == "mat" and cfg["zones"] == 4
    assert {k: board_esp32.MAT_PINS[k] for k in cfg["pins"]} == cfg["pins"]


def test_the_mat_board_takes_its_pins_from_the_config() -> None:
    """Each zone's chip select and reset pin, every reset pin low from the start; a zone
    without its pins is refused; only the ESP32 carries a mat."""
    hw = board.load_mat("esp32", {"cs3": 15, "rst3": 27})
    assert len(hw.zones) == 4 and hw.led is None
    assert [machine.pins[n].level for n in (22, 21, 25, 27)] == [0, 0, 0, 0]
    assert hw.zones[3][0] is machine.pins[15] and hw.spi.baudrate == board_esp32.MAT_SPI_BAUD
    with pytest.raises(ValueError, match="cs4"):
        board.load_mat("esp32", zones=5)
    with pytest.raises(ValueError, match="esp32"):
        board.load_mat("picow")


def test_main_runs_a_mat_from_its_config(tmp_path: Path) -> None:
    """``app.main`` with ``"kind": "mat"``: the board's pins reach the fake bus, and the mat
    reports a tag on the exit zone over serial."""
    bus = FakeBus(4)
    for chip in bus.chips:  # the firmware sleeps in real time here, the bus's clock does not
        chip.startup_ns = 0
    pins = board_esp32.MAT_PINS
    machine.attach_bus(bus, board_esp32.SPI_ID,
                       [(pins["cs" + str(z)], pins["rst" + str(z)]) for z in range(4)])
    pawn = bus.place(tag(5), EXIT)
    pawn.power_up_us = 0
    (tmp_path / "config.json").write_text(json.dumps(
        {"reader": "mat-1", "kind": "mat", "spi_baud": 8000000, "watchdog_ms": 0}))
    stream = MemoryStream()
    turns = iter(range(6))
    mat = firmware.main(str(tmp_path / "config.json"), str(tmp_path / "state.json"), stream,
                        stop=lambda: next(turns, None) is None, safe_window_ms=0)
    assert firmware.current is mat and bus.baud == 8000000
    sent = [json.loads(line) for line in stream.lines()]
    assert (EXIT, [uid(5)]) in states(sent)
    assert bus.overlaps == 0


# -- the fake bus itself ---------------------------------------------------------------------


def test_the_fake_chip_loses_its_registers_in_reset_and_answers_after_its_start_up() -> None:
    """Reset low: silent (MISO 0xFF, writes lost) and back to reset values; reset high:
    silent until the crystal's start-up and the datasheet's 37.74 us are over."""
    bus = FakeBus(1)
    chip = bus.chips[0]
    driver = mfrc522.MFRC522(bus.spi, chip.cs, chip.rst, ticks=bus.clock.ticks_ms)
    driver._write(0x2D, 0x55)
    assert driver._read(0x2D) == 0x55
    chip.rst.value(0)
    assert driver._read(0x37) == 0xFF and chip.unready_bytes == 2
    chip.rst.value(1)
    bus.clock.sleep_us(800)
    assert driver._read(0x37) == 0xFF, "still starting"
    bus.clock.sleep_us(50)
    assert driver._read(0x37) == 0x92 and driver._read(0x2D) == 0x00


def test_halted_tags_stay_quiet_under_reqa_until_a_wupa_or_a_reset() -> None:
    """What the scanner relies on: after an inventory every tag is halted, so REQA finds
    none; WUPA wakes them; a reset (the field off and on) makes them IDLE for REQA again."""
    bus = FakeBus(1)
    chip = bus.chips[0]
    for n in range(3):
        bus.place(tag(n), 0)
    driver = mfrc522.MFRC522(bus.spi, chip.cs, chip.rst, ticks=bus.clock.ticks_ms,
                             soft_crc=True)
    driver.init(soft_reset=False, timeout_us=400)
    bus.clock.sleep_us(1000)
    assert len(driver.inventory()) == 3
    assert all(t.state == "HALT" for t in chip.tags)
    assert driver.request() is None and driver.inventory() == []
    assert driver.request(wake=True) is not None
    chip.rst.value(0)
    chip.rst.value(1)
    bus.clock.sleep_us(1000)
    driver.init(soft_reset=False, timeout_us=400)
    bus.clock.sleep_us(1000)
    assert sorted(driver.inventory()) == sorted(ntag_uid(n) for n in range(3))


def test_the_fake_clock_counts_spi_bytes_air_time_and_timeouts() -> None:
    """A register write is two bytes at the bus's baud rate; REQA to an empty field costs
    its 7-bit frame and the chip's timer; a tag's ATQA comes after ISO's frame delay time."""
    bus = FakeBus(1, baud=4_000_000)
    chip, clock = bus.chips[0], bus.clock
    driver = mfrc522.MFRC522(bus.spi, chip.cs, chip.rst, ticks=clock.ticks_ms, soft_crc=True)
    start = clock.ns
    driver._write(0x2D, 0x01)
    assert clock.ns - start == 2 * 2000
    driver.init(soft_reset=False, timeout_us=400)
    timer = chip.timer_ns()
    start = clock.ns
    assert driver.request() is None
    empty = clock.ns - start
    air = reader_frame_ns(7) + timer
    assert air <= empty <= air + 100_000, (empty, air)
    bus.place(tag(1), 0)
    clock.sleep_us(1000)
    start = clock.ns
    assert driver.request() == bytes((0x44, 0x00))
    answered = clock.ns - start
    air = reader_frame_ns(7) + FDT_NS + tag_frame_ns(16)
    assert air <= answered <= air + 100_000, (answered, air)
    print(f"fake bus: REQA to an empty field {empty / 1000:.0f} us, answered {answered / 1000:.0f}"
          " us")


def test_every_message_of_the_mat_is_what_the_hub_reads() -> None:
    """A mat's hello, zone states and heartbeat, as the firmware writes them, parsed by the
    hub's own strict parser (``companion.readers.protocol``): each accepted, as its type,
    the zones in arrival order."""
    from companion.readers import protocol as hub_protocol

    rig = MatRig()
    rig.scan(2)
    rig.bus.place(tag(1), 0)
    rig.bus.place(tag(2), EXIT)
    rig.bus.place(tag(3), EXIT)
    rig.scan(2)
    rig.clock.sleep_us(5_000_000)
    rig.scan()
    kinds = set()
    for message in rig.sent:
        parsed = hub_protocol.parse(json.dumps(message, separators=(",", ":")).encode())
        assert not isinstance(parsed, hub_protocol.Rejection), (message, parsed)
        kinds.add(type(parsed).__name__)
        if isinstance(parsed, hub_protocol.Zones):
            assert list(parsed.tags) == message["tags"]
    assert kinds == {"Hello", "Zones", "Heartbeat"}
    exits = [m["tags"] for m in rig.sent if m["type"] == "zones" and m["zone"] == EXIT]
    assert sorted(exits[-1]) == sorted([uid(2), uid(3)])  # one scan: the scan's order
