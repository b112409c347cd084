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
=========  ====  ==========================================

Any of them can be changed with the config's ``pins`` field. USB serial is the Pico's own
USB CDC port (also the MicroPython REPL); Wi-Fi is the CYW43 chip, through ``network``.
"""

import machine
from board import Board, Buzzer, RgbLed, output, pins

PINS = {"sck": 18, "mosi": 19, "miso": 16, "cs": 17, "rst": 20, "red": 13, "green": 14,
        "blue": 15, "buzzer": 22, "safe": None}
"""Default GP numbers."""
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


def make(overrides=None):
    """The :class:`~board.Board` of a Pico W reader."""
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

    return Board("picow", spi, cs, rst, led, buzzer, safe, timer_id=-1)
