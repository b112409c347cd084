"""What the firmware needs from a board, whatever the board: the part every target shares.

A target module (``board_esp32``, ``board_picow``) knows its pins and builds a
:class:`Board`: the SPI bus and pins of the RC522, the RGB LED, the buzzer, the safe-mode
button, the watchdog and, where the board can measure it, the supply voltage
(:class:`Supply`, read by :meth:`Board.supply_mv` for the heartbeat). The rest of the
firmware only sees this object, so a new target is one more small module. :func:`load`
picks the target from the config's ``board`` field, or from ``sys.platform``
(``esp32`` or ``rp2``) when the field is absent.

A cinema mat (:func:`load_mat`, a :class:`MatBoard`) has no LED and no buzzer, and one
MFRC522 per zone on a shared SPI bus: each zone is a chip-select pin and a reset pin
(NRSTPD), both from the config's ``pins`` (``cs0``, ``rst0``, ``cs1``, ...). Every reset pin
is driven low as soon as it is made, so that every chip starts held in reset.
"""

import sys

import machine


class RgbLed:
    """An RGB LED on three pins (any of them ``None``); ``active_low`` for common anode."""

    def __init__(self, red, green, blue, active_low=False):
        self.pins = (red, green, blue)
        self.active_low = active_low
        self.color = (0, 0, 0)
        self.show(self.color)

    def show(self, color):
        """Light the channels whose entry in ``color`` (r, g, b) is 1."""
        self.color = tuple(color)
        for i in range(3):
            if self.pins[i] is not None:
                self.pins[i].value((1 if self.color[i] else 0) ^ (1 if self.active_low else 0))


class Buzzer:
    """A passive buzzer driven by PWM at ``freq`` Hz (half duty when on)."""

    def __init__(self, pin, freq=2700):
        self.pwm = machine.PWM(pin)
        self.pwm.freq(freq)
        self.pwm.duty_u16(0)
        self.sounding = False

    def on(self):
        """Start the tone."""
        self.pwm.duty_u16(32768)
        self.sounding = True

    def off(self):
        """Stop the tone."""
        self.pwm.duty_u16(0)
        self.sounding = False


class Supply:
    """The supply voltage, seen by an ADC pin through a resistor divider.

    ``adc`` is a ``machine.ADC`` (or anything with ``read_uv()`` or ``read_u16()``);
    ``ratio`` is how much the divider divides: ``(R1 + R2) / R2`` with R1 from the supply to
    the pin and R2 from the pin to ground, so 2 for two equal resistors and 3 for the Pico
    W's own VSYS divider. A reading averages ``samples`` conversions, since one ADC
    conversion is noisy by a few tens of millivolts.
    """

    FULL_SCALE_UV = 3300000
    """What ``read_u16()`` 65535 stands for, in microvolts: the ADC's 3.3 V reference."""

    def __init__(self, adc, ratio=2, samples=8):
        self.adc, self.ratio, self.samples = adc, ratio, samples

    def _microvolts(self):
        read_uv = getattr(self.adc, "read_uv", None)
        if read_uv is not None:  # the ESP32's calibrated reading
            return read_uv()
        return self.adc.read_u16() * self.FULL_SCALE_UV // 65535

    def millivolts(self):
        """The supply voltage in whole millivolts (raises what the ADC raises)."""
        total = 0
        for _ in range(self.samples):
            total += self._microvolts()
        return int(total * self.ratio / self.samples / 1000 + 0.5)


class Board:
    """The hardware of one reader, built by a target module's ``make()``."""

    def __init__(self, name, spi, cs, rst, led, buzzer, safe, timer_id=-1, supply=None):
        self.name = name
        self.spi, self.cs, self.rst = spi, cs, rst
        self.led, self.buzzer = led, buzzer
        self._safe = safe
        self.timer_id = timer_id
        self.supply = supply
        """The :class:`Supply` measured, or ``None`` when the board measures none."""
        self._timer = None

    def supply_mv(self):
        """The supply voltage in millivolts, or ``None`` when the board cannot measure it
        (nothing wired) or the reading failed: a heartbeat then leaves the field out."""
        if self.supply is None:
            return None
        try:
            return self.supply.millivolts()
        except Exception:  # noqa: BLE001 - a bad ADC reading must not stop the reader
            return None

    def safe_mode(self):
        """Whether the safe-mode button is held: then the firmware does not start."""
        try:
            return bool(self._safe())
        except Exception:  # noqa: BLE001 - a missing button must not stop the reader
            return False

    def watchdog(self, timeout_ms):
        """Start the hardware watchdog (``None`` if ``timeout_ms`` is 0); feed it or reboot."""
        if not timeout_ms:
            return None
        return machine.WDT(timeout=timeout_ms)

    def keep_fed(self, wdt, period_ms=1000):
        """Feed ``wdt`` from a timer from now on (after Ctrl-C, to leave the REPL usable).

        A started watchdog cannot be stopped on either target; without this, stopping the
        firmware to update it would reboot the board a few seconds later.
        """
        if wdt is None:
            return
        self._timer = machine.Timer(self.timer_id)
        self._timer.init(period=period_ms, mode=machine.Timer.PERIODIC,
                         callback=lambda _t: wdt.feed())


class MatBoard(Board):
    """The hardware of a cinema mat: one SPI bus, and per zone a ``(cs, rst)`` pair of pins."""

    def __init__(self, name, spi, zones, safe, timer_id=-1, supply=None):
        super().__init__(name, spi, None, None, None, None, safe, timer_id, supply)
        self.zones = zones
        """``(cs, rst)`` of each zone's MFRC522, zone 0 first."""


def pins(defaults, overrides):
    """The target's pin numbers with the config's ``pins`` entries over them."""
    chosen = dict(defaults)
    if overrides:
        for key, value in overrides.items():
            if key not in chosen:
                raise ValueError("unknown pin name " + repr(key))
            chosen[key] = value
    return chosen


def output(number):
    """An output pin, or ``None`` when ``number`` is ``None`` (not wired)."""
    if number is None:
        return None
    return machine.Pin(number, machine.Pin.OUT, value=0)


def load(name=None, overrides=None, divider=None):
    """Build the :class:`Board` of target ``name`` (``esp32``, ``picow``, or detected).

    ``overrides`` are the config's ``pins``; ``divider`` its ``supply_divider`` (``None``:
    the board's own, see the target modules).
    """
    if name is None:
        name = "picow" if sys.platform == "rp2" else "esp32"
    if name == "esp32":
        import board_esp32 as target
    elif name == "picow":
        import board_picow as target
    else:
        raise ValueError("unknown board " + repr(name))
    return target.make(overrides, divider)


def load_mat(name=None, overrides=None, divider=None, zones=4, baud=None):
    """Build the :class:`MatBoard` of target ``name`` (only ``esp32``, or detected) with
    ``zones`` zones; ``baud`` is the SPI bus speed (``None``: the target's own)."""
    if name is None:
        name = "esp32"
    if name != "esp32":
        raise ValueError("a cinema mat runs on an esp32 board, not " + repr(name))
    import board_esp32

    return board_esp32.make_mat(overrides, divider, zones, baud)
