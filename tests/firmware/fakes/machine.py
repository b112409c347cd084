"""A stand-in for MicroPython's ``machine`` module, for running the firmware under CPython.

Pins remember their level (inputs read :data:`inputs`), PWM remembers its duty, the watchdog
counts its feeds and timers fire when a test calls :meth:`Timer.fire`. An RC522 fake is wired
in with :func:`attach`: ``SPI(bus)`` then returns its bus and ``Pin(cs)`` drives its chip
select, so the firmware's board modules build a working reader without a line changed.

An ADC input reads the voltage a test puts in :data:`analog` (volts at the pin), as the
ESP32 (``read_uv``, after ``atten``) or the RP2040 (``read_u16`` only) does. :data:`mem32`
holds the registers the firmware touches, and :func:`disable_irq` / :func:`enable_irq`
keep :data:`irq_enabled`, so a test can check that a reading put everything back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

inputs: dict[Any, int] = {}
"""Level read by each input pin (default 1: pulled up, button not pressed)."""
pins: dict[Any, Pin] = {}
"""The last pin object made for each id."""
watchdogs: list[WDT] = []
timers: list[Timer] = []
pwms: list[PWM] = []
analog: dict[Any, float] = {}
"""The voltage at each ADC pin, in volts (a pin not listed reads 0 V)."""
adcs: list[ADC] = []
"""Every ADC input made, in order."""
irq_enabled = True
"""False between :func:`disable_irq` and :func:`enable_irq`."""
irq_log: list[str] = []
"""``"off"`` and ``"on"`` for each disable and enable, in order."""
_spi_devices: dict[int, Any] = {}
_cs_devices: dict[Any, Any] = {}
_rst_devices: dict[Any, Any] = {}


def attach(chip: Any, spi_id: int, cs_pin: Any) -> None:
    """Wire a fake chip (with ``spi`` and ``cs``) to bus ``spi_id`` and pin ``cs_pin``."""
    _spi_devices[spi_id] = chip
    _cs_devices[cs_pin] = chip


def attach_bus(bus: Any, spi_id: int, wiring: list[tuple[Any, Any]]) -> None:
    """Wire a fake mat's bus (``fake_rc522.FakeBus``) to bus ``spi_id``: ``wiring`` gives
    each chip's ``(cs pin, rst pin)``, zone 0 first. The bus learns the baud rate the
    firmware opens it at."""
    _spi_devices[spi_id] = bus
    for chip, (cs_pin, rst_pin) in zip(bus.chips, wiring, strict=True):
        _cs_devices[cs_pin] = chip
        _rst_devices[rst_pin] = chip


def reset_fakes() -> None:
    """Forget every pin, device, watchdog and timer."""
    for registry in (inputs, pins, _spi_devices, _cs_devices, _rst_devices):
        registry.clear()
    for registry in (watchdogs, timers, pwms, adcs, irq_log):
        registry.clear()
    analog.clear()
    mem32.clear()
    global irq_enabled
    irq_enabled = True


class Pin:
    """A GPIO pin."""

    IN, OUT, OPEN_DRAIN, ALT = 0, 1, 2, 3
    PULL_UP, PULL_DOWN = 1, 2
    IRQ_FALLING, IRQ_RISING = 1, 2

    def __init__(self, id: Any, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
        self.id, self.mode, self.pull = id, mode, pull
        self.level = 0
        self.history: list[int] = []
        pins[id] = self
        if value is not None:
            self.value(value)

    def value(self, level: int | None = None) -> int | None:
        """Read the pin, or drive it."""
        if level is None:
            if self.mode == Pin.IN:
                return inputs.get(self.id, 1)
            return self.level
        self.level = 1 if level else 0
        self.history.append(self.level)
        chip = _cs_devices.get(self.id)
        if chip is not None:
            chip.cs.value(self.level)
        chip = _rst_devices.get(self.id)
        if chip is not None:
            chip.rst.value(self.level)
        return None

    def __call__(self, level: int | None = None) -> int | None:
        return self.value(level)

    def on(self) -> None:
        """Drive high."""
        self.value(1)

    def off(self) -> None:
        """Drive low."""
        self.value(0)


class _DeadBus:
    """An SPI bus with nothing on it: MISO floats high."""

    def write(self, buf: bytes) -> None:
        """Clock bytes out to nobody."""

    def write_readinto(self, write_buf: bytes, read_buf: bytearray) -> None:
        """Read 0xFF for every byte."""
        for i in range(len(read_buf)):
            read_buf[i] = 0xFF


class SPI:
    """A hardware SPI bus; talks to the chip attached to its id, if any."""

    def __init__(self, id: int, baudrate: int = 1000000, *, polarity: int = 0, phase: int = 0,
                 **kwargs: Any) -> None:
        self.id, self.baudrate, self.polarity, self.phase = id, baudrate, polarity, phase
        self.kwargs = kwargs
        chip = _spi_devices.get(id)
        self._bus = chip.spi if chip is not None else _DeadBus()
        if hasattr(chip, "set_baud"):
            chip.set_baud(baudrate)

    def write(self, buf: bytes) -> None:
        """Send bytes."""
        self._bus.write(buf)

    def write_readinto(self, write_buf: bytes, read_buf: bytearray) -> None:
        """Send and receive at once."""
        self._bus.write_readinto(write_buf, read_buf)


class PWM:
    """PWM output: frequency and 16-bit duty."""

    def __init__(self, pin: Pin, **kwargs: Any) -> None:
        self.pin = pin
        self._freq = kwargs.get("freq", 1000)
        self._duty = kwargs.get("duty_u16", 0)
        self.duties: list[int] = []
        pwms.append(self)

    def freq(self, value: int | None = None) -> int | None:
        """Get or set the frequency."""
        if value is None:
            return self._freq
        self._freq = value
        return None

    def duty_u16(self, value: int | None = None) -> int | None:
        """Get or set the duty cycle (0-65535)."""
        if value is None:
            return self._duty
        self._duty = value
        self.duties.append(value)
        return None

    def deinit(self) -> None:
        """Stop."""


class WDT:
    """The watchdog: counts feeds."""

    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        self.timeout = timeout
        self.feeds = 0
        watchdogs.append(self)

    def feed(self) -> None:
        """Postpone the reset."""
        self.feeds += 1


class Timer:
    """A timer whose callback runs when the test calls :meth:`fire`."""

    ONE_SHOT, PERIODIC = 0, 1

    def __init__(self, id: int = -1, **kwargs: Any) -> None:
        self.id = id
        self.callback: Callable[[Timer], None] | None = None
        self.period: int | None = None
        timers.append(self)
        if kwargs:
            self.init(**kwargs)

    def init(self, *, period: int = 1000, mode: int = 1,
             callback: Callable[[Timer], None] | None = None, **_: Any) -> None:
        """Start the timer."""
        self.period, self.mode, self.callback = period, mode, callback

    def fire(self) -> None:
        """Run the callback as the timer interrupt would."""
        if self.callback is not None:
            self.callback(self)

    def deinit(self) -> None:
        """Stop the timer."""
        self.callback = None


IO_BANK0, PADS_BANK0 = 0x40014000, 0x4001C000
"""The RP2040's GPIO function and pad registers (the Pico W's VSYS reading saves them)."""
RP2040_ADC_PINS = (26, 27, 28, 29)
"""Pin numbers (not :class:`Pin` objects) an RP2040 ADC is made on."""


class ADC:
    """An ADC input on a pin (a :class:`Pin` or a pin number): reads :data:`analog`.

    ``read_u16`` is 0-65535 for 0-3.3 V. ``read_uv`` (the ESP32's calibrated microvolts)
    exists only once ``atten`` was called, as on a port that has no such reading otherwise;
    it gives the voltage up to the attenuation's range (3.1 V at 11 dB, 0.95 V at 0 dB)."""

    ATTN_0DB, ATTN_2_5DB, ATTN_6DB, ATTN_11DB = 0, 1, 2, 3
    RANGE_V = {0: 0.95, 1: 1.25, 2: 1.75, 3: 3.1}

    def __init__(self, pin: Any, **kwargs: Any) -> None:
        self.id = pin.id if isinstance(pin, Pin) else pin
        self.attenuation: int | None = None
        self.reads = 0
        adcs.append(self)
        if self.id in RP2040_ADC_PINS:  # as the RP2040's adc_gpio_init: no function, no pulls
            mem32[IO_BANK0 + 8 * self.id + 4] = 0x1F
            mem32[PADS_BANK0 + 4 + 4 * self.id] = 0x80

    def _volts(self) -> float:
        self.reads += 1
        return max(0.0, analog.get(self.id, 0.0))

    def read_u16(self) -> int:
        """The voltage at the pin as 0-65535 of 3.3 V."""
        return min(65535, int(self._volts() / 3.3 * 65535))

    def atten(self, value: int) -> None:
        """Set the input range (ESP32); gives the ADC its ``read_uv``."""
        self.attenuation = value
        self.read_uv = self._read_uv

    def _read_uv(self) -> int:
        assert self.attenuation is not None
        return int(min(self._volts(), self.RANGE_V[self.attenuation]) * 1_000_000)


class _Memory(dict):
    """Registers by address; an address never written reads 0."""

    def __missing__(self, address: int) -> int:
        return 0


mem32: _Memory = _Memory()
"""32-bit registers by address, as ``machine.mem32`` (a test sets what the chip holds)."""


def disable_irq() -> bool:
    """Interrupts off; returns the state to give :func:`enable_irq`."""
    global irq_enabled
    state, irq_enabled = irq_enabled, False
    irq_log.append("off")
    return state


def enable_irq(state: bool = True) -> None:
    """Interrupts back to ``state``."""
    global irq_enabled
    irq_enabled = state
    irq_log.append("on")


def reset() -> None:
    """A hard reset: under CPython, stop with an exception the test can see."""
    raise SystemExit("machine.reset()")


def unique_id() -> bytes:
    """A fixed board id."""
    return b"\xde\xad\xbe\xef\x00\x01"
