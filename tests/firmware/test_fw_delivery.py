"""Seqs, the unacked ring, acks, resends, hello and heartbeat (no I/O, a hand-driven clock)."""

from __future__ import annotations

import json

import pytest
from delivery import Delivery
from outbox import Outbox

from companion.readers import protocol as proto
from tests.firmware.harness import Clock


class Sink:
    """Collects what the reader sends, decoded; can pretend the line is down."""

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.down = False

    def __call__(self, payload: bytes) -> bool:
        if self.down:
            raise OSError("cable out")
        parsed = proto.parse(payload)
        assert not isinstance(parsed, proto.Rejection), parsed  # the hub accepts every message
        self.sent.append(json.loads(payload))
        return True

    def take(self, kind: str | None = None) -> list[dict]:
        """The messages sent since the last take (of one type, if given)."""
        sent, self.sent = self.sent, []
        return [m for m in sent if kind is None or m["type"] == kind]


def make(clock: Clock, **options) -> tuple[Delivery, Sink]:
    sink = Sink()
    return Delivery("bag-1", 7, "0.1.0", sink, now=clock(), **options), sink


def test_taps_are_numbered_from_one_and_kept_until_acked() -> None:
    """Each tap: the next seq of this boot, sent at once, pending until acked."""
    clock = Clock()
    delivery, sink = make(clock)
    assert [delivery.tap(f"04a1b2c3d4e5f{i}", clock()) for i in range(3)] == [1, 2, 3]
    assert [(m["boot"], m["seq"]) for m in sink.take("tag")] == [(7, 1), (7, 2), (7, 3)]
    assert delivery.pending == 3


def test_the_ack_is_cumulative_and_only_for_this_boot() -> None:
    """ack 2 forgets 1 and 2; an ack of another boot changes nothing."""
    clock = Clock()
    delivery, sink = make(clock)
    for i in range(3):
        delivery.tap(f"0{i}a1b2c3", clock())
    delivery.on_ack(6, 3, clock())
    assert delivery.pending == 3 and not delivery.greeted
    delivery.on_ack(7, 2, clock())
    assert delivery.pending == 1 and delivery.greeted
    sink.take()
    delivery.tick(clock.advance(600), 1)
    assert [m["seq"] for m in sink.take("tag")] == [3]


def test_unacked_events_are_resent_every_resend_interval() -> None:
    """Nothing before resend_ms; everything unacked, oldest first, after it."""
    clock = Clock()
    delivery, sink = make(clock, resend_ms=500)
    delivery.tap("a1b2c3d4", clock())
    delivery.tap("a1b2c3d5", clock())
    sink.take()
    delivery.tick(clock.advance(400), 0)
    assert sink.take("tag") == []
    delivery.tick(clock.advance(100), 0)
    assert [m["seq"] for m in sink.take("tag")] == [1, 2]
    delivery.on_ack(7, 2, clock())
    delivery.tick(clock.advance(5000), 5)
    assert sink.take("tag") == []


def test_hello_names_the_highest_unacked_seq_then_resends() -> None:
    """After a (re)connection: hello with ``unacked``, then every unacked event."""
    clock = Clock()
    delivery, sink = make(clock)
    assert delivery.tap("a1b2c3d4", clock()) == 1
    assert delivery.tap("a1b2c3d5", clock()) == 2
    delivery.on_ack(7, 1, clock())
    sink.take()
    delivery.hello(clock())
    sent = sink.take()
    assert sent[0] == {"v": 1, "type": "hello", "reader": "bag-1", "boot": 7, "fw": "0.1.0",
                       "unacked": 2}
    assert [m["seq"] for m in sent[1:]] == [2]
    delivery.on_ack(7, 2, clock())
    delivery.hello(clock())
    assert sink.take("hello")[0]["unacked"] == 0


def test_over_mqtt_the_hello_is_repeated_until_the_boot_is_acked() -> None:
    """repeat_hello: a hello every hello_ms until an ack of this boot arrives."""
    clock = Clock()
    delivery, sink = make(clock, repeat_hello=True, hello_ms=3000)
    delivery.hello(clock())
    delivery.tick(clock.advance(3000), 3)
    delivery.tick(clock.advance(3000), 6)
    assert len(sink.take("hello")) == 3
    delivery.on_ack(7, 0, clock())
    delivery.tick(clock.advance(9000), 15)
    assert sink.take("hello") == []


def test_serial_does_not_repeat_the_hello() -> None:
    """Without repeat_hello the hub's resync asks for it."""
    clock = Clock()
    delivery, sink = make(clock)
    delivery.hello(clock())
    delivery.tick(clock.advance(10000), 10)
    assert len(sink.take("hello")) == 1


def test_the_heartbeat_carries_the_uptime() -> None:
    """One heartbeat every heartbeat_ms."""
    clock = Clock()
    delivery, sink = make(clock, heartbeat_ms=5000)
    for second in range(1, 16):
        delivery.tick(clock.advance(1000), second)
    assert [m["uptime"] for m in sink.take("heartbeat")] == [5, 10, 15]


def test_a_full_ring_refuses_new_taps_without_a_hole_in_the_seqs() -> None:
    """Refused taps take no seq, so the hub's contiguous ack can still pass them."""
    clock = Clock()
    delivery, sink = make(clock, capacity=3)
    assert [delivery.tap(f"a1b2c3d{i}", clock()) for i in range(5)] == [1, 2, 3, 0, 0]
    assert delivery.refused == 2
    delivery.on_ack(7, 3, clock())
    assert delivery.tap("a1b2c3d9", clock()) == 4


def test_a_broken_line_loses_nothing() -> None:
    """Sends that raise OSError are retried by the resend timer."""
    clock = Clock()
    delivery, sink = make(clock)
    sink.down = True
    delivery.tap("a1b2c3d4", clock())
    delivery.tick(clock.advance(600), 0)
    sink.down = False
    delivery.tick(clock.advance(600), 1)
    assert [m["seq"] for m in sink.take("tag")] == [1]


def test_the_outbox_ring_wraps_around() -> None:
    """Push and ack many more events than slots: order and highest follow a plain list."""
    box, model = Outbox(4), []
    seq = 0
    for _ in range(10):
        for _ in range(3):
            seq += 1
            assert box.push(seq, b"%d" % seq)
            model.append(seq)
        assert box.payloads() == [b"%d" % s for s in model]
        assert box.highest() == seq
        assert box.ack(seq - 1) == len(model) - 1
        model = [seq]
    assert len(box) == 1 and not box.full()
    assert box.push(seq + 1, b"x") and box.push(seq + 2, b"y") and box.push(seq + 3, b"z")
    assert box.full() and not box.push(seq + 4, b"w")
    assert box.ack(10**6) == 4 and box.highest() == 0
    with pytest.raises(ValueError):
        Outbox(0)
