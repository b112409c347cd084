"""What the reader sends passes the hub's strict parser; what it receives never crashes it."""

from __future__ import annotations

import json

import messages
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.readers import protocol as proto
from tests.firmware import micropython_json
from tests.firmware.harness import GARBLED, GARBLED_OBEYED_ON_A_BOARD

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


# -- the strict shape check: what MicroPython's json.loads lets through ---------------------

HUB_COMMANDS = [proto.encode(msg) for msg in (
    proto.ack("bag-1", 42, 3), proto.ack("bag-1", 0, 0), proto.ack("bag-1", HUGE, HUGE),
    proto.feedback("bag-1", "ok"), proto.feedback("bag-1", "warn", 4),
    proto.feedback("bag-1", "error", HUGE), proto.resync(), proto.resync("bag-1"))]
"""Every kind of command, as the hub's own encoder writes it."""


@pytest.mark.parametrize(("line", "board_reads"), GARBLED_OBEYED_ON_A_BOARD)
def test_a_board_would_obey_these_garbled_lines_without_the_check(
        line: bytes, board_reads: dict) -> None:
    """The danger is real: MicroPython's json.loads turns each garbled line into a valid
    command (checked here with the model of it, and that model against a real MicroPython)."""
    assert micropython_json.loads(line.decode()) == board_reads
    assert messages.parse_command(json.dumps(board_reads).encode(), "bag-1") is not None


@pytest.mark.parametrize("loader", ["cpython", "micropython"])
@pytest.mark.parametrize("line", GARBLED, ids=repr)
def test_garbled_commands_are_refused_whatever_json_loads_does(
        line: bytes, loader: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shape check (and, for a repeated key, its member count) refuses them, whichever
    json.loads runs after it."""
    if loader == "micropython":
        monkeypatch.setattr(messages, "json", micropython_json)
    assert messages.parse_command(line, "bag-1") is None


@pytest.mark.usefixtures("board_json")
@pytest.mark.parametrize("line", HUB_COMMANDS, ids=repr)
def test_every_command_the_hub_sends_passes_the_check(line: bytes) -> None:
    """The hub's encoder, decoded by the board's json: the command the hub meant."""
    expected = json.loads(line)
    assert messages.flat_members(line) == len(expected)
    command = messages.parse_command(line, "bag-1")
    assert command is not None and command["type"] == expected["type"]
    assert command == {key: expected.get(key) for key in command}


@pytest.mark.parametrize(("line", "members"), [
    (b"{}", 0), (b' \t{ "a" : 1 }\r\n', 1), (b'{"a":"","b":-0,"c":1.5e-3,"d":2E+10}', 4),
    (b'{"a":true,"b":false,"c":null,"d":-12}', 4),
    (b'{"s":"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83C\\uDF7F"}', 1),
    ('{"s":"pop\u00e7orn \U0001f37f"}'.encode(), 1),
])
def test_the_check_accepts_strict_json(line: bytes, members: int) -> None:
    """Blanks JSON allows, every scalar, every escape, UTF-8: the member count."""
    assert messages.flat_members(line) == members == len(json.loads(line))


@pytest.mark.parametrize("line", [
    b"", b" ", b"[]", b'"v"', b"{", b"}", b"{}{}", b"{} x", b'{"a":1}\n{"b":2}',
    b'{"a":[1]}', b'{"a":{}}', b'{"a":{"b":1}}', b'{"a":}', b'{"a"}', b'{:1}', b'{1:2}',
    b"{'a':1}", b'{a:1}', b'{"a":1 , }', b'{"a" "b":1}', b'{"a"::1}',
    b'{"a":01}', b'{"a":-}', b'{"a":+1}', b'{"a":.5}', b'{"a":1.}', b'{"a":1e}', b'{"a":1e+}',
    b'{"a":--1}', b'{"a":0x1}', b'{"a":NaN}', b'{"a":Infinity}', b'{"a":tru}', b'{"a":nulll}',
    b'{"a":True}', b'{"a":"\\x41"}', b'{"a":"\\u00g0"}', b'{"a":"\\u00"}', b'{"a":"\\"}',
    b'{"a":"tab\there"}', b'{"a":"new\nline"}', b'{"a":"\x00"}', b'{"a":1}\x00',
    b'\x00{"a":1}', b'{"a":1}\x03', b'{"a":1}\x0b', b'\xef\xbb\xbf{"a":1}',
])
def test_the_check_refuses_everything_else(line: bytes) -> None:
    """Anything that is not exactly one flat JSON object, and nothing more, is -1."""
    assert messages.flat_members(line) == -1


SCALARS = (st.none() | st.booleans() | st.integers(-2**40, 2**40)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=6), SCALARS, max_size=6), st.booleans(),
       st.sampled_from([(",", ":"), (", ", ": "), (" ,\t", "\r\n:\n")]))
def test_every_flat_json_object_is_accepted(obj: dict, ascii_only: bool,
                                            separators: tuple[str, str]) -> None:
    """Whatever a strict JSON encoder writes for a flat object passes, with its size."""
    text = json.dumps(obj, ensure_ascii=ascii_only, separators=separators, allow_nan=False)
    assert messages.flat_members(text.encode()) == len(obj)


def mutations() -> st.SearchStrategy[bytes]:
    """A hub command with a few bytes deleted, inserted or replaced by JSON's own bytes."""
    alphabet = list(b'{}[],:"\\ \t\r\x00\x03abefnlrstu0123456789-+.eE')

    @st.composite
    def mutate(draw: st.DrawFn) -> bytes:
        data = bytearray(draw(st.sampled_from(HUB_COMMANDS)))
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(data)))
            op = draw(st.sampled_from(["delete", "insert", "replace"]))
            if op == "insert" or at == len(data):
                data[at:at] = bytes([draw(st.sampled_from(alphabet))])
            elif op == "delete":
                del data[at]
            else:
                data[at] = draw(st.sampled_from(alphabet))
        return bytes(data)

    return mutate()


@settings(max_examples=500, deadline=None)
@given(st.one_of(mutations(), st.binary(max_size=80)))
def test_the_check_is_never_more_lenient_than_strict_json(data: bytes) -> None:
    """What the check accepts, CPython's strict parser reads as a flat object of that many
    distinct keys, and the board's json reads the same way: garbling cannot slip through."""
    members = messages.flat_members(data)
    if members < 0:
        return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return  # the check leaves UTF-8 to the decoder, which refuses this
    pairs = json.loads(text, object_pairs_hook=list)
    assert isinstance(pairs, list) and len(pairs) == members
    assert not any(isinstance(value, list) for _, value in pairs), "a nested value"
    assert micropython_json.loads(text) == dict(pairs)
