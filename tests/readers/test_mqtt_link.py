"""The MQTT link on a real Mosquitto: exactly once, broker restarts, availability, bad input."""

from __future__ import annotations

import itertools
import random
import socket
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from companion.kit.tags import random_uid
from companion.readers import protocol as proto
from companion.readers import topics
from companion.readers.broker import Broker, BrokerError
from companion.readers.mqtt_link import MqttLink, make_client
from companion.readers.mqtt_url import MqttUrl, parse_mqtt_url
from companion.readers.virtual import MqttBank, VirtualReader
from tests.readers.links import good_taps_still_arrive, make_ingest
from tests.waiting import wait_for

READERS = ["bag-1", "bag-2"]
_tables = itertools.count(1)


@pytest.fixture
def table() -> str:
    """A fresh table name, so tests sharing the broker never see each other."""
    return f"t{next(_tables)}-{random.randrange(10**6)}"


@pytest.fixture
def rig(tmp_path: Path, broker: Broker, table: str):
    """A hub-side MQTT link and two virtual readers on the session broker."""
    ingest, record = make_ingest(tmp_path, READERS)
    link = MqttLink(ingest, broker.url, table).start()
    assert link.connected.wait(10)
    bank = MqttBank([VirtualReader(r, resend_interval=0.3) for r in READERS],
                    broker.url, table).start()
    assert bank.wait_connected(10)
    assert wait_for(lambda: all(bank.readers[r].acks for r in READERS))
    yield bank, link, ingest, record
    bank.stop()
    link.stop()
    ingest.stop()


@pytest.mark.broker
def test_200_taps_arrive_exactly_once_across_a_broker_restart(tmp_path: Path, table: str):
    """Restart the broker in the middle of a stream of 200 taps."""
    private = Broker(workdir=tmp_path / "broker").start()
    try:
        ingest, record = make_ingest(tmp_path, READERS)
        link = MqttLink(ingest, private.url, table).start()
        bank = MqttBank([VirtualReader(r, resend_interval=0.3) for r in READERS],
                        private.url, table).start()
        assert bank.wait_connected(10) and link.connected.wait(10)
        rng = random.Random(1)
        sent = []
        for i in range(200):
            reader = READERS[i % 2]
            sent.append((reader, 1, bank.tap(reader, random_uid(rng))))
            if i == 100:
                private.restart()
        assert bank.wait_acked(40)
        assert sorted(record.seen()) == sorted(sent)
        assert len(set(record.seen())) == len(record.seen()) == 200
        assert link.connections >= 2, "the broker restart was not noticed"
        bank.stop()
        link.stop()
        ingest.stop()
    finally:
        private.close()


def test_events_published_while_the_hub_is_away_arrive_once(tmp_path: Path, broker, table):
    """The persistent session and the dedup store make a hub restart lose nothing."""
    bank = MqttBank([VirtualReader(r, resend_interval=0.3) for r in READERS],
                    broker.url, table).start()
    try:
        ingest, record = make_ingest(tmp_path, READERS)
        link = MqttLink(ingest, broker.url, table).start()
        assert link.connected.wait(10) and bank.wait_connected(10)
        rng = random.Random(5)
        sent = [(r, 1, bank.tap(r, random_uid(rng))) for r in READERS * 20]
        wait_for(lambda: len(record.seen()) >= 10)
        link.stop()
        ingest.stop()
        ingest.store.close()
        first = record.seen()
        sent += [(r, 1, bank.tap(r, random_uid(rng))) for r in READERS * 20]
        ingest2, record2 = make_ingest(tmp_path, READERS)
        link2 = MqttLink(ingest2, broker.url, table).start()
        assert bank.wait_acked(30)
        link2.stop()
        ingest2.stop()
        both = first + record2.seen()
        assert sorted(both) == sorted(sent) and len(set(both)) == len(both)
    finally:
        bank.stop()


def test_availability_comes_from_the_retained_status_and_the_last_will(rig, broker, table):
    """Online when a reader connects; offline from its last will when it vanishes."""
    bank, link, ingest, record = rig
    assert wait_for(lambda: ingest.readers["bag-1"].online)
    bank.drop("bag-1")  # an abrupt drop: the broker publishes the last will
    assert wait_for(lambda: not ingest.readers["bag-1"].online, timeout=40)
    assert ingest.readers["bag-2"].online


