"""The MQTT transport: topics, retained status, last will, reconnects, and the whole
firmware against the hub's real MqttLink on a real Mosquitto.

The unit tests use a recording client; the end-to-end tests use ``fakes/umqtt/simple.py``,
umqtt.simple's interface on top of paho-mqtt, talking to the session's broker.
"""

from __future__ import annotations

import itertools
import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import app as firmware
import board_esp32
import machine
import micropython
import network
import paho.mqtt.client as mqtt
import pytest
from feedback import Player
from mfrc522 import MFRC522
from transport_mqtt import MqttTransport
from umqtt import simple

from companion.readers import protocol as proto
from companion.readers import topics
from companion.readers.mqtt_link import MqttLink
from tests.firmware.fake_rc522 import FakeRC522, Tag
from tests.firmware.harness import GARBLED, Clock, safely, settings
from tests.readers.links import make_ingest
from tests.waiting import wait_for

READER = "bag-1"
_tables = itertools.count(1)


class Recorder:
    """A umqtt.simple stand-in that records every call; the broker can refuse or break."""

    made: list[Recorder] = []
    refuse = False

    def __init__(self, client_id: bytes, server: str, port: int = 0, user: Any = None,
                 password: Any = None, keepalive: int = 0) -> None:
        self.args = (client_id, server, port, user, password, keepalive)
        self.calls: list[tuple] = []
        self.cb: Any = None
        self.incoming: list[tuple[bytes, bytes]] = []
        self.broken = False
        self.sock = self
        self.timeouts: list[float] = []
        Recorder.made.append(self)

    def set_callback(self, f: Any) -> None:
        self.cb = f

    def set_last_will(self, topic: bytes, msg: bytes, retain: bool = False, qos: int = 0) -> None:
        self.calls.append(("will", topic, msg, retain, qos))

    def connect(self, clean_session: bool = True, timeout: float | None = None) -> int:
        if Recorder.refuse:
            raise OSError("ECONNREFUSED")
        self.calls.append(("connect", clean_session, timeout))
        return 0

    def settimeout(self, seconds: float) -> None:
        self.timeouts.append(seconds)

    def subscribe(self, topic: bytes, qos: int = 0) -> None:
        self.calls.append(("subscribe", topic, qos))

    def publish(self, topic: bytes, msg: bytes, retain: bool = False, qos: int = 0) -> None:
        if self.broken:
            raise OSError("ECONNRESET")
        self.calls.append(("publish", topic, msg, retain, qos))

    def check_msg(self) -> None:
        if self.broken:
            raise OSError("ECONNRESET")
        if self.incoming:
            self.cb(*self.incoming.pop(0))

    def disconnect(self) -> None:
        self.calls.append(("disconnect",))

    def close(self) -> None:
        self.calls.append(("close",))


@pytest.fixture
def recorder() -> Iterator[type[Recorder]]:
    Recorder.made, Recorder.refuse = [], False
    yield Recorder


def mqtt_settings(**overrides: Any) -> dict[str, Any]:
    return settings(transport="mqtt", table="t1", wifi_ssid="popcorn", wifi_password="pw",
                    mqtt_host="broker.local", mqtt_user="popcorn", mqtt_password="secret",
                    **overrides)


def test_topics_status_and_last_will(recorder: type[Recorder]) -> None:
    """Connect once Wi-Fi is up: will = retained offline status, subscribe to cmd, publish a
    retained online status; events go to the event topic with QoS 1."""
    network.ACCESS_POINTS["popcorn"] = "pw"
    clock = Clock()
    transport = MqttTransport(mqtt_settings(), network.WLAN(network.STA_IF), recorder)
    assert transport.poll(clock()) == [] and not transport.connected  # Wi-Fi joining
    transport.poll(clock.advance(10))
    assert transport.connected and transport.take_connected() and not transport.take_connected()
    client = recorder.made[0]
    assert client.args == (b"reader-t1-bag-1", "broker.local", 1883, "popcorn", "secret", 30)
    base = topics.topic("t1", READER, "status").encode()
    assert base == b"popcorn/t1/reader/bag-1/status"
    offline = {"v": 1, "type": "status", "reader": READER, "state": "offline"}
    will, connect, subscribe, online = client.calls
    assert will[:2] == ("will", base) and json.loads(will[2]) == offline and will[3:] == (True, 1)
    assert connect == ("connect", True, 3)
    assert subscribe == ("subscribe", topics.topic("t1", READER, "cmd").encode(), 1)
    assert online[1] == base and json.loads(online[2])["state"] == "online"
    assert online[3:] == (True, 1)
    timeouts = len(client.timeouts)
    assert transport.send(b'{"x": 1}')
    assert client.calls[-1] == ("publish", topics.topic("t1", READER, "event").encode(),
                                b'{"x": 1}', False, 1)
    assert client.timeouts[timeouts:] == [3], "a publish must not wait without limit"
    transport.close()
    assert json.loads(client.calls[-2][2])["state"] == "offline" and client.calls[-2][3]
    assert client.calls[-1] == ("disconnect",)


