"""ESP32 DevKit (ESP32-WROOM-32) wiring: the RC522 on the VSPI bus, LED, buzzer, BOOT button.

=========  ====  ==========================================
name       GPIO  what
=========  ====  ==========================================
``sck``    18    RC522 SCK
``mosi``   23    RC522 MOSI
``miso``   19    RC522 MISO
``cs``     5     RC522 SDA (chip select)
``rst``    22    RC522 RST
``red``    25    LED red (through a resistor)
``green``  26    LED green
``blue``   27    LED blue
``buzzer`` 33    passive buzzer (through a transistor)
``safe``   0     the BOOT button: held at start = safe mode
``supply`` --    the middle of a resistor divider from the battery (GPIO32-39), if wired
=========  ====  ==========================================

Any of them can be changed with the config's ``pins`` field. The RC522 runs at 3.3 V. USB
serial goes through the board's USB-UART bridge, which is also the MicroPython REPL.

The ESP32 cannot see its own supply: a reader on a battery measures it through two
resistors (``hardware/wiring.md``), with ``"pins": {"supply": 35}``. The pin must be one of
ADC1's (GPIO32 to GPIO39), since ADC2 stops working while Wi-Fi is on. The ADC is set to
its widest range (11 dB, up to about 3.1 V at the pin), so two equal resistors
(``supply_divider`` 2, the default) measure up to about 6 V.
"""

import machine
from board import Board, Buzzer, RgbLed, Supply, output, pins

PINS = {"sck": 18, "mosi": 23, "miso": 19, "cs": 5, "rst": 22, "red": 25, "green": 26,
        "blue": 27, "buzzer": 33, "safe": 0, "supply": None}
"""Default GPIO numbers (``None``: not wired)."""
ADC1_PINS = (32, 33, 34, 35, 36, 37, 38, 39)
"""The GPIOs of ADC1, the ADC that keeps working while Wi-Fi is on."""
DIVIDER = 2
"""The supply divider's ratio unless the config says otherwise: two equal resistors."""
SPI_ID = 2
"""VSPI."""
SPI_BAUD = 2000000
"""2 MHz: safe on jumper wires (the RC522 takes up to 10 MHz)."""


def supply(number, divider=None):
    """The :class:`~board.Supply` on GPIO ``number`` (``None``: nothing wired); raises
    ``ValueError`` for a pin outside ADC1."""
    if number is None:
        return None
    if number not in ADC1_PINS:
        raise ValueError("the supply pin must be GPIO32 to GPIO39 (ADC1), not " + repr(number))
    adc = machine.ADC(machine.Pin(number))
    adc.atten(machine.ADC.ATTN_11DB)
    return Supply(adc, DIVIDER if divider is None else divider)


def make(overrides=None, divider=None):
    """The :class:`~board.Board` of an ESP32 reader; ``divider``: the supply divider's
    ratio (``None``: :data:`DIVIDER`)."""
    p = pins(PINS, overrides)
    Pin = machine.Pin
    spi = machine.SPI(SPI_ID, baudrate=SPI_BAUD, polarity=0, phase=0, sck=Pin(p["sck"]),
                      mosi=Pin(p["mosi"]), miso=Pin(p["miso"]))
    cs = Pin(p["cs"], Pin.OUT, value=1)
    rst = output(p["rst"])
    led = RgbLed(output(p["red"]), output(p["green"]), output(p["blue"]))
    buzzer = Buzzer(Pin(p["buzzer"])) if p["buzzer"] is not None else None
    safe_pin = Pin(p["safe"], Pin.IN, Pin.PULL_UP) if p["safe"] is not None else None
    return Board("esp32", spi, cs, rst, led, buzzer,
                 lambda: safe_pin is not None and safe_pin.value() == 0, timer_id=0,
                 supply=supply(p["supply"], divider))
