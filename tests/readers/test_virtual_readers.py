"""Virtual readers as the benchmarks count on them: resends counted, heartbeats at each
reader's own phase, and a bank that stays stopped."""

from __future__ import annotations

import random
import selectors
from pathlib import Path

from companion.readers import protocol as proto
from companion.readers.broker import Broker
from companion.readers.virtual import MqttBank, SerialBank, VirtualReader
from tests.waiting import wait_for


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def ack(reader: VirtualReader, seq: int) -> None:
    """The hub's ack of ``seq`` for this reader's boot."""
    reader.on_command(proto.encode(proto.ack(reader.reader, reader.boot, seq)))


def test_resent_counts_every_event_sent_again() -> None:
    """Timed resends and a hello's resends are counted, each unacked event once a time."""
    clock = FakeClock()
    sent: list[bytes] = []
    reader = VirtualReader("bag-1", resend_interval=5.0, clock=clock)
    reader.write = sent.append
    reader.tap("04000000000001")
    reader.tap("04000000000002")
    reader.tick()
    assert reader.resent == 0 and len(sent) == 2  # nothing is due yet
    clock.now += 5.0
    reader.tick()
    assert reader.resent == 2 and len(sent) == 4
    ack(reader, 1)
    clock.now += 5.0
    reader.tick()
    assert reader.resent == 3
    reader.hello()
    assert reader.resent == 4 and len(sent) == 7  # the hello, then the one still unacked


def test_heartbeats_are_spread_over_the_interval(tmp_path: Path) -> None:
    """Reader i of n first beats i/n of an interval after the start, then every interval."""
    bank = SerialBank([VirtualReader(f"bag-{i}") for i in range(4)], tmp_path)
    bank.heartbeat_interval = 4.0
    names = lambda now: [r.reader for r in bank.beats_due(now)]  # noqa: E731
    assert names(100.0) == ["bag-0"]
    assert names(100.5) == []
    assert names(101.0) == ["bag-1"]
    assert names(102.0) == ["bag-2"]
    assert names(103.0) == ["bag-3"]
    assert names(104.0) == ["bag-0"]
    assert names(104.0) == []  # once per interval
    assert names(105.2) == ["bag-1"]  # late: the phase is kept
    assert names(109.0) == ["bag-0", "bag-1", "bag-2", "bag-3"]  # all late: each beats once
    assert names(109.0) == []


def test_400_readers_never_beat_all_at_once(tmp_path: Path) -> None:
    """Ticked every 50 ms for two intervals, each of 400 readers beats once or twice (the
    last phases fall after the last tick), and at most a few in one tick (all 400 in one
    tick before)."""
    bank = SerialBank([VirtualReader(f"r{i}") for i in range(400)], tmp_path)
    counts: dict[str, int] = {}
    beats = []
    for tick in range(200):
        due = bank.beats_due(200.0 + tick * 0.05)
        beats.append(len(due))
        for reader in due:
            counts[reader.reader] = counts.get(reader.reader, 0) + 1
    assert len(counts) == 400 and set(counts.values()) <= {1, 2} and sum(beats) >= 790
    assert max(beats) <= 5


def test_a_stopped_mqtt_bank_stays_disconnected(broker: Broker) -> None:
    """The bank's housekeeping, which reconnects lost clients, leaves the clients of a
    stopping bank alone (it reconnected them while the bank waited for them to close: the
    broker saw 'new client' for the readers of a bank that had stopped)."""
    table = f"stop-{random.randrange(10**6)}"
    readers = [VirtualReader(f"bag-{i}") for i in range(40)]
    bank = MqttBank(readers, broker.url, table).start()
    assert bank.wait_connected(20)
    bank.stop()
    assert wait_for(lambda: all(c.socket() is None for c in bank.clients.values()))
    bank._retry = dict.fromkeys(bank._retry, 0.0)  # its last attempts are long past
    bank._housekeeping()  # what the network thread does every 0.1 s while stop() waits
    assert all(c.socket() is None for c in bank.clients.values())


def test_a_socket_left_watched_for_writing_is_let_go(broker: Broker) -> None:
    """A socket watched for writing with nothing to write (paho's requests to watch and to
    stop watching, from two threads, landed in the wrong order) goes back to read-only
    instead of waking the network thread forever (two thirds of a core with 400 readers)."""
    table = f"spin-{random.randrange(10**6)}"
    bank = MqttBank([VirtualReader("bag-1", resend_interval=600)], broker.url, table)
    bank.heartbeat_interval = 600  # no publish of its own would mend the socket's watch
    bank.start()
    try:
        assert bank.wait_connected(20)
        client = bank.clients["bag-1"]
        assert wait_for(lambda: not client.want_write())
        sock = client.socket()
        bank._selector.modify(sock, selectors.EVENT_READ | selectors.EVENT_WRITE, client)
        bank._wake()
        assert wait_for(lambda: bank._selector.get_key(sock).events == selectors.EVENT_READ)
    finally:
        bank.stop()


class ClosingSocket:
    """A socket that the network thread closes just after paho asked to watch it: open at
    the first look, number -1 at every look after."""

    def __init__(self) -> None:
        self.looks = 0

    def fileno(self) -> int:
        self.looks += 1
        return 7 if self.looks == 1 else -1


def test_a_socket_closed_while_being_watched_is_let_go(broker: Broker) -> None:
    """paho asks to watch a socket from the thread that publishes a tap while the network
    thread closes it (a broker restart): the tap's thread goes on, nothing is watched (the
    soak's players once died of ``ValueError: Invalid file descriptor: -1`` here)."""
    bank = MqttBank([VirtualReader("bag-1")], broker.url, f"closed-{random.randrange(10**6)}")
    sock = ClosingSocket()
    bank._watch(sock, None, True)  # type: ignore[arg-type]
    assert all(key.fileobj is not sock for key in bank._selector.get_map().values())
    bank._selector.close()
