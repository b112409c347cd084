"""``umqtt.simple.MQTTClient`` on top of paho-mqtt, so the firmware talks to a real broker.

Same calls and blocking behaviour as MicroPython's umqtt.simple: ``connect`` returns once the
broker accepted the session (``MQTTException`` if it refused, ``OSError`` if it cannot be
reached), QoS 1 ``publish`` and ``subscribe`` wait for the broker's acknowledgement,
``check_msg`` delivers what has arrived to the callback without waiting, and every broken
connection surfaces as ``OSError``. :meth:`MQTTClient.drop` cuts the TCP connection without
a DISCONNECT, as a reader losing power would (the broker then publishes the last will).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

clients: list[MQTTClient] = []
"""Every client made, oldest first."""


class MQTTException(Exception):
    """The broker refused the connection."""


class _Sock:
    def __init__(self, client: MQTTClient) -> None:
        self.client = client

    def close(self) -> None:
        self.client.drop()

    def settimeout(self, seconds: float | None) -> None:
        self.client.timeout = seconds if seconds is not None else 5.0


class MQTTClient:
    """A blocking MQTT 3.1.1 client."""

    def __init__(self, client_id: bytes | str, server: str, port: int = 0,
                 user: str | None = None, password: str | None = None, keepalive: int = 0,
                 ssl: Any = None, ssl_params: Any = None) -> None:
        self.client_id = client_id.decode() if isinstance(client_id, bytes) else client_id
        self.server, self.port = server, port or 1883
        self.user, self.password, self.keepalive = user, password, keepalive
        self.cb: Callable[[bytes, bytes], None] | None = None
        self.will: tuple[str, bytes, bool, int] | None = None
        self.paho: mqtt.Client | None = None
        self.sock: _Sock | None = None
        self.published: list[tuple[str, bytes, bool, int]] = []
        self._connected: int | None = None
        self._subscribed = False
        self._inbox: list[tuple[bytes, bytes]] = []
        self.timeout = 5.0
        """How long a blocking call waits for the broker (``sock.settimeout``)."""
        clients.append(self)

    def set_callback(self, f: Callable[[bytes, bytes], None]) -> None:
        """The function called with ``(topic, message)`` for each message received."""
        self.cb = f

    def set_last_will(self, topic: bytes | str, msg: bytes | str, retain: bool = False,
                      qos: int = 0) -> None:
        """What the broker publishes if this client vanishes."""
        self.will = (_text(topic), _bytes(msg), retain, qos)

    def connect(self, clean_session: bool = True, timeout: float | None = None) -> int:
        """Open the session; returns whether the broker had a session for us (0 here)."""
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.client_id,
                             clean_session=clean_session, protocol=mqtt.MQTTv311)
        if self.user is not None:
            client.username_pw_set(self.user, self.password)
        if self.will is not None:
            client.will_set(*self.will)
        client.on_connect = self._on_connect
        client.on_message = self._on_message
        client.on_subscribe = lambda *_: setattr(self, "_subscribed", True)
        self.paho = client
        client.connect(self.server, self.port, keepalive=self.keepalive or 60)
        self._wait(lambda: self._connected is not None, timeout or 5)
        if self._connected:
            raise MQTTException(self._connected)
        self.sock = _Sock(self)
        return 0

    def _on_connect(self, _c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        self._connected = reason.value if reason.is_failure else 0

    def _on_message(self, _c: Any, _u: Any, message: mqtt.MQTTMessage) -> None:
        self._inbox.append((message.topic.encode(), bytes(message.payload)))

    def _loop(self, timeout: float) -> None:
        if self.paho is None:
            raise OSError("not connected")
        rc = self.paho.loop(timeout)
        if rc != mqtt.MQTT_ERR_SUCCESS:
            raise OSError(f"connection lost ({rc})")

    def _wait(self, done: Callable[[], bool], timeout: float | None = None) -> None:
        deadline = time.monotonic() + (timeout or self.timeout)
        while not done():
            if time.monotonic() > deadline:
                raise OSError("timed out")
            self._loop(0.01)

    def publish(self, topic: bytes | str, msg: bytes | str, retain: bool = False,
                qos: int = 0) -> None:
        """Publish; with QoS 1, return once the broker acknowledged."""
        if self.paho is None:
            raise OSError("not connected")
        self.published.append((_text(topic), _bytes(msg), retain, qos))
        info = self.paho.publish(_text(topic), _bytes(msg), qos=qos, retain=retain)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            raise OSError(f"publish failed ({info.rc})")
        self._wait(info.is_published if qos else lambda: True)

    def subscribe(self, topic: bytes | str, qos: int = 0) -> None:
        """Subscribe and wait for the broker's SUBACK."""
        if self.paho is None:
            raise OSError("not connected")
        self._subscribed = False
        self.paho.subscribe(_text(topic), qos)
        self._wait(lambda: self._subscribed)

    def check_msg(self) -> None:
        """Deliver the messages that arrived, without waiting for more."""
        self._loop(0)
        self._deliver()

    def wait_msg(self) -> None:
        """Wait a little for a message and deliver it."""
        self._loop(0.1)
        self._deliver()

    def _deliver(self) -> None:
        inbox, self._inbox = self._inbox, []
        for topic, payload in inbox:
            if self.cb is not None:
                self.cb(topic, payload)

    def ping(self) -> None:
        """Keep the session alive."""
        self._loop(0)

    def disconnect(self) -> None:
        """Say DISCONNECT and close (the broker drops the will)."""
        if self.paho is not None:
            self.paho.disconnect()
            self.paho = None

    def drop(self) -> None:
        """Cut the TCP connection without DISCONNECT (the broker publishes the will); the
        next call on this client fails with ``OSError``."""
        client = self.paho
        sock = client.socket() if client is not None else None
        if sock is not None:
            sock.close()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _bytes(value: bytes | str) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)
