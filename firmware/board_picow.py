"""Raspberry Pi Pico W wiring: the RC522 on SPI0, LED, buzzer, BOOTSEL as safe-mode button.

=========  ====  ==========================================
name       GP    what
=========  ====  ==========================================
``sck``    18    RC522 SCK
``mosi``   19    RC522 MOSI
``miso``   16    RC522 MISO
``cs``     17    RC522 SDA (chip select)
``rst``    20    RC522 RST
``red``    13    LED red (through a resistor)
``green``  14    LED green
``blue``   15    LED blue
``buzzer`` 22    passive buzzer (through a transistor)
``safe``   --    the BOOTSEL button (``rp2.bootsel_button()``); a GP number here uses a pin
``supply`` 29    VSYS/3 on ADC3, through the board's own divider (``null``: not measured)
=========  ====  ==========================================

Any of them can be changed with the config's ``pins`` field. USB serial is the Pico's own
USB CDC port (also the MicroPython REPL); Wi-Fi is the CYW43 chip, through ``network``.

The supply needs no part: the Pico W divides VSYS (what feeds the board: USB, or a battery
on VSYS) by 3 onto GP29, ADC3. That pin is also the clock of the wireless chip's bus, so
:class:`Vsys` reads it with interrupts off (the CYW43 driver cannot use the bus meanwhile)
and puts the pin's function and pad settings back at once. ``"pins": {"supply": 26}``
measures a divider of your own on GP26 to GP28 instead (``supply_divider`` then says its
ratio; 2 unless set), and ``"pins": {"supply": null}`` measures nothing.
"""

import machine
from board import Board, Buzzer, RgbLed, Supply, output, pins

PINS = {"sck": 18, "mosi": 19, "miso": 16, "cs": 17, "rst": 20, "red": 13, "green": 14,
        "blue": 15, "buzzer": 22, "safe": None, "supply": 29}
"""Default GP numbers (``None``: not wired)."""
VSYS_PIN = 29
"""GP29: ADC3, VSYS through the board's 200 kOhm / 100 kOhm divider, and the wireless clock."""
VSYS_DIVIDER = 3
"""The board's own divider: VSYS / 3 at GP29."""
ADC_PINS = (26, 27, 28, 29)
"""The GPIOs with an ADC input (ADC0 to ADC3)."""
_IO_BANK0 = 0x40014000
"""RP2040 IO_BANK0: each GPIO's STATUS and CTRL (its function) registers, 8 bytes a pin."""
_PADS_BANK0 = 0x4001C000
"""RP2040 PADS_BANK0: each GPIO's pad settings (pulls, input enable), 4 bytes a pin after
VOLTAGE_SELECT."""
SPI_ID = 0
"""SPI0."""
SPI_BAUD = 2000000
"""2 MHz: safe on jumper wires (the RC522 takes up to 10 MHz)."""


def _bootsel():
    try:
        import rp2

        return rp2.bootsel_button() == 1
    except (ImportError, AttributeError):
        return False


class Vsys:
    """ADC3 on GP29, taken from the wireless chip for the time of one conversion.

    With interrupts off the CYW43 driver (run from an interrupt) cannot start a transfer, so
    the pin is free: its CTRL and pad registers are saved, ``machine.ADC`` makes it an
    analog input, and both registers are written back before interrupts come on again.
    """

    def __init__(self, pin=VSYS_PIN):
        self.ctrl = _IO_BANK0 + 8 * pin + 4
        self.pad = _PADS_BANK0 + 4 + 4 * pin
        self.pin = pin

    def read_u16(self):
        """One conversion, 0 to 65535 for 0 to 3.3 V at the pin."""
        mem = machine.mem32
        state = machine.disable_irq()
        ctrl, pad = mem[self.ctrl], mem[self.pad]
        try:
            return machine.ADC(self.pin).read_u16()
        finally:
            mem[self.ctrl], mem[self.pad] = ctrl, pad
            machine.enable_irq(state)


def supply(number, divider=None):
    """The :class:`~board.Supply` on GP ``number``: VSYS on GP29 (the default), a divider
    of your own on GP26 to GP28, or ``None`` (not measured); raises ``ValueError`` for a pin
    without an ADC."""
    if number is None:
        return None
    if number not in ADC_PINS:
        raise ValueError("the supply pin must be GP26 to GP29 (ADC0 to ADC3), not "
                         + repr(number))
    if number == VSYS_PIN:
        return Supply(Vsys(), VSYS_DIVIDER if divider is None else divider)
    return Supply(machine.ADC(number), 2 if divider is None else divider)


def make(overrides=None, divider=None):
    """The :class:`~board.Board` of a Pico W reader; ``divider``: the supply divider's
    ratio (``None``: the board's own 3 for VSYS, 2 for a divider of yours)."""
    p = pins(PINS, overrides)
    Pin = machine.Pin
    spi = machine.SPI(SPI_ID, baudrate=SPI_BAUD, polarity=0, phase=0, sck=Pin(p["sck"]),
                      mosi=Pin(p["mosi"]), miso=Pin(p["miso"]))
    cs = Pin(p["cs"], Pin.OUT, value=1)
    rst = output(p["rst"])
    led = RgbLed(output(p["red"]), output(p["green"]), output(p["blue"]))
    buzzer = Buzzer(Pin(p["buzzer"])) if p["buzzer"] is not None else None
    if p["safe"] is None:
        safe = _bootsel
    else:
        safe_pin = Pin(p["safe"], Pin.IN, Pin.PULL_UP)

        def safe():
            """The configured button pulls its pin low when held."""
            return safe_pin.value() == 0

    return Board("picow", spi, cs, rst, led, buzzer, safe, timer_id=-1,
                 supply=supply(p["supply"], divider))