def test_the_broker_refuses_clients_without_the_password(broker) -> None:
    """The private broker requires a password."""
    refused = threading.Event()
    client = make_client("anonymous-test", MqttUrl(broker.url.host, broker.url.port))
    client.on_connect = lambda c, u, f, reason, p: refused.set() if reason.is_failure else None
    client.connect(broker.url.host, broker.url.port)
    client.loop_start()
    assert refused.wait(10)
    client.loop_stop()


def publish_raw(bank: MqttBank, reader: str, payload: bytes) -> None:
    bank.raw(reader, payload)


def test_random_bytes(rig) -> None:
    """Garbage payloads are refused; good taps still arrive."""
    bank, link, ingest, record = rig
    rng = random.Random(3)
    publish_raw(bank, "bag-1", bytes(rng.randrange(256) for _ in range(300)))
    good_taps_still_arrive(bank, record, "bag-1")
    assert record.codes() & {"NOT_UTF8", "NOT_JSON"}


def test_invalid_utf8(rig) -> None:
    """Not UTF-8: NOT_UTF8."""
    bank, link, ingest, record = rig
    publish_raw(bank, "bag-1", b'{"v": 1, "reader": "\xc3\x28"}')
    good_taps_still_arrive(bank, record, "bag-1")
    assert "NOT_UTF8" in record.codes()


def test_a_one_mebibyte_message(rig) -> None:
    """A 1 MiB payload is refused as TOO_LONG."""
    bank, link, ingest, record = rig
    publish_raw(bank, "bag-1", b"A" * (1 << 20))
    good_taps_still_arrive(bank, record, "bag-1")
    assert "TOO_LONG" in record.codes()


def test_valid_json_of_the_wrong_shape(rig) -> None:
    """Well-formed JSON that is not a message is refused with a field reason."""
    bank, link, ingest, record = rig
    publish_raw(bank, "bag-1", b'{"v": 1, "type": "tag", "reader": "bag-1", "boot": "x"}')
    good_taps_still_arrive(bank, record, "bag-1")
    assert "BAD_FIELD" in record.codes()


def test_an_unknown_version(rig) -> None:
    """v3 is refused; v1 goes on beside it."""
    bank, link, ingest, record = rig
    publish_raw(bank, "bag-1", b'{"v": 3, "type": "tag", "reader": "bag-1"}')
    good_taps_still_arrive(bank, record, "bag-1")
    assert "UNKNOWN_VERSION" in record.codes()


def test_a_replayed_seq(rig) -> None:
    """The same event three more times is applied once."""
    bank, link, ingest, record = rig
    reader = bank.readers["bag-1"]
    seq = reader.tap("04a1b2c3d4e5f6")
    assert bank.wait_acked(10)
    for _ in range(3):
        publish_raw(bank, "bag-1", proto.encode(proto.tag("bag-1", reader.boot, seq,
                                                          "04a1b2c3d4e5f6")))
    good_taps_still_arrive(bank, record, "bag-1")
    assert record.seen().count(("bag-1", reader.boot, seq)) == 1


def test_an_unknown_reader_and_a_spoofed_reader(rig, broker, table) -> None:
    """A reader nobody configured, or a payload naming another reader, is refused."""
    bank, link, ingest, record = rig
    intruder = make_client("intruder-test", broker.url, persistent=False)
    intruder.connect(broker.url.host, broker.url.port)
    intruder.loop_start()
    payload = proto.encode(proto.tag("intruder", 1, 1, "04a1b2c3"))
    intruder.publish(topics.topic(table, "intruder", "event"), payload, qos=1).wait_for_publish()
    publish_raw(bank, "bag-1", proto.encode(proto.tag("bag-2", 1, 99, "04a1b2c3")))
    good_taps_still_arrive(bank, record, "bag-1")
    intruder.disconnect()
    intruder.loop_stop()
    assert wait_for(lambda: {"UNKNOWN_READER", "READER_MISMATCH"} <= record.codes())
    assert all(key[0] != "intruder" and key[2] != 99 for key in record.seen())