def test_an_older_umqtt_without_a_connect_timeout_works(recorder: type[Recorder]) -> None:
    """connect(timeout=...) is refused by old umqtt.simple: the plain call is used."""

    class Old(recorder):  # type: ignore[valid-type,misc]
        def connect(self, clean_session: bool = True) -> int:  # type: ignore[override]
            self.calls.append(("connect", clean_session, None))
            return 0

    network.ACCESS_POINTS["popcorn"] = "pw"
    transport = MqttTransport(mqtt_settings(), network.WLAN(network.STA_IF), Old)
    transport.poll(0)
    transport.poll(1)
    assert transport.connected and ("connect", True, None) in recorder.made[0].calls


def test_commands_arrive_and_other_topics_are_ignored(recorder: type[Recorder]) -> None:
    """Only the reader's cmd topic reaches the main loop."""
    network.ACCESS_POINTS["popcorn"] = "pw"
    transport = MqttTransport(mqtt_settings(), network.WLAN(network.STA_IF), recorder)
    transport.poll(0)
    transport.poll(1)
    client = recorder.made[0]
    client.incoming = [(b"popcorn/t1/reader/bag-2/cmd", b"other"),
                       (b"popcorn/t1/reader/bag-1/cmd", b"mine")]
    assert transport.poll(2) == [b"mine"]


def test_a_broken_connection_is_reopened_with_backoff(recorder: type[Recorder]) -> None:
    """A failing publish drops the session; polls reconnect after a growing back-off."""
    network.ACCESS_POINTS["popcorn"] = "pw"
    clock = Clock()
    transport = MqttTransport(mqtt_settings(), network.WLAN(network.STA_IF), recorder)
    transport.poll(clock())
    transport.poll(clock.advance(10))
    transport.take_connected()
    recorder.made[0].broken = True
    assert not transport.send(b"{}") and not transport.connected
    assert ("close",) in recorder.made[0].calls
    recorder.refuse = True
    transport.poll(clock.advance(1000))
    assert len(recorder.made) == 2 and not transport.connected
    transport.poll(clock.advance(1500))
    assert len(recorder.made) == 2, "retried before the back-off ran out"
    recorder.refuse = False
    transport.poll(clock.advance(600))
    assert transport.connected and transport.take_connected() and transport.connections == 2


def test_wifi_loss_drops_the_session(recorder: type[Recorder]) -> None:
    """The access point vanishes: offline until it is back, then a new session."""
    network.ACCESS_POINTS["popcorn"] = "pw"
    clock = Clock()
    transport = MqttTransport(mqtt_settings(), network.WLAN(network.STA_IF), recorder)
    transport.poll(clock())
    transport.poll(clock.advance(10))
    assert transport.connected
    del network.ACCESS_POINTS["popcorn"]
    transport.poll(clock.advance(10))
    assert not transport.connected and not transport.send(b"{}")
    network.ACCESS_POINTS["popcorn"] = "pw"
    transport.poll(clock.advance(2000))
    assert transport.connected and transport.connections == 2


def test_a_wrong_wifi_password_never_connects(recorder: type[Recorder]) -> None:
    """It keeps trying to join, every ten seconds, and never opens a broker session."""
    network.ACCESS_POINTS["popcorn"] = "other"
    clock = Clock()
    wlan = network.WLAN(network.STA_IF)
    transport = MqttTransport(mqtt_settings(), wlan, recorder)
    for _ in range(30):
        transport.poll(clock.advance(1000))
    assert not recorder.made and wlan.connects == 3


