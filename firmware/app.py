"""The reader's main loop, and :func:`main`, which builds it from the board and the config.

One turn of the loop (:meth:`App.step`) never blocks for long:

1. feed the watchdog;
2. read the hub's commands (``ack``, ``feedback``, ``resync``) from the transport;
3. say ``hello`` (and resend) after a new connection;
4. every ``poll_ms``, poll the RC522 and turn the reads into taps (:mod:`debounce`); each
   tap becomes a ``tag`` event with the next seq (:mod:`delivery`);
5. resend unacked events, repeat the hello (MQTT), send the heartbeat when due, with the
   reader's health (:meth:`App.health`);
6. move the LED and buzzer pattern along (:mod:`feedback`).

Whatever goes wrong inside a turn is counted and the loop goes on; a hung loop is what the
watchdog is for. ``main.py`` on the board only calls :func:`main`.
"""

import messages
from compat import elapsed, sleep_ms, ticks_diff, ticks_ms
from debounce import Debouncer
from delivery import Delivery
from mfrc522 import hexlify

FW_VERSION = "0.3.0"
"""The firmware version sent in ``hello``; 0.2.0 added the heartbeat's health fields, 0.3.0
the cinema mat (``mat.py``)."""
current = None
"""The running :class:`App` (after Ctrl-C in MQTT mode, inspect it at the REPL)."""


def _quiet(*_args):
    """The log in serial mode: the USB port belongs to the protocol, so say nothing."""


