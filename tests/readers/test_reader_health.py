"""A reader's health: the heartbeat's optional fields, strictly parsed, and the levels the
table is shown (with their hysteresis), kept per reader by the ingest."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.readers import health as H
from companion.readers import protocol as proto
from companion.readers.health import Health
from companion.readers.ingest import Ingest, ReaderInfo
from companion.readers.protocol import Heartbeat, Rejection
from companion.readers.store import DedupStore


def beat(**fields: Any) -> bytes:
    """A heartbeat of bag-1 (boot 3, uptime 60) with ``fields`` over it, as bytes."""
    return json.dumps({**proto.heartbeat("bag-1", 3, 60), **fields}).encode()


# -- the wire --------------------------------------------------------------------------------


def test_an_old_heartbeat_without_health_still_parses() -> None:
    """A reader with an older firmware sends none of the fields: all are ``None``."""
    assert proto.parse(beat()) == Heartbeat("bag-1", 3, 60)
    assert proto.parse(beat()).rssi is None  # type: ignore[union-attr]


def test_every_health_field_parses() -> None:
    """rssi in dBm, supply_mv, and the two counts since boot; any subset of them."""
    full = proto.parse(beat(rssi=-71, supply_mv=3712, read_fail=12, too_fast=2))
    assert full == Heartbeat("bag-1", 3, 60, rssi=-71, supply_mv=3712, read_fail=12,
                             too_fast=2)
    assert proto.parse(beat(read_fail=0)) == Heartbeat("bag-1", 3, 60, read_fail=0)
    edges = proto.parse(beat(rssi=-127, supply_mv=0, read_fail=proto.MAX_SEQ, too_fast=0))
    assert isinstance(edges, Heartbeat) and edges.rssi == -127


@pytest.mark.parametrize("fields", [
    {"rssi": 1}, {"rssi": -128}, {"rssi": -70.5}, {"rssi": "-70"}, {"rssi": True},
    {"rssi": None}, {"supply_mv": -1}, {"supply_mv": 65536}, {"supply_mv": 3.7},
    {"read_fail": -1}, {"read_fail": 2**32}, {"read_fail": False}, {"too_fast": [1]},
    {"too_fast": {"n": 1}}, {"battery": 50},
])
def test_a_malformed_health_field_is_refused_as_bad_field(fields: dict) -> None:
    """Wrong type, out of range, ``null``, or a field that is not one: ``BAD_FIELD``."""
    result = proto.parse(beat(**fields))
    assert isinstance(result, Rejection) and result.code == "BAD_FIELD", result
    assert result.reader == "bag-1"


def test_the_encoder_leaves_out_what_is_none_and_refuses_other_names() -> None:
    """``proto.heartbeat`` (virtual readers, tests) writes only the fields given."""
    assert proto.heartbeat("bag-1", 1, 5, rssi=None, too_fast=3) == {
        "v": 1, "type": "heartbeat", "reader": "bag-1", "boot": 1, "uptime": 5, "too_fast": 3}
    with pytest.raises(ValueError, match="battery"):
        proto.heartbeat("bag-1", 1, 5, battery=50)


# -- the levels ------------------------------------------------------------------------------


@pytest.mark.parametrize("rssi, before, level", [
    (None, "good", "unknown"), (-50, "unknown", "good"), (-67, "unknown", "good"),
    (-68, "good", "fair"), (-80, "fair", "fair"), (-81, "fair", "weak"),
    (-78, "weak", "weak"), (-76, "weak", "fair"), (-65, "fair", "fair"),
    (-63, "fair", "good"), (-65, "weak", "fair"), (-81, "unknown", "weak"),
])
def test_signal_levels_and_their_margin(rssi, before, level) -> None:
    """good from -67 dBm, weak below -80; back up only 4 dB past the threshold."""
    assert H.signal_level(rssi, before) == level


@pytest.mark.parametrize("mv, before, level", [
    (None, "ok", "unknown"), (4900, "unknown", "ok"), (3500, "ok", "ok"), (3499, "ok", "low"),
    (3550, "low", "low"), (3600, "low", "ok"), (3300, "unknown", "low"),
])
def test_battery_levels_and_their_margin(mv, before, level) -> None:
    """low below 3.5 V; ok again from 3.6 V."""
    assert H.battery_level(mv, before) == level


def test_many_failed_reads_in_a_minute_and_ok_after_a_quiet_spell() -> None:
    """Counts since boot become failures per heartbeat; ten in a minute are many; many
    stays until five minutes with at most two; a reboot starts the count again."""
    health = Health()
    at = 0.0

    def heartbeat(read_fail: int | None, boot: int = 3) -> str:
        nonlocal at
        at += 5
        health.update(Heartbeat("bag-1", boot, int(at), read_fail=read_fail), at)
        return health.reads
    assert heartbeat(0) == "ok" and heartbeat(3) == "ok" and heartbeat(9) == "ok"
    assert heartbeat(13) == "many" and health.fails_last_minute == 13
    assert health.problems() == {"reads"}
    assert [heartbeat(13) for _ in range(11)] == ["many"] * 11  # a quiet minute: still many
    assert heartbeat(16) == "many"  # three more within five minutes
    levels = [heartbeat(16) for _ in range(61)]  # the three are five minutes old at the last
    assert levels[-2:] == ["many", "ok"]
    assert heartbeat(4, boot=4) == "ok" and heartbeat(14, boot=4) == "many"  # 4, then 10
    assert heartbeat(None) == "unknown" and health.fails_last_minute == 0


def test_update_says_when_something_shown_changed() -> None:
    """A new level or count is news; the same heartbeat again, or an rssi moving within
    its level, is not (the ``readers`` push is not sent at every heartbeat)."""
    health = Health()
    assert health.update(Heartbeat("bag-1", 1, 5, rssi=-60, read_fail=0), 5.0)
    assert not health.update(Heartbeat("bag-1", 1, 10, rssi=-62, read_fail=0), 10.0)
    assert health.update(Heartbeat("bag-1", 1, 15, rssi=-85, read_fail=0), 15.0)
    assert health.update(Heartbeat("bag-1", 1, 20, rssi=-85, read_fail=1), 20.0)
    shown = health.to_dict(21.25)
    assert shown == {"heartbeat_age": 1.2, "rssi": -85, "supply_mv": None, "read_fail": 1,
                     "too_fast": None, "scan_ms": None, "fails_last_minute": 1,
                     "signal": "weak", "battery": "unknown", "reads": "ok",
                     "problems": ["signal"]}


# -- the ingest keeps it ---------------------------------------------------------------------


class Wire:
    """A transport that records what the hub sends."""

    name = "serial"

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []

    def send(self, source: str, message: dict) -> None:
        self.sent.append((source, message))


def test_the_ingest_keeps_each_readers_latest_health(tmp_path) -> None:
    """A heartbeat updates the reader's health and its time; ``on_status`` hears of a
    change only; a malformed heartbeat changes nothing."""
    clock = {"now": 100.0}
    statuses: list[tuple[str, str]] = []
    rejected: list[str] = []
    ingest = Ingest(DedupStore(tmp_path / "d.sqlite"), ["bag-1"], clock=lambda: clock["now"],
                    on_status=lambda info: statuses.append((info.reader, info.health.signal)),
                    on_reject=lambda rejection, who: rejected.append(rejection.code))
    wire = Wire()

    def send(data: bytes) -> None:
        ingest.submit(wire, "/dev/ttyACM0", data)
        raw = ingest._queue.get_nowait()
        assert raw is not None
        ingest.process([raw])
        ingest._queue.task_done()
    send(proto.encode(proto.heartbeat("bag-1", 3, 5)))  # an old reader: online, no health
    info: ReaderInfo = ingest.readers["bag-1"]
    assert info.online and info.health.heartbeat_at == 100.0
    assert statuses == [("bag-1", "unknown")]
    clock["now"] = 105.0
    send(beat(rssi=-84, read_fail=0))
    assert statuses[-1] == ("bag-1", "weak") and info.health.heartbeat_at == 105.0
    clock["now"] = 110.0
    send(beat(rssi=-85, read_fail=0))
    assert len(statuses) == 2, "the same levels again are no news"
    send(beat(rssi=12))
    assert rejected == ["BAD_FIELD"]
    assert (info.health.rssi, info.health.heartbeat_at) == (-85, 110.0), "refused: no change"