# -- the hub's commands through the MQTT path -----------------------------------------------


class CommandRig:
    """A reader (boot 42) on the MQTT transport and a recording client, stepped by hand,
    with its hello acked and its first tap waiting for its ack."""

    def __init__(self, recorder: type[Recorder]) -> None:
        network.ACCESS_POINTS["popcorn"] = "pw"
        self.clock = Clock()
        self.chip = FakeRC522()
        self.player = Player()
        cfg = mqtt_settings()
        transport = MqttTransport(cfg, network.WLAN(network.STA_IF), recorder)
        self.app = firmware.App(cfg, MFRC522(self.chip.spi, self.chip.cs), transport, boot=42,
                                player=self.player, ticks=self.clock)
        self.app.start()
        for _ in range(4):  # Wi-Fi up, then the broker
            self.app.step()
            self.clock.advance(5)
        self.client = recorder.made[-1]
        assert transport.connected
        self.hub(proto.encode(proto.ack(READER, 42, 0)))
        self.chip.place(Tag("04a1b2c3d4e5f6"))
        self.run(100)
        assert self.app.delivery.greeted and self.app.delivery.pending == 1

    def run(self, ms: int, step: int = 5) -> list[dict]:
        """Turn the loop for ``ms`` milliseconds; the events published meanwhile."""
        before = len(self.client.calls)
        for _ in range(ms // step):
            self.app.step()
            self.clock.advance(step)
        event = topics.topic("t1", READER, "event").encode()
        return [json.loads(call[2]) for call in self.client.calls[before:]
                if call[0] == "publish" and call[1] == event]

    def hub(self, payload: bytes) -> None:
        """A payload on the reader's cmd topic."""
        self.client.incoming.append((topics.topic("t1", READER, "cmd").encode(), payload))

    def obeyed(self, payload: bytes) -> list[str]:
        """What the reader did about one payload: hello sent, ring emptied, pattern played."""
        played = len(self.player.played)
        self.hub(payload)
        sent = self.run(10)
        done = ["resync"] if any(m["type"] == "hello" for m in sent) else []
        done += ["ack"] if self.app.delivery.pending == 0 else []
        return done + (["feedback"] if len(self.player.played) > played else [])


@pytest.mark.usefixtures("board_json")
@pytest.mark.parametrize("payload", GARBLED, ids=repr)
def test_a_garbled_command_over_mqtt_is_ignored_and_counted_on_a_board(
        recorder: type[Recorder], payload: bytes) -> None:
    """With MicroPython's lenient json.loads, a garbled payload on the cmd topic is not
    obeyed, and the reader counts it as ignored."""
    rig = CommandRig(recorder)
    ignored = rig.app.ignored
    assert rig.obeyed(payload) == []
    assert rig.app.ignored == ignored + 1 and rig.app.step_errors == 0


@pytest.mark.usefixtures("board_json")
@pytest.mark.parametrize(("message", "effect"), [
    (proto.ack(READER, 42, 1), "ack"), (proto.feedback(READER, "error", 1), "feedback"),
    (proto.resync(), "resync"), (proto.resync(READER), "resync")])
def test_the_hubs_commands_over_mqtt_are_obeyed_on_a_board(
        recorder: type[Recorder], message: dict, effect: str) -> None:
    """The same path, the board's json.loads: the hub's encoder is understood."""
    rig = CommandRig(recorder)
    ignored = rig.app.ignored
    assert rig.obeyed(proto.encode(message)) == [effect]
    assert rig.app.ignored == ignored


# -- the whole firmware on a real broker ----------------------------------------------------


class MqttBench:
    """main() in a thread with the MQTT transport; the hub's MqttLink on the same broker."""

    def __init__(self, tmp_path: Path, broker: Any) -> None:
        self.table = f"fw{next(_tables)}-{random.randrange(10**6)}"
        self.chip = FakeRC522()
        machine.attach(self.chip, board_esp32.SPI_ID, board_esp32.PINS["cs"])
        network.ACCESS_POINTS["popcorn"] = "pw"
        url = broker.url
        self.config = tmp_path / "config.json"
        self.config.write_text(json.dumps({
            "reader": READER, "table": self.table, "transport": "mqtt", "wifi_ssid": "popcorn",
            "wifi_password": "pw", "mqtt_host": url.host, "mqtt_port": url.port,
            "mqtt_user": url.username, "mqtt_password": url.password, "poll_ms": 10,
            "dwell_ms": 20, "gone_ms": 100, "resend_ms": 300, "hello_ms": 1000}))
        self.statuses: list[str] = []
        self.watcher = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        self.watcher.username_pw_set(url.username, url.password)
        self.watcher.on_message = lambda _c, _u, m: self.statuses.append(
            json.loads(m.payload)["state"])
        self.watcher.connect(url.host, url.port)
        self.watcher.subscribe(topics.topic(self.table, READER, "status"), 1)
        self.watcher.loop_start()
        self.ingest, self.record = make_ingest(tmp_path, [READER])
        self.link = MqttLink(self.ingest, url, self.table).start()
        assert self.link.connected.wait(10)
        self.stop = threading.Event()
        firmware.current = None
        self.thread = threading.Thread(
            target=firmware.main, args=(str(self.config), str(tmp_path / "state.json")),
            kwargs={"stop": self.stop.is_set, "safe_window_ms": 0}, daemon=True)
        self.thread.start()
        assert wait_for(lambda: firmware.current is not None, 10)
        self.app: firmware.App = firmware.current

    def tap(self, uid: str) -> None:
        before = self.app.taps
        tag = self.chip.place(Tag(uid))
        assert wait_for(lambda: self.app.taps == before + 1, 10)
        self.chip.lift(tag)
        key = bytes.fromhex(uid)
        assert wait_for(lambda: safely(lambda: key not in self.app.debouncer.tracked()), 10)

    def seqs(self) -> list[int]:
        return [key[2] for key in self.record.seen()]

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        self.link.stop()
        self.ingest.stop()
        self.ingest.store.close()
        self.watcher.disconnect()
        self.watcher.loop_stop()


@pytest.fixture
def mqtt_bench(tmp_path: Path, broker: Any) -> Iterator[MqttBench]:
    rig = MqttBench(tmp_path, broker)
    yield rig
    rig.close()


def test_taps_arrive_exactly_once_over_mqtt(mqtt_bench: MqttBench) -> None:
    """Hello is acked, taps are stored once and acked, the reader shows online."""
    bench = mqtt_bench
    assert wait_for(lambda: bench.app.delivery.greeted), "the hub never acked the hello"
    for uid in ("04a1b2c3d4e5f6", "a1b2c3d4", "04a1b2c3d4e5f6"):
        bench.tap(uid)
    assert wait_for(lambda: bench.app.delivery.pending == 0)
    assert bench.seqs() == [1, 2, 3]
    assert wait_for(lambda: "online" in bench.statuses)
    assert bench.ingest.readers[READER].online
    assert micropython.calls == [], "over MQTT the USB line is the REPL's: Ctrl-C stays on"


def test_a_dropped_connection_publishes_the_will_and_resends_after(
        mqtt_bench: MqttBench) -> None:
    """Cut the TCP connection without DISCONNECT: the broker publishes the retained
    ``offline`` will; taps made meanwhile go out after the reader reconnects, once each."""
    bench = mqtt_bench
    bench.tap("04a1b2c3d4e5f6")
    assert wait_for(lambda: bench.app.delivery.pending == 0)
    transport = bench.app.transport
    assert isinstance(transport, MqttTransport)
    client = transport.client
    assert isinstance(client, simple.MQTTClient)
    bench.statuses.clear()
    threading.Thread(target=client.drop).start()  # from outside, like a dead access point
    assert wait_for(lambda: "offline" in bench.statuses), "no last will"
    bench.tap("a1b2c3d4")
    bench.tap("0102030405060708090a")
    assert wait_for(lambda: bench.app.delivery.pending == 0, 30)
    assert transport.connections >= 2
    assert wait_for(lambda: bench.statuses[-1:] == ["online"])
    assert bench.seqs() == [1, 2, 3]


def test_a_clean_stop_publishes_offline(mqtt_bench: MqttBench) -> None:
    """Leaving the loop closes the session with a retained offline status."""
    bench = mqtt_bench
    assert wait_for(lambda: "online" in bench.statuses)
    bench.stop.set()
    bench.thread.join(10)
    assert wait_for(lambda: bench.statuses[-1:] == ["offline"])
