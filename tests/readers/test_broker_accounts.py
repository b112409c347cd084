"""Per-reader accounts on the private Mosquitto: a reader reaches its own topics only."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.readers import protocol as proto
from companion.readers import topics
from companion.readers.accounts import ReaderAccounts
from companion.readers.broker import Broker
from companion.readers.mqtt_link import make_client
from companion.readers.mqtt_url import MqttUrl
from tests.waiting import wait_for

pytestmark = pytest.mark.broker
TABLE = "demo"


class Client:
    """A paho client that logs in with ``url`` and keeps what it receives, by topic."""

    def __init__(self, name: str, url: MqttUrl) -> None:
        self.got: list[tuple[str, bytes]] = []
        self.ready = threading.Event()
        self.refused = threading.Event()
        self.subscribed: list[Any] = []
        self.client = make_client(name, url, persistent=False)
        self.client.on_connect = self._connected
        self.client.on_message = lambda _c, _u, m: self.got.append((m.topic, m.payload))
        self.client.on_subscribe = lambda _c, _u, _m, codes, _p: self.subscribed.append(codes)
        self.client.connect(url.host, url.port)
        self.client.loop_start()

    def _connected(self, _c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        (self.refused if reason.is_failure else self.ready).set()

    def subscribe(self, topic: str) -> None:
        count = len(self.subscribed)
        self.client.subscribe(topic, qos=1)
        assert wait_for(lambda: len(self.subscribed) > count)

    def publish(self, topic: str, payload: bytes) -> None:
        """Publish at QoS 1 and wait for the broker's PUBACK: it has handled the message."""
        self.client.publish(topic, payload, qos=1).wait_for_publish(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def accounts_broker(tmp_path: Path):
    accounts = ReaderAccounts(tmp_path / "reader-passwords.json")
    broker = Broker(workdir=tmp_path / "mqtt", accounts=accounts)
    broker.add_readers(["bag-1", "bag-2"])
    yield broker.start()
    broker.close()


def test_a_reader_can_neither_write_nor_read_another_readers_topics(accounts_broker) -> None:
    """bag-1 (A) publishes a tap on bag-2's (B's) event topic and a forged ack on B's cmd
    topic, and listens to B's cmd: the hub never gets the tap, B never gets the forged ack,
    A never hears B's commands. B's own traffic and the hub's still flow."""
    broker = accounts_broker
    a = Client("reader-a", broker.reader_url("bag-1"))
    b = Client("reader-b", broker.reader_url("bag-2"))
    hub = Client("hub", broker.url)
    try:
        assert a.ready.wait(10) and b.ready.wait(10) and hub.ready.wait(10)
        b_cmd, b_event = (topics.topic(TABLE, "bag-2", k) for k in ("cmd", "event"))
        b.subscribe(b_cmd)
        a.subscribe(b_cmd)
        a.subscribe(f"{topics.PREFIX}/#")
        hub.subscribe(topics.subscription(TABLE, "event"))
        a.publish(b_cmd, proto.encode(proto.ack("bag-2", 1, 99)))
        a.publish(b_event, proto.encode(proto.tag("bag-2", 1, 1, "04a1b2c3d4e5f6")))
        a.publish(topics.topic(TABLE, "bag-2", "status"),
                  proto.encode(proto.status("bag-2", "offline")))
        hub.publish(b_cmd, proto.encode(proto.ack("bag-2", 1, 0)))
        b.publish(b_event, proto.encode(proto.heartbeat("bag-2", 1, 5)))
        assert wait_for(lambda: b.got and hub.got)
        assert [json.loads(p)["seq"] for _, p in b.got] == [0], "B got a forged ack"
        assert [json.loads(p)["type"] for _, p in hub.got] == ["heartbeat"], "A tapped as B"
        assert a.got == [], "A read B's commands"
    finally:
        for client in (a, b, hub):
            client.close()


def test_a_reader_may_use_its_own_topics_and_its_last_will(accounts_broker) -> None:
    """A reader publishes on its own event and status topics and hears its own commands."""
    broker = accounts_broker
    url = broker.reader_url("bag-1")
    status = topics.topic(TABLE, "bag-1", "status")
    hub = Client("hub", broker.url)
    reader_client = make_client("reader-1", url, persistent=False)
    reader_client.will_set(status, proto.encode(proto.status("bag-1", "offline")), 1, True)
    reader_client.connect(url.host, url.port)
    reader_client.loop_start()
    try:
        assert hub.ready.wait(10)
        hub.subscribe(topics.subscription(TABLE, "status"))
        reader_client.publish(status, proto.encode(proto.status("bag-1", "online")), 1,
                              True).wait_for_publish(10)
        assert wait_for(lambda: any(b'"online"' in p for _, p in hub.got))
        reader_client.socket().close()  # an abrupt drop: the broker publishes the last will
        assert wait_for(lambda: any(b'"offline"' in p for _, p in hub.got), timeout=40)
    finally:
        reader_client.loop_stop()
        hub.close()


def test_a_reader_added_while_the_broker_runs_can_log_in_at_once(accounts_broker) -> None:
    """A reader the hub learns later gets its login without a broker restart (SIGHUP)."""
    broker = accounts_broker
    pid = broker.process.pid
    assert broker.add_readers(["bag-7", "bag-1"]) == ["bag-7"]
    url = broker.reader_url("bag-7")
    wrong = MqttUrl(url.host, url.port, "bag-7", "not-the-password")

    def logs_in() -> bool:
        client = Client("reader-7", url)
        try:
            return wait_for(lambda: client.ready.is_set() or client.refused.is_set(), 5) \
                and client.ready.is_set()
        finally:
            client.close()
    assert wait_for(logs_in, timeout=15)
    intruder = Client("intruder", wrong)
    assert intruder.refused.wait(10)
    intruder.close()
    assert broker.process.pid == pid


def test_passwords_are_kept_across_restarts(tmp_path: Path) -> None:
    """Each reader's password is made once and read back from the JSON file."""
    first = ReaderAccounts(tmp_path / "r.json")
    assert first.ensure("bag-1") and not first.ensure("bag-1")
    again = ReaderAccounts(tmp_path / "r.json")
    assert again.passwords == first.passwords
    assert (tmp_path / "r.json").stat().st_mode & 0o777 == 0o600

