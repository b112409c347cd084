"""MQTT transport over Wi-Fi with ``umqtt.simple``: topics, retained status and last will.

Topics (``docs/protocol.md``, "MQTT topics"), with ``T`` the table and ``R`` the reader id:

* ``popcorn/T/reader/R/event``: ``hello``, ``tag`` (a mat's ``zones``), ``heartbeat``,
  published with QoS 1;
* ``popcorn/T/reader/R/status``: ``{"state": "online"}`` (with the reader's protocol version,
  2 for a mat) published **retained** at each
  connection; the same message with ``"offline"`` is the **last will** (the broker publishes
  it if the reader vanishes) and is published on a clean :meth:`MqttTransport.close`;
* ``popcorn/T/reader/R/cmd``: the hub's ``ack``, ``feedback`` and ``resync``, subscribed
  with QoS 1.

:meth:`MqttTransport.poll` is called from the main loop and never waits long: it brings
Wi-Fi up, (re)connects to the broker with a growing back-off, and reads whatever arrived.
A failed read or publish drops the connection; the next poll reconnects, and
:meth:`take_connected` then tells the main loop to say hello and resend.
"""

import messages
from compat import elapsed


def topic(table, reader, kind):
    """The topic of one reader's ``event``, ``status`` or ``cmd`` messages."""
    return "popcorn/" + table + "/reader/" + reader + "/" + kind


class MqttTransport:
    """A reader's MQTT session; ``client_class`` is ``umqtt.simple.MQTTClient``."""

    name = "mqtt"

    def __init__(self, cfg, wlan, client_class, log=None, max_backoff_ms=16000, io_timeout_s=3):
        self.cfg = cfg
        self.wlan = wlan
        self.client_class = client_class
        self.log = log or (lambda *_: None)
        self.reader, table = cfg["reader"], cfg["table"]
        self.v = messages.MAT_VERSION if cfg.get("kind") == "mat" else messages.VERSION
        """The protocol version of the status messages: 2 for a mat."""
        self.event_topic = topic(table, self.reader, "event").encode()
        self.status_topic = topic(table, self.reader, "status").encode()
        self.cmd_topic = topic(table, self.reader, "cmd").encode()
        self.client_id = ("reader-" + table + "-" + self.reader).encode()
        self.client = None
        self.connected = False
        self.connections = 0
        """Successful broker connections since start."""
        self.max_backoff_ms = max_backoff_ms
        self.io_timeout_s = io_timeout_s
        """Longest wait for the broker (connect, PUBACK): well inside the watchdog's time."""
        self._backoff = 0
        self._retry_at = None
        self._wifi_at = None
        self._inbox = []
        self._received = 0
        self._fresh = False

    def take_connected(self):
        """True once after each new broker connection."""
        fresh, self._fresh = self._fresh, False
        return fresh

    def _on_message(self, topic_name, payload):
        self._received += 1
        if bytes(topic_name) == self.cmd_topic and len(self._inbox) < 16:
            self._inbox.append(bytes(payload))

    def _wifi(self, now):
        if self.wlan.isconnected():
            return True
        if self._wifi_at is None or elapsed(now, self._wifi_at, 10000):
            self._wifi_at = now
            try:
                self.wlan.active(True)
                self.wlan.connect(self.cfg["wifi_ssid"], self.cfg["wifi_password"] or "")
                self.log("wifi: connecting to", self.cfg["wifi_ssid"])
            except OSError as exc:
                self.log("wifi:", exc)
        return False

    def _connect(self, now):
        if self._retry_at is not None and not elapsed(now, self._retry_at, self._backoff):
            return
        self._retry_at = now
        cfg = self.cfg
        client = self.client_class(self.client_id, cfg["mqtt_host"], port=cfg["mqtt_port"],
                                   user=cfg["mqtt_user"], password=cfg["mqtt_password"],
                                   keepalive=30)
        try:
            client.set_callback(self._on_message)
            client.set_last_will(self.status_topic,
                                 messages.status(self.reader, "offline", self.v),
                                 retain=True, qos=1)
            try:
                client.connect(clean_session=True, timeout=self.io_timeout_s)
            except TypeError:  # an older umqtt.simple without the timeout argument
                client.connect(clean_session=True)
            self._bound(client)
            client.subscribe(self.cmd_topic, qos=1)
            client.publish(self.status_topic, messages.status(self.reader, "online", self.v),
                           retain=True, qos=1)
        except Exception as exc:  # noqa: BLE001 - OSError, MQTTException: retry later
            self.log("mqtt: connect failed:", exc)
            self._drop(client)
            self._backoff = min(self.max_backoff_ms, max(1000, self._backoff * 2))
            return
        self.client, self.connected, self._fresh = client, True, True
        self._backoff = 0
        self.connections += 1
        self.log("mqtt: connected to", cfg["mqtt_host"])

    def _bound(self, client):
        """Put a time limit on the socket again (umqtt's check_msg leaves it blocking), so a
        broker that stops answering is an ``OSError``, not a hang the watchdog ends."""
        try:
            client.sock.settimeout(self.io_timeout_s)
        except Exception:  # noqa: BLE001 - no socket: the call that needs it will fail
            return

    def _drop(self, client):
        try:
            client.sock.close()
        except Exception:  # noqa: BLE001 - no socket, already closed
            return

    def _lost(self, why):
        self.log("mqtt: connection lost:", why)
        if self.client is not None:
            self._drop(self.client)
        self.client, self.connected = None, False
        self._backoff = 1000

    def poll(self, now):
        """Keep the connection up and return the command payloads received."""
        if not self._wifi(now):
            if self.connected:
                self._lost("wifi down")
            return []
        if not self.connected:
            self._connect(now)
        if self.connected:
            try:
                for _ in range(4):  # at most a few packets per loop turn
                    before = self._received
                    if self.client.check_msg() is None and self._received == before:
                        break  # nothing was waiting
            except Exception as exc:  # noqa: BLE001 - OSError, or a broken packet
                self._lost(exc)
        inbox, self._inbox = self._inbox, []
        return inbox

    def rssi(self):
        """The Wi-Fi signal in dBm (-127 to 0) while on the network, else ``None``: the
        heartbeat's ``rssi``, read from the station (``WLAN.status("rssi")``)."""
        try:
            if not self.wlan.isconnected():
                return None
            value = self.wlan.status("rssi")
        except Exception:  # noqa: BLE001 - a port without it, a radio going down
            return None
        return value if type(value) is int and -127 <= value <= 0 else None

    def send(self, payload):
        """Publish one event (QoS 1); False when not connected or if the publish failed."""
        if not self.connected or len(payload) > messages.MAX_MESSAGE:
            return False
        try:
            self._bound(self.client)
            self.client.publish(self.event_topic, payload, qos=1)
        except Exception as exc:  # noqa: BLE001
            self._lost(exc)
            return False
        return True

    def close(self):
        """Publish ``offline`` (retained) and disconnect cleanly."""
        if self.connected:
            try:
                self._bound(self.client)
                self.client.publish(self.status_topic,
                                    messages.status(self.reader, "offline", self.v),
                                    retain=True, qos=1)
                self.client.disconnect()
            except Exception:  # noqa: BLE001
                self._drop(self.client)
        self.client, self.connected = None, False
