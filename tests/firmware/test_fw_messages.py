"""What the reader sends passes the hub's strict parser; what it receives never crashes it."""

from __future__ import annotations

import json

import messages
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.readers import protocol as proto

HUGE = 2**32 - 1


def test_every_message_is_accepted_by_the_hub() -> None:
    """hello, tag, heartbeat and status, at the edges of their ranges."""
    reader = "r" * 32
    parsed = [proto.parse(data) for data in (
        messages.hello(reader, HUGE, "0.1.0", HUGE),
        messages.tag(reader, 0, HUGE, "0102030405060708090a"),
        messages.tag("bag-1", 5, 1, "04a1b2c3d4e5f6"),
        messages.heartbeat(reader, HUGE, HUGE),
        messages.status(reader, "online"),
        messages.status(reader, "offline"),
    )]
    assert [type(p).__name__ for p in parsed] == ["Hello", "Tag", "Tag", "Heartbeat", "Status",
                                                   "Status"]
    assert parsed[2] == proto.Tag("bag-1", 5, 1, "04a1b2c3d4e5f6")


def test_the_longest_message_fits_in_a_serial_line() -> None:
    """With the longest ids and numbers a message and its newline stay within 512 bytes."""
    longest = messages.hello("r" * 32, HUGE, "f" * 32, HUGE)
    assert len(longest) + 1 <= proto.MAX_MESSAGE


@pytest.mark.parametrize(("line", "expected"), [
    (b'{"v":1,"type":"ack","reader":"bag-1","boot":3,"seq":9}',
     {"type": "ack", "boot": 3, "seq": 9}),
    (b'{"v":1,"type":"ack","boot":3,"seq":0}', {"type": "ack", "boot": 3, "seq": 0}),
    (b'{"v":1,"type":"feedback","reader":"bag-1","level":"warn","seq":4}',
     {"type": "feedback", "level": "warn", "seq": 4}),
    (b'{"v":1,"type":"feedback","reader":"bag-1","level":"ok"}',
     {"type": "feedback", "level": "ok", "seq": None}),
    (b'{"v":1,"type":"resync"}', {"type": "resync"}),
    (b'{"v":1,"type":"resync","reader":"bag-1"}', {"type": "resync"}),
])
def test_commands_from_the_hub(line: bytes, expected: dict) -> None:
    """The three commands the hub sends (as its own encoder writes them)."""
    assert messages.parse_command(line, "bag-1") == expected


def test_the_hubs_own_encoder_is_understood() -> None:
    """Round trip through companion.readers.protocol's encoders."""
    for msg, kind in ((proto.ack("bag-1", 4, 2), "ack"), (proto.feedback("bag-1", "error", 3),
                      "feedback"), (proto.resync(), "resync"), (proto.resync("bag-1"), "resync")):
        assert messages.parse_command(proto.encode(msg), "bag-1")["type"] == kind


@pytest.mark.parametrize("line", [
    b"", b"\n", b"garbage", b"\xff\xfe\x00", b"[]", b"null", b"42", b'"ack"', b"{",
    b'{"v":2,"type":"resync"}', b'{"v":true,"type":"resync"}', b'{"v":"1","type":"resync"}',
    b'{"type":"resync"}', b'{"v":1}', b'{"v":1,"type":"tag"}', b'{"v":1,"type":["ack"]}',
    b'{"v":1,"type":"resync","reader":"bag-2"}', b'{"v":1,"type":"resync","reader":7}',
    b'{"v":1,"type":"ack","boot":"3","seq":1}', b'{"v":1,"type":"ack","boot":3}',
    b'{"v":1,"type":"ack","boot":3,"seq":-1}', b'{"v":1,"type":"ack","boot":3,"seq":1.5}',
    b'{"v":1,"type":"ack","boot":3,"seq":true}', b'{"v":1,"type":"ack","boot":4294967296,'
    b'"seq":1}', b'{"v":1,"type":"feedback","level":"loud"}',
    b'{"v":1,"type":"feedback","level":["ok"]}', b'{"v":1,"type":"feedback","level":"ok",'
    b'"seq":"x"}', b"[" * 100000 + b"]" * 100000,
    b"[" * 255 + b"]" * 255, b'{"v":1,"type":"resync","x":' + b"{" * 200 + b"}" * 201,
    b'{"v":1,"type":"resync"}' + b" " * 600,
])
def test_malformed_commands_are_ignored(line: bytes) -> None:
    """Anything else is None: never an exception, never a half-understood command."""
    assert messages.parse_command(line, "bag-1") is None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_random_bytes_never_raise(data: bytes) -> None:
    """Arbitrary bytes: None or a valid command, never an exception."""
    result = messages.parse_command(data, "bag-1")
    assert result is None or result["type"] in ("ack", "feedback", "resync")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)


@settings(max_examples=120, deadline=None)
@given(st.dictionaries(st.sampled_from(["v", "type", "reader", "boot", "seq", "level"]), JSON))
def test_random_json_objects_never_raise(obj: dict) -> None:
    """Objects with the right keys and random values."""
    obj.setdefault("v", 1)
    result = messages.parse_command(json.dumps(obj).encode(), "bag-1")
    if result is not None and result["type"] == "ack":
        assert type(result["seq"]) is int and type(result["boot"]) is int