def test_a_reader_whose_socket_closed_under_it_still_stops(rig) -> None:
    """A connection lost under a flood leaves paho with a closed socket (fd -1) that it then
    asks the bank to watch for writing (to send DISCONNECT): the bank lets it go instead of
    raising from its selector, and the other reader still stops cleanly."""
    bank, link, ingest, record = rig
    client = bank.clients["bag-1"]
    sock = client.socket()
    assert sock is not None
    sock.close()
    client.disconnect()  # raised ValueError("Invalid file descriptor: -1") before
    assert all(key.fileobj is not sock for key in bank._selector.get_map().values())


def test_a_flood_of_10000_messages_a_second(rig) -> None:
    """One reader floods; it is rate limited; the other reader's taps still arrive."""
    bank, link, ingest, record = rig
    reader = bank.readers["bag-1"]
    beat = proto.encode(proto.heartbeat("bag-1", reader.boot, 1))
    client = bank.clients["bag-1"]
    topic = topics.topic(bank.table, "bag-1", "event")

    def flood() -> None:
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            for _ in range(100):
                client.publish(topic, beat, qos=0)
            time.sleep(0.01)

    flooder = threading.Thread(target=flood)
    flooder.start()
    good_taps_still_arrive(bank, record, "bag-2", 10)
    flooder.join()
    assert wait_for(lambda: "RATE_LIMITED" in record.codes(), timeout=20)
    good_taps_still_arrive(bank, record, "bag-1", 3)


def test_urls_are_parsed_strictly() -> None:
    """mqtt://user:password@host:port, and nothing else."""
    url = parse_mqtt_url("mqtt://ana:p%40ss@localhost:1884")
    assert (url.host, url.port, url.username, url.password) == ("localhost", 1884, "ana", "p@ss")
    assert "p@ss" not in url.redacted() and parse_mqtt_url(str(url)) == url
    for bad in ("http://x", "mqtt://", "mqtt://h:port", "mqtt://h/table"):
        with pytest.raises(ValueError):
            parse_mqtt_url(bad)


def test_a_missing_mosquitto_is_named_with_its_install_command(monkeypatch) -> None:
    """Without Mosquitto the error is one line with the command that installs it."""
    monkeypatch.setattr("companion.readers.broker._find", lambda program: None)
    with pytest.raises(BrokerError) as info:
        Broker().start()
    assert "apt-get install mosquitto" in str(info.value) and "\n" not in str(info.value)


def test_make_client_uses_callback_api_v2() -> None:
    """paho-mqtt 2.x with the version 2 callback API and a persistent session."""
    client = make_client("x", MqttUrl("127.0.0.1"))
    assert client._callback_api_version == mqtt.CallbackAPIVersion.VERSION2
    assert client._clean_session is False


@pytest.mark.broker
def test_a_port_another_program_listens_on_is_refused_with_a_message(tmp_path: Path) -> None:
    """Another broker on the port (Debian's own Mosquitto on 1883, say) is not taken for ours:
    start() says which port is taken and how to free it, and leaves no child running."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        broker = Broker(port=port, workdir=tmp_path / "ours")
        with pytest.raises(BrokerError, match=f"port {port} is taken.*systemctl disable"):
            broker.start()
        assert broker.process is None


@pytest.mark.broker
def test_a_broker_left_by_a_killed_hub_is_stopped_by_the_next_start(tmp_path: Path) -> None:
    """The pid file beside the broker's data names the stale child; the next start on the
    same folder stops it and runs its own, with the same password file and port."""
    stale = Broker(workdir=tmp_path / "mqtt", password="same").start()
    child = stale.process
    assert child is not None
    fresh = Broker(port=stale.port, workdir=tmp_path / "mqtt", password="same").start()
    try:
        assert child.wait(timeout=10) is not None
        assert fresh.process is not None and fresh.process.poll() is None
        assert (tmp_path / "mqtt" / "mosquitto.pid").read_text().strip() == str(
            fresh.process.pid)
    finally:
        fresh.stop()
    assert not (tmp_path / "mqtt" / "mosquitto.pid").exists()