class App:
    """One reader: an RFID chip, a transport, the protocol state and the feedback player.

    The cinema mat (:class:`mat.Mat`) is this loop too, with zone states for taps.
    """

    PROTOCOL = messages.VERSION
    """The protocol version of this reader's messages (1: a bag reader)."""

    def __init__(self, cfg, rfid, transport, boot, player=None, wdt=None, ticks=ticks_ms,
                 log=None, supply=None):
        self.cfg, self.rfid, self.transport = cfg, rfid, transport
        self.reader = cfg["reader"]
        self.player, self.wdt, self.ticks = player, wdt, ticks
        self.log = log or _quiet
        self.supply = supply
        """A function giving the supply in millivolts or ``None`` (the board's
        :meth:`~board.Board.supply_mv`), or ``None`` when nothing measures it."""
        now = ticks()
        self.delivery = Delivery(self.reader, boot, FW_VERSION, transport.send,
                                 capacity=cfg["buffer"], resend_ms=cfg["resend_ms"],
                                 hello_ms=cfg["hello_ms"], heartbeat_ms=cfg["heartbeat_ms"],
                                 repeat_hello=transport.name == "mqtt", now=now,
                                 health=self.health, v=self.PROTOCOL,
                                 on_hello=self.on_hello)
        self.debouncer = Debouncer(cfg["dwell_ms"], cfg["gone_ms"])
        self.taps = 0
        """Taps numbered and sent since start."""
        self.ignored = 0
        """Lines from the hub that were not a valid command for this reader."""
        self.step_errors = 0
        """Loop turns that raised (and were survived)."""
        self.scan_failures = 0
        """Polls whose SPI transfer failed (the chip is then set up again)."""
        self.rfid_ok = False
        self._last = now
        self._uptime_ms = 0
        self._scan_at = None
        self._rfid_at = None

    # -- the loop --------------------------------------------------------------------------

    def start(self):
        """Set the RC522 up and show that the reader is alive."""
        self._init_rfid(self.ticks())
        if self.player is not None:
            self.player.play("boot", self.ticks())

    def step(self):
        """One turn of the main loop."""
        now = self.ticks()
        self._uptime_ms += max(0, ticks_diff(now, self._last))
        self._last = now
        if self.wdt is not None:
            self.wdt.feed()
        for line in self.transport.poll(now):
            self.on_line(line, now)
        if self.transport.take_connected():
            self.delivery.hello(now)
        if self._scan_at is None or elapsed(now, self._scan_at, self.cfg["poll_ms"]):
            self._scan_at = now
            self.scan(now)
        self.delivery.tick(now, self._uptime_ms // 1000)
        if self.player is not None:
            self.player.tick(now)

    def run(self, stop=None, idle_ms=5):
        """Start, then turn the loop until ``stop()`` is true (forever on the board)."""
        self.start()
        while stop is None or not stop():
            try:
                self.step()
            except Exception as exc:  # noqa: BLE001 - the reader must keep going
                self.step_errors += 1
                self.log("step failed:", exc)
            sleep_ms(idle_ms)

    def close(self):
        """Leave cleanly (MQTT publishes ``offline``)."""
        self.transport.close()

    def health(self):
        """The heartbeat's health fields (``docs/protocol.md``, "heartbeat").

        ``read_fail``: reads the RC522 driver rejected (a bad CRC or BCC, a collision it
        could not resolve, a tag that left mid-read, a chip that did not answer in time),
        plus polls whose SPI transfer failed; ``too_fast``: taps gone before their dwell;
        both since boot. ``rssi`` only while on Wi-Fi, ``supply_mv`` only where the board
        measures it. A part that cannot be read is left out, never fatal.
        """
        out = {"read_fail": getattr(self.rfid, "errors", 0) + self.scan_failures,
               "too_fast": self.debouncer.too_fast}
        rssi = getattr(self.transport, "rssi", None)
        if rssi is not None:
            out["rssi"] = rssi()
        if self.supply is not None:
            out["supply_mv"] = self.supply()
        return out

    # -- pieces of a turn ------------------------------------------------------------------

    def on_hello(self, now):
        """After each hello and its resend: nothing more for a bag reader."""

    def on_line(self, line, now):
        """Handle one message from the hub; anything malformed is counted and ignored."""
        cmd = messages.parse_command(line, self.reader)
        if cmd is None:
            self.ignored += 1
            return
        kind = cmd["type"]
        if kind == "ack":
            self.delivery.on_ack(cmd["boot"], cmd["seq"], now)
        elif kind == "resync":
            self.delivery.hello(now)
        elif kind == "feedback" and self.player is not None:
            self.player.play(cmd["level"], now)

    def _init_rfid(self, now):
        self._rfid_at = now
        try:
            self.rfid.init()
            self.rfid_ok = True
        except Exception as exc:  # noqa: BLE001 - RfidError, OSError from the bus
            self.rfid_ok = False
            self.log("rfid: init failed:", exc)

    def scan(self, now):
        """Poll the RC522 once and send a tag event for each pawn newly placed."""
        if not self.rfid_ok:
            if not elapsed(now, self._rfid_at, 2000):
                return
            self._init_rfid(now)
            if not self.rfid_ok:
                return
        try:
            uids = self.rfid.scan(self.debouncer.tracked())
        except Exception as exc:  # noqa: BLE001 - the SPI bus failed: set the chip up again
            self.rfid_ok = False
            self.scan_failures += 1
            self.log("rfid: scan failed:", exc)
            return
        for uid in self.debouncer.update(uids, now):
            if self.delivery.tap(hexlify(uid), now):
                self.taps += 1
            elif self.player is not None:
                self.player.play("full", now)


SAFE_WINDOW_MS = 1500
"""How long the LED stays blue at start, waiting for the safe-mode button."""


def safe_mode_held(hw, window_ms):
    """Whether the board's safe-mode button is held at some moment of the first
    ``window_ms`` milliseconds (then the firmware stops and leaves the REPL free)."""
    start = ticks_ms()
    while True:
        if hw.safe_mode():
            return True
        if elapsed(ticks_ms(), start, window_ms):
            return False
        sleep_ms(20)


def make_transport(cfg, stream=None):
    """The transport ``cfg`` asks for and the log that goes with it: ``(transport, log)``.

    Serial: the USB port (or ``stream``) carries the protocol, so the log says nothing.
    MQTT: Wi-Fi and the broker, and the log prints to the REPL.
    """
    if cfg["transport"] == "serial":
        from transport_serial import SerialTransport, UsbStream

        return SerialTransport(stream if stream is not None else UsbStream()), _quiet
    import network
    from transport_mqtt import MqttTransport
    from umqtt.simple import MQTTClient

    return MqttTransport(cfg, network.WLAN(network.STA_IF), MQTTClient, print), print


def main(config_path="config.json", state_path="state.json", stream=None, stop=None,
         safe_window_ms=SAFE_WINDOW_MS):
    """Build the reader from ``config.json`` and the board, and run it.

    At start the LED is blue for ``safe_window_ms``: if the safe-mode button is held during
    that time, the firmware stops there (LED left blue, no watchdog) and the REPL is free.
    ``stream`` replaces the USB port in serial mode and ``stop`` ends the loop (both for
    tests). Returns the :class:`App` when the loop ends, or ``None`` in safe mode. A bad
    config lights the LED red and raises :class:`~config.ConfigError` (the REPL shows it).
    After Ctrl-C the watchdog is fed by a timer, so the REPL stays usable for an update. In
    serial mode Ctrl-C is off while the reader runs (see :mod:`transport_serial`): updating
    such a reader goes through safe mode.
    """
    import board
    import config
    import persist
    from feedback import BLUE, OFF, RED, Player
    from mfrc522 import MFRC522

    try:
        cfg = config.load(config_path)
    except config.ConfigError:
        board.load().led.show(RED)
        raise
    if cfg["kind"] == "mat":
        import mat

        return mat.main(cfg, state_path, stream, stop, safe_window_ms)
    hw = board.load(cfg["board"], cfg["pins"], cfg["supply_divider"])
    hw.led.show(BLUE)
    if safe_mode_held(hw, safe_window_ms):
        return None
    hw.led.show(OFF)
    boot = persist.next_boot(state_path)
    transport, log = make_transport(cfg, stream)
    player = Player(hw.led, hw.buzzer, cfg["buzzer"])
    wdt = hw.watchdog(cfg["watchdog_ms"])
    global current
    app = current = App(cfg, MFRC522(hw.spi, hw.cs, hw.rst), transport, boot, player, wdt,
                        log=log, supply=hw.supply_mv if hw.supply is not None else None)
    try:
        app.run(stop)
    except KeyboardInterrupt:
        hw.keep_fed(wdt)
    app.close()
    hw.led.show(OFF)
    return app
