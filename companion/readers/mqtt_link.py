"""MQTT transport (paho-mqtt 2.x): readers publish events, the hub publishes commands.

The hub connects with a fixed client id and a persistent session (``clean_session`` off),
so QoS 1 events published while it was away are delivered when it comes back. It
subscribes to every reader's ``event`` and ``status`` topic of its table; the status topic
is retained and carries the reader's last will, so availability survives restarts on both
sides. paho reconnects by itself with exponential backoff. Every payload goes to the
:class:`~.ingest.Ingest` with the reader id of its topic, which the payload must repeat.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from typing import Any

import paho.mqtt.client as mqtt

from . import protocol as proto
from . import topics
from .ingest import Ingest
from .mqtt_url import MqttUrl

log = logging.getLogger("companion.readers.mqtt")


def make_client(client_id: str, url: MqttUrl, *, persistent: bool = True) -> mqtt.Client:
    """A paho client (callback API v2, MQTT 3.1.1) with credentials and reconnect backoff."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=not persistent, protocol=mqtt.MQTTv311)
    if url.username is not None:
        client.username_pw_set(url.username, url.password)
    client.reconnect_delay_set(min_delay=1, max_delay=8)
    client.max_inflight_messages_set(100)
    client.max_queued_messages_set(0)
    client.on_socket_open = lambda _c, _u, sock: no_delay(sock)
    return client


def no_delay(sock: Any) -> None:
    """Turn Nagle's algorithm off: an ack and the next event must not wait for each other.

    paho leaves it on, and a reader that sends a PUBACK then a PUBLISH would otherwise wait
    for the broker's delayed TCP ack (tens of milliseconds).
    """
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class MqttLink:
    """Receives reader messages of one table from a broker and sends the hub's replies."""

    name = "mqtt"

    def __init__(self, ingest: Ingest, url: MqttUrl, table: str,
                 client_id: str | None = None) -> None:
        self.ingest, self.url, self.table = ingest, url, table
        self.client = make_client(client_id or f"popcorn-hub-{table}", url)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self.connected = threading.Event()
        """Set while connected and subscribed."""
        self.connections = 0

    def start(self) -> MqttLink:
        """Connect in the background; paho keeps reconnecting until :meth:`stop`."""
        self.client.connect_async(self.url.host, self.url.port, keepalive=15)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        """Disconnect and stop the network thread."""
        self.client.disconnect()
        self.client.loop_stop()

    def send(self, source: str, message: dict[str, Any]) -> None:
        """Publish a command to reader ``source`` (QoS 1)."""
        self.client.publish(topics.topic(self.table, source, "cmd"), proto.encode(message), qos=1)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("mqtt: connection to %s refused: %s", self.url.redacted(), reason)
            return
        client.subscribe([(topics.subscription(self.table, "event"), 1),
                          (topics.subscription(self.table, "status"), 1)])
        self.connections += 1
        log.info("mqtt: connected to %s", self.url.redacted())

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any,
                      properties: Any) -> None:
        self.connected.set()  # subscribed: from now on no reader message is missed

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected.clear()
        log.warning("mqtt: disconnected (%s); reconnecting with backoff", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        parts = topics.split(message.topic)
        if parts is None or parts[0] != self.table:
            return
        self.ingest.submit(self, parts[1], bytes(message.payload), claimed=parts[1])
