"""Protocol version 2: a cinema mat's ``zones`` message, parsed strictly beside version 1."""

from __future__ import annotations

import json

import pytest

from companion.readers import protocol as proto
from companion.readers.protocol import Hello, Rejection, Tag, Zones

UIDS = ["04A1B2C3D4E5F6", "04:a1:b2:c3:d4:e5:f7"]


def parsed(obj: dict) -> proto.Message | Rejection:
    return proto.parse(json.dumps(obj).encode())


def test_a_zones_message_keeps_its_tags_in_arrival_order() -> None:
    """The UIDs are normalized as a tag's are, in the order the mat sent them."""
    message = parsed(proto.zones("mat-1", 5, 9, 3, UIDS))
    assert message == Zones("mat-1", 5, 9, 3, ("04a1b2c3d4e5f6", "04a1b2c3d4e5f7"))
    assert parsed(proto.zones("mat-1", 5, 10, 0, [])) == Zones("mat-1", 5, 10, 0, ())


def test_version_1_and_2_share_the_link() -> None:
    """A bag reader's v1 messages still parse; a mat's hello may say v2."""
    assert isinstance(parsed(proto.tag("bag-1", 1, 1, "04a1b2c3")), Tag)
    assert parsed(proto.hello("mat-1", 2, "0.4.0", 0, version=2)) == Hello("mat-1", 2,
                                                                             "0.4.0", 0)
    beat = parsed({**proto.heartbeat("mat-1", 2, 30), "v": 2, "scan_ms": 41})
    assert isinstance(beat, proto.Heartbeat) and beat.scan_ms == 41


def test_the_widest_zones_message_fits_in_512_bytes() -> None:
    """16 ten-byte UIDs, the longest reader id and the largest counters stay under the
    limit, so a mat never has to cut a zone's state in two."""
    reader = "m" * 32
    uids = [f"{n:020x}" for n in range(proto.MAX_ZONE_TAGS)]
    data = proto.encode(proto.zones(reader, proto.MAX_SEQ, proto.MAX_SEQ, proto.MAX_ZONE, uids))
    assert len(data) + 1 <= proto.MAX_MESSAGE
    assert isinstance(proto.parse(data), Zones)


def _zones(**fields) -> dict:
    return {**proto.zones("mat-1", 1, 1, 0, ["04a1b2c3"]), **fields}


@pytest.mark.parametrize("obj, code", [
    (_zones(v=1), "UNKNOWN_VERSION"),
    (_zones(v=3), "UNKNOWN_VERSION"),
    (_zones(zone=8), "BAD_ZONE"),
    (_zones(zone=-1), "BAD_ZONE"),
    (_zones(zone="0"), "BAD_FIELD"),
    (_zones(tags="04a1b2c3"), "BAD_FIELD"),
    (_zones(tags=[f"{n:08x}" for n in range(17)]), "BAD_ZONE"),
    (_zones(tags=["04a1b2c3", "04A1B2C3"]), "BAD_ZONE"),
    (_zones(tags=["04a1b2"]), "BAD_UID"),
    (_zones(tags=[7]), "BAD_UID"),
    (_zones(seq=0), "BAD_FIELD"),
    (_zones(extra=True), "BAD_FIELD"),
    ({k: v for k, v in _zones().items() if k != "zone"}, "MISSING_FIELD"),
    ({k: v for k, v in _zones().items() if k != "tags"}, "MISSING_FIELD"),
])
def test_a_bad_zones_message_gets_its_reason_code(obj: dict, code: str) -> None:
    """Each malformed zones message is refused with a stable reason, never raised."""
    result = parsed(obj)
    assert isinstance(result, Rejection) and result.code == code, result
    assert code in proto.REASONS
    assert result.reader == "mat-1"


def test_a_store_of_version_1_is_upgraded_and_keeps_its_taps(tmp_path) -> None:
    """A dedup file written before mats (schema 1: no zone columns) opens, keeps its taps
    and marks, and stores zone states beside them."""
    import sqlite3

    from companion.readers.store import SCHEMA_VERSION, DedupStore

    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('schema', '1');
        CREATE TABLE reader_events (reader TEXT NOT NULL, boot INTEGER NOT NULL,
            seq INTEGER NOT NULL, uid TEXT NOT NULL, transport TEXT NOT NULL,
            PRIMARY KEY (reader, boot, seq)) WITHOUT ROWID;
        CREATE TABLE reader_marks (reader TEXT NOT NULL, boot INTEGER NOT NULL,
            mark INTEGER NOT NULL, PRIMARY KEY (reader, boot)) WITHOUT ROWID;
        INSERT INTO reader_events VALUES ('bag-1', 1, 1, '04a1b2c3', 'serial');
        INSERT INTO reader_marks VALUES ('bag-1', 1, 1);
    """)
    db.commit()
    db.close()
    store = DedupStore(path)
    assert store.mark("bag-1", 1) == 1 and store.seen("bag-1", 1, 1)
    zones = Zones("mat-1", 4, 1, 3, ("04a1b2c3d4e5f6", "04a1b2c3d4e5f7"))
    assert store.accept([(zones, "mqtt")]) == [(zones, "mqtt")]
    assert store.stored() == [(Tag("bag-1", 1, 1, "04a1b2c3"), "serial"), (zones, "mqtt")]
    store.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == (
        str(SCHEMA_VERSION),)
    db.close()


def test_a_zone_holding_more_than_sixteen_tags_lists_the_newest_and_counts_them() -> None:
    """20 tags: the message lists the 16 that arrived last and ``count`` 20; a count with
    fewer than 16 listed, or below the tags listed, is refused."""
    uids = [f"04{n:012x}" for n in range(20)]
    message = proto.zones("mat-1", 1, 1, 3, uids)
    assert message["tags"] == uids[4:] and message["count"] == 20
    parsed_ = parsed(message)
    assert isinstance(parsed_, Zones) and parsed_.count == 20 and len(parsed_.tags) == 16
    widest = proto.encode(proto.zones("m" * 32, proto.MAX_SEQ, proto.MAX_SEQ, 7,
                                      [f"{n:020x}" for n in range(40)]))
    assert len(widest) + 1 <= proto.MAX_MESSAGE
    for bad in ({**_zones(), "count": 2}, {**_zones(), "count": 0}):
        result = parsed(bad)
        assert isinstance(result, Rejection) and result.code == "BAD_ZONE"
