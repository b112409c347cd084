"""The reader's health in its heartbeats, computed by the firmware on MicroPython itself.

``tests/firmware/test_fw_on_micropython.py`` runs this program on MicroPython's Unix port
(a real MicroPython: its own ``json``, integers, bytes and bytearrays), with the folders
to put on ``sys.path`` as arguments: this folder's shims, ``tests/firmware`` (for the
register-level RC522 fake) and ``firmware/``. Nothing here is CPython's.

Two readers run on a hand-driven clock:

* ``serial``: the real MFRC522 driver on the RC522 fake, over the serial transport, with a
  supply measured through a divider. A sticker with a broken CRC rests on the pad (every
  poll fails in the driver), then a good one is swept past in one poll (too fast to count);
  the heartbeat says so.
* ``mqtt``: the MQTT transport on a Wi-Fi station whose signal is -84 dBm, and a client that
  keeps what is published; its heartbeat carries the ``rssi``.

Each message a reader sent is printed as one line, ``<reader kind> <the message's JSON>``;
then ``longest <JSON>``: the biggest heartbeat the firmware can build (a 32-character
reader id, every number at its widest), whose size the test checks.
"""

import sys

for _path in sys.argv[1:]:
    sys.path.insert(0, _path)

import board  # noqa: E402
import config  # noqa: E402
import fake_rc522  # noqa: E402
import messages  # noqa: E402
from app import App  # noqa: E402
from mfrc522 import MFRC522  # noqa: E402
from transport_mqtt import MqttTransport  # noqa: E402
from transport_serial import SerialTransport  # noqa: E402

BAD = "04a1b2c3d4e5f6"
GOOD = "04112233445566"
PIN_VOLTS = 1.4
"""What the divider puts on the ADC pin: a 4.2 V supply divided by 3."""


class Clock:
    """Tick counts that move only when told."""

    def __init__(self):
        self.now = 1000

    def __call__(self):
        return self.now


class Stream:
    """A serial line: nothing from the hub, every byte the reader writes kept."""

    def __init__(self):
        self.written = b""

    def read(self):
        """Nothing arrives."""
        return b""

    def write(self, data):
        """Keep what the reader sends."""
        self.written += bytes(data)


class Adc:
    """An RP2040-like ADC (``read_u16`` only) with ``volts`` at its pin."""

    def __init__(self, volts):
        self.volts = volts

    def read_u16(self):
        """The pin's voltage as 0-65535 of 3.3 V."""
        return int(self.volts / 3.3 * 65535)


class Station:
    """A Wi-Fi station joined to its network, at ``rssi`` dBm."""

    def __init__(self, rssi):
        self.rssi = rssi

    def isconnected(self):
        """Always joined."""
        return True

    def status(self, param=None):
        """The signal, as ``network.WLAN.status("rssi")`` gives it."""
        return self.rssi if param == "rssi" else 3


class Socket:
    """What the transport does to the client's socket: set its timeout."""

    def settimeout(self, seconds):
        """Nothing to wait for here."""

    def close(self):
        """Nothing to close."""


class Client:
    """``umqtt.simple.MQTTClient`` as far as the transport uses it; keeps the events."""

    events = []

    def __init__(self, client_id, server, port=0, user=None, password=None, keepalive=0):
        self.sock = Socket()

    def set_callback(self, f):
        """No command comes."""

    def set_last_will(self, topic, msg, retain=False, qos=0):
        """Noted by a broker; nothing to do here."""

    def connect(self, clean_session=True, timeout=None):
        """Always accepted."""
        return 0

    def subscribe(self, topic, qos=0):
        """Nothing will arrive."""

    def publish(self, topic, msg, retain=False, qos=0):
        """Keep each event (the status topic's messages are not events)."""
        if bytes(topic).endswith(b"/event"):
            Client.events.append(bytes(msg))

    def check_msg(self):
        """Nothing waiting."""
        return None


def run(app, clock, ms, step=5):
    """Turn the loop for ``ms`` milliseconds."""
    for _ in range(ms // step):
        app.step()
        clock.now += step


def serial_reader():
    """The serial reader's story; returns the lines it sent."""
    clock = Clock()
    chip = fake_rc522.FakeRC522()
    stream = Stream()
    cfg = config.check({"reader": "bag-1", "transport": "serial"})
    supply = board.Supply(Adc(PIN_VOLTS), 3)
    app = App(cfg, MFRC522(chip.spi, chip.cs), SerialTransport(stream), 42, ticks=clock,
              supply=supply.millivolts)
    app.start()
    run(app, clock, 100)
    bad = chip.place(fake_rc522.Tag(BAD, bad_crc=True))
    run(app, clock, 300)
    chip.lift(bad)
    run(app, clock, 400)
    good = chip.place(fake_rc522.Tag(GOOD))
    run(app, clock, 25)
    chip.lift(good)
    run(app, clock, 5200 - 825)
    app.close()
    return stream.written.split(b"\n")


def mqtt_reader():
    """The Wi-Fi reader's story; returns the events it published."""
    clock = Clock()
    chip = fake_rc522.FakeRC522()
    cfg = config.check({"reader": "bag-2", "transport": "mqtt", "wifi_ssid": "popcorn",
                        "mqtt_host": "hub.local"})
    transport = MqttTransport(cfg, Station(-84), Client)
    app = App(cfg, MFRC522(chip.spi, chip.cs), transport, 43, ticks=clock)
    app.start()
    run(app, clock, 5200)
    return Client.events


def main():
    """Print every message of both readers, then the longest heartbeat."""
    for line in serial_reader():
        if line:
            print("serial", line.decode())
    for event in mqtt_reader():
        print("mqtt", event.decode())
    widest = {"rssi": -127, "supply_mv": 65535, "read_fail": 2 ** 40, "too_fast": 2 ** 40}
    longest = messages.heartbeat("r" * 32, messages.MAX_U32, messages.MAX_U32, widest)
    print("longest", longest.decode())


main()
