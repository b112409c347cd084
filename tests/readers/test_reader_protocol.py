"""Protocol v1: the strict parser's verdicts, and the dedup store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.readers import protocol as proto
from companion.readers.protocol import Hello, Rejection, Tag
from companion.readers.store import DedupStore, StoreError


def parsed(obj) -> proto.Message | Rejection:
    return proto.parse(json.dumps(obj).encode())


def test_a_valid_tag_parses_and_normalizes_the_uid() -> None:
    """UIDs are stored as lowercase hex, separators dropped."""
    msg = parsed(proto.tag("bag-1", 3, 7, "04:A1:B2:C3:D4:E5:F6"))
    assert msg == Tag("bag-1", 3, 7, "04a1b2c3d4e5f6")


@pytest.mark.parametrize("uid", ["04a1b2c3", "04a1b2c3d4e5f6", "04a1b2c3d4e5f60708f9"])
def test_uids_of_4_7_and_10_bytes_are_accepted(uid: str) -> None:
    """ISO 14443A single, double and triple size UIDs."""
    assert isinstance(parsed(proto.tag("bag-1", 1, 1, uid)), Tag)


@pytest.mark.parametrize("data, code", [
    (b"x" * 513, "TOO_LONG"),
    (b"\xff\xfe{}", "NOT_UTF8"),
    (b"{not json", "NOT_JSON"),
    (b"[1, 2]", "NOT_OBJECT"),
    (b'{"v": 3, "type": "tag", "reader": "bag-1"}', "UNKNOWN_VERSION"),
    (b'{"v": "1", "type": "tag"}', "UNKNOWN_VERSION"),
    (b'{"v": 1, "type": "ack"}', "UNKNOWN_TYPE"),
    (b'{"v": 1, "type": "tag", "reader": "bag-1", "boot": 1, "uid": "04a1b2c3"}',
     "MISSING_FIELD"),
    (b'{"v": 1, "type": "tag", "reader": "bag-1", "boot": 1, "seq": "2", "uid": "04a1b2c3"}',
     "BAD_FIELD"),
    (b'{"v": 1, "type": "tag", "reader": "bag-1", "boot": 1, "seq": 0, "uid": "04a1b2c3"}',
     "BAD_FIELD"),
    (b'{"v": 1, "type": "tag", "reader": "bag 1", "boot": 1, "seq": 1, "uid": "04a1b2c3"}',
     "BAD_FIELD"),
    (b'{"v": 1, "type": "tag", "reader": "bag-1", "boot": 1, "seq": 1, "uid": "04a1b2"}',
     "BAD_UID"),
    (b'{"v": 1, "type": "tag", "reader": "bag-1", "boot": 1, "seq": 1, "uid": "zz a1b2c3"}',
     "BAD_UID"),
    (b'{"v": 1, "type": "tag", "reader": "bag-1", "boot": 1, "seq": 1, "uid": "04a1b2c3", '
     b'"extra": 1}', "BAD_FIELD"),
    (b'{"v": 1, "type": "hello", "reader": "bag-1", "boot": -1, "fw": "x", "unacked": 0}',
     "BAD_FIELD"),
    (b"[" * 100000, "TOO_LONG"),
])
def test_bad_messages_get_a_reason_code(data: bytes, code: str) -> None:
    """Every rejection carries a stable reason; parsing never raises."""
    result = proto.parse(data)
    assert isinstance(result, Rejection) and result.code == code
    assert code in proto.REASONS


def test_a_deeply_nested_small_message_is_refused_without_raising() -> None:
    """JSON nesting within the size limit is parsed or refused, never raised."""
    assert isinstance(proto.parse(b"[" * 500), Rejection)


def test_hello_and_commands_round_trip() -> None:
    """What the hub sends, a reader parses; what a reader sends, the hub parses."""
    assert parsed(proto.hello("bag-2", 9, "1.0.0", 4)) == Hello("bag-2", 9, "1.0.0", 4)
    for cmd in (proto.ack("bag-2", 9, 4), proto.feedback("bag-2", "error", 4), proto.resync()):
        assert proto.parse_command(proto.encode(cmd)) == cmd
    assert proto.parse_command(b"garbage") is None
    with pytest.raises(ValueError):
        proto.feedback("bag-2", "loud")


def tag(seq: int, reader: str = "bag-1", boot: int = 1) -> tuple[Tag, str]:
    return Tag(reader, boot, seq, "04a1b2c3"), "serial"


def test_dedup_survives_a_restart(tmp_path: Path) -> None:
    """Events stored before a restart are recognised after it."""
    store = DedupStore(tmp_path / "d.sqlite")
    assert len(store.accept([tag(1), tag(2), tag(2)])) == 2
    store.close()
    again = DedupStore(tmp_path / "d.sqlite")
    assert again.accept([tag(2), tag(3)]) == [tag(3)]
    assert again.mark("bag-1", 1) == 3
    assert len(again.events()) == 3


def test_the_contiguous_mark_waits_for_gaps(tmp_path: Path) -> None:
    """The ack covers only seqs received without a gap; a new boot starts again."""
    store = DedupStore(tmp_path / "d.sqlite")
    store.accept([tag(1), tag(3), tag(4)])
    assert store.mark("bag-1", 1) == 1
    store.accept([tag(2)])
    assert store.mark("bag-1", 1) == 4
    store.accept([tag(1, boot=2)])
    assert store.mark("bag-1", 2) == 1 and store.mark("bag-1", 1) == 4


def test_a_failed_apply_stores_nothing(tmp_path: Path) -> None:
    """If the effect fails, the transaction rolls back and the event stays new."""
    store = DedupStore(tmp_path / "d.sqlite")

    def boom(tag, transport):
        raise RuntimeError("effect failed")

    with pytest.raises(RuntimeError):
        store.accept([tag(1)], boom)
    assert store.events() == [] and store.mark("bag-1", 1) == 0
    assert store.accept([tag(1)]) == [tag(1)]


def test_a_store_of_another_schema_version_is_refused(tmp_path: Path) -> None:
    """Opening a future or foreign database fails loudly."""
    store = DedupStore(tmp_path / "d.sqlite")
    store._db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    store.close()
    with pytest.raises(StoreError, match="schema version 99"):
        DedupStore(tmp_path / "d.sqlite")
